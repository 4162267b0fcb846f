"""Connections for the event store, with the session settings it relies on.

Every connection the service opens goes through :func:`connect` (directly, or as the pool's
``connect``), which reads a libpq URL the way libpq does where asyncpg does not:

* **Hosts in turn.** A multi-host URL (``postgresql://u@h1:5432,h2:5432/db?
  target_session_attrs=read-write``) is tried one host at a time, each with its own
  ``connect_timeout`` (libpq's per-host meaning; default :data:`DEFAULT_CONNECT_TIMEOUT`).
  asyncpg spends one deadline on all hosts together, so a first host that stops answering
  (a powered-off machine, a partition) would use it up and the standby never be tried. The
  host that answered last is tried first next time, so after a failover new connections do
  not wait on the old primary's silence first.
* **TCP keepalives**, on by default (libpq's ``keepalives``, ``keepalives_idle``,
  ``keepalives_interval``, ``keepalives_count`` and ``tcp_user_timeout``), so a connection
  to a host that vanished without a word fails instead of waiting forever.

The pool adds a command timeout to every statement (:data:`DEFAULT_COMMAND_TIMEOUT`): a
command waiting on a silent server is answered 503 in bounded time and its connection is
dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import weakref
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any, Final, TypeAlias, cast
from urllib.parse import parse_qsl, urlencode, urlsplit

import asyncpg

if TYPE_CHECKING:
    from asyncpg.pool import PoolConnectionProxy

__all__ = [
    "DATABASE_GONE",
    "DEFAULT_COMMAND_TIMEOUT",
    "DEFAULT_CONNECT_TIMEOUT",
    "DEFAULT_IDLE_IN_TRANSACTION_TIMEOUT",
    "Database",
    "KeptAlive",
    "acquired",
    "close_connection",
    "close_pool",
    "connect",
    "create_pool",
    "give_up_on",
    "hosts_of",
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

DEFAULT_CONNECT_TIMEOUT: Final = 5.0
"""Seconds one host may take to accept a connection (the URL's ``connect_timeout``)."""

DEFAULT_COMMAND_TIMEOUT: Final = 30.0
"""Seconds a pooled connection's statement may take before it is abandoned."""

_KEEPALIVE_DEFAULTS: Final[Mapping[str, float]] = {
    "keepalives": 1,
    "keepalives_idle": 10,
    "keepalives_interval": 5,
    "keepalives_count": 3,
    "tcp_user_timeout": 30_000,
}
"""libpq's keepalive parameters and ours by default: a silent peer is given up after about
25 s of an idle connection, or 30 s of unacknowledged data."""

_LIBPQ_ONLY: Final = ("connect_timeout", *_KEEPALIVE_DEFAULTS)
"""URL parameters asyncpg would take for server settings; read here instead."""

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

_NEXT_HOST: Final = (
    OSError,
    TimeoutError,
    asyncpg.TargetServerAttributeNotMatched,
    asyncpg.CannotConnectNowError,
    asyncpg.ConnectionDoesNotExistError,
)
"""What makes :func:`connect` try the next host: this one is down, silent, starting or
stopping, or not what ``target_session_attrs`` asks for (a standby, for a writer)."""

_preferred: dict[str, int] = {}
"""Hosts key (:func:`_hosts_key`) -> the index of the host to try first: the one that
answered last, unless :func:`give_up_on` has turned away from it."""
_opened: weakref.WeakKeyDictionary[asyncpg.Connection[Any], tuple[str, int]] = (
    weakref.WeakKeyDictionary()
)
"""Every open connection :func:`connect` made -> (hosts key, host index)."""


def session_settings(
    *,
    idle_in_transaction_timeout: float = DEFAULT_IDLE_IN_TRANSACTION_TIMEOUT,
    application_name: str = "russian-poker",
) -> dict[str, str]:
    """Server settings for every store session (``server_settings`` of asyncpg).

    The server's own keepalives too: a session whose client vanished ends, and with it its
    locks (a projection leader's, say), within seconds rather than hours."""
    return {
        "idle_in_transaction_session_timeout": str(round(idle_in_transaction_timeout * 1000)),
        "application_name": application_name,
        "tcp_keepalives_idle": str(_KEEPALIVE_DEFAULTS["keepalives_idle"]),
        "tcp_keepalives_interval": str(_KEEPALIVE_DEFAULTS["keepalives_interval"]),
        "tcp_keepalives_count": str(_KEEPALIVE_DEFAULTS["keepalives_count"]),
    }


def hosts_of(dsn: str) -> tuple[list[str], dict[str, float]]:
    """One URL per host of ``dsn``, in order, and the libpq-only options it carried (taken
    out of each URL). A URL naming its host in the query (a Unix socket) is one host."""
    parts = urlsplit(dsn)
    query = parse_qsl(parts.query, keep_blank_values=True)
    options = {k: float(v) for k, v in query if k in _LIBPQ_ONLY}
    auth, at, hostlist = parts.netloc.rpartition("@")
    if not options and "," not in hostlist:
        return [dsn], options
    rest = urlencode([(k, v) for k, v in query if k not in _LIBPQ_ONLY])
    tail = parts.path + (f"?{rest}" if rest else "")
    specs = hostlist.split(",")
    return [f"{parts.scheme}://{auth}{at}{spec}{tail}" for spec in specs], options


class KeptAlive(asyncpg.Connection):
    """A connection whose TCP socket sends keepalives (asyncpg sets none).

    asyncpg builds its connections with ``(protocol, transport, ...)``; the transport's
    socket is the only place the options can go."""

    keepalive: Mapping[str, float] = _KEEPALIVE_DEFAULTS

    def __init__(self, protocol: Any, transport: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(protocol, transport, *args, **kwargs)
        sock = transport.get_extra_info("socket")
        if sock is None or sock.family not in (socket.AF_INET, socket.AF_INET6):
            return
        options = self.keepalive
        if not options.get("keepalives", 1):
            return
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
        for name, option in (
            ("keepalives_idle", "TCP_KEEPIDLE"),
            ("keepalives_interval", "TCP_KEEPINTVL"),
            ("keepalives_count", "TCP_KEEPCNT"),
            ("tcp_user_timeout", "TCP_USER_TIMEOUT"),
        ):
            if hasattr(socket, option) and options.get(name):
                sock.setsockopt(socket.IPPROTO_TCP, getattr(socket, option), int(options[name]))


def _connection_class(options: dict[str, float]) -> type[KeptAlive]:
    if all(options.get(k, v) == v for k, v in _KEEPALIVE_DEFAULTS.items()):
        return KeptAlive
    own = {k: options.get(k, v) for k, v in _KEEPALIVE_DEFAULTS.items()}
    return type("KeptAlive", (KeptAlive,), {"keepalive": own})


def _hosts_key(urls: list[str]) -> str:
    return ",".join(urls)


async def _connect_hosts(
    dsn: str, *, connect_timeout: float | None = None, **kwargs: Any
) -> asyncpg.Connection[asyncpg.Record]:
    """``asyncpg.connect`` one host of ``dsn`` at a time (the pool calls this too)."""
    urls, options = hosts_of(dsn)
    timeout = connect_timeout or options.get("connect_timeout") or DEFAULT_CONNECT_TIMEOUT
    kwargs.pop("loop", None)
    if kwargs.get("connection_class") in (None, asyncpg.Connection, KeptAlive):
        kwargs["connection_class"] = _connection_class(options)
    key = _hosts_key(urls)
    first = _preferred.get(key, 0) % len(urls)
    last_error: BaseException | None = None
    for index in [*range(first, len(urls)), *range(first)]:
        try:
            conn: asyncpg.Connection[asyncpg.Record] = await asyncpg.connect(
                urls[index], timeout=timeout, **kwargs
            )
        except _NEXT_HOST as error:
            last_error = error
            continue
        _preferred[key] = index
        _opened[conn] = (key, index)
        return conn
    assert last_error is not None
    raise last_error


def give_up_on(dsn: str) -> int:
    """The host of ``dsn`` connections went to last stopped answering: cut every connection
    opened to it (their statements fail now, not at their timeout) and try the next host
    first from now on. Returns how many connections were cut."""
    urls, _ = hosts_of(dsn)
    key = _hosts_key(urls)
    gone = _preferred.get(key, 0) % len(urls)
    _preferred[key] = (gone + 1) % len(urls)
    doomed = [c for c, (k, index) in list(_opened.items()) if k == key and index == gone]
    for conn in doomed:
        conn.terminate()
    return len(doomed)


async def create_pool(
    dsn: str,
    *,
    min_size: int = 1,
    max_size: int = 10,
    idle_in_transaction_timeout: float = DEFAULT_IDLE_IN_TRANSACTION_TIMEOUT,
    command_timeout: float | None = DEFAULT_COMMAND_TIMEOUT,
    application_name: str = "russian-poker",
    pooler: bool = False,
) -> asyncpg.Pool[asyncpg.Record]:
    """A connection pool whose sessions use :func:`session_settings`, opened as
    :func:`connect` opens them, each statement limited to ``command_timeout`` seconds.

    ``pooler``: ``dsn`` is a transaction pooler (PgBouncer in ``transaction`` mode), which
    hands each transaction whatever server connection is free: no statement is prepared
    under a name (asyncpg's statement cache off), and no setting but ``application_name``
    goes in the start-up packet (PgBouncer refuses others; give them to the database's
    role, or to PgBouncer's ``connect_query``: deploy/pgbouncer/).

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
        # Typed by asyncpg's stubs as connect()'s every keyword; it takes them all along.
        connect=cast("Any", _connect_hosts),
        connection_class=KeptAlive,
        command_timeout=command_timeout,
        reset=_no_session_state,
        statement_cache_size=0 if pooler else 100,
        server_settings=(
            {"application_name": application_name}
            if pooler
            else session_settings(
                idle_in_transaction_timeout=idle_in_transaction_timeout,
                application_name=application_name,
            )
        ),
    )


async def _no_session_state(_conn: asyncpg.Connection[asyncpg.Record]) -> None:
    """The pool's reset: nothing to undo (see :func:`create_pool`)."""


async def close_pool(pool: asyncpg.Pool[asyncpg.Record], timeout: float = 5.0) -> None:
    """Close ``pool`` gracefully, or within ``timeout`` seconds by cutting its connections:
    a graceful close waits on every connection's goodbye, which a silent server never
    acknowledges."""
    try:
        await asyncio.wait_for(pool.close(), timeout)
    except (TimeoutError, *DATABASE_GONE):
        pool.terminate()


async def connect(
    dsn: str,
    *,
    idle_in_transaction_timeout: float = DEFAULT_IDLE_IN_TRANSACTION_TIMEOUT,
    application_name: str = "russian-poker",
    command_timeout: float | None = None,
    connect_timeout: float | None = None,
) -> asyncpg.Connection[asyncpg.Record]:
    """A single connection (a listener, a migration) with :func:`session_settings`;
    ``connect_timeout`` overrides the URL's, per host."""
    return await _connect_hosts(
        dsn,
        connect_timeout=connect_timeout,
        command_timeout=command_timeout,
        server_settings=session_settings(
            idle_in_transaction_timeout=idle_in_transaction_timeout,
            application_name=application_name,
        ),
    )


async def close_connection(conn: asyncpg.Connection[asyncpg.Record], timeout: float = 2.0) -> None:
    """Close ``conn``, or cut it if the server does not see the goodbye in time."""
    if conn.is_closed():
        return
    with contextlib.suppress(*DATABASE_GONE):
        await conn.close(timeout=timeout)
    if not conn.is_closed():
        conn.terminate()


@asynccontextmanager
async def acquired(db: Database) -> AsyncIterator[Any]:
    """One connection of ``db``: borrowed from it if it is a pool, else ``db`` itself."""
    if isinstance(db, asyncpg.Pool):
        async with db.acquire() as conn:
            yield conn
    else:
        yield db
