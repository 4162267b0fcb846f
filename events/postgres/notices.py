"""The notifications owed to operators, as stored, and their deliverers' locks: the
table-status ones (``table_notifications``, queued by the command's own statement,
``events.writes.TableNotice``) and the checkpoint ones (``checkpoint_notifications``, queued
with the checkpoint, ``events.postgres.chain``).

Each notification has one deliverer at a time: a session advisory lock named after it,
held on the connection that records the answer, which holds no transaction open while the
operator answers (a long transaction would hold back every reader of the global order).
Both kinds share the delivery's columns (state, attempts, next attempt, last error) and so
its statements; what differs is the key, the order owed and the row the body is made from.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import datetime
from typing import Any, Final, Generic, Literal, NamedTuple, TypeVar

from russian_poker.events.postgres.chain import StoredCheckpoint

__all__ = [
    "NoticeHead",
    "NoticeStore",
    "NoticesOnConnection",
    "QueuedCheckpoint",
    "QueuedNotice",
    "checkpoint_notices",
    "table_status_notices",
]


class NoticeHead(NamedTuple):
    """The oldest notification owed on one line (an operator and a table, or an operator's
    checkpoints), and whether it is due."""

    operator_id: str
    notification_id: str
    due: bool


class QueuedNotice(NamedTuple):
    """A table-status notification still owed, as queued."""

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


class QueuedCheckpoint(NamedTuple):
    """A checkpoint notification still owed, with the checkpoint as stored now (``None``
    if it is gone from the store: someone deleted it)."""

    operator_id: str
    notification_id: str
    """The checkpoint's ``seq``, as text."""
    attempts: int
    expired: bool
    checkpoint: StoredCheckpoint | None


class _Kind(NamedTuple):
    table: str
    key: str
    """The condition on the key besides ``operator_id``, given as text in ``$2``."""
    lock_class: int
    heads: str
    take: str


_TABLE_STATUS: Final = _Kind(
    table="table_notifications",
    key="notification_id = $2",
    lock_class=0x7461_626C,  # "tabl"
    # Per table and operator only the oldest notification still owed: a reopening never
    # overtakes the closing before it.
    heads="""
SELECT DISTINCT ON (operator_id, table_id)
    operator_id, notification_id, next_attempt_at <= now() AS due
FROM table_notifications WHERE state = 'queued'
ORDER BY operator_id, table_id, occurred_at, notification_id
""",
    take="""
SELECT operator_id, notification_id, table_id, status, reason, actor_role, actor_id,
       occurred_at, attempts, now() - created_at > make_interval(secs => $3) AS expired
FROM table_notifications
WHERE operator_id = $1 AND notification_id = $2 AND state = 'queued'
""",
)
_CHECKPOINT: Final = _Kind(
    table="checkpoint_notifications",
    key="seq = $2::text::bigint",
    lock_class=0x6368_6B70,  # "chkp"
    # Per operator in sequence: each checkpoint names the digest of the one before, so the
    # operator receives an unbroken chain.
    heads="""
SELECT DISTINCT ON (operator_id) operator_id, seq::text, next_attempt_at <= now() AS due
FROM checkpoint_notifications WHERE state = 'queued'
ORDER BY operator_id, seq
""",
    take="""
SELECT n.operator_id, n.seq::text AS notification_id, n.attempts,
       now() - n.created_at > make_interval(secs => $3) AS expired,
       c.seq, c.created_at, c.upto_tx_id::text::numeric AS upto_tx_id, c.upto_position,
       c.prev_digest, c.leaf_count, c.merkle_root, c.digest, c.key_id, c.signature
FROM checkpoint_notifications AS n LEFT JOIN chain_checkpoints AS c ON c.seq = n.seq
WHERE n.operator_id = $1 AND n.seq = $2::text::bigint AND n.state = 'queued'
""",
)

T = TypeVar("T", QueuedNotice, QueuedCheckpoint)


