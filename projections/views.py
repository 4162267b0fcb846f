"""What each viewer may see of a table: the player's, the observer's and the operator's view.

Pure functions of the table state. The deck order and the seed never appear before the round
is settled; the dealer's hidden cards appear at the reveal; a box's cards are its owner's
until the showdown, unless the table shows box cards to everyone (``box_cards_public``).
Operators run tables, not hands: they see stakes and players but no more cards than an
observer.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Annotated, Literal, cast

import msgspec

from russian_poker.events.commands import (
    Actor,
    BettingTimeUp,
    BuyCard,
    Command,
    DecisionTimeUp,
    Exchange,
    Fold,
    Insure,
    Play,
)
from russian_poker.events.paytables import CategoryLabel
from russian_poker.events.ruleset import Ruleset
from russian_poker.projections.fields import Ante, BonusStake, BoxNumber, Commitment, Owner
from russian_poker.projections.results import BoxResult, box_result
from russian_poker.service.rules.decide import can
from russian_poker.service.rules.hands import evaluate
from russian_poker.service.rules.payouts import insurance_range
from russian_poker.service.rules.state import Box, Phase, Round, Table, TableStatus
from russian_poker.service.rules.timers import pending_timers

BoxAction = Literal[
    "Play",
    "Fold",
    "BuyCard",
    "Exchange",
    "Insure",
    "RequestDealerExchange",
    "DeclineDealerExchange",
]
"""A command a box's player may send for it now (a box view's ``actions``)."""

__all__ = [
    "BoxView",
    "DealerView",
    "Deadline",
    "RoundView",
    "TableView",
    "Viewer",
    "boxes_in_play",
    "deadlines",
    "free_boxes",
    "table_view",
]


class Viewer(msgspec.Struct, frozen=True, kw_only=True):
    """Who this view was made for; it decides which cards and stakes it shows."""

    role: Annotated[
        Literal["player", "observer", "operator", "auditor"],
        msgspec.Meta(description="The viewer's role: what it may see of the table."),
    ]
    player_id: Annotated[
        str | None,
        msgspec.Meta(description="The viewing player's id; null for anyone but a player."),
    ] = None


class BoxView(msgspec.Struct, frozen=True, kw_only=True):
    """One box with a bet in the round, as this viewer may see it."""

    box: BoxNumber
    player: Owner
    ante: Ante
    bonus: BonusStake
    dark: Annotated[
        bool,
        msgspec.Meta(
            description="A dark box: its Bet was placed with the ante and it plays automatically "
            "(no fold, draw, insurance or dealer draw)."
        ),
    ]
    bet: Annotated[
        int,
        msgspec.Meta(
            description="The Bet (2 x ante) in minor units of the table's currency; 0 until "
            "the box plays."
        ),
    ]
    insurance: Annotated[
        int,
        msgspec.Meta(description="Insurance in minor units of the table's currency; 0 if none."),
    ]
    cards: Annotated[
        tuple[str, ...] | None,
        msgspec.Meta(
            description="The box's cards in text notation (`As`, `Td`); null while hidden from "
            "this viewer, `card_count` still says how many."
        ),
    ]
    card_count: Annotated[int, msgspec.Meta(description="How many cards the box holds (5 or 6).")]
    drew: Annotated[
        bool, msgspec.Meta(description="The box has used its one draw (sixth card or exchange).")
    ]
    decision: Annotated[
        Literal["play", "fold"] | None,
        msgspec.Meta(description="What the box decided; null until it decides."),
    ]
    dealer_draw: Annotated[
        Literal["requested", "declined"] | None,
        msgspec.Meta(
            description="The box's answer to a dealer with no game: a dealer draw requested, "
            "or declined (ante win taken); null if not asked."
        ),
    ]
    settled: Annotated[bool, msgspec.Meta(description="The box has been settled.")]
    yours: Annotated[bool, msgspec.Meta(description="The box belongs to this viewer.")]
    client_seed: Annotated[
        str | None,
        msgspec.Meta(
            description="The client seed placed with the box's ante (docs/rules.md §8), shown to "
            "everyone at the table as soon as it is placed; null if none."
        ),
    ] = None
    actions: Annotated[
        tuple[BoxAction, ...],
        msgspec.Meta(description="Command types this viewer may send for this box now."),
    ] = ()
    insurance_range: Annotated[
        tuple[int, int] | None,
        msgspec.Meta(
            description="Lowest and highest insurance amount allowed now, in minor units of "
            "the table's currency; null when the box may not insure."
        ),
    ] = None
    result: Annotated[
        BoxResult | None,
        msgspec.Meta(
            description="How the box ended, once it is settled: outcome, combinations paid, "
            "money; null before."
        ),
    ] = None


class DealerView(msgspec.Struct, frozen=True, kw_only=True):
    """The dealer's hand as far as it is shown: the up card, then all five at the reveal."""

    upcard: Annotated[
        str | None,
        msgspec.Meta(description="The dealer's face-up fifth card (`Kd`); null before the deal."),
    ]
    cards: Annotated[
        tuple[str, ...] | None,
        msgspec.Meta(
            description="All five dealer cards in text notation, once revealed; else null."
        ),
    ]
    hand: Annotated[
        CategoryLabel | None,
        msgspec.Meta(description="The dealer's hand, once revealed (after any dealer draw)."),
    ] = None
    qualifies: Annotated[
        bool | None,
        msgspec.Meta(
            description="Whether the dealer has a game (AK or better), once revealed; else null."
        ),
    ]


