"""The table-status notifications owed to operators, as stored (``table_notifications``:
queued by the command's own statement, ``events.writes.TableNotice``), and their
deliverers' locks.

Each notification has one deliverer at a time: a session advisory lock named after it,
held on the connection that records the answer, which holds no transaction open while the
operator answers (a long transaction would hold back every reader of the global order).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import datetime
from typing import Any, Final, Literal, NamedTuple

__all__ = ["NOTICE_LOCK", "NoticeHead", "NoticeStore", "NoticesOnConnection", "QueuedNotice"]

NOTICE_LOCK: Final = 0x7461_626C  # "tabl": the advisory lock class of a notification

# Per table and operator only the oldest notification still owed: a reopening never
# overtakes the closing before it.
_HEADS: Final = """
SELECT DISTINCT ON (operator_id, table_id)
    operator_id, notification_id, next_attempt_at <= now() AS due
FROM table_notifications WHERE state = 'queued'
ORDER BY operator_id, table_id, occurred_at, notification_id
"""
_TAKE: Final = """
SELECT operator_id, notification_id, table_id, status, reason, actor_role, actor_id,
       occurred_at, attempts, now() - created_at > make_interval(secs => $3) AS expired
FROM table_notifications
WHERE operator_id = $1 AND notification_id = $2 AND state = 'queued'
"""
_DONE: Final = """
UPDATE table_notifications SET state = 'delivered', http_status = $3, attempts = attempts + 1,
    last_error = NULL, delivered_at = now()
WHERE operator_id = $1 AND notification_id = $2
"""
_AGAIN: Final = """
UPDATE table_notifications SET
    state = CASE WHEN $6 THEN 'manual' ELSE 'queued' END,
    http_status = $3, last_error = $4, attempts = attempts + 1,
    next_attempt_at = now() + make_interval(secs => $5)
WHERE operator_id = $1 AND notification_id = $2
"""


class NoticeHead(NamedTuple):
    """The oldest notification owed to an operator about a table, and whether it is due."""

    operator_id: str
    notification_id: str
    due: bool


class QueuedNotice(NamedTuple):
    """A notification still owed, as queued."""

    operator_id: str
    notification_id: str
    table_id: str
    status: Literal["closed", "open"]
    reason: str | None
    actor_role: str
    actor_id: str
    occurred_at: datetime
    attempts: int
    expired: bool
    """Queued for longer than the retry period."""


def _key(operator_id: str, notification_id: str) -> str:
    return f"{operator_id}/{notification_id}"


class NoticesOnConnection:
    """One notification's delivery, on the connection its lock lives on."""

    def __init__(self, conn: Any) -> None:
        self._conn = conn

    async def try_lock(self, operator_id: str, notification_id: str) -> bool:
        """Become its deliverer, unless another is."""
        locked: bool = await self._conn.fetchval(
            "SELECT pg_try_advisory_lock($1, hashtext($2))",
            NOTICE_LOCK,
            _key(operator_id, notification_id),
        )
        return locked

    async def unlock(self, operator_id: str, notification_id: str) -> None:
        await self._conn.execute(
            "SELECT pg_advisory_unlock($1, hashtext($2))",
            NOTICE_LOCK,
            _key(operator_id, notification_id),
        )

    async def take(
        self, operator_id: str, notification_id: str, retry_for_s: float
    ) -> QueuedNotice | None:
        """The notification if it is still owed (``expired`` after ``retry_for_s``)."""
        row = await self._conn.fetchrow(_TAKE, operator_id, notification_id, retry_for_s)
        return QueuedNotice(*row) if row is not None else None

    async def delivered(self, operator_id: str, notification_id: str, status: int) -> None:
        await self._conn.execute(_DONE, operator_id, notification_id, status)

    async def retry_later(
        self,
        operator_id: str,
        notification_id: str,
        status: int | None,
        error: str,
        delay_s: float,
        manual: bool,
    ) -> None:
        """Send it again after ``delay_s``, or give it up to people (``manual``)."""
        await self._conn.execute(
            _AGAIN, operator_id, notification_id, status, error, delay_s, manual
        )


class NoticeStore:
    """The owed notifications on a pool."""

    def __init__(self, pool: Any) -> None:
        self._pool = pool

    async def heads(self) -> list[NoticeHead]:
        """For each table and operator, the oldest notification still owed."""
        return [NoticeHead(*row) for row in await self._pool.fetch(_HEADS)]

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[NoticesOnConnection]:
        """A connection for one delivery: its lock lives on it."""
        async with self._pool.acquire() as conn:
            yield NoticesOnConnection(conn)
