"""The catch-up projection runner: one leader per projection, exactly-once application.

A projection is fed the store's events in commit-safe order (``events.store.read_all``),
a batch at a time; each batch and the checkpoint after it are written in one transaction,
so a crash replays nothing twice and skips nothing. The checkpoint row is locked
(``FOR UPDATE``) for the batch, which makes two appliers safe even without a leader;
leadership (a session advisory lock held on a dedicated connection) just keeps the other
instances from spinning. The leader wakes on ``NOTIFY`` and polls as a fallback — a
notification can be lost (a reconnect) or arrive while an older transaction still holds the
reader back.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
from collections.abc import AsyncIterator, Sequence
from typing import Any, Final, Protocol

import asyncpg
import structlog

from russian_poker.events.postgres.pool import DATABASE_GONE, connect
from russian_poker.events.postgres.store import (
    NOTIFY_CHANNEL,
    AnyConnection,
    RecordedEvent,
    read_all,
)
from russian_poker.events.records import Position

__all__ = [
    "Projection",
    "ProjectionRunner",
    "advisory_key",
    "apply_batch",
    "load_checkpoint",
]

log = structlog.get_logger(__name__)

DEFAULT_POLL_INTERVAL: Final = 1.0
DEFAULT_BATCH_SIZE: Final = 500
DEFAULT_WAKE_DELAY: Final = 0.05

_ENSURE: Final = "INSERT INTO projection_checkpoints (name) VALUES ($1) ON CONFLICT DO NOTHING"
_READ: Final = "SELECT tx_id, global_position FROM projection_checkpoints WHERE name = $1"
_LOCK: Final = _READ + " FOR UPDATE"
_SAVE: Final = """
UPDATE projection_checkpoints SET tx_id = $2::xid8, global_position = $3, updated_at = now()
WHERE name = $1
"""


class Projection(Protocol):
    """A read model built from the global stream of events."""

    @property
    def name(self) -> str:
        """Its checkpoint's name; also picks its leadership lock."""
        ...

    async def apply(self, conn: AnyConnection, events: Sequence[RecordedEvent]) -> None:
        """Fold a batch into the read model, on ``conn``, inside the runner's transaction."""
        ...

    async def reset(self, conn: AnyConnection) -> None:
        """Empty the read model (for a rebuild)."""
        ...


