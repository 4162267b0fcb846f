"""The timers a table waits for, kept in step with its state in the command's own statement.

A timer's deadline is set when it first appears and kept while its key stays pending, so
a command that changes nothing about a wait does not extend it.
"""

from __future__ import annotations

import msgspec

from russian_poker.events.postgres.store import SideWrites
from russian_poker.service.rules.state import Table
from russian_poker.service.rules.timers import pending_timers

__all__ = ["sync"]


def sync(writes: SideWrites, state: Table) -> None:
    """Keep the table's timers as its state says, in the command's append statement: drop
    those no longer pending, add those newly pending (an existing one keeps its deadline).
    The two touch disjoint keys, so they cannot collide."""
    timers = pending_timers(state)
    table = writes.param(state.table_id)
    keys = writes.param([t.key for t in timers])
    writes.add(
        "dropped_timers",
        f"DELETE FROM timers WHERE table_id = {table} AND NOT (timer_key = ANY({keys}))"
        " AND EXISTS (SELECT FROM appended)",
    )
    seconds = writes.param([t.seconds for t in timers])
    commands = writes.param([msgspec.json.encode(t.command).decode() for t in timers])
    writes.add(
        "added_timers",
        f"""
        INSERT INTO timers (timer_key, table_id, due_at, command)
        SELECT k, {table}, now() + make_interval(secs => s), c::jsonb
        FROM unnest({keys}::text[], {seconds}::int[], {commands}::text[]) AS t(k, s, c)
        WHERE EXISTS (SELECT FROM appended)
        ON CONFLICT (timer_key) DO NOTHING
        """,
    )
