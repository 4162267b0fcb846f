"""Group commit against the real server: several appends in one statement, each isolated.

A batch is one statement, so its appends commit together; but what one append does wrong
(a stale expected version, a command id used before) fails that append alone, a stream is
never twice in one batch, a lost connection leaves every outcome to be found out by a retry
under the same command id (never guessed), and a caller that gives up does not fail the
others. Nothing here depends on timing: batches are forced by holding the only flusher busy.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from typing import TypeAlias

import asyncpg
import msgspec
import pytest

from events import store
from events.batch import BatchItem, append_batch, batch_statement
from events.group_commit import GROUP_SIZE, GroupCommit
from events.pool import create_pool
from events.records import DuplicateCommand, NewEvent, StreamAppend, WrongExpectedVersion
from events.store import SideWrites

Pool: TypeAlias = "asyncpg.Pool[asyncpg.Record]"


def _event(n: int = 0) -> NewEvent:
    return NewEvent(
        event_id=uuid.uuid4(),
        event_type="Happened",
        schema_version=1,
        data=msgspec.json.encode({"n": n}),
    )


def _item(stream: str, expected: int = 0) -> BatchItem:
    """One event appended to ``stream``, at ``expected``."""
    return BatchItem([StreamAppend(stream_id=stream, expected_version=expected, events=[_event()])])


def _stream() -> str:
    return f"group-{uuid.uuid4().hex[:12]}"


def _noted(stream: str, note: str) -> SideWrites:
    """A side write like the read models': a row per append, reading ``appended``."""
    writes = SideWrites()
    writes.add(
        "noted",
        f"INSERT INTO group_notes (stream_id, note, events)"
        f" SELECT {writes.param(stream)}, {writes.param(note)}, count(*) FROM appended"
        " HAVING count(*) > 0 RETURNING 1",
    )
    writes.add(
        "noted_again",
        f"INSERT INTO group_notes (stream_id, note, events)"
        f" SELECT {writes.param(stream)}, {writes.param(note + '+')}, (SELECT count(*) FROM noted)"
        " WHERE EXISTS (SELECT FROM appended)",
    )
    return writes


@pytest.fixture
async def notes(pool: Pool) -> AsyncIterator[Pool]:
    await pool.execute(
        "CREATE TABLE IF NOT EXISTS group_notes (stream_id text, note text, events bigint)"
    )
    yield pool


async def _versions(pool: Pool, streams: list[str]) -> dict[str, int]:
    rows = await pool.fetch(
        "SELECT stream_id, version FROM streams WHERE stream_id = ANY($1)", streams
    )
    return {row["stream_id"]: row["version"] for row in rows}


async def test_a_batch_appends_every_item_with_its_side_writes(notes: Pool) -> None:
    streams = [_stream() for _ in range(4)]
    items = [
        BatchItem(
            [StreamAppend(stream_id=s, expected_version=0, events=[_event(1), _event(2)])],
            command_id=f"cmd-{s}",
            command_result=b'{"ok": true}',
            side_writes=_noted(s, f"note {i}") if i % 2 == 0 else None,
        )
        for i, s in enumerate(streams)
    ]
    statement, _, _ = batch_statement(items)
    assert statement.count("event_store_append(") == 4
    async with notes.acquire() as conn:
        recorded = await append_batch(conn, items)
    assert [[e.stream_version for e in r] for r in recorded] == [[1, 2]] * 4
    assert [r[0].stream_id for r in recorded] == streams
    assert len({e.tx_id for r in recorded for e in r}) == 1  # one statement, one transaction
    assert await _versions(notes, streams) == dict.fromkeys(streams, 2)
    rows = await notes.fetch(
        "SELECT stream_id, note, events FROM group_notes WHERE stream_id = ANY($1)"
        " ORDER BY stream_id, note",
        streams,
    )
    assert sorted((r["stream_id"], r["note"], r["events"]) for r in rows) == sorted(
        [
            (streams[0], "note 0", 2),
            (streams[0], "note 0+", 1),
            (streams[2], "note 2", 2),
            (streams[2], "note 2+", 1),
        ]
    )
    stored = await notes.fetchval(
        "SELECT result::text FROM commands WHERE command_id = $1", f"cmd-{streams[1]}"
    )
    assert msgspec.json.decode(stored) == {"ok": True}