class RoundView(msgspec.Struct, frozen=True, kw_only=True):
    """One round of the table: its phase, boxes, dealer and who must act."""

    number: Annotated[int, msgspec.Meta(description="Round number at this table, from 1.")]
    phase: Annotated[
        Phase,
        msgspec.Meta(
            description="Where the round is: `betting`, `decisions`, `dealer_draw`, `showdown` "
            "or `settled`."
        ),
    ]
    commitment: Commitment
    seed: Annotated[
        str | None,
        msgspec.Meta(
            description="The round's seed in hex, once the round is settled "
            "(sha256(seed) == commitment); null before."
        ),
    ]
    boxes: Annotated[
        tuple[BoxView, ...], msgspec.Meta(description="The boxes with a bet, in box order.")
    ]
    dealer: Annotated[DealerView, msgspec.Meta(description="The dealer's hand as shown now.")]
    ready: Annotated[
        tuple[str, ...],
        msgspec.Meta(description="Ids of the players with a bet who have asked for the deal."),
    ]
    awaiting: Annotated[
        tuple[int, ...],
        msgspec.Meta(
            description="Boxes whose owners must act now (decision or dealer-draw offer)."
        ),
    ]


class Deadline(msgspec.Struct, frozen=True, kw_only=True):
    """A time-out the table is waiting for now: when it passes, the game acts by itself."""

    wait: Annotated[
        Literal["betting", "decision", "dealer_draw"],
        msgspec.Meta(
            description=(
                "What is waited for: `betting` (bets close and the cards are dealt),"
                " `decision` (a box's decision; the box is folded) or `dealer_draw` (a box's"
                " answer to the dealer's offer to draw; it is taken as declined)."
            )
        ),
    ]
    box: Annotated[
        int | None,
        msgspec.Meta(description="The box waited for; null for `betting` (the whole table)."),
    ]
    due_at: Annotated[
        datetime,
        msgspec.Meta(description="When the time-out falls due (UTC, RFC 3339)."),
    ]


