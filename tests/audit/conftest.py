"""Fixtures for the audit tests: a database with a thousand random rounds, played once.

The played database is this package's own (not the session's shared one, which other
test packages truncate), created on the same server and dropped at the end. Durability is
irrelevant to a throwaway test database, so it runs with ``synchronous_commit = off``.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass

import asyncpg
import pytest

from russian_poker.events.postgres.migrate import migrate
from russian_poker.events.postgres.pool import create_pool
from russian_poker.events.postgres.projections import ProjectionStore
from russian_poker.projections.audit import AuditProjection
from russian_poker.projections.runner import ProjectionRunner
from russian_poker.service.bootstrap import command_service, transfer_service
from tests.api.conftest import api  # noqa: F401  (the round viewer's API on a real port)
from tests.audit.bots import (
    TablePlan,
    default_plans,
    fund_players,
    leave_rounds_open,
    play_tables,
)
from tests.conftest import with_database
from tests.service.conftest import truncate_everything

TABLES = 10
ROUNDS_PER_TABLE = 100

Pool = asyncpg.Pool  # the fixtures' pools are always Pool[Record]


@dataclass(frozen=True)
class Played:
    url: str
    pool: asyncpg.Pool[asyncpg.Record]
    plans: list[TablePlan]
    rounds: int
    commands: int
    seconds: float
    open_rounds: list[tuple[str, int]]
    """One unsettled round per table, dealt and drawn on."""


async def _create_database(server_url: str, prefix: str) -> tuple[str, str]:
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    admin = await asyncpg.connect(server_url)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
        await admin.execute(f'ALTER DATABASE "{name}" SET synchronous_commit = off')
    finally:
        await admin.close()
    url = with_database(server_url, name)
    conn = await asyncpg.connect(url)
    try:
        await migrate(conn)
    finally:
        await conn.close()
    return name, url


async def _drop_database(server_url: str, name: str) -> None:
    admin = await asyncpg.connect(server_url)
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await admin.close()


@pytest.fixture(scope="session")
async def played(server_url: str) -> AsyncIterator[Played]:
    """``TABLES`` x ``ROUNDS_PER_TABLE`` bot rounds, with the audit runner following live."""
    name, url = await _create_database(server_url, "audit")
    pool = await create_pool(url, min_size=4, max_size=16)
    try:
        plans = default_plans(TABLES)
        await fund_players(transfer_service(pool), plans)
        handler = command_service(pool)
        # The runner reads while the bots write: what it builds must equal a rebuild.
        runner = ProjectionRunner(AuditProjection(), ProjectionStore(url), poll_interval=0.2)
        await runner.start()
        started = time.perf_counter()
        try:
            rounds, commands = await play_tables(handler, pool, plans, ROUNDS_PER_TABLE)
        finally:
            seconds = time.perf_counter() - started
            await runner.stop()
        open_rounds = await leave_rounds_open(handler, pool, plans)
        yield Played(url, pool, plans, rounds, commands, seconds, open_rounds)
    finally:
        await asyncio.wait_for(pool.close(), timeout=10)
        await _drop_database(server_url, name)


@pytest.fixture
async def db(database_url: str) -> AsyncIterator[asyncpg.Pool[asyncpg.Record]]:
    """The session database, emptied, for tests that play a few rounds of their own."""
    pool = await create_pool(database_url, min_size=1, max_size=8)
    await truncate_everything(pool)
    try:
        yield pool
    finally:
        await asyncio.wait_for(pool.close(), timeout=10)


async def catch_up_fully(
    runner: ProjectionRunner, pool: asyncpg.Pool[asyncpg.Record], timeout: float = 30.0
) -> None:
    """Run until the checkpoint (which the first pass creates) is past every stored event.

    ``run_until_caught_up`` stops at the oldest transaction still running anywhere on the
    server (other test databases included), so one pass may stop short; this waits it out.
    """
    deadline = time.monotonic() + timeout
    while True:
        await runner.run_until_caught_up()
        async with pool.acquire() as conn:
            behind = await conn.fetchval(
                """
                SELECT count(*) FROM events AS e, projection_checkpoints AS c
                WHERE c.name = $1 AND (e.tx_id, e.global_position) > (c.tx_id, c.global_position)
                """,
                runner.projection.name,
            )
        if behind == 0:
            return
        assert time.monotonic() < deadline, f"runner still {behind} events behind"
        await asyncio.sleep(0.05)
