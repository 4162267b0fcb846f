"""``evolve(state, event) -> state``: how each event changes the table.

Evolve never refuses and never decides: it records. Deck movements are re-derived with the
same pure deck functions ``decide`` used, so both sides always agree on the undealt cards.
Wallet events belong to wallet streams and leave the table unchanged.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import reduce

import msgspec

from russian_poker.events.codec import Event
from russian_poker.events.game import (
    AntePlaced,
    BetsCancelled,
    BonusSettled,
    BoxFolded,
    BoxPlayed,
    BoxSettled,
    CardsDealt,
    CardsExchanged,
    DealerCardReplaced,
    DealerExchangeDeclined,
    DealerExchangeRequested,
    DealerRevealed,
    DealRequested,
    DeckStacked,
    PlayerLeft,
    PlayerSeated,
    RoundAbandoned,
    RoundOpened,
    RoundSettled,
    RulesetChanged,
    SixthCardBought,
    TableClosed,
    TableOpened,
    TableReopened,
)
from russian_poker.events.ruleset import Ruleset
from russian_poker.service.rules.deck import shuffled, stacked
from russian_poker.service.rules.entropy import dealing_deck
from russian_poker.service.rules.hands import evaluate, qualifies
from russian_poker.service.rules.state import BetSpec, Box, Round, Table

__all__ = ["evolve", "fold"]

_replace = msgspec.structs.replace


def fold(state: Table, events: Iterable[Event]) -> Table:
    """The state after all ``events``, in order."""
    return reduce(evolve, events, state)


def evolve(state: Table, event: Event) -> Table:
    """The state after one event."""
    match event:
        case TableOpened():
            return Table(
                table_id=event.table_id,
                name=event.name,
                ruleset=event.ruleset,
                status="open",
                private_for=event.private_for,
                operator_id=event.operator_id,
                shared=event.shared,
                seats=(None,) * event.ruleset.boxes,
            )
        case TableClosed():
            return _replace(state, status="closed")
        case TableReopened():
            return _replace(state, status="open")
        case RulesetChanged():
            return _replace(state, ruleset=event.ruleset, ruleset_version=event.version)
        case PlayerSeated():
            return _replace(state, seats=_set_seat(state.seats, event.seat, event.player))
        case PlayerLeft():
            return _replace(state, seats=_set_seat(state.seats, event.seat, None))
        case RoundOpened():
            deck = stacked(event.seed, event.deck) if event.deck else shuffled(event.seed)
            new_round = Round(
                number=event.round,
                commitment=event.commitment,
                seed=event.seed,
                deck=deck,
                scripted=bool(event.deck),
            )
            return _replace(state, round=new_round, rounds_opened=event.round, previous=state.round)
        case RoundSettled():
            return _round_settled(state)
    current = state.round
    if current is None:
        return state  # wallet events, and nothing else, reach a table without a round
    evolved = _evolve_round(current, event, state.rules)
    if evolved is not current:
        # Every event that changed the round is activity (wallet events change none): the
        # abandoned-round timer is keyed by this count, so each one restarts it.
        evolved = _replace(evolved, activity=current.activity + 1)
    return _replace(state, round=evolved)


def _evolve_round(current: Round, event: Event, rules: Ruleset) -> Round:
    match event:
        case AntePlaced():
            box = Box(
                number=event.box,
                player=event.player,
                ante=event.ante,
                bonus=event.bonus,
                dark=event.dark,
                bet=event.bet,
                decision="play" if event.dark else None,
                client_seed=event.client_seed,
            )
            return current.with_box(box)
        case DeckStacked():
            return _replace(current, deck=stacked(current.seed, event.deck), scripted=True)
        case BetsCancelled():
            return _replace(current.without_box(event.box), ready=current.ready - {event.player})
        case DealRequested():
            return _replace(current, ready=current.ready | {event.player})
        case CardsDealt():
            count = 5 * (len(event.hands) + 1)
            _, deck = dealing_deck(current).draw(count)
            dealt = current
            for hand in event.hands:
                box = _box(dealt, hand.box)
                dealt = dealt.with_box(_replace(box, cards=hand.cards))
            return _replace(dealt, deck=deck, dealer=event.dealer_cards, phase="decisions")
        case BonusSettled():
            box = _box(current, event.box)
            return current.with_box(
                _replace(box, bonus_won=event.won, bonus_hand=event.hand, bonus_capped=event.capped)
            )
        case SixthCardBought():
            box = _box(current, event.box)
            _, deck = current.deck.draw(1)
            return _replace(
                current.with_box(
                    _replace(
                        box, cards=(*box.cards, event.card), drew=True, fees=box.fees + event.fee
                    )
                ),
                deck=deck,
            )
        case CardsExchanged():
            return _exchanged(current, event, returned=rules.discards_return_to_deck)
        case BoxPlayed():
            box = _box(current, event.box)
            played = _replace(box, decision="play", bet=event.bet, insurance=event.insurance)
            return current.with_box(played)
        case BoxFolded():
            return current.with_box(_replace(_box(current, event.box), decision="fold"))
        case DealerRevealed():
            offered = not event.qualifies and rules.dealer_draw
            revealed = _replace(current, dealer_qualified=event.qualifies, phase="showdown")
            if offered and any(b.light and b.in_play for b in current.boxes):
                return _replace(revealed, phase="dealer_draw")
            return revealed
        case DealerExchangeRequested():
            box = _box(current, event.box)
            return current.with_box(_replace(box, dealer_draw="requested"))
        case DealerExchangeDeclined():
            box = _box(current, event.box)
            return current.with_box(_replace(box, dealer_draw="declined"))
        case DealerCardReplaced():
            _, deck = current.deck.draw(1)
            dealer = tuple(event.card if c == event.replaced else c for c in current.dealer)
            return _replace(
                current,
                deck=deck,
                dealer=dealer,
                dealer_qualified=qualifies(evaluate(dealer)),
                set_aside=(*current.set_aside, event.replaced),
            )
        case RoundAbandoned():
            return _replace(current, abandoned=event.reason)
        case BoxSettled():
            settled = _replace(
                _box(current, event.box),
                settled=True,
                outcome=event.outcome,
                returned=event.returned,
                won=event.won,
                capped=event.capped,
                combinations=event.combinations,
            )
            return current.with_box(settled)
    return current


def _exchanged(current: Round, event: CardsExchanged, *, returned: bool) -> Round:
    box = _box(current, event.box)
    deck = current.deck
    set_aside = current.set_aside
    if returned:
        deck = deck.reinsert(event.discarded)
    else:
        set_aside = (*set_aside, *event.discarded)
    _, deck = deck.draw(len(event.received))
    replacements = iter(event.received)
    cards = tuple(next(replacements) if c in event.discarded else c for c in box.cards)
    return _replace(
        current.with_box(_replace(box, cards=cards, drew=True, fees=box.fees + event.fee)),
        deck=deck,
        set_aside=set_aside,
    )


def _round_settled(state: Table) -> Table:
    finished = state.round
    if finished is None:
        return state
    last_bets = dict(state.last_bets)
    for player in finished.players():
        last_bets[player] = tuple(
            BetSpec(box=b.number, ante=b.ante, bonus=b.bonus, dark=b.dark)
            for b in finished.boxes
            if b.player == player
        )
    return _replace(state, round=_replace(finished, phase="settled"), last_bets=last_bets)


def _set_seat(
    seats: tuple[str | None, ...], seat: int, player: str | None
) -> tuple[str | None, ...]:
    return (*seats[: seat - 1], player, *seats[seat:])


def _box(current: Round, number: int) -> Box:
    box = current.box(number)
    assert box is not None, f"event names box {number}, which is not in play"
    return box