class TableView(msgspec.Struct, frozen=True, kw_only=True):
    """A table as this viewer may see it: rules, seats, the current and the previous round."""

    table_id: Annotated[str, msgspec.Meta(description="The table's id.")]
    name: Annotated[str, msgspec.Meta(description="The table's name in the lobby; may be empty.")]
    status: Annotated[
        TableStatus, msgspec.Meta(description="`new`, `open` (opening rounds) or `closed`.")
    ]
    version: Annotated[
        int,
        msgspec.Meta(
            description="The table's event-stream version; send it as `If-Match` to act only "
            "on this state."
        ),
    ]
    ruleset: Annotated[Ruleset, msgspec.Meta(description="The rules the table plays by.")]
    ruleset_version: Annotated[
        int,
        msgspec.Meta(
            description=(
                "The ruleset's version: 1 as the table opened, one more for each change "
                "(`PUT /v1/tables/{id}/ruleset`; the log: `GET /v1/audit/availability`)."
            )
        ),
    ]
    private: Annotated[
        bool,
        msgspec.Meta(description="A private table: only the player it was opened for may sit."),
    ]
    seats: Annotated[
        tuple[str | None, ...],
        msgspec.Meta(
            description=(
                "One entry per seat (a table has one seat per box): the seated player's id, or "
                "null if free."
            )
        ),
    ]
    free_boxes: Annotated[
        tuple[int, ...],
        msgspec.Meta(
            description="Boxes one may place an ante on now: the table is open, the round takes "
            "bets and nobody has bet on them yet. Empty once the cards are dealt."
        ),
    ]
    boxes_in_play: Annotated[
        tuple[int, ...],
        msgspec.Meta(
            description="Boxes with a bet in the current round, from the first ante to settlement."
        ),
    ]
    round: Annotated[
        RoundView | None, msgspec.Meta(description="The current round; null before the first.")
    ]
    previous_round: Annotated[
        RoundView | None,
        msgspec.Meta(description="The round before the current one, settled; null if none."),
    ]
    viewer: Annotated[Viewer, msgspec.Meta(description="Who this view was made for.")]
    deadlines: Annotated[
        tuple[Deadline, ...] | None,
        msgspec.Meta(
            description=(
                "The time-outs this state waits for now (betting, each awaited box's decision"
                " or dealer-draw answer), soonest first; empty when nothing is timed. Null in"
                " a command's answer (`POST /v1/tables/{id}/commands`), which stays on the"
                " hot path: the stream's event of the same version and `GET` carry them."
            )
        ),
    ]


def table_view(
    state: Table,
    version: int,
    viewer: Viewer,
    timers: Mapping[str, datetime] | None = None,
) -> TableView:
    """The view; ``timers`` (the table's timer rows, key to due time) gives its deadlines,
    ``None`` leaves them out (null)."""
    rules = state.rules
    current = state.round
    return TableView(
        table_id=state.table_id,
        name=state.name,
        status=state.status,
        version=version,
        ruleset=rules,
        ruleset_version=state.ruleset_version,
        private=state.private_for is not None,
        seats=state.seats,
        free_boxes=free_boxes(state),
        boxes_in_play=boxes_in_play(state),
        round=_round_view(state, current, viewer) if current else None,
        previous_round=_round_view(state, state.previous, viewer) if state.previous else None,
        viewer=viewer,
        deadlines=None if timers is None else deadlines(state, timers),
    )


def deadlines(state: Table, timers: Mapping[str, datetime]) -> tuple[Deadline, ...]:
    """The player-facing time-outs ``state`` waits for, due as the timer rows say. Only the
    keys the state itself has pending count, so a row left from another state (not yet
    dropped, or read before or after this state) never shows; the interrupted-round timer
    is the house's, not a wait for a player."""
    found = []
    for timer in pending_timers(state):
        due = timers.get(timer.key)
        command = timer.command
        if due is None:
            continue
        if isinstance(command, BettingTimeUp):
            found.append(Deadline(wait="betting", box=None, due_at=due))
        elif isinstance(command, DecisionTimeUp):
            found.append(Deadline(wait=command.phase, box=command.box, due_at=due))
    return tuple(sorted(found, key=lambda d: (d.due_at, d.box or 0)))


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
        seed=current.seed.hex() if settled else None,
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
    actions: tuple[BoxAction, ...] = ()
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
        client_seed=box.client_seed,
        actions=actions,
        insurance_range=insurable,
        result=box_result(box, state.rules),
    )


def _decision_actions(state: Table, box: Box) -> tuple[BoxAction, ...]:
    actor = Actor(role="player", id=box.player)
    allowed = insurance_range(box, state.rules)
    candidates: list[Command] = [
        Play(box=box.number),
        Fold(box=box.number),
        BuyCard(box=box.number),
        Exchange(box=box.number, cards=[box.cards[0]]),
        Insure(box=box.number, amount=allowed[0] if allowed else box.ante),
    ]
    return tuple(cast("BoxAction", type(c).__name__) for c in candidates if can(state, c, actor))
