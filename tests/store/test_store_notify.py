"""Appends wake LISTENers once committed, one notification per touched stream.

Absence is shown without timing: notifications arrive in commit order, so once a marker
appended later has arrived, anything that was going to arrive before it has.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from typing import TypeAlias

import asyncpg
import msgspec
import pytest

from russian_poker.events.postgres import store
from russian_poker.events.postgres.notify import Notifier
from russian_poker.events.postgres.pool import connect, create_pool
from russian_poker.events.records import NewEvent, StreamAppend, WrongExpectedVersion

Pool: TypeAlias = "asyncpg.Pool[asyncpg.Record]"


class Listener:
    """Collects payloads from the store's channel on a dedicated connection."""

    def __init__(self) -> None:
        self.payloads: list[str] = []
        self._changed = asyncio.Event()

    def on_notify(self, _conn: object, _pid: int, _channel: str, payload: object) -> None:
        self.payloads.append(str(payload))
        self._changed.set()

    async def wait_for(self, payload: str) -> list[str]:
        """Everything received up to and including ``payload``."""
        async with asyncio.timeout(30):
            while payload not in self.payloads:
                self._changed.clear()
                await self._changed.wait()
        return self.payloads[: self.payloads.index(payload) + 1]


@pytest.fixture
async def listener(database_url: str) -> AsyncIterator[Listener]:
    conn = await connect(database_url)
    listening = Listener()
    await conn.add_listener(store.NOTIFY_CHANNEL, listening.on_notify)
    try:
        yield listening
    finally:
        await conn.close()


def _to(stream_id: str, expected: int | None) -> StreamAppend:
    event = NewEvent(
        event_id=uuid.uuid4(), event_type="Happened", schema_version=1, data=msgspec.json.encode({})
    )
    return StreamAppend(stream_id=stream_id, expected_version=expected, events=[event])


async def test_each_touched_stream_is_notified_only_after_commit(
    pool: Pool, listener: Listener
) -> None:
    async with pool.acquire() as writer, pool.acquire() as other:
        transaction = writer.transaction()
        await transaction.start()
        await store.append(writer, [_to("round-1", 0), _to("wallet-1", None)])

        await store.append(other, [_to("marker-1", 0)])
        assert await listener.wait_for("marker-1") == ["marker-1"]

        await transaction.commit()
        await listener.wait_for("wallet-1")
        assert sorted(listener.payloads[1:]) == ["round-1", "wallet-1"]


async def test_failed_append_notifies_nobody(pool: Pool, listener: Listener) -> None:
    async with pool.acquire() as conn:
        await store.append(conn, [_to("taken", 0)])
        with pytest.raises(WrongExpectedVersion):
            await store.append(conn, [_to("fresh", 0), _to("taken", 0)])
        await store.append(conn, [_to("marker-2", 0)])

    assert await listener.wait_for("marker-2") == ["taken", "marker-2"]


async def test_hot_path_notifies_after_its_own_commit(pool: Pool, listener: Listener) -> None:
    async with pool.acquire() as conn:
        async with conn.transaction():
            recorded = await store.append(conn, [_to("quiet", 0)], notify=False)
        await store.append(conn, [_to("marker-3", 0)])
        assert await listener.wait_for("marker-3") == ["marker-3"]

        await store.notify(conn, (e.stream_id for e in recorded))
        assert await listener.wait_for("quiet") == ["marker-3", "quiet"]


async def test_the_notifier_sends_each_queued_stream_once_in_one_batch(
    pool: Pool, listener: Listener
) -> None:
    notifier = Notifier(pool)
    # Queued in one turn of the event loop, as by commands finishing together.
    notifier.notify(["table-2", "wallet-a"])
    notifier.notify(["wallet-a", "table-1"])
    await notifier.close()
    async with pool.acquire() as conn:
        await store.append(conn, [_to("marker-2", 0)])
    received = await listener.wait_for("marker-2")
    # One statement: the three wake-ups arrive together, sorted, each once.
    assert received == ["table-1", "table-2", "wallet-a", "marker-2"]


async def test_the_notifier_gives_up_quietly_when_the_database_is_gone(
    database_url: str, listener: Listener
) -> None:
    closed = await create_pool(database_url, min_size=1, max_size=1)
    await closed.close()
    notifier = Notifier(closed)
    notifier.notify(["table-1"])
    await notifier.close()  # a wake-up is a hint: lost, not raised
    notifier.notify(["table-2"])  # and the next one is tried again
    await notifier.close()
    assert listener.payloads == []