async def test_a_failing_item_fails_the_whole_statement(notes: Pool) -> None:
    good, stale = _stream(), _stream()
    items = [
        _item(good, 0),
        _item(stale, 5),
    ]
    async with notes.acquire() as conn:
        with pytest.raises(asyncpg.PostgresError):
            await append_batch(conn, items)
    assert await _versions(notes, [good, stale]) == {}


class _Held:
    """Holds the group's only flusher busy until released, so the next appends queue."""

    def __init__(self, pool: Pool) -> None:
        self.pool = pool
        self.lock_id = uuid.uuid4().int % 2**31

    def item(self, stream: str) -> BatchItem:
        writes = SideWrites()
        # Data-modifying, so it runs although nothing reads it; it waits on the lock.
        writes.add(
            "held",
            "INSERT INTO group_notes (stream_id, note, events)"
            f" SELECT {writes.param(stream)}, 'held', 0"
            f" FROM (SELECT 1 FROM appended LIMIT 1) AS a,"
            f" LATERAL pg_advisory_xact_lock_shared({writes.param(self.lock_id)})",
        )
        return BatchItem(
            [StreamAppend(stream_id=stream, expected_version=0, events=[_event()])],
            side_writes=writes,
        )


async def _waiting_on_lock(pool: Pool, lock_id: int) -> bool:
    found = await pool.fetchval(
        "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND objid = $1",
        lock_id,
    )
    return bool(found)


async def _held_busy(
    pool: Pool, group: GroupCommit
) -> tuple[asyncpg.Connection, _Held, asyncio.Task]:  # type: ignore[type-arg]
    held = _Held(pool)
    blocker = await pool.acquire()
    await blocker.execute("SELECT pg_advisory_lock($1)", held.lock_id)
    first = asyncio.create_task(group.append(held.item(_stream())))
    for _ in range(600):
        if await _waiting_on_lock(pool, held.lock_id):
            break
        await asyncio.sleep(0.05)
    else:
        raise AssertionError("the first append never reached the database")
    return blocker, held, first


async def _release(pool: Pool, blocker: asyncpg.Connection, held: _Held) -> None:  # type: ignore[type-arg]
    await blocker.execute("SELECT pg_advisory_unlock($1)", held.lock_id)
    await pool.release(blocker)


def _batches() -> float:
    return sum(
        sample.value
        for metric in GROUP_SIZE.collect()
        for sample in metric.samples
        if sample.name.endswith("_count")
    )


async def test_appends_queued_meanwhile_go_in_one_statement(notes: Pool) -> None:
    pool = notes
    group = GroupCommit(pool, max_batch=8, flushers=1, most_flushers=1)
    blocker, held, first = await _held_busy(pool, group)
    before = _batches()
    streams = [_stream() for _ in range(6)]
    queued = [asyncio.create_task(group.append(_item(s, 0))) for s in streams]
    await asyncio.sleep(0)
    await _release(pool, blocker, held)
    recorded = await asyncio.gather(*queued)
    await first
    await group.close()
    assert len({r[0].tx_id for r in recorded}) == 1, "the six queued appends were not batched"
    assert _batches() == before + 1
    assert await _versions(pool, streams) == dict.fromkeys(streams, 1)


