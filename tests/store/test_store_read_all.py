"""Why ``read_all`` uses the xid8 rule: a deterministic out-of-order commit."""

from __future__ import annotations

import asyncio
import uuid
from typing import TypeAlias

import asyncpg
import msgspec

from russian_poker.events.postgres import store
from russian_poker.events.records import NewEvent, Position, RecordedEvent, StreamAppend

Pool: TypeAlias = "asyncpg.Pool[asyncpg.Record]"

_NAIVE = "SELECT global_position FROM events WHERE global_position > $1 ORDER BY global_position"


def _append(stream_id: str) -> StreamAppend:
    event = NewEvent(
        event_id=uuid.uuid4(), event_type="Happened", schema_version=1, data=msgspec.json.encode({})
    )
    return StreamAppend(stream_id=stream_id, expected_version=0, events=[event])


async def _read_until(
    conn: asyncpg.pool.PoolConnectionProxy[asyncpg.Record], count: int
) -> list[RecordedEvent]:
    # Another session on the server (an xdist worker, say) may hold the horizon back for a
    # moment; the rule guarantees it moves once that transaction ends.
    seen: list[RecordedEvent] = []
    position = Position.start()
    async with asyncio.timeout(30):
        while len(seen) < count:
            page = await store.read_all(conn, position)
            seen.extend(page)
            position = page[-1].position if page else position
            await asyncio.sleep(0 if page else 0.01)
    return seen


async def test_naive_reader_skips_what_read_all_waits_for(pool: Pool) -> None:
    async with pool.acquire() as early, pool.acquire() as late, pool.acquire() as reader:
        slow = early.transaction()
        await slow.start()
        [first] = await store.append(early, [_append("early")])
        [second] = await store.append(late, [_append("late")])  # commits straight away
        assert first.global_position < second.global_position

        # The later position is visible while the earlier one is still uncommitted.
        naive_seen = [row[0] for row in await reader.fetch(_NAIVE, 0)]
        assert naive_seen == [second.global_position]
        assert await store.read_all(reader, Position.start()) == []

        await slow.commit()

        # A naive reader checkpointed at the later position never sees the earlier event ...
        assert await reader.fetch(_NAIVE, naive_seen[-1]) == []
        # ... while read_all hands out both, in transaction order.
        seen = await _read_until(reader, 2)
        assert [e.event_id for e in seen] == [first.event_id, second.event_id]
        assert await store.read_all(reader, seen[-1].position) == []