def advisory_key(name: str) -> int:
    """The ``pg_try_advisory_lock`` key for a projection: 64 bits of SHA-256 of its name."""
    digest = hashlib.sha256(f"projection:{name}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


async def load_checkpoint(conn: AnyConnection, name: str, *, lock: bool = False) -> Position:
    """The projection's checkpoint (creating it at the start), optionally row-locked."""
    await conn.execute(_ENSURE, name)
    row = await conn.fetchrow(_LOCK if lock else _READ, name)
    assert row is not None
    return Position(tx_id=int(row["tx_id"]), global_position=row["global_position"])


async def apply_batch(
    conn: AnyConnection,
    projection: Projection,
    *,
    limit: int = DEFAULT_BATCH_SIZE,
) -> int:
    """Apply the next batch after the checkpoint, in one transaction; the number applied."""
    async with conn.transaction():
        # Created outside the lock's statement: a concurrent first insert just waits here.
        after = await load_checkpoint(conn, projection.name, lock=True)
        events = await read_all(conn, after, limit=limit)
        if not events:
            return 0
        await projection.apply(conn, events)
        last = events[-1].position
        await conn.execute(_SAVE, projection.name, last.tx_id, last.global_position)
        return len(events)


class ProjectionRunner:
    """Keeps one projection caught up: ``start()``/``stop()`` in the service,
    ``run_until_caught_up()`` in tests and the CLI.

    Batches run on ``pool`` if given, else on a connection of the runner's own; the
    leadership lock and ``LISTEN`` always use a dedicated connection.
    """

    def __init__(
        self,
        projection: Projection,
        *,
        dsn: str,
        pool: asyncpg.Pool[asyncpg.Record] | None = None,
        poll_interval: float = DEFAULT_POLL_INTERVAL,
        retry_interval: float | None = None,
        wake_delay: float = DEFAULT_WAKE_DELAY,
        batch_size: int = DEFAULT_BATCH_SIZE,
    ) -> None:
        """``poll_interval``: how often the leader looks for events without a NOTIFY;
        ``retry_interval`` (default: the same): how often a follower tries to lead;
        ``wake_delay``: how long a NOTIFY waits for more, so a burst is one batch."""
        self.projection = projection
        self._dsn = dsn
        self._pool = pool
        self._own: asyncpg.Connection[asyncpg.Record] | None = None
        self._own_lock = asyncio.Lock()
        self.poll_interval = poll_interval
        self.retry_interval = poll_interval if retry_interval is None else retry_interval
        self.wake_delay = wake_delay
        self.batch_size = batch_size
        self._task: asyncio.Task[None] | None = None
        self._stopping = asyncio.Event()
        self._wake = asyncio.Event()
        self._leading = asyncio.Event()
        self.applied = 0
        """Events applied by this runner since it was created."""

    @property
    def is_leader(self) -> bool:
        return self._leading.is_set()

    async def wait_until_leader(self, timeout: float) -> bool:
        """Whether this runner became the leader within ``timeout`` seconds."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._leading.wait(), timeout)
        return self.is_leader

    @contextlib.asynccontextmanager
    async def _connection(self) -> AsyncIterator[AnyConnection]:
        if self._pool is not None:
            async with self._pool.acquire() as conn:
                yield conn
            return
        async with self._own_lock:
            if self._own is None or self._own.is_closed():
                self._own = await connect(self._dsn, application_name="projection-runner")
            yield self._own

    async def run_until_caught_up(self) -> int:
        """Apply batches until none is left; the number of events applied."""
        total = 0
        while True:
            async with self._connection() as conn:
                count = await apply_batch(conn, self.projection, limit=self.batch_size)
            total += count
            self.applied += count
            if count < self.batch_size:
                return total

    async def start(self) -> None:
        """Run in the background: try to lead, and while leading, keep caught up."""
        if self._task is not None:
            return
        self._stopping.clear()
        self._task = asyncio.create_task(self._run(), name=f"projection-{self.projection.name}")

    async def stop(self) -> None:
        """Stop, giving leadership up; also closes the runner's own connection."""
        self._stopping.set()
        self._wake.set()
        if self._task is not None:
            task, self._task = self._task, None
            await task
        if self._own is not None:
            own, self._own = self._own, None
            await own.close()

    async def __aenter__(self) -> ProjectionRunner:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    async def _pause(self, seconds: float) -> None:
        """Sleep until woken, stopped, or ``seconds`` pass."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._wake.wait(), seconds)

    async def _run(self) -> None:
        while not self._stopping.is_set():
            try:
                await self._lead_once()
            except DATABASE_GONE as error:
                log.warning("projection runner lost its connection", error=str(error))
                await self._pause(self.retry_interval)

    async def _lead_once(self) -> None:
        """Win the lock (or keep trying), then catch up on every wake-up until stopped."""
        name = self.projection.name
        conn = await connect(self._dsn, application_name=f"projection-leader:{name}")
        try:
            while not await conn.fetchval("SELECT pg_try_advisory_lock($1)", advisory_key(name)):
                await self._pause(self.retry_interval)
                if self._stopping.is_set():
                    return
            await conn.add_listener(NOTIFY_CHANNEL, self._notified)
            self._leading.set()
            log.info("projection leader", projection=name)
            while not self._stopping.is_set():
                self._wake.clear()
                try:
                    await self.run_until_caught_up()
                except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError):
                    raise
                except Exception:
                    # A bug or an event the projection cannot take: stay leader, retry later
                    # (the checkpoint did not move), and say so loudly.
                    log.exception("projection batch failed", projection=name)
                await self._pause(self.poll_interval)
                if self._stopping.is_set():
                    break
                if self._wake.is_set():
                    # Every command notifies: under load, one batch per burst, not per commit.
                    await asyncio.sleep(self.wake_delay)
                else:
                    # Idle: make sure the lock's connection (and so the lock) is still alive.
                    await conn.fetchval("SELECT 1")
        finally:
            self._leading.clear()
            if not conn.is_closed():
                with contextlib.suppress(OSError, asyncpg.PostgresError, asyncpg.InterfaceError):
                    await conn.execute("SELECT pg_advisory_unlock_all()")
                await conn.close()

    def _notified(self, *_: Any) -> None:
        self._wake.set()
