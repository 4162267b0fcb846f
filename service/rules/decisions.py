"""A light box's decisions: buy a sixth card, exchange, play, insure, fold (docs/rules.md §5.4).

Each player's boxes decide strictly in play order; different players decide independently.
A box draws at most once, and after a draw may only play or fold.
"""

from __future__ import annotations

from russian_poker.events.codec import Event
from russian_poker.events.commands import (
    Actor,
    BuyCard,
    DecisionTimeUp,
    Exchange,
    Fold,
    Insure,
    Play,
)
from russian_poker.events.game import BoxFolded, BoxPlayed, CardsExchanged, SixthCardBought
from russian_poker.service.rules.cards import CardError, parse_recorded_cards
from russian_poker.service.rules.errors import RuleViolation
from russian_poker.service.rules.guards import debit, need_phase, need_role, own_box
from russian_poker.service.rules.payouts import insurance_range
from russian_poker.service.rules.state import Box, Table

__all__ = ["buy_card", "decision_time_up", "exchange", "fold", "insure", "play"]


def _on_turn(table: Table, actor: Actor, number: int) -> Box:
    """The actor's light box ``number``, if it is the one that decides now."""
    need_role(actor, "player")
    current = need_phase(table, "decisions")
    box = own_box(current, actor, number)
    if box.dark:
        raise RuleViolation("dark_box")
    if box.decision is not None:
        raise RuleViolation("already_decided")
    if current.turn_of(actor.id) != box:
        turn = current.turn_of(actor.id)
        raise RuleViolation("out_of_turn", f"box {turn.number if turn else '?'} decides first")
    return box


def _before_draw(table: Table, actor: Actor, number: int) -> Box:
    box = _on_turn(table, actor, number)
    if box.drew:
        raise RuleViolation("draw_already_used")
    return box


def buy_card(table: Table, command: BuyCard, actor: Actor) -> list[Event]:
    """Buy a sixth card for one fee; the hand is then the best five of six."""
    box = _before_draw(table, actor, command.box)
    rules = table.rules
    if not rules.buy_sixth_card:
        raise RuleViolation("sixth_card_not_allowed")
    assert table.round is not None
    (card,), _ = table.round.deck.draw(1)
    fee = rules.sixth_card_fee_antes * box.ante
    events: list[Event] = [
        SixthCardBought(round=table.round.number, box=box.number, card=card, fee=fee)
    ]
    if fee:
        events.append(debit(table, box, fee, "draw_fee"))
    return events


def exchange(table: Table, command: Exchange, actor: Actor) -> list[Event]:
    """Exchange 1..``max_exchange_cards`` cards. Discards go back into the undealt deck at
    random places first (``discards_return_to_deck``), so one may come straight back."""
    box = _before_draw(table, actor, command.box)
    rules = table.rules
    try:
        discards = parse_recorded_cards(command.cards)
    except CardError as exc:
        raise RuleViolation("exchange_not_allowed", str(exc)) from None
    if not 1 <= len(discards) <= rules.max_exchange_cards:
        limit = rules.max_exchange_cards
        raise RuleViolation(
            "exchange_not_allowed",
            "this table allows no exchange" if limit == 0 else f"exchange 1..{limit} cards",
        )
    if not set(discards) <= set(box.cards):
        raise RuleViolation("exchange_not_allowed", "you can only exchange cards of this box")
    assert table.round is not None
    deck = table.round.deck
    if rules.discards_return_to_deck:
        deck = deck.reinsert(discards)
    received, _ = deck.draw(len(discards))
    fee = rules.draw_fee_antes[len(discards) - 1] * box.ante
    events: list[Event] = [
        CardsExchanged(
            round=table.round.number,
            box=box.number,
            discarded=discards,
            received=received,
            fee=fee,
        )
    ]
    if fee:
        events.append(debit(table, box, fee, "draw_fee"))
    return events


def play(table: Table, command: Play, actor: Actor) -> list[Event]:
    """Stay in against the dealer: the Bet, twice the ante."""
    box = _on_turn(table, actor, command.box)
    assert table.round is not None
    bet = 2 * box.ante
    return [
        BoxPlayed(round=table.round.number, box=box.number, bet=bet),
        debit(table, box, bet, "bet"),
    ]


def insure(table: Table, command: Insure, actor: Actor) -> list[Event]:
    """Play and insure against the dealer having no game, in one step (docs/rules.md §5.4)."""
    box = _on_turn(table, actor, command.box)
    allowed = insurance_range(box, table.rules)
    if allowed is None:
        raise RuleViolation("insurance_not_allowed")
    low, high = allowed
    if not low <= command.amount <= high:
        raise RuleViolation("insurance_out_of_range", f"insure {low}..{high} on this hand")
    assert table.round is not None
    bet = 2 * box.ante
    return [
        BoxPlayed(round=table.round.number, box=box.number, bet=bet, insurance=command.amount),
        debit(table, box, bet, "bet"),
        debit(table, box, command.amount, "insurance"),
    ]


def fold(table: Table, command: Fold, actor: Actor) -> list[Event]:
    """Give up the box; the ante (and any draw fee) is lost."""
    box = _on_turn(table, actor, command.box)
    assert table.round is not None
    return [BoxFolded(round=table.round.number, box=box.number)]


def decision_time_up(table: Table, command: DecisionTimeUp, actor: Actor) -> list[Event]:
    """The box on turn did not decide in time: it is folded."""
    need_role(actor, "system")
    current = table.round
    box = current.box(command.box) if current else None
    if (
        current is None
        or box is None
        or current.number != command.round
        or current.turn_of(box.player) != box
    ):
        raise RuleViolation("stale_timeout")
    return [BoxFolded(round=current.number, box=box.number, timed_out=True)]
