"""The time-outs tables wait for (``timers``), written by the command that starts each wait
(``command_write``), read by the clock that sends them and by the table views' deadlines."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any, Final, NamedTuple

__all__ = ["Due", "TimerStore", "of_table"]

_DUE: Final = """
SELECT timer_key, table_id, command::text AS command FROM timers
WHERE due_at <= now() ORDER BY due_at LIMIT $1
"""


class Due(NamedTuple):
    """A time-out that is due: its key, its table and its command (JSON)."""

    key: str
    table_id: str
    command: str


async def of_table(conn: Any, table_id: str) -> Mapping[str, datetime]:
    """The table's timer rows, key to due time (``timers_table_idx``)."""
    rows = await conn.fetch("SELECT timer_key, due_at FROM timers WHERE table_id = $1", table_id)
    return {row["timer_key"]: row["due_at"] for row in rows}


class TimerStore:
    """The time-outs on a pool."""

    def __init__(self, pool: Any) -> None:
        self._pool = pool

    async def due(self, limit: int) -> list[Due]:
        """Up to ``limit`` time-outs due now, the earliest first."""
        rows = await self._pool.fetch(_DUE, limit)
        return [Due(r["timer_key"], r["table_id"], r["command"]) for r in rows]

    async def drop(self, key: str) -> None:
        """Forget a time-out the rules no longer take (its wait is over)."""
        await self._pool.execute("DELETE FROM timers WHERE timer_key = $1", key)

    async def of_table(self, table_id: str) -> Mapping[str, datetime]:
        async with self._pool.acquire() as conn:
            return await of_table(conn, table_id)
