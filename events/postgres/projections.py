"""The catch-up projections' storage: their checkpoints (``projection_checkpoints``), the
batches each applies with its checkpoint in one transaction, and their leadership locks.

A batch reads the global order after the checkpoint with the xid8 rule of
``events.postgres.store.read_all`` and holds the checkpoint's row (``FOR UPDATE``) until
it commits, which is what makes two appliers safe even without a leader. Leadership is a
session advisory lock on a dedicated connection (never a pooled one: the lock is the
session's), which also carries the ``LISTEN`` for wake-ups.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any, Final

import asyncpg

from russian_poker.events.postgres.audit import AuditStore
from russian_poker.events.postgres.availability import AvailabilityStore
from russian_poker.events.postgres.pool import (
    DEFAULT_COMMAND_TIMEOUT,
    Database,
    acquired,
    close_connection,
    connect,
)
from russian_poker.events.postgres.store import NOTIFY_CHANNEL, read_all
from russian_poker.events.records import Position, RecordedEvent

__all__ = [
    "DATABASE_ERRORS",
    "Batch",
    "Leadership",
    "ProjectionStore",
    "ReadModels",
    "advisory_key",
    "load_checkpoint",
    "projection_lag",
    "save_checkpoint",
]

PING_TIMEOUT: Final = 5.0
"""Seconds a leader's ping may take: a silent server loses the lead in bounded time."""
DATABASE_ERRORS: Final = (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError)
"""What the database (not a projection) raises when a batch fails."""

_ENSURE: Final = "INSERT INTO projection_checkpoints (name) VALUES ($1) ON CONFLICT DO NOTHING"
_READ: Final = "SELECT tx_id, global_position FROM projection_checkpoints WHERE name = $1"
_LOCK: Final = _READ + " FOR UPDATE"
_SAVE: Final = """
UPDATE projection_checkpoints SET tx_id = $2::xid8, global_position = $3, updated_at = now()
WHERE name = $1
"""
# An upper bound: positions commit out of order.
_LAG: Final = """
SELECT n AS name, coalesce((SELECT max(global_position) FROM events), 0)
       - coalesce(c.global_position, 0) AS lag
FROM unnest($1::text[]) AS n
LEFT JOIN projection_checkpoints c ON c.name = n
"""


def advisory_key(name: str) -> int:
    """The ``pg_try_advisory_lock`` key for a projection: 64 bits of SHA-256 of its name."""
    digest = hashlib.sha256(f"projection:{name}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


async def load_checkpoint(conn: Any, name: str, *, lock: bool = False) -> Position:
    """The projection's checkpoint (creating it at the start), optionally row-locked."""
    await conn.execute(_ENSURE, name)
    row = await conn.fetchrow(_LOCK if lock else _READ, name)
    assert row is not None
    return Position(tx_id=int(row["tx_id"]), global_position=row["global_position"])


async def save_checkpoint(conn: Any, name: str, position: Position) -> None:
    await conn.execute(_SAVE, name, position.tx_id, position.global_position)


async def projection_lag(db: Database, names: Sequence[str]) -> dict[str, int]:
    """How many events each projection is behind the newest (at most)."""
    rows = await db.fetch(_LAG, list(names))
    return {row["name"]: row["lag"] for row in rows}


class ReadModels:
    """The catch-up read models' stores on one connection: what a projection writes through,
    inside the transaction of its batch or of a rebuild."""

    def __init__(self, conn: Any) -> None:
        self.audit = AuditStore(conn)
        self.availability = AvailabilityStore(conn)


class Batch:
    """The events after a projection's checkpoint, and the read models to fold them into,
    inside the transaction the checkpoint moves past them in."""

    def __init__(self, conn: Any, events: list[RecordedEvent]) -> None:
        self.events = events
        self.models = ReadModels(conn)


class Leadership:
    """A projection's leadership, on its dedicated connection."""

    def __init__(self, conn: asyncpg.Connection[asyncpg.Record], key: int) -> None:
        self._conn = conn
        self._key = key

    async def try_lead(self) -> bool:
        """Take the lock if no other session holds it."""
        return bool(await self._conn.fetchval("SELECT pg_try_advisory_lock($1)", self._key))

    async def listen(self, woken: Callable[[], None]) -> None:
        """Call ``woken`` on every append's ``NOTIFY``."""
        await self._conn.add_listener(NOTIFY_CHANNEL, lambda *_: woken())

    async def ping(self, timeout: float = PING_TIMEOUT) -> None:
        """Fail unless the connection (and so the lock) is still alive and answering."""
        await self._conn.fetchval("SELECT 1", timeout=timeout)


class ProjectionStore:
    """What a projection runner reads and writes: batches run on ``pool`` if given, else on
    a connection of the store's own; leadership always on a connection of its own."""

    def __init__(self, dsn: str, pool: asyncpg.Pool[asyncpg.Record] | None = None) -> None:
        self._dsn = dsn
        self._pool = pool
        self._own: asyncpg.Connection[asyncpg.Record] | None = None
        self._own_lock = asyncio.Lock()

    @contextlib.asynccontextmanager
    async def _connection(self) -> AsyncIterator[Any]:
        if self._pool is not None:
            async with self._pool.acquire() as conn:
                yield conn
            return
        async with self._own_lock:
            if self._own is None or self._own.is_closed():
                self._own = await connect(
                    self._dsn,
                    application_name="projection-runner",
                    command_timeout=DEFAULT_COMMAND_TIMEOUT,
                )
            yield self._own

    @contextlib.asynccontextmanager
    async def batch(self, name: str, limit: int) -> AsyncIterator[Batch]:
        """The next batch after ``name``'s checkpoint (no events: nothing left); when the
        block ends without an error, the checkpoint moves past the batch and both commit."""
        async with self._connection() as conn, batch_on(conn, name, limit) as batch:
            yield batch

    async def checkpoint(self, name: str) -> Position:
        async with self._connection() as conn:
            return await load_checkpoint(conn, name)

    @contextlib.asynccontextmanager
    async def leadership(self, name: str) -> AsyncIterator[Leadership]:
        """A dedicated connection for leading ``name``; the lock goes with it at the end."""
        conn = await connect(
            self._dsn,
            application_name=f"projection-leader:{name}",
            command_timeout=DEFAULT_COMMAND_TIMEOUT,
        )
        try:
            yield Leadership(conn, advisory_key(name))
        finally:
            if not conn.is_closed():
                with contextlib.suppress(*DATABASE_ERRORS):
                    await conn.execute("SELECT pg_advisory_unlock_all()", timeout=PING_TIMEOUT)
            # The lock ends with the session, however the goodbye goes.
            await close_connection(conn)

    async def lag(self, names: Sequence[str]) -> dict[str, int]:
        async with self._connection() as conn:
            return await projection_lag(conn, names)

    async def close(self) -> None:
        """Close the store's own connection, if it opened one."""
        if self._own is not None:
            own, self._own = self._own, None
            await close_connection(own)


@contextlib.asynccontextmanager
async def batch_on(db: Database, name: str, limit: int) -> AsyncIterator[Batch]:
    """:meth:`ProjectionStore.batch` on ``db``."""
    async with acquired(db) as conn, conn.transaction():
        # Created outside the lock's statement: a concurrent first insert just waits here.
        after = await load_checkpoint(conn, name, lock=True)
        events = await read_all(conn, after, limit=limit)
        batch = Batch(conn, events)
        yield batch
        if events:
            await save_checkpoint(conn, name, events[-1].position)
