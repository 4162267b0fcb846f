"""PostgreSQL-specific behaviour of the store: transactions, the backstop, sessions."""

from __future__ import annotations

import uuid
from typing import TypeAlias

import asyncpg
import msgspec
import pytest

from russian_poker.events.postgres import store
from russian_poker.events.postgres.pool import connect
from russian_poker.events.records import NewEvent, StreamAppend, WrongExpectedVersion

Pool: TypeAlias = "asyncpg.Pool[asyncpg.Record]"


def _event(n: int = 0) -> NewEvent:
    return NewEvent(
        event_id=uuid.uuid4(),
        event_type="Happened",
        schema_version=1,
        data=msgspec.json.encode({"n": n}),
    )


def _to(stream_id: str, expected: int | None, *events: NewEvent) -> StreamAppend:
    return StreamAppend(stream_id=stream_id, expected_version=expected, events=events)


async def test_append_joins_the_callers_transaction(pool: Pool) -> None:
    async with pool.acquire() as conn:
        with pytest.raises(RuntimeError):
            async with conn.transaction():
                await store.append(conn, [_to("rolled-back", 0, _event())])
                assert await store.stream_version(conn, "rolled-back") == 1
                raise RuntimeError("caller gives up")
        assert await store.stream_version(conn, "rolled-back") == 0
        assert await store.read_stream(conn, "rolled-back") == []

        async with conn.transaction():
            await store.append(conn, [_to("committed", 0, _event())])
            await conn.execute("CREATE TEMP TABLE caller_work (x int)")
        assert await store.stream_version(conn, "committed") == 1


async def test_losing_append_burns_no_position(pool: Pool) -> None:
    async with pool.acquire() as conn:
        first = await store.append(conn, [_to("s", 0, _event())])
        with pytest.raises(WrongExpectedVersion):
            await store.append(conn, [_to("s", 0, _event(), _event())])
        second = await store.append(conn, [_to("s", 1, _event())])

    assert second[0].global_position == first[0].global_position + 1


async def test_unique_slot_is_the_backstop_for_the_version_check(pool: Pool) -> None:
    async with pool.acquire() as conn:
        await store.append(conn, [_to("a, b", 0, _event(1), _event(2))])
        # Simulate `streams` falling behind `events`, which the version check cannot see.
        await conn.execute("UPDATE streams SET version = 1 WHERE stream_id = 'a, b'")

        with pytest.raises(WrongExpectedVersion) as raised:
            await store.append(conn, [_to("a, b", 1, _event(3))])

        assert (raised.value.stream_id, raised.value.expected, raised.value.actual) == (
            "a, b",
            1,
            None,
        )
        assert [e.stream_version for e in await store.read_stream(conn, "a, b")] == [1, 2]


async def test_event_data_is_queryable_jsonb(pool: Pool) -> None:
    async with pool.acquire() as conn:
        await store.append(conn, [_to("s", 0, _event(7))])
        assert await conn.fetchval("SELECT data->>'n' FROM events") == "7"
        assert await conn.fetchval("SELECT metadata FROM events") == "{}"


async def test_store_sessions_bound_idle_transactions(database_url: str, pool: Pool) -> None:
    async with pool.acquire() as conn:
        assert await conn.fetchval("SHOW idle_in_transaction_session_timeout") == "10s"
    single = await connect(database_url, idle_in_transaction_timeout=2.5)
    try:
        assert await single.fetchval("SHOW idle_in_transaction_session_timeout") == "2500ms"
    finally:
        await single.close()


async def test_read_all_is_served_by_the_tx_id_index(pool: Pool) -> None:
    async with pool.acquire() as conn:
        await conn.execute("SET enable_seqscan = off")
        plan = await conn.fetch(
            "EXPLAIN (FORMAT TEXT) SELECT global_position FROM events "
            "WHERE (tx_id, global_position) > ('5'::xid8, 7) "
            "AND tx_id < pg_snapshot_xmin(pg_current_snapshot()) "
            "ORDER BY tx_id, global_position LIMIT 100"
        )
        await conn.execute("RESET enable_seqscan")

    assert "events_tx_id_global_position_idx" in "\n".join(row[0] for row in plan)