async def test_a_conflict_or_a_duplicate_fails_only_its_own_append(notes: Pool) -> None:
    pool = notes
    group = GroupCommit(pool, max_batch=8, flushers=1, most_flushers=1)
    used = f"used-{uuid.uuid4().hex}"
    done = _stream()
    await store.append(
        pool_conn := await pool.acquire(),
        [StreamAppend(stream_id=done, expected_version=0, events=[_event()])],
        command_id=used,
        command_result=b'{"first": true}',
    )
    await pool.release(pool_conn)
    blocker, held, first = await _held_busy(pool, group)
    good = [_stream() for _ in range(3)]
    stale = _stream()
    tasks = {
        "good0": group.append(_item(good[0], 0)),
        "stale": group.append(_item(stale, 3)),
        "good1": group.append(_item(good[1], 0)),
        "duplicate": group.append(
            BatchItem(
                [StreamAppend(stream_id=_stream(), expected_version=0, events=[_event()])],
                command_id=used,
                command_result=b'{"second": true}',
            )
        ),
        "good2": group.append(_item(good[2], 0)),
    }
    running = {name: asyncio.create_task(coro) for name, coro in tasks.items()}
    await asyncio.sleep(0)
    await _release(pool, blocker, held)
    outcomes = dict(
        zip(running, await asyncio.gather(*running.values(), return_exceptions=True), strict=True)
    )
    await first
    await group.close()
    assert isinstance(outcomes["stale"], WrongExpectedVersion)
    assert isinstance(outcomes["duplicate"], DuplicateCommand)
    assert msgspec.json.decode(outcomes["duplicate"].result) == {"first": True}
    for name in ("good0", "good1", "good2"):
        assert not isinstance(outcomes[name], BaseException), outcomes[name]
    assert await _versions(pool, [*good, stale]) == dict.fromkeys(good, 1)


async def test_two_appends_of_one_stream_never_share_a_batch(notes: Pool) -> None:
    pool = notes
    group = GroupCommit(pool, max_batch=8, flushers=1, most_flushers=1)
    blocker, held, first = await _held_busy(pool, group)
    stream = _stream()
    one = asyncio.create_task(
        group.append(
            BatchItem([StreamAppend(stream_id=stream, expected_version=0, events=[_event(1)])])
        )
    )
    two = asyncio.create_task(
        group.append(
            BatchItem([StreamAppend(stream_id=stream, expected_version=1, events=[_event(2)])])
        )
    )
    others = [asyncio.create_task(group.append(_item(_stream(), 0))) for _ in range(3)]
    await asyncio.sleep(0)
    await _release(pool, blocker, held)
    first_of_stream, second_of_stream = await one, await two
    await asyncio.gather(*others, first)
    await group.close()
    assert first_of_stream[0].stream_version == 1 and second_of_stream[0].stream_version == 2
    assert first_of_stream[0].tx_id != second_of_stream[0].tx_id
    assert await _versions(pool, [stream]) == {stream: 2}


async def test_a_caller_that_gives_up_does_not_stop_the_batch(notes: Pool) -> None:
    pool = notes
    group = GroupCommit(pool, max_batch=8, flushers=1, most_flushers=1)
    blocker, held, first = await _held_busy(pool, group)
    quitter, stayer = _stream(), _stream()
    gives_up = asyncio.create_task(group.append(_item(quitter, 0)))
    stays = asyncio.create_task(group.append(_item(stayer, 0)))
    await asyncio.sleep(0)
    gives_up.cancel()
    await _release(pool, blocker, held)
    assert (await stays)[0].stream_version == 1
    with pytest.raises(asyncio.CancelledError):
        await gives_up
    await first
    await group.close()
    # The cancelled caller's append was in the batch: it is committed all the same.
    assert await _versions(pool, [quitter, stayer]) == {quitter: 1, stayer: 1}


