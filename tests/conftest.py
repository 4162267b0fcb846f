"""Shared fixtures: a real, migrated PostgreSQL database for the whole test session.

The server is, in order of preference: ``TEST_DATABASE_URL`` or ``DATABASE_URL``; a server
already accepting connections on ``127.0.0.1:5432`` (unless ``RUSSIAN_POKER_TEST_EMBEDDED``
is set); an embedded one started with ``pgserver``. Either way each session (each xdist
worker) gets its own freshly created database, dropped again at the end, so runs never see
each other's rows.

Under xdist (``./dev test`` runs two workers, ``--dist loadgroup``) the tests that share a
costly fixture go to one worker, so it is set up once (:func:`pytest_xdist_make_scheduler`).
"""

from __future__ import annotations

import asyncio
import os
import tempfile
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, Final
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import pytest

from russian_poker.events.postgres.migrate import migrate
from russian_poker.events.postgres.pool import create_pool

LOCAL_SERVER_URL: Final = "postgresql://postgres@127.0.0.1:5432/postgres"

_TABLES_TO_EMPTY: Final = """
SELECT string_agg(format('%I.%I', schemaname, tablename), ', ')
FROM pg_tables
WHERE schemaname = 'public' AND tablename <> 'schema_migrations'
"""

_PRIVATE_POSTGRES_USERS: Final = ("tests/faults/", "tests/cluster/", "tests/audit/test_runner.py")
"""Tests on ``tests.processes.shared_private_postgres``: one server per test process."""

_MODULE_FIXTURE_MODULES: Final = (
    "tests/client/",
    "tests/audit/test_played.py",
    "tests/deploy/test_proxy.py",
    "tests/fairness/test_proof.py",
    "tests/operators/test_money_property.py",
    "tests/operators/test_wallet_faults.py",
    "tests/races/",
    "tests/wallet/test_reference_wallet.py",
)
"""Modules (or folders of them) whose module-scoped fixtures start a service, a wallet, a
browser or play a thousand rounds (``played``): each module runs on one worker."""


def _scope_of(nodeid: str) -> str:
    """The unit of work an xdist worker takes whole: a costly fixture's users, else one test.

    A unit that is not one test costs only time when this list goes stale, never a result.
    """
    if nodeid.startswith(_PRIVATE_POSTGRES_USERS):
        return "private-postgres"
    module = nodeid.split("::", 1)[0]
    if module.startswith(_MODULE_FIXTURE_MODULES):
        return module
    return nodeid


@pytest.hookimpl(optionalhook=True)  # a hook of xdist's: absent under -p no:xdist
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """``--dist loadgroup`` (what ``./dev test`` asks for) as :func:`_scope_of` groups.

    xdist's own loadgroup reads ``xdist_group`` marks off node ids it rewrites, which
    pytest 9 no longer lets it do (``Node.nodeid`` is computed): every test was its own unit,
    and each worker set the module fixtures up again.
    """
    if config.getoption("dist", None) != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling  # type: ignore[import-untyped]

    class SharedFixtureScheduling(LoadScopeScheduling):  # type: ignore[misc]
        def _split_scope(self, nodeid: str) -> str:
            return _scope_of(nodeid)

    return SharedFixtureScheduling(config, log)


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
def _embedded_server_root() -> Path:
    # Outside pytest's basetemp: that sits in a root-only directory, and as root pgserver
    # runs PostgreSQL as its own unprivileged user, who must be able to reach the data.
    # xdist workers of one run share the server (pgserver stops it with the last user).
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID") or str(os.getpid())
    root = Path(tempfile.gettempdir()) / "russian-poker-tests" / run
    root.mkdir(parents=True, exist_ok=True)
    return root


@pytest.fixture(scope="session")
async def server_url(_embedded_server_root: Path) -> AsyncIterator[str]:
    """A URL of a PostgreSQL server on which the tests may create databases."""
    configured = os.environ.get("TEST_DATABASE_URL") or os.environ.get("DATABASE_URL")
    if configured:
        yield configured
    elif not os.environ.get("RUSSIAN_POKER_TEST_EMBEDDED") and await _accepts_connections(
        LOCAL_SERVER_URL
    ):
        yield LOCAL_SERVER_URL
    else:
        # Imported only when needed, and through the service's importer: it silences
        # platformdirs' "XDG_RUNTIME_DIR is not set" warning and pgserver's INFO lines
        # (written at exit to pytest's closed capture stream: "--- Logging error ---").
        from russian_poker.service.embedded import pgserver_module

        server = pgserver_module().get_server(_embedded_server_root / "pgdata", cleanup_mode="stop")
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
    """A pool on the session database, every table emptied first.

    Everything but ``schema_migrations`` goes: read models are derived from the events, so
    keeping them while the events go would leave a state no real system can be in.
    """
    pool = await create_pool(database_url, min_size=1, max_size=8)
    try:
        async with pool.acquire() as conn:
            tables = await conn.fetchval(_TABLES_TO_EMPTY)
            await conn.execute(f"TRUNCATE {tables} RESTART IDENTITY")
        yield pool
    finally:
        try:
            await asyncio.wait_for(pool.close(), timeout=10)
        except TimeoutError:
            # A test leaked an acquired connection; don't hang the session on it.
            pool.terminate()
