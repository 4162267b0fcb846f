"""Racing writers and a catch-up reader against the real server.

Assertions never depend on timing: sleeps only shuffle commit order, and waits are bounded
loops on a condition that must eventually hold.
"""

from __future__ import annotations

import asyncio
import random
import uuid
from collections.abc import AsyncIterator
from typing import TypeAlias

import asyncpg
import msgspec
import pytest

from russian_poker.events.postgres import store
from russian_poker.events.postgres.pool import create_pool
from russian_poker.events.records import (
    NewEvent,
    Position,
    RecordedEvent,
    StreamAppend,
    WrongExpectedVersion,
)

Pool: TypeAlias = "asyncpg.Pool[asyncpg.Record]"

RACERS = 24
ROUNDS = 8
WRITERS = 16
TRANSACTIONS_PER_WRITER = 30
EVENTS_PER_TRANSACTION = 4
TOTAL = WRITERS * TRANSACTIONS_PER_WRITER * EVENTS_PER_TRANSACTION


def _event(n: int = 0) -> NewEvent:
    return NewEvent(
        event_id=uuid.uuid4(),
        event_type="Happened",
        schema_version=1,
        data=msgspec.json.encode({"n": n}),
    )


def _to(stream_id: str, expected: int, events: list[NewEvent]) -> StreamAppend:
    return StreamAppend(stream_id=stream_id, expected_version=expected, events=events)


@pytest.fixture
async def wide_pool(database_url: str, pool: Pool) -> AsyncIterator[Pool]:
    """A pool with a connection per concurrent actor (``pool`` has emptied the tables)."""
    wide = await create_pool(database_url, min_size=RACERS, max_size=RACERS)
    try:
        yield wide
    finally:
        await asyncio.wait_for(wide.close(), timeout=30)


async def test_racing_appenders_get_exactly_one_winner_per_version(wide_pool: Pool) -> None:
    winners: list[RecordedEvent] = []
    for version in range(ROUNDS):

        async def attempt(racer: int, expected: int = version) -> RecordedEvent | None:
            async with wide_pool.acquire() as conn:
                append = StreamAppend(
                    stream_id="contested", expected_version=expected, events=[_event(racer)]
                )
                try:
                    [recorded] = await store.append(conn, [append])
                except WrongExpectedVersion as lost:
                    assert lost.actual == expected + 1
                    return None
                return recorded

        results = await asyncio.gather(*(attempt(racer) for racer in range(RACERS)))
        round_winners = [r for r in results if r is not None]
        assert len(round_winners) == 1
        winners.extend(round_winners)

    async with wide_pool.acquire() as conn:
        stored = await store.read_stream(conn, "contested")
        assert await store.stream_version(conn, "contested") == ROUNDS
    assert [e.stream_version for e in stored] == list(range(1, ROUNDS + 1))
    assert [e.event_id for e in stored] == [w.event_id for w in winners]
    # Losers were turned away before the insert, so they consumed no identity values.
    assert [e.global_position for e in stored] == list(range(1, ROUNDS + 1))


async def test_catch_up_reader_sees_every_event_exactly_once(wide_pool: Pool) -> None:
    written: set[uuid.UUID] = set()
    seen: list[RecordedEvent] = []
    writers_done = asyncio.Event()

    async def writer(number: int) -> None:
        rng = random.Random(number)
        stream_id = f"writer-{number}"
        half = EVENTS_PER_TRANSACTION // 2
        async with wide_pool.acquire() as conn:
            for version in range(
                0, TRANSACTIONS_PER_WRITER * EVENTS_PER_TRANSACTION, EVENTS_PER_TRANSACTION
            ):
                batch = [_event(i) for i in range(EVENTS_PER_TRANSACTION)]
                async with conn.transaction():
                    await asyncio.sleep(rng.random() / 500)
                    # No NOTIFY: it would serialise the commits this test wants to overlap.
                    first, second = batch[:half], batch[half:]
                    await store.append(conn, [_to(stream_id, version, first)], notify=False)
                    await store.append(conn, [_to(stream_id, version + half, second)], notify=False)
                    # Holding the lower positions uncommitted while others commit is exactly
                    # what makes a naive `global_position > last` reader skip events.
                    await asyncio.sleep(rng.random() / 200)
                written.update(e.event_id for e in batch)

    async def reader() -> None:
        position = Position.start()
        async with wide_pool.acquire() as conn:
            while not (writers_done.is_set() and len(seen) >= TOTAL):
                page = await store.read_all(conn, position, limit=50)
                seen.extend(page)
                if page:
                    position = page[-1].position
                else:
                    await asyncio.sleep(0.001)

    reading = asyncio.create_task(reader())
    try:
        await asyncio.gather(*(writer(n) for n in range(WRITERS)))
        writers_done.set()
        # Generous bound on a condition that must hold; it only turns a hang into a failure.
        await asyncio.wait_for(reading, timeout=120)
    finally:
        reading.cancel()

    seen_ids = [e.event_id for e in seen]
    assert len(seen_ids) == len(written) == TOTAL
    assert set(seen_ids) == written
    assert [e.position for e in seen] == sorted(e.position for e in seen)
    async with wide_pool.acquire() as conn:
        assert await store.read_all(conn, seen[-1].position) == []
