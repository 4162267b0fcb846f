"""The timers a table waits for, kept in step with its state in the command's transaction.

A timer's deadline is set when it first appears and kept while its key stays pending, so
a command that changes nothing about a wait does not extend it.
"""

from __future__ import annotations

from typing import Any, Final

import msgspec

from service.rules.state import Table
from service.rules.timers import pending_timers

__all__ = ["sync"]

_DROP_OTHERS: Final = "DELETE FROM timers WHERE table_id = $1 AND NOT (timer_key = ANY($2))"
_ADD: Final = """
INSERT INTO timers (timer_key, table_id, due_at, command)
SELECT k, $1, now() + make_interval(secs => s), c::jsonb
FROM unnest($2::text[], $3::int[], $4::text[]) AS t(k, s, c)
ON CONFLICT (timer_key) DO NOTHING
"""


async def sync(conn: Any, state: Table) -> None:
    timers = pending_timers(state)
    keys = [t.key for t in timers]
    await conn.execute(_DROP_OTHERS, state.table_id, keys)
    if timers:
        await conn.execute(
            _ADD,
            state.table_id,
            keys,
            [t.seconds for t in timers],
            [msgspec.json.encode(t.command).decode() for t in timers],
        )
