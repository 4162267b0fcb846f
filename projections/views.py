"""What each viewer may see of a table: the player's, the observer's and the operator's view.

Pure functions of the table state. The deck order and the seed never appear before the round
is settled; the dealer's hidden cards appear at the reveal; a box's cards are its owner's
until the showdown, unless the table shows box cards to everyone (``box_cards_public``).
Operators run tables, not hands: they see stakes and players but no more cards than an
observer.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from events.commands import Actor, BuyCard, Command, Exchange, Fold, Insure, Play
from events.ruleset import CategoryLabel, Ruleset
from projections.results import BoxResult, box_result
from service.rules.decide import can
from service.rules.hands import evaluate
from service.rules.payouts import insurance_range
from service.rules.state import Box, Round, Table

__all__ = [
    "BoxView",
    "DealerView",
    "RoundView",
    "TableView",
    "Viewer",
    "boxes_in_play",
    "free_boxes",
    "table_view",
]


class Viewer(msgspec.Struct, frozen=True, kw_only=True):
    role: Literal["player", "observer", "operator", "auditor"]
    player_id: str | None = None


class BoxView(msgspec.Struct, frozen=True, kw_only=True):
    box: int
    player: str
    ante: int
    bonus: int
    dark: bool
    bet: int
    insurance: int
    cards: tuple[str, ...] | None
    """``None`` while hidden from this viewer; ``card_count`` still says how many."""
    card_count: int
    drew: bool
    decision: Literal["play", "fold"] | None
    dealer_draw: Literal["requested", "declined"] | None
    settled: bool
    yours: bool
    actions: tuple[str, ...] = ()
    """Commands this viewer may send for this box now."""
    insurance_range: tuple[int, int] | None = None
    result: BoxResult | None = None
    """How the box ended, once it is settled: outcome, combinations paid, money."""


class DealerView(msgspec.Struct, frozen=True, kw_only=True):
    upcard: str | None
    cards: tuple[str, ...] | None
    """All five, once revealed."""
    hand: CategoryLabel | None = None
    """The dealer's hand, once revealed (after any dealer draw)."""
    qualifies: bool | None


class RoundView(msgspec.Struct, frozen=True, kw_only=True):
    number: int
    phase: str
    commitment: str
    seed: str | None
    """Hex, once the round is settled: sha256(seed) == commitment."""
    boxes: tuple[BoxView, ...]
    dealer: DealerView
    ready: tuple[str, ...]
    awaiting: tuple[int, ...]
    """Boxes whose owners must act now (decision or dealer-draw offer)."""


class TableView(msgspec.Struct, frozen=True, kw_only=True):
    table_id: str
    name: str
    status: str
    version: int
    ruleset: Ruleset
    private: bool
    seats: tuple[str | None, ...]
    free_boxes: tuple[int, ...]
    """Boxes one may place an ante on now: the table is open, the round takes bets and
    nobody has bet on them yet. Empty once the cards are dealt."""
    boxes_in_play: tuple[int, ...]
    """Boxes with a bet in the current round, from the first ante to settlement."""
    round: RoundView | None
    previous_round: RoundView | None
    viewer: Viewer


def table_view(state: Table, version: int, viewer: Viewer) -> TableView:
    rules = state.rules
    current = state.round
    return TableView(
        table_id=state.table_id,
        name=state.name,
        status=state.status,
        version=version,
        ruleset=rules,
        private=state.private_for is not None,
        seats=state.seats,
        free_boxes=free_boxes(state),
        boxes_in_play=boxes_in_play(state),
        round=_round_view(state, current, viewer) if current else None,
        previous_round=_round_view(state, state.previous, viewer) if state.previous else None,
        viewer=viewer,
    )


def free_boxes(state: Table) -> tuple[int, ...]:
    """Boxes one may place an ante on now (see :attr:`TableView.free_boxes`)."""
    current = state.round
    if state.status != "open" or current is None or current.phase != "betting":
        return ()
    taken = {b.number for b in current.boxes}
    return tuple(n for n in range(1, state.rules.boxes + 1) if n not in taken)


def boxes_in_play(state: Table) -> tuple[int, ...]:
    """Boxes with a bet in the current round (see :attr:`TableView.boxes_in_play`)."""
    current = state.round
    if current is None or current.phase == "settled":
        return ()
    return tuple(b.number for b in current.boxes)


def _round_view(state: Table, current: Round, viewer: Viewer) -> RoundView:
    settled = current.phase == "settled"
    revealed = current.dealer_qualified is not None or settled
    awaiting = [*current.awaiting_decision(), *current.awaiting_dealer_draw()]
    return RoundView(
        number=current.number,
        phase=current.phase,
        commitment=current.commitment,
        seed=current.deck.seed.hex() if settled else None,
        boxes=tuple(
            _box_view(state, current, box, viewer, showdown=revealed) for box in current.boxes
        ),
        dealer=DealerView(
            upcard=current.dealer[4] if current.dealer else None,
            cards=current.dealer if revealed and current.dealer else None,
            hand=evaluate(current.dealer).category.label if revealed and current.dealer else None,
            qualifies=current.dealer_qualified,
        ),
        ready=tuple(sorted(current.ready)),
        awaiting=tuple(b.number for b in awaiting),
    )


def _box_view(state: Table, current: Round, box: Box, viewer: Viewer, *, showdown: bool) -> BoxView:
    yours = viewer.role == "player" and viewer.player_id == box.player
    visible = yours or showdown or state.rules.box_cards_public
    actions: tuple[str, ...] = ()
    insurable = None
    if yours and current.turn_of(box.player) == box:
        actions = _decision_actions(state, box)
        insurable = insurance_range(box, state.rules) if "Insure" in actions else None
    elif yours and box in current.awaiting_dealer_draw():
        actions = ("RequestDealerExchange", "DeclineDealerExchange")
    return BoxView(
        box=box.number,
        player=box.player,
        ante=box.ante,
        bonus=box.bonus,
        dark=box.dark,
        bet=box.bet,
        insurance=box.insurance,
        cards=box.cards if visible and box.cards else None,
        card_count=len(box.cards),
        drew=box.drew,
        decision=box.decision,
        dealer_draw=box.dealer_draw,
        settled=box.settled,
        yours=yours,
        actions=actions,
        insurance_range=insurable,
        result=box_result(box, state.rules),
    )


def _decision_actions(state: Table, box: Box) -> tuple[str, ...]:
    actor = Actor(role="player", id=box.player)
    allowed = insurance_range(box, state.rules)
    candidates: list[Command] = [
        Play(box=box.number),
        Fold(box=box.number),
        BuyCard(box=box.number),
        Exchange(box=box.number, cards=[box.cards[0]]),
        Insure(box=box.number, amount=allowed[0] if allowed else box.ante),
    ]
    return tuple(type(c).__name__ for c in candidates if can(state, c, actor))