async def test_a_killed_batch_leaves_each_append_appended_once(
    notes: Pool, database_url: str
) -> None:
    pool = await create_pool(database_url, min_size=1, max_size=4)
    try:
        group = GroupCommit(pool, max_batch=8, flushers=1, most_flushers=1)
        blocker, held, first = await _held_busy(pool, group)
        # The batch behind the first append waits on a second lock, and is killed there.
        gate = _Held(pool)
        await blocker.execute("SELECT pg_advisory_lock($1)", gate.lock_id)
        streams = [_stream() for _ in range(3)]
        items = [
            BatchItem(
                [StreamAppend(stream_id=s, expected_version=0, events=[_event()])],
                command_id=f"lost-{s}",
                command_result=b"{}",
            )
            for s in streams
        ]
        queued = [asyncio.create_task(group.append(gate.item(_stream())))] + [
            asyncio.create_task(group.append(item)) for item in items
        ]
        await asyncio.sleep(0)
        await blocker.execute("SELECT pg_advisory_unlock($1)", held.lock_id)
        await first
        for _ in range(600):
            pid = await blocker.fetchval(
                "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
                " AND objid = $1",
                gate.lock_id,
            )
            if pid is not None:
                break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError("the batch never reached the database")
        await blocker.execute("SELECT pg_terminate_backend($1)", pid)
        outcomes = await asyncio.gather(*queued, return_exceptions=True)
        await blocker.execute("SELECT pg_advisory_unlock($1)", gate.lock_id)
        await pool.release(blocker)
        # The killed statement wrote nothing, so its appends were run again alone: each
        # caller heard either of its events, recorded once, or of an error. A retry under
        # the same command id settles the latter; none is appended twice.
        for item, outcome in zip(items, outcomes[1:], strict=True):
            async with pool.acquire() as conn:
                if isinstance(outcome, BaseException):
                    await store.append(
                        conn, item.appends, command_id=item.command_id, command_result=b"{}"
                    )
                else:
                    assert outcome[0].stream_version == 1
            async with pool.acquire() as conn:
                with pytest.raises(DuplicateCommand):
                    await store.append(
                        conn, item.appends, command_id=item.command_id, command_result=b"{}"
                    )
        assert await _versions(pool, streams) == dict.fromkeys(streams, 1)
        await group.close()
    finally:
        await pool.close()


async def test_an_append_stuck_on_a_lock_does_not_stall_the_others(notes: Pool) -> None:
    """Another instance's transaction holding a stream (here: a lock the only flusher waits
    on) must not stop the other tables' appends: a relief flusher takes them."""
    pool = notes
    group = GroupCommit(pool, max_batch=8, flushers=1, most_flushers=2)
    blocker, held, first = await _held_busy(pool, group)
    other = _stream()
    done = await group.append(_item(other, 0))
    assert done[0].stream_version == 1
    assert not first.done()  # the stuck one is still waiting on its lock
    await _release(pool, blocker, held)
    await first
    await group.close()


async def test_a_batch_does_not_wait_long_for_a_stream_another_transaction_holds(
    notes: Pool,
) -> None:
    """An append of a stream another instance's transaction holds must not hold up the
    appends batched with it: past the batch's lock_timeout each runs alone."""
    pool = notes
    group = GroupCommit(pool, max_batch=8, flushers=1, most_flushers=1)
    busy = _stream()
    async with pool.acquire() as conn:
        await store.append(
            conn, [StreamAppend(stream_id=busy, expected_version=0, events=[_event()])]
        )
    holder = await pool.acquire()
    holding = holder.transaction()
    await holding.start()
    await holder.execute("SELECT FROM streams WHERE stream_id = $1 FOR UPDATE", busy)
    blocker, held, first = await _held_busy(pool, group)
    stuck = asyncio.create_task(group.append(_item(busy, 1)))
    free = [_stream() for _ in range(3)]
    others = [asyncio.create_task(group.append(_item(s, 0))) for s in free]
    await asyncio.sleep(0)
    await _release(pool, blocker, held)
    await first
    recorded = await asyncio.gather(*others)
    assert [r[0].stream_version for r in recorded] == [1, 1, 1]
    assert not stuck.done()  # still waiting, alone, for the other transaction
    await holding.rollback()
    await pool.release(holder)
    assert (await stuck)[0].stream_version == 2
    await group.close()
