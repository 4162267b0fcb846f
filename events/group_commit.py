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

from events.batch import BatchItem, append_batch
from events.records import RecordedEvent
from events.store import append

__all__ = ["GROUP_SIZE", "GroupCommit"]

GROUP_SIZE: Final = Histogram(
    "russian_poker_group_commit_size",
    "Appends per statement of the command path's group commit.",
    buckets=(1, 2, 3, 4, 6, 8, 12, 16),
)


class _Waiting:
    __slots__ = ("future", "item")

    def __init__(self, item: BatchItem, future: asyncio.Future[list[RecordedEvent]]) -> None:
        self.item = item
        self.future = future


class GroupCommit:
    """Appends through a pool, batched when they queue (see the module's docstring)."""

    def __init__(
        self, pool: asyncpg.Pool[asyncpg.Record], *, max_batch: int = 4, flushers: int = 2
    ) -> None:
        if max_batch < 1 or flushers < 1:
            raise ValueError("max_batch and flushers are at least 1")
        self._pool = pool
        self._max_batch = max_batch
        self._flushers = flushers
        self._busy = 0
        self._queue: deque[_Waiting] = deque()
        self._tasks: set[asyncio.Task[None]] = set()

    async def append(self, item: BatchItem) -> list[RecordedEvent]:
        """Append ``item``; raises what :func:`events.store.append` raises for it."""
        if self._busy < self._flushers and not self._queue:
            self._busy += 1
            try:
                async with self._pool.acquire() as conn:
                    return await _alone(conn, item)
            finally:
                self._busy -= 1
                self._start_flushers()
        waiting = _Waiting(item, asyncio.get_running_loop().create_future())
        self._queue.append(waiting)
        self._start_flushers()
        # Shielded: a cancelled caller stops waiting, its append still runs with the batch.
        return await asyncio.shield(waiting.future)

    async def close(self) -> None:
        """Wait for the batches in flight (at shutdown, before the pool closes)."""
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    def _start_flushers(self) -> None:
        while self._queue and self._busy < self._flushers:
            self._busy += 1
            task = asyncio.create_task(self._drain())
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

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
        try:
            async with self._pool.acquire() as conn:
                if len(batch) == 1:
                    await _settle(batch[0], _alone(conn, batch[0].item))
                    return
                try:
                    outcomes = await append_batch(conn, [w.item for w in batch])
                except asyncpg.PostgresError:
                    # Nothing of the batch was written: each append again, on its own.
                    for waiting in batch:
                        await _settle(waiting, _alone(conn, waiting.item))
                    return
        except Exception as error:
            # The connection or the pool failed: every outcome of the batch is unknown.
            for waiting in batch:
                if not waiting.future.done():
                    waiting.future.set_exception(error)
            return
        except BaseException:
            for waiting in batch:
                waiting.future.cancel()
            raise
        for waiting, recorded in zip(batch, outcomes, strict=True):
            if not waiting.future.done():
                waiting.future.set_result(recorded)


async def _alone(conn: Any, item: BatchItem) -> list[RecordedEvent]:
    return await append(
        conn,
        item.appends,
        command_id=item.command_id,
        command_result=item.command_result,
        notify=False,
        side_writes=item.side_writes,
    )


async def _settle(waiting: _Waiting, outcome: Any) -> None:
    """Run ``outcome`` (one append) and hand its result or its error to its caller. A lost
    connection is raised instead: the caller of this fails the whole batch with it."""
    try:
        recorded = await outcome
    except _CONNECTION_LOST:
        raise
    except Exception as error:
        if not waiting.future.done():
            waiting.future.set_exception(error)
        return
    if not waiting.future.done():
        waiting.future.set_result(recorded)


_CONNECTION_LOST: Final = (OSError, asyncpg.InterfaceError, asyncpg.PostgresConnectionError)
