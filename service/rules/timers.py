"""The time-outs a table is waiting for. The core names them; the shell's clock sends them.

Each timer has a key that changes whenever the thing it waits for changes, so a timer
started for one wait never fires into the next one; a late one is refused as stale anyway.
"""

from __future__ import annotations

import msgspec

from russian_poker.events.commands import BettingTimeUp, CompleteAbandonedRound, DecisionTimeUp
from russian_poker.service.rules.abandoned import waits_for_anyone
from russian_poker.service.rules.state import Round, Table

__all__ = ["Timer", "pending_timers"]


class Timer(msgspec.Struct, frozen=True, kw_only=True):
    key: str
    seconds: int
    command: BettingTimeUp | DecisionTimeUp | CompleteAbandonedRound


def pending_timers(table: Table) -> list[Timer]:
    """Every time-out the table's current state is waiting for."""
    current = table.round
    if current is None or table.ruleset is None:
        return []
    rules = table.ruleset
    prefix = f"{table.table_id}:{current.number}"
    if current.phase == "betting" and current.boxes:
        return [
            Timer(
                key=f"{prefix}:betting",
                seconds=rules.betting_timeout_s,
                command=BettingTimeUp(round=current.number),
            ),
            *_abandoned(current, prefix, rules.abandoned_round_after_s),
        ]
    timers = [
        Timer(
            key=f"{prefix}:decision:{box.number}:{'drew' if box.drew else 'dealt'}",
            seconds=rules.decision_timeout_s,
            command=DecisionTimeUp(round=current.number, box=box.number, phase="decision"),
        )
        for box in current.awaiting_decision()
    ]
    timers += [
        Timer(
            key=f"{prefix}:dealer_draw:{box.number}",
            seconds=rules.decision_timeout_s,
            command=DecisionTimeUp(round=current.number, box=box.number, phase="dealer_draw"),
        )
        for box in current.awaiting_dealer_draw()
    ]
    return timers + _abandoned(current, prefix, rules.abandoned_round_after_s)


def _abandoned(current: Round, prefix: str, seconds: int) -> list[Timer]:
    """The interrupted-round timer: keyed by the round's activity count, so every event in
    the round starts it again (a new key gets a new deadline; the old key is dropped)."""
    if not waits_for_anyone(current):
        return []
    return [
        Timer(
            key=f"{prefix}:abandoned:{current.activity}",
            seconds=seconds,
            command=CompleteAbandonedRound(round=current.number, activity=current.activity),
        )
    ]
