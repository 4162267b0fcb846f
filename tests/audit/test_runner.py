"""The catch-up runner against a real PostgreSQL: leadership, wake-ups, exactly once."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path

import asyncpg
import pytest

from russian_poker.events.postgres.pool import create_pool
from russian_poker.events.postgres.projections import ProjectionStore, load_checkpoint
from russian_poker.events.postgres.rebuild import RebuildStore
from russian_poker.events.postgres.store import stream_version
from russian_poker.projections.audit import AuditProjection
from russian_poker.projections.rebuild import rebuild
from russian_poker.projections.runner import ProjectionRunner
from russian_poker.service.bootstrap import command_service, transfer_service
from tests.audit.bots import default_plans, fund_players, play_tables
from tests.audit.conftest import catch_up_fully
from tests.processes import (
    PrivatePostgres,
    create_database,
    drop_database,
    shared_private_postgres,
)

Pool = asyncpg.Pool


@pytest.fixture(scope="session")
def private_server(_embedded_server_root: Path) -> Iterator[PrivatePostgres]:
    with shared_private_postgres(_embedded_server_root) as server:
        yield server


@pytest.fixture
async def quiet_url(private_server: PrivatePostgres) -> AsyncIterator[str]:
    """A fresh database on this test process's own server: what the runner reads waits for
    nothing but this test's own transactions.

    A reader stops at the oldest transaction running anywhere on its server. On the shared
    one, another xdist worker's (or another run's) open transaction can hold it back just as
    the last NOTIFY arrives; the rest then waits for the next poll, a minute or an hour away.
    On a server of its own only the test itself writes.
    """
    private_server.ensure_up()
    url = await create_database(private_server.server_url, "runner")
    yield url
    private_server.ensure_up()
    await drop_database(private_server.server_url, url)


@pytest.fixture
async def quiet_db(quiet_url: str) -> AsyncIterator[asyncpg.Pool[asyncpg.Record]]:
    pool = await create_pool(quiet_url, min_size=1, max_size=8)
    try:
        yield pool
    finally:
        await asyncio.wait_for(pool.close(), timeout=10)


async def _eventually(condition: Callable[[], Awaitable[bool]], timeout: float, what: str) -> float:
    """Seconds until ``condition()`` holds; fails after ``timeout``."""
    started = time.monotonic()
    while not await condition():
        assert time.monotonic() - started < timeout, f"timed out waiting for {what}"
        await asyncio.sleep(0.02)
    return time.monotonic() - started


async def _rounds(pool: asyncpg.Pool[asyncpg.Record]) -> int:
    count: int = await pool.fetchval("SELECT count(*) FROM audit_rounds WHERE seed IS NOT NULL")
    return count


async def _settled(pool: asyncpg.Pool[asyncpg.Record]) -> int:
    count: int = await pool.fetchval(
        "SELECT count(*) FROM events WHERE event_type = 'RoundSettled'"
    )
    return count


async def test_one_leader_and_takeover_on_stop(
    quiet_db: asyncpg.Pool[asyncpg.Record], quiet_url: str
) -> None:
    db, database_url = quiet_db, quiet_url
    plans = default_plans(2, prefix="lead")
    await fund_players(transfer_service(db), plans)
    # Polling every minute: anything quicker than that was woken by NOTIFY.
    runners = [
        ProjectionRunner(
            AuditProjection(), ProjectionStore(database_url), poll_interval=60, retry_interval=0.05
        )
        for _ in range(2)
    ]
    for runner in runners:
        await runner.start()
    try:

        async def led() -> bool:
            return any(r.is_leader for r in runners)

        await _eventually(led, 60, "a leader")
        await asyncio.sleep(0.3)  # the follower keeps trying meanwhile, and must keep failing
        assert sum(r.is_leader for r in runners) == 1
        leader, follower = sorted(runners, key=lambda r: not r.is_leader)

        await play_tables(command_service(db), db, plans, 3)
        settled = await _settled(db)
        await _eventually(lambda: _matches(db, settled), 60, "the leader to catch up by NOTIFY")
        assert leader.applied > 0 and follower.applied == 0

        await leader.stop()
        assert await follower.wait_until_leader(60), "the follower did not take over"
        await play_tables(command_service(db), db, plans[:1], 2, seed=7)
        settled = await _settled(db)
        await _eventually(lambda: _matches(db, settled), 60, "the new leader to catch up")
        assert follower.applied > 0
    finally:
        for runner in runners:
            await runner.stop()
    async with db.acquire() as conn:
        report = await rebuild(RebuildStore(conn), "audit")
    assert not report.differed, report.details


async def _matches(pool: asyncpg.Pool[asyncpg.Record], settled: int) -> bool:
    return await _rounds(pool) == settled


async def test_notify_wakes_the_leader_at_once(
    quiet_db: asyncpg.Pool[asyncpg.Record], quiet_url: str
) -> None:
    db, database_url = quiet_db, quiet_url
    plans = default_plans(1, prefix="wake")
    await fund_players(transfer_service(db), plans)
    runner = ProjectionRunner(AuditProjection(), ProjectionStore(database_url), poll_interval=3600)
    await runner.start()
    try:
        assert await runner.wait_until_leader(60)
        await play_tables(command_service(db), db, plans, 1)
        settled = await _settled(db)
        # The poll would wait an hour: catching up within the bounded wait means NOTIFY.
        await _eventually(lambda: _matches(db, settled), 60, "a NOTIFY wake-up")
    finally:
        await runner.stop()
    assert not runner.is_leader


async def test_polling_finds_events_that_sent_no_notify(
    quiet_db: asyncpg.Pool[asyncpg.Record], quiet_url: str
) -> None:
    db, database_url = quiet_db, quiet_url
    runner = ProjectionRunner(AuditProjection(), ProjectionStore(database_url), poll_interval=0.1)
    await runner.start()
    try:
        assert await runner.wait_until_leader(60)
        # Written around the store's append function, so no NOTIFY is sent.
        await db.execute(
            """
            INSERT INTO events (stream_id, stream_version, event_id, event_type, schema_version,
                                data)
            VALUES ('wallet-quiet', 1, $1, 'WalletOpened', 1,
                    '{"type": "WalletOpened", "wallet_id": "quiet", "currency": "EUR"}')
            """,
            uuid.uuid4(),
        )
        last: int = await db.fetchval("SELECT max(global_position) FROM events")

        async def reached() -> bool:
            async with db.acquire() as conn:
                checkpoint = await load_checkpoint(conn, "audit")
            return checkpoint.global_position == last

        await _eventually(reached, 60, "the poll")
    finally:
        await runner.stop()


async def test_concurrent_catch_ups_apply_each_event_once(
    quiet_db: asyncpg.Pool[asyncpg.Record], quiet_url: str
) -> None:
    """No leader at all: the checkpoint's row lock alone keeps batches from overlapping."""
    db, database_url = quiet_db, quiet_url
    plans = default_plans(3, prefix="race")
    await fund_players(transfer_service(db), plans)
    runners = [
        ProjectionRunner(AuditProjection(), ProjectionStore(database_url), batch_size=7)
        for _ in range(3)
    ]
    playing = asyncio.create_task(play_tables(command_service(db), db, plans, 4))
    while not playing.done():
        await asyncio.gather(*(r.run_until_caught_up() for r in runners))
    await playing
    await catch_up_fully(runners[0], db)
    for runner in runners:
        await runner.stop()
    total = await db.fetchval("SELECT count(*) FROM events")
    assert sum(r.applied for r in runners) == total
    assert await _rounds(db) == await _settled(db) == 12
    async with db.acquire() as conn:
        report = await rebuild(RebuildStore(conn), "audit")
        assert await stream_version(conn, "table-race0") > 0
    assert not report.differed, report.details
