"""Shared fixtures: a real, migrated PostgreSQL database for the whole test session.

The server is, in order of preference: ``TEST_DATABASE_URL`` or ``DATABASE_URL``; a server
already accepting connections on ``127.0.0.1:5432``; an embedded one started with
``pgserver``. Either way each session (each xdist worker) gets its own freshly created
database, dropped again at the end, so runs never see each other's rows.
"""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Final
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import pytest

from events.migrate import migrate
from events.pool import create_pool

LOCAL_SERVER_URL: Final = "postgresql://postgres@127.0.0.1:5432/postgres"

STORE_TABLES: Final = (
    "events",
    "streams",
    "commands",
    "idempotency_keys",
    "projection_checkpoints",
    "snapshots",
)
"""Tables the ``pool`` fixture empties before each test."""


def with_database(url: str, database: str) -> str:
    """``url`` pointing at ``database`` instead (query, e.g. a socket ``host``, is kept)."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{database}"))


async def _accepts_connections(url: str) -> bool:
    try:
        conn = await asyncpg.connect(url, timeout=3)
    except (OSError, asyncpg.PostgresError, TimeoutError):
        return False
    await conn.close()
    return True


@pytest.fixture(scope="session")
def _embedded_server_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # Under xdist every worker has its own basetemp below a shared parent; pgserver shares a
    # data directory between processes and stops the server when the last one exits.
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@pytest.fixture(scope="session")
async def server_url(_embedded_server_root: Path) -> AsyncIterator[str]:
    """A URL of a PostgreSQL server on which the tests may create databases."""
    configured = os.environ.get("TEST_DATABASE_URL") or os.environ.get("DATABASE_URL")
    if configured:
        yield configured
    elif await _accepts_connections(LOCAL_SERVER_URL):
        yield LOCAL_SERVER_URL
    else:
        import pgserver  # type: ignore[import-untyped]  # only needed when nothing runs

        server = pgserver.get_server(_embedded_server_root / "pgdata", cleanup_mode="stop")
        yield str(server.get_uri())
        server.cleanup()


@pytest.fixture(scope="session")
async def database_url(server_url: str) -> AsyncIterator[str]:
    """A fresh, migrated database for this test session (or xdist worker)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    name = f"test_{worker}_{uuid.uuid4().hex[:12]}"
    admin = await asyncpg.connect(server_url)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    url = with_database(server_url, name)
    conn = await asyncpg.connect(url)
    try:
        await migrate(conn)
    finally:
        await conn.close()
    yield url
    admin = await asyncpg.connect(server_url)
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await admin.close()


@pytest.fixture
async def scratch_database(server_url: str) -> AsyncIterator[str]:
    """An empty, unmigrated database for one test (migration tests), dropped afterwards."""
    name = f"scratch_{uuid.uuid4().hex[:12]}"
    admin = await asyncpg.connect(server_url)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
        yield with_database(server_url, name)
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await admin.close()


@pytest.fixture
async def pool(database_url: str) -> AsyncIterator[asyncpg.Pool[asyncpg.Record]]:
    """A pool on the session database, with the event-store tables emptied first."""
    pool = await create_pool(database_url, min_size=1, max_size=8)
    try:
        async with pool.acquire() as conn:
            await conn.execute(f"TRUNCATE {', '.join(STORE_TABLES)} RESTART IDENTITY")
        yield pool
    finally:
        try:
            await asyncio.wait_for(pool.close(), timeout=10)
        except TimeoutError:
            # A test leaked an acquired connection; don't hang the session on it.
            pool.terminate()
