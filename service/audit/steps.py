"""A settled round step by step: each of its events with the round as the rules hold it
after that event, for the back office's round viewer.

The table's stream is folded by the rules' own ``evolve`` from the table's first event; from
the round's opening to its settlement, every event of the round is a step, and the step
shows the round's every box (stakes, cards, decisions, results) and the dealer's five cards,
all of them: the round is settled, so nothing is secret any more. An open round has no
steps (its hidden cards and deck are)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Annotated, Any, Literal, cast

import msgspec

from russian_poker.events.codec import EventType, decode_event
from russian_poker.events.commands import Actor
from russian_poker.events.game import Outcome, RoundOpened, RoundSettled
from russian_poker.events.records import RecordedEvent
from russian_poker.projections.shown import RecordedEventData
from russian_poker.service.rules.evolve import evolve
from russian_poker.service.rules.hands import evaluate
from russian_poker.service.rules.state import Box, Phase, Round, Table

__all__ = ["RoundStep", "RoundSteps", "StepBox", "StepRound", "round_steps"]


def _d(text: str) -> msgspec.Meta:
    return msgspec.Meta(description=text)


class StepBox(msgspec.Struct, frozen=True, kw_only=True):
    """A box as the rules hold it after a step, its cards shown."""

    box: Annotated[int, _d("The box's number.")]
    player: Annotated[str, _d("Its player.")]
    ante: Annotated[int, _d("The ante, in minor units.")]
    bonus: Annotated[int, _d("The bonus bet (0: none).")]
    bet: Annotated[int, _d("The Bet, once played (0 before, or folded).")]
    insurance: Annotated[int, _d("The insurance bought (0: none).")]
    fees: Annotated[int, _d("Draw fees paid (sixth card, exchange).")]
    cards: Annotated[tuple[str, ...], _d("Its cards now (after exchanges and draws).")]
    drew: Annotated[bool, _d("Whether it drew (a sixth card or an exchange).")]
    decision: Annotated[Literal["play", "fold"] | None, _d("`play` or `fold`, once decided.")]
    dealer_draw: Annotated[
        Literal["requested", "declined"] | None, _d("`requested` or `declined`, once offered.")
    ]
    settled: Annotated[bool, _d("Whether the box is settled.")]
    outcome: Annotated[Outcome | None, _d("The main wager's outcome, once settled.")]
    returned: Annotated[int, _d("Main-wager stakes given back at settlement.")]
    won: Annotated[int, _d("Main-wager winnings at settlement.")]
    bonus_won: Annotated[int, _d("What the bonus bet paid.")]


def _box(box: Box) -> StepBox:
    return StepBox(
        box=box.number,
        player=box.player,
        ante=box.ante,
        bonus=box.bonus,
        bet=box.bet,
        insurance=box.insurance,
        fees=box.fees,
        cards=box.cards,
        drew=box.drew,
        decision=box.decision,
        dealer_draw=box.dealer_draw,
        settled=box.settled,
        outcome=box.outcome,
        returned=box.returned,
        won=box.won,
        bonus_won=box.bonus_won,
    )


class StepRound(msgspec.Struct, frozen=True, kw_only=True):
    """The round after a step, every card shown."""

    phase: Annotated[Phase, msgspec.Meta(description="The round's phase after the step.")]
    boxes: Annotated[
        tuple[StepBox, ...],
        msgspec.Meta(description="Every box with a bet: stakes, cards, decisions, results."),
    ]
    dealer: Annotated[
        tuple[str, ...], msgspec.Meta(description="The dealer's cards (five after the deal).")
    ]
    dealer_hand: Annotated[
        str | None, msgspec.Meta(description="The dealer's hand, once five cards are dealt.")
    ]
    dealer_qualified: Annotated[
        bool | None, msgspec.Meta(description="Whether the dealer has a game, once decided.")
    ]


class RoundStep(msgspec.Struct, frozen=True, kw_only=True):
    """One event of the round and the round after it."""

    position: Annotated[int, msgspec.Meta(description="The event's global position.")]
    stream_version: Annotated[int, msgspec.Meta(description="Its version in the table stream.")]
    event_type: Annotated[EventType, msgspec.Meta(description="What happened (`CardsDealt`, …).")]
    recorded_at: Annotated[datetime, msgspec.Meta(description="When it was recorded.")]
    actor: Annotated[
        Actor | None,
        msgspec.Meta(description="Who sent the command that recorded it (its metadata)."),
    ]
    data: Annotated[
        RecordedEventData,
        msgspec.Meta(description="The event as recorded, tagged on `type` (its type)."),
    ]
    round: Annotated[StepRound, msgspec.Meta(description="The round after this event.")]


class RoundSteps(msgspec.Struct, frozen=True, kw_only=True):
    """A settled round, event by event."""

    table_id: Annotated[str, _d("The table.")]
    round: Annotated[int, _d("The round's number at that table.")]
    steps: Annotated[list[RoundStep], _d("Its events in order, each with the round after it.")]


def _shown(current: Round) -> StepRound:
    dealt = len(current.dealer) == 5
    return StepRound(
        phase=current.phase,
        boxes=tuple(_box(b) for b in current.boxes),
        dealer=current.dealer,
        dealer_hand=evaluate(current.dealer).category.label if dealt else None,
        dealer_qualified=current.dealer_qualified,
    )


def _actor(meta: Any) -> Actor | None:
    actor = meta.get("actor") if isinstance(meta, dict) else None
    return msgspec.convert(actor, Actor) if actor is not None else None


def round_steps(table_id: str, events: Sequence[RecordedEvent], number: int) -> RoundSteps | None:
    """The steps of round ``number`` from its table's whole stream, or ``None`` if the round
    is unknown or not settled."""
    state = Table()
    steps: list[RoundStep] = []
    inside = False
    for record in events:
        event = decode_event(record.event_type, record.schema_version, record.data)
        state = evolve(state, event)
        if isinstance(event, RoundOpened) and event.round == number:
            inside = True
        if not inside or getattr(event, "round", None) != number:
            continue
        current = state.round if state.round and state.round.number == number else state.previous
        assert current is not None and current.number == number
        meta = msgspec.json.decode(record.metadata)
        steps.append(
            RoundStep(
                position=record.global_position,
                stream_version=record.stream_version,
                event_type=cast("EventType", record.event_type),
                recorded_at=record.recorded_at,
                actor=_actor(meta),
                data=event,
                round=_shown(current),
            )
        )
        if isinstance(event, RoundSettled):
            return RoundSteps(table_id=table_id, round=number, steps=steps)
    return None
