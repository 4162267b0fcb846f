"""Interrupted rounds in the game recall: why a round was completed by the rules' defaults.

``CompleteAbandonedRound`` records ``RoundAbandoned`` and settles the round in the same
command, so the settling command's own append statement writes the ``abandoned_rounds`` row
beside the round's ``rounds`` row (``projections.history``): a player who recalls the round
reads the reason with it, never the round without it.
"""

from __future__ import annotations

from typing import Any

from russian_poker.events.game import RoundAbandoned, RoundSettled
from russian_poker.events.postgres.store import SideWrites
from russian_poker.service.rules.state import Table

__all__ = ["record_abandoned"]


def record_abandoned(writes: SideWrites, state: Table, events: list[Any]) -> None:
    """If these events completed an abandoned round, record why, in the append's statement."""
    settled = {e.round for e in events if isinstance(e, RoundSettled)}
    for event in events:
        if isinstance(event, RoundAbandoned) and event.round in settled:
            p = writes.param
            writes.add(
                "abandoned_round",
                f"""
                INSERT INTO abandoned_rounds (table_id, round, reason, after_s, phase)
                SELECT {p(state.table_id)}, {p(event.round)}, {p(event.reason)},
                       {p(event.after_s)}, {p(event.phase)}
                WHERE EXISTS (SELECT FROM appended)
                ON CONFLICT DO NOTHING
                """,
            )
            return
