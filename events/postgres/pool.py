"""Connections for the event store, with the session settings it relies on."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any, Final, TypeAlias

import asyncpg

if TYPE_CHECKING:
    from asyncpg.pool import PoolConnectionProxy

__all__ = [
    "DATABASE_GONE",
    "DEFAULT_IDLE_IN_TRANSACTION_TIMEOUT",
    "Database",
    "acquired",
    "connect",
    "create_pool",
    "session_settings",
]

Database: TypeAlias = (
    "asyncpg.Pool[asyncpg.Record] | asyncpg.Connection[asyncpg.Record]"
    " | PoolConnectionProxy[asyncpg.Record]"
)
"""What a store runs on: a pool (each call borrows a connection: the service), or one
connection (the caller's transaction and session: the CLI, tests, a projection's batch)."""

DEFAULT_IDLE_IN_TRANSACTION_TIMEOUT: Final = 10.0
"""Seconds a session may sit idle inside a transaction before the server ends it.

Catch-up readers only read below the oldest running transaction, so one forgotten open
transaction would stall every projection; this bounds the stall.
"""

DATABASE_GONE: Final = (
    OSError,
    TimeoutError,
    asyncpg.PostgresError,
    asyncpg.InterfaceError,
    # A connection lost mid-operation can surface as this (MagicStack/asyncpg#784, #1069).
    asyncpg.InternalClientError,
)
"""What a restarted, crashed or unreachable database raises. A background loop (the clock,
a projection runner, the live hub, the notifier) catches these, logs and carries on;
anything else would end the loop for the life of the process."""


def session_settings(
    *,
    idle_in_transaction_timeout: float = DEFAULT_IDLE_IN_TRANSACTION_TIMEOUT,
    application_name: str = "russian-poker",
) -> dict[str, str]:
    """Server settings for every store session (``server_settings`` of asyncpg)."""
    return {
        "idle_in_transaction_session_timeout": str(round(idle_in_transaction_timeout * 1000)),
        "application_name": application_name,
    }


async def create_pool(
    dsn: str,
    *,
    min_size: int = 1,
    max_size: int = 10,
    idle_in_transaction_timeout: float = DEFAULT_IDLE_IN_TRANSACTION_TIMEOUT,
    application_name: str = "russian-poker",
) -> asyncpg.Pool[asyncpg.Record]:
    """A connection pool whose sessions use :func:`session_settings`.

    A released connection is not reset beyond rolling back an open transaction (asyncpg
    always does that): asyncpg's default reset costs a round trip per release, and nothing
    here leaves session state on a pooled connection. ``LISTEN``, session advisory locks,
    ``SET`` (other than ``SET LOCAL``) and ``WITH HOLD`` cursors belong on a dedicated
    connection (:func:`connect`), as the live hub and the projection leaders do.
    """
    return await asyncpg.create_pool(
        dsn,
        min_size=min_size,
        max_size=max_size,
        reset=_no_session_state,
        server_settings=session_settings(
            idle_in_transaction_timeout=idle_in_transaction_timeout,
            application_name=application_name,
        ),
    )


async def _no_session_state(_conn: asyncpg.Connection[asyncpg.Record]) -> None:
    """The pool's reset: nothing to undo (see :func:`create_pool`)."""


async def connect(
    dsn: str,
    *,
    idle_in_transaction_timeout: float = DEFAULT_IDLE_IN_TRANSACTION_TIMEOUT,
    application_name: str = "russian-poker",
) -> asyncpg.Connection[asyncpg.Record]:
    """A single connection (a listener, a migration) with :func:`session_settings`."""
    return await asyncpg.connect(
        dsn,
        server_settings=session_settings(
            idle_in_transaction_timeout=idle_in_transaction_timeout,
            application_name=application_name,
        ),
    )


@asynccontextmanager
async def acquired(db: Database) -> AsyncIterator[Any]:
    """One connection of ``db``: borrowed from it if it is a pool, else ``db`` itself."""
    if isinstance(db, asyncpg.Pool):
        async with db.acquire() as conn:
            yield conn
    else:
        yield db
