"""The catch-up projection runner: one leader per projection, exactly-once application.

A projection is fed the store's events in commit-safe order (``events.postgres.store.read_all``),
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
from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from typing import Final, Protocol

import structlog

from russian_poker.events.postgres.pool import DATABASE_GONE
from russian_poker.events.postgres.projections import (
    DATABASE_ERRORS,
    Batch,
    ProjectionStore,
    ReadModels,
)
from russian_poker.events.records import RecordedEvent
from russian_poker.service.background import Backoff

__all__ = ["Batches", "Projection", "ProjectionRunner", "apply_batch"]

log = structlog.get_logger(__name__)

DEFAULT_POLL_INTERVAL: Final = 1.0
DEFAULT_BATCH_SIZE: Final = 500
DEFAULT_WAKE_DELAY: Final = 0.05


class Projection(Protocol):
    """A read model built from the global stream of events."""

    @property
    def name(self) -> str:
        """Its checkpoint's name; also picks its leadership lock."""
        ...

    async def apply(self, models: ReadModels, events: Sequence[RecordedEvent]) -> None:
        """Fold a batch into the read model, through ``models``, inside the batch's
        transaction."""
        ...

    async def reset(self, models: ReadModels) -> None:
        """Empty the read model (for a rebuild)."""
        ...


class Batches(Protocol):
    """Where batches come from: a runner's store, or a rebuild's connection."""

    def batch(self, name: str, limit: int) -> AbstractAsyncContextManager[Batch]:
        """The next batch after ``name``'s checkpoint, which moves past it on success."""
        ...


async def apply_batch(
    batches: Batches, projection: Projection, *, limit: int = DEFAULT_BATCH_SIZE
) -> int:
    """Apply the next batch after the checkpoint, in one transaction; the number applied."""
    async with batches.batch(projection.name, limit) as batch:
        if not batch.events:
            return 0
        await projection.apply(batch.models, batch.events)
        return len(batch.events)


class ProjectionRunner:
    """Keeps one projection caught up: ``start()``/``stop()`` in the service,
    ``run_until_caught_up()`` in tests and the CLI.

    ``store`` gives the batches (on its pool, or on a connection of its own) and the
    leadership lock with its ``LISTEN`` (always on a dedicated connection).
    """

    def __init__(
        self,
        projection: Projection,
        store: ProjectionStore,
        *,
        poll_interval: float = DEFAULT_POLL_INTERVAL,
        retry_interval: float | None = None,
        wake_delay: float = DEFAULT_WAKE_DELAY,
        batch_size: int = DEFAULT_BATCH_SIZE,
    ) -> None:
        """``poll_interval``: how often the leader looks for events without a NOTIFY;
        ``retry_interval`` (default: the same): how often a follower tries to lead;
        ``wake_delay``: how long a NOTIFY waits for more, so a burst is one batch."""
        self.projection = projection
        self.store = store
        self.poll_interval = poll_interval
        self.retry_interval = poll_interval if retry_interval is None else retry_interval
        self.wake_delay = wake_delay
        self.batch_size = batch_size
        self._task: asyncio.Task[None] | None = None
        self._stopping = asyncio.Event()
        self._wake = asyncio.Event()
        self._leading = asyncio.Event()
        self._backoff = Backoff(
            first=min(0.2, self.retry_interval), most=max(5.0, self.retry_interval)
        )
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

    async def run_until_caught_up(self) -> int:
        """Apply batches until none is left; the number of events applied."""
        total = 0
        while True:
            count = await apply_batch(self.store, self.projection, limit=self.batch_size)
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
        """Stop, giving leadership up; also closes the store's own connection."""
        self._stopping.set()
        self._wake.set()
        if self._task is not None:
            task, self._task = self._task, None
            await task
        await self.store.close()

    async def __aenter__(self) -> ProjectionRunner:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    async def _pause(self, seconds: float) -> None:
        """Sleep until woken, stopped, or ``seconds`` pass."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._wake.wait(), seconds)

    async def _run(self) -> None:
        backoff = self._backoff
        while not self._stopping.is_set():
            try:
                await self._lead_once()
            except DATABASE_GONE as error:
                delay = backoff.next_delay()
                log.warning(
                    "projection runner lost its connection",
                    projection=self.projection.name,
                    error=str(error) or type(error).__name__,
                    retry_in_s=round(delay, 2),
                )
                # Not _pause: a wake-up signalled before the connection broke would end it
                # at once, and the next attempt fail at once too, without end.
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._stopping.wait(), delay)

    async def _lead_once(self) -> None:
        """Win the lock (or keep trying), then catch up on every wake-up until stopped."""
        name = self.projection.name
        async with self.store.leadership(name) as leadership:
            try:
                while not await leadership.try_lead():
                    await self._pause(self.retry_interval)
                    if self._stopping.is_set():
                        return
                await leadership.listen(self._wake.set)
                self._leading.set()
                self._backoff.succeeded()
                log.info("projection leader", projection=name)
                while not self._stopping.is_set():
                    self._wake.clear()
                    try:
                        await self.run_until_caught_up()
                    except DATABASE_ERRORS:
                        raise
                    except Exception:
                        # A bug or an event the projection cannot take: stay leader, retry
                        # later (the checkpoint did not move), and say so loudly.
                        log.exception("projection batch failed", projection=name)
                    await self._pause(self.poll_interval)
                    if self._stopping.is_set():
                        break
                    if self._wake.is_set():
                        # Every command notifies: under load, one batch per burst, not per
                        # commit.
                        await asyncio.sleep(self.wake_delay)
                    else:
                        # Idle: make sure the lock's connection (and so the lock) is alive.
                        await leadership.ping()
            finally:
                self._leading.clear()
