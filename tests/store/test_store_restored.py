"""A database restored onto a server whose transaction counter is behind the dump's ids
(events.postgres.restored): before the catch-up, the restored events are invisible to
``read_all`` and a new event sorts before them; after it, the store reads as on the server
the dump came from."""

from __future__ import annotations

import asyncio
import uuid

import asyncpg
import msgspec
import pytest

from russian_poker.events.postgres import store
from russian_poker.events.postgres.migrate import migrate
from russian_poker.events.postgres.restored import (
    MOST_TO_ADVANCE,
    RestoredAhead,
    catch_up_transaction_ids,
)
from russian_poker.events.records import NewEvent, Position, RecordedEvent, StreamAppend

AHEAD = 300_000
"""How far the 'other server' had gone: a dump of a casino's first weeks."""


def _append(stream_id: str) -> StreamAppend:
    event = NewEvent(
        event_id=uuid.uuid4(), event_type="Happened", schema_version=1, data=msgspec.json.encode({})
    )
    return StreamAppend(stream_id=stream_id, expected_version=0, events=[event])


async def _as_if_restored(conn: asyncpg.Connection, ahead: int) -> None:  # type: ignore[type-arg]
    # What pg_dump carries and the new server never handed out: ids past its counter.
    await conn.execute(
        "UPDATE events SET tx_id = (pg_current_xact_id()::text::bigint + $1)::text::xid8",
        ahead,
    )


async def _read(conn: asyncpg.Connection, after: Position) -> list[RecordedEvent]:  # type: ignore[type-arg]
    """What read_all hands out after ``after``, once there is any: another session on the
    server (an xdist worker) may hold the horizon back for a moment."""
    async with asyncio.timeout(30):
        while not (page := await store.read_all(conn, after)):
            await asyncio.sleep(0.01)
    return page


async def test_restored_events_are_read_and_new_ones_follow_them(scratch_database: str) -> None:
    conn = await asyncpg.connect(scratch_database)
    try:
        await migrate(conn)
        [restored] = await store.append(conn, [_append("restored")])
        await _as_if_restored(conn, AHEAD)
        assert await store.read_all(conn, Position.start()) == []  # "in the future"

        # Other sessions take ids meanwhile (xdist workers): at most AHEAD are needed.
        assert 0 < await catch_up_transaction_ids(conn) <= AHEAD + 1

        [seen] = await _read(conn, Position.start())
        assert seen.event_id == restored.event_id
        [new] = await store.append(conn, [_append("after the restore")])
        # Behind a reader's cursor it would be skipped; it comes after the restored one.
        assert [e.event_id for e in await _read(conn, seen.position)] == [new.event_id]
        assert await catch_up_transaction_ids(conn) == 0  # nothing more to do
    finally:
        await conn.close()


async def test_a_dump_too_far_ahead_names_pg_resetwal(scratch_database: str) -> None:
    conn = await asyncpg.connect(scratch_database)
    try:
        await migrate(conn)
        await store.append(conn, [_append("restored")])
        # Well past the limit: other sessions' ids taken meanwhile must not bring it under.
        await _as_if_restored(conn, MOST_TO_ADVANCE + 10_000_000)
        with pytest.raises(RestoredAhead, match="pg_resetwal --epoch"):
            await catch_up_transaction_ids(conn)
    finally:
        await conn.close()
