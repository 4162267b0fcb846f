"""Helpers for the round-level rule tests (``test_rules_*.py``): a seated table, refusals
that must change nothing, and the books every finished test must balance."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import msgspec
import pytest

from russian_poker.events.commands import Actor, Command, Deal, PlaceAnte
from russian_poker.events.game import (
    AntePlaced,
    BetsCancelled,
    BonusSettled,
    BoxPlayed,
    BoxSettled,
    CardsExchanged,
    RoundSettled,
    SixthCardBought,
)
from russian_poker.events.wallet import WalletCredited, WalletDebited
from russian_poker.service.rules.errors import RuleViolation
from tests.rules.scenario import Scenario, deck_for, player, same

__all__ = [
    "ANN",
    "BOB",
    "START",
    "books",
    "bonus_of",
    "deck_for",
    "refused",
    "settled",
    "single_box",
    "table",
]

ANN = player("ann")
BOB = player("bob")
START = 100_000
"""Every test player's opening balance, in minor units."""


def table(preset: str = "russian", *names: str, **overrides: Any) -> Scenario:
    """A table of ``preset`` with ``names`` (default: ann) funded with ``START`` and seated."""
    names = names or ("ann",)
    scenario = Scenario(preset, players=dict.fromkeys(names, START), **overrides)
    scenario.sit(*names)
    return scenario


def single_box(
    scenario: Scenario,
    hand: str,
    dealer: str,
    then: str = "",
    *,
    ante: int = 100,
    bonus: int = 0,
    dark: bool = False,
) -> None:
    """Open a round, bet ann's box 1 and deal ``hand`` to it and ``dealer`` to the dealer."""
    scenario.open_round(deck=deck_for([hand], dealer, then=then))
    scenario.run(PlaceAnte(box=1, ante=ante, bonus=bonus, dark=dark), ANN)
    scenario.run(Deal(), ANN)


def refused(scenario: Scenario, command: Command, actor: Actor, code: str) -> RuleViolation:
    """Send ``command``; it must be refused with ``code`` and leave table, wallets and the
    event log exactly as they were."""
    table_before = scenario.table
    wallets_before = dict(scenario.wallets)
    events_before = list(scenario.events)
    with pytest.raises(RuleViolation) as refusal:
        scenario.run(command, actor)
    assert refusal.value.code == code, refusal.value
    assert scenario.table is table_before
    assert same(scenario.table, table_before)
    assert scenario.wallets == wallets_before
    assert scenario.events == events_before
    return refusal.value


def settled(scenario: Scenario, box: int, round_number: int | None = None) -> BoxSettled:
    """The ``BoxSettled`` of ``box`` in the latest (or the given) round."""
    found = [
        e
        for e in scenario.of_type(BoxSettled)
        if e.box == box and (round_number is None or e.round == round_number)
    ]
    assert found, f"box {box} was not settled"
    return found[-1]


def bonus_of(scenario: Scenario, box: int) -> BonusSettled:
    found = [e for e in scenario.of_type(BonusSettled) if e.box == box]
    assert found, f"box {box} had no bonus settled"
    return found[-1]


def books(scenario: Scenario) -> dict[int, int]:
    """Check the money of every round and the replay; return the house result per round.

    Per round, the house result from the wallets (debits − credits) must equal the one
    computed from the table's own events: every stake the game events record (antes,
    bonuses, Bets, insurance, draw fees) minus what ``BoxSettled``/``BonusSettled`` give
    back, with cancelled boxes refunded in full. Every settled box is paid by exactly one
    credit of its ``returned + won``. Replaying the table's events rebuilds the same state.
    """
    wallet: dict[int, int] = defaultdict(int)
    for event in scenario.events:
        if isinstance(event, WalletDebited):
            assert type(event.amount) is int and event.amount > 0
            wallet[event.round] += event.amount
        elif isinstance(event, WalletCredited):
            assert type(event.amount) is int and event.amount > 0
            wallet[event.round] -= event.amount

    staked: dict[tuple[int, int], int] = defaultdict(int)
    bonus_staked: dict[tuple[int, int], int] = defaultdict(int)
    game: dict[int, int] = defaultdict(int)
    for event in scenario.events:
        match event:
            case AntePlaced():
                staked[event.round, event.box] = event.ante + event.bet
                if event.bonus:
                    bonus_staked[event.round, event.box] = event.bonus
            case BoxPlayed():
                staked[event.round, event.box] += event.bet + event.insurance
            case SixthCardBought() | CardsExchanged():
                staked[event.round, event.box] += event.fee
            case BetsCancelled():
                del staked[event.round, event.box]
                bonus_staked.pop((event.round, event.box), None)
            case BonusSettled():
                assert event.stake == bonus_staked.pop((event.round, event.box))
                game[event.round] += -event.won if event.won else event.stake
            case BoxSettled():
                stake = staked.pop((event.round, event.box))
                game[event.round] += stake - event.returned - event.won
                paid = [
                    e
                    for e in scenario.of_type(WalletCredited)
                    if (e.round, e.box, e.reason) == (event.round, event.box, "settlement")
                ]
                amount = event.returned + event.won
                assert [e.amount for e in paid] == ([amount] if amount else [])
    finished = {e.round for e in scenario.of_type(RoundSettled)}
    for (round_number, box), stake in staked.items():
        assert round_number not in finished, f"box {box} of round {round_number} unsettled"
        game[round_number] += stake
    for (round_number, box), stake in bonus_staked.items():
        assert round_number not in finished, f"bonus of box {box} unsettled"
        game[round_number] += stake
    rounds = set(wallet) | set(game)
    assert {r: wallet.get(r, 0) for r in rounds} == {r: game.get(r, 0) for r in rounds}
    assert same(scenario.replayed(), scenario.table)
    assert msgspec.to_builtins(scenario.replayed()) == msgspec.to_builtins(scenario.table)
    return dict(wallet)