def _queued_checkpoint(row: Any) -> QueuedCheckpoint:
    values = list(row.values())
    stored = values[4:]
    checkpoint = None
    if stored[0] is not None:
        stored[2] = int(stored[2])  # xid8, read as numeric: a transaction id may pass 2^63
        checkpoint = StoredCheckpoint(*stored)
    return QueuedCheckpoint(
        operator_id=values[0],
        notification_id=values[1],
        attempts=values[2],
        expired=values[3],
        checkpoint=checkpoint,
    )


class NoticesOnConnection(Generic[T]):
    """One notification's delivery, on the connection its lock lives on."""

    def __init__(self, conn: Any, kind: _Kind, row: Callable[[Any], T]) -> None:
        self._conn = conn
        self._kind = kind
        self._row: Callable[[Any], T] = row

    def _lock_args(self, operator_id: str, notification_id: str) -> tuple[int, str]:
        return self._kind.lock_class, f"{operator_id}/{notification_id}"

    async def try_lock(self, operator_id: str, notification_id: str) -> bool:
        """Become its deliverer, unless another is."""
        locked: bool = await self._conn.fetchval(
            "SELECT pg_try_advisory_lock($1, hashtext($2))",
            *self._lock_args(operator_id, notification_id),
        )
        return locked

    async def unlock(self, operator_id: str, notification_id: str) -> None:
        await self._conn.execute(
            "SELECT pg_advisory_unlock($1, hashtext($2))",
            *self._lock_args(operator_id, notification_id),
        )

    async def take(self, operator_id: str, notification_id: str, retry_for_s: float) -> T | None:
        """The notification if it is still owed (``expired`` after ``retry_for_s``)."""
        row = await self._conn.fetchrow(self._kind.take, operator_id, notification_id, retry_for_s)
        return self._row(row) if row is not None else None

    async def delivered(self, operator_id: str, notification_id: str, status: int) -> None:
        k = self._kind
        await self._conn.execute(
            f"UPDATE {k.table} SET state = 'delivered', http_status = $3,"
            " attempts = attempts + 1, last_error = NULL, delivered_at = now()"
            f" WHERE operator_id = $1 AND {k.key}",
            operator_id,
            notification_id,
            status,
        )

    async def declined(self, operator_id: str, notification_id: str, status: int) -> None:
        """The operator's wallet does not take this kind: not sent again."""
        k = self._kind
        await self._conn.execute(
            f"UPDATE {k.table} SET state = 'declined', http_status = $3,"
            " attempts = attempts + 1, last_error = NULL"
            f" WHERE operator_id = $1 AND {k.key}",
            operator_id,
            notification_id,
            status,
        )

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
        k = self._kind
        await self._conn.execute(
            f"UPDATE {k.table} SET state = CASE WHEN $6 THEN 'manual' ELSE 'queued' END,"
            " http_status = $3, last_error = $4, attempts = attempts + 1,"
            " next_attempt_at = now() + make_interval(secs => $5)"
            f" WHERE operator_id = $1 AND {k.key}",
            operator_id,
            notification_id,
            status,
            error,
            delay_s,
            manual,
        )


class NoticeStore(Generic[T]):
    """The owed notifications of one kind on a pool."""

    def __init__(self, pool: Any, kind: _Kind, row: Callable[[Any], T]) -> None:
        self._pool = pool
        self._kind = kind
        self._row: Callable[[Any], T] = row

    async def heads(self) -> list[NoticeHead]:
        """For each line (table and operator, or operator), the oldest still owed."""
        return [NoticeHead(*row) for row in await self._pool.fetch(self._kind.heads)]

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[NoticesOnConnection[T]]:
        """A connection for one delivery: its lock lives on it."""
        async with self._pool.acquire() as conn:
            yield NoticesOnConnection(conn, self._kind, self._row)


def table_status_notices(pool: Any) -> NoticeStore[QueuedNotice]:
    return NoticeStore(pool, _TABLE_STATUS, lambda row: QueuedNotice(*row))


def checkpoint_notices(pool: Any) -> NoticeStore[QueuedCheckpoint]:
    return NoticeStore(pool, _CHECKPOINT, _queued_checkpoint)
