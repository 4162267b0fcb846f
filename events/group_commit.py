"""Group commit: appends that are ready at the same moment share one statement.

Each caller hands over an append and waits for its own outcome. While fewer than
``flushers`` statements are in flight, an append goes straight to the database, alone, as
:func:`events.store.append` would run it: an idle service pays nothing. Appends that arrive
while every flusher is busy queue up, and the next flusher to be free takes them all (up to
``max_batch``) into one statement (:mod:`events.batch`). There is no artificial delay: a
batch is what queued while the previous statements were in flight.

Isolation is per append:

- A batch never holds two appends of one stream: a later one waits for the next batch, so
  a batch never conflicts with itself, and no row is written twice in one statement.
- If a batch's statement fails, nothing of it was written; each of its appends is run again
  alone, so a conflict, a duplicate command or any other error reaches only the append it
  belongs to, as it would have without batching.
- A lost connection leaves a batch's outcome unknown, as it leaves a single append's: each
  of its callers gets the error, and a retry under the same command id finds out
  (``DuplicateCommand``) — never guessed.

Durability is unchanged: each statement commits on its own (``synchronous_commit`` as
configured), and a caller hears of its append only once the statement has returned.

A caller that stops waiting (its request was cancelled) does not stop the flush: the batch
runs in its own task, so the others in it are not failed by someone else's disconnect.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Sequence
from typing import Any, Final

import asyncpg
from prometheus_client import Histogram

from events.batch import BatchItem, append_alone, append_batch
from events.records import RecordedEvent

__all__ = ["GROUP_SIZE", "GroupCommit"]

GROUP_SIZE: Final = Histogram(
    "russian_poker_group_commit_size",
    "Appends per statement of the command path's group commit.",
    buckets=(1, 2, 3, 4, 6, 8, 12, 16),
)


class _Waiting:
    __slots__ = ("future", "item", "since")

    def __init__(
        self, item: BatchItem, future: asyncio.Future[list[RecordedEvent]], since: float
    ) -> None:
        self.item = item
        self.future = future
        self.since = since


class GroupCommit:
    """Appends through a pool, batched when they queue (see the module's docstring)."""

    def __init__(
        self,
        pool: asyncpg.Pool[asyncpg.Record],
        *,
        max_batch: int = 4,
        flushers: int = 2,
        most_flushers: int = 8,
        relief_s: float = 0.01,
    ) -> None:
        if max_batch < 1 or not 1 <= flushers <= most_flushers:
            raise ValueError("max_batch is at least 1, and 1 <= flushers <= most_flushers")
        self._pool = pool
        self._max_batch = max_batch
        self._flushers = flushers
        self._most = most_flushers
        self._relief_s = relief_s
        self._relief: asyncio.TimerHandle | None = None
        self._busy = 0
        self._queue: deque[_Waiting] = deque()
        self._tasks: set[asyncio.Task[None]] = set()

    async def append(self, item: BatchItem) -> list[RecordedEvent]:
        """Append ``item``; raises what :func:`events.store.append` raises for it."""
        if self._busy < self._flushers and not self._queue:
            self._busy += 1
            try:
                async with self._pool.acquire() as conn:
                    return await append_alone(conn, item)
            finally:
                self._busy -= 1
                self._start_flushers()
        loop = asyncio.get_running_loop()
        waiting = _Waiting(item, loop.create_future(), loop.time())
        self._queue.append(waiting)
        self._start_flushers()
        self._arm_relief()
        # Shielded: a cancelled caller stops waiting, its append still runs with the batch.
        return await asyncio.shield(waiting.future)

    async def alone_on(self, conn: Any, item: BatchItem) -> list[RecordedEvent] | None:
        """Append ``item`` on ``conn`` now if a flusher is free and nothing queues (the
        caller's own connection: no second one taken); ``None`` if it must queue instead
        (the caller then releases ``conn`` and awaits :meth:`append`)."""
        if self._busy >= self._flushers or self._queue:
            return None
        self._busy += 1
        try:
            return await append_alone(conn, item)
        finally:
            self._busy -= 1
            self._start_flushers()

    async def close(self) -> None:
        """Wait for the batches in flight (at shutdown, before the pool closes)."""
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    def _start_flushers(self) -> None:
        while self._queue and self._busy < self._flushers:
            self._start_flusher()

    def _start_flusher(self) -> None:
        self._busy += 1
        task = asyncio.create_task(self._drain())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _arm_relief(self) -> None:
        if self._relief is None and self._queue:
            self._relief = asyncio.get_running_loop().call_later(self._relief_s, self._relieve)

    def _relieve(self) -> None:
        """A statement that waits on a lock (another instance's transaction holding a
        stream) uses no CPU but holds its flusher: when the oldest queued append has waited
        ``relief_s``, one more flusher starts (up to ``most_flushers``), so one slow
        append does not stall every other table's."""
        self._relief = None
        if not self._queue:
            return
        stuck = self._queue[0].since <= asyncio.get_running_loop().time() - self._relief_s
        if stuck and self._busy < self._most:
            self._start_flusher()
        self._arm_relief()

    async def _drain(self) -> None:
        try:
            while self._queue:
                await self._flush(self._take())
        finally:
            self._busy -= 1
            self._start_flushers()

    def _take(self) -> list[_Waiting]:
        """Up to ``max_batch`` queued appends of disjoint streams, oldest first; the rest
        stay queued in their order. Sorted by shape, so that the statements' texts repeat
        (asyncpg and PostgreSQL keep a prepared statement per text)."""
        batch: list[_Waiting] = []
        streams: set[str] = set()
        kept: deque[_Waiting] = deque()
        while self._queue:
            waiting = self._queue.popleft()
            if len(batch) < self._max_batch and not waiting.item.streams & streams:
                batch.append(waiting)
                streams |= waiting.item.streams
            else:
                kept.append(waiting)
        self._queue = kept
        batch.sort(key=lambda w: w.item.shape)
        return batch

    async def _flush(self, batch: Sequence[_Waiting]) -> None:
        GROUP_SIZE.observe(len(batch))
        if len(batch) == 1:
            await self._alone(batch[0])
            return
        try:
            async with self._pool.acquire() as conn:
                outcomes = await append_batch(conn, [w.item for w in batch])
        except asyncpg.PostgresConnectionError as error:
            _fail(batch, error)  # the outcome of every append in it is unknown
            return
        except asyncpg.PostgresError:
            # Nothing of the batch was written (a conflict, a duplicate, a lock another
            # transaction held past the batch's lock_timeout): each append again, alone and
            # at once, each on its own connection, so one that waits delays no other.
            await asyncio.gather(*(self._alone(waiting) for waiting in batch))
            return
        except Exception as error:
            _fail(batch, error)
            return
        except BaseException:
            for waiting in batch:
                waiting.future.cancel()
            raise
        for waiting, recorded in zip(batch, outcomes, strict=True):
            if not waiting.future.done():
                waiting.future.set_result(recorded)

    async def _alone(self, waiting: _Waiting) -> None:
        """Append one queued item on its own and hand its outcome to its caller."""
        try:
            async with self._pool.acquire() as conn:
                recorded = await append_alone(conn, waiting.item)
        except Exception as error:
            _fail([waiting], error)
            return
        except BaseException:
            waiting.future.cancel()
            raise
        if not waiting.future.done():
            waiting.future.set_result(recorded)


def _fail(batch: Sequence[_Waiting], error: Exception) -> None:
    for waiting in batch:
        if not waiting.future.done():
            waiting.future.set_exception(error)
