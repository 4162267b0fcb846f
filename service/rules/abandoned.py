"""Interrupted rounds: a round left without activity is completed by the rules' defaults.

When a round with stakes on the table has had no event for the ruleset's
``abandoned_round_after_s``, the clock sends :class:`CompleteAbandonedRound`. It records
:class:`RoundAbandoned` with the reason, and from then on :func:`defaults` answers every wait
the way a time-out would (``decide.progress`` asks it first): each undecided light box is
folded, each dealer-draw offer declined, so the dealer reveals and the round settles through
the ordinary settlement events — a played or dark box is paid exactly as it would have been.
A round not yet dealt has no outcome to complete: its bets are refunded and the round is
closed with its seed revealed, as ``CloseTable`` calls such a round off.

The rules' own time-outs (``betting_timeout_s``, ``decision_timeout_s``) always fall due
first, since the ruleset keeps this interval longer than both; this is the documented upper
bound on how long stakes can wait, and it completes a round whose time-outs never came.
"""

from __future__ import annotations

from typing import Literal, cast

from russian_poker.events.codec import Event
from russian_poker.events.commands import Actor, CompleteAbandonedRound
from russian_poker.events.game import BoxFolded, DealerExchangeDeclined, RoundAbandoned
from russian_poker.service.rules.betting import cancel_box
from russian_poker.service.rules.errors import RuleViolation
from russian_poker.service.rules.guards import need_role
from russian_poker.service.rules.showdown import settle
from russian_poker.service.rules.state import Round, Table

__all__ = ["complete_abandoned_round", "defaults", "waits_for_anyone"]

_Left = Literal["betting", "decisions", "dealer_draw"]


def waits_for_anyone(current: Round) -> bool:
    """Whether the round has stakes on the table and waits for someone: bets taken but not
    dealt, or cards out. An empty round taking bets risks nothing and may wait for ever."""
    if current.phase == "betting":
        return bool(current.boxes)
    return current.phase in ("decisions", "dealer_draw")


def complete_abandoned_round(
    table: Table, command: CompleteAbandonedRound, actor: Actor
) -> list[Event]:
    """Mark the round abandoned; ``progress`` then completes it by :func:`defaults`."""
    need_role(actor, "system")
    current = table.round
    if (
        current is None
        or current.number != command.round
        or current.activity != command.activity
        or current.abandoned is not None
        or not waits_for_anyone(current)
    ):
        raise RuleViolation("stale_timeout")
    after = table.rules.abandoned_round_after_s
    return [
        RoundAbandoned(
            round=current.number,
            reason=f"no activity for {after} s",
            after_s=after,
            phase=cast(_Left, current.phase),  # waits_for_anyone: one of these three
        )
    ]


def defaults(table: Table) -> list[Event]:
    """What the rules do in place of everyone an abandoned round still waits for; nothing
    when it waits for no one (the ordinary progress then reveals or settles)."""
    current = table.round
    if current is None or current.abandoned is None:
        return []
    if current.phase == "betting":
        if current.boxes:
            return [e for box in current.play_order() for e in cancel_box(table, box)]
        return settle(table)  # no box left: the round closes and its seed is revealed
    if current.phase == "decisions":
        # Every undecided light box at once, not only those on turn: nobody is coming back.
        return [
            BoxFolded(round=current.number, box=box.number, timed_out=True)
            for box in current.play_order()
            if box.light and box.decision is None
        ]
    if current.phase == "dealer_draw":
        return [
            DealerExchangeDeclined(round=current.number, box=box.number, timed_out=True)
            for box in current.awaiting_dealer_draw()
        ]
    return []
