"""Where the database is: ``DATABASE_URL``, or an embedded PostgreSQL in the data directory.

The embedded server (the ``pgserver`` package: real PostgreSQL binaries from PyPI) keeps its
data across restarts, and every command (``serve``, ``migrate``, ``replay`` ...) uses the
same data directory, so they all see the same database. It runs only while a command uses
it: the last one to exit stops it (``service.embedded``).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TypeVar

import asyncpg
import structlog

from russian_poker.events.postgres.migrate import migrate
from russian_poker.events.postgres.pool import DATABASE_GONE, connect
from russian_poker.events.postgres.restored import catch_up_transaction_ids
from russian_poker.service.settings import data_dir

__all__ = [
    "data_dir",
    "database_url",
    "embedded_pgdata",
    "migrated",
    "on_the_store",
    "wait_for_database",
]

T = TypeVar("T")


def embedded_pgdata() -> Path:
    """The embedded server's PostgreSQL data directory, inside the data directory."""
    return data_dir() / "pgdata"


def database_url() -> str:
    """``DATABASE_URL`` if set; else start (or join) the embedded server and return its URL.

    The embedded server keeps its data, but not its process: it is stopped when the last
    process that started or joined it exits, so nothing is left running unseen.
    """
    url = os.environ.get("DATABASE_URL")
    if url:
        return url
    from russian_poker.service.embedded import start_embedded  # lazy: pgserver only if embedded

    return start_embedded(embedded_pgdata())


async def migrated(url: str) -> list[str]:
    """Apply pending migrations (once, even with several instances starting together), and
    on a database restored from another server, move this server's transaction ids past the
    restored ones (events.postgres.restored) before anything appends."""
    conn: asyncpg.Connection[asyncpg.Record] = await connect(url)
    try:
        applied = await migrate(conn)
        taken = await catch_up_transaction_ids(conn)
        if taken:
            structlog.get_logger().warning(
                "restored database: transaction ids moved past the restored ones", taken=taken
            )
        return applied
    finally:
        await conn.close()


async def wait_for_database(url: str, timeout_s: float) -> None:
    """Return once the database accepts connections; raise after ``timeout_s`` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout_s
    delay = 0.2
    while True:
        try:
            conn = await connect(url, connect_timeout=5)
        except DATABASE_GONE as error:
            if loop.time() + delay > deadline:
                raise ConnectionError(f"the database did not answer within {timeout_s}s") from error
            await asyncio.sleep(delay)
            delay = min(delay * 2, 2.0)
        else:
            await conn.close()
            return


def on_the_store(
    work: Callable[[asyncpg.Connection[asyncpg.Record]], Awaitable[T]],
    *,
    idle_in_transaction_s: int = 600,
    name: str = "russian-poker-audit",
) -> T:
    """Run ``work`` on one connection to ``DATABASE_URL`` (else the embedded server), after
    applying pending migrations.

    Audit work folds in Python between the statements of one long transaction, so it gets
    its own idle-in-transaction limit: the service's is too short for a large store."""

    async def main() -> T:
        url = database_url()
        await migrated(url)
        conn = await connect(
            url, idle_in_transaction_timeout=idle_in_transaction_s, application_name=name
        )
        try:
            return await work(conn)
        finally:
            await conn.close()

    return asyncio.run(main())
