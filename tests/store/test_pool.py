"""How the store connects: libpq's multi-host URL read as libpq reads it (hosts in turn, each
with its own ``connect_timeout``; the host that answered last first next time), keepalives
on every TCP connection, and a host given up on cut at once. Against the real server, with
a relay of the test's own standing in for a host that went silent. The server is the tests'
private one, which listens on TCP wherever the suite runs (the shared one may be reached by
a Unix socket)."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest

from russian_poker.events.postgres.pool import (
    close_pool,
    connect,
    create_pool,
    give_up_on,
    hosts_of,
)
from tests.faults.fixtures import private_postgres
from tests.processes import DatabaseProxy, PrivatePostgres, free_port

__all__ = ["private_postgres"]


@pytest.fixture
def silent() -> Iterator[DatabaseProxy]:
    """A host that takes connections and never answers."""
    relay = DatabaseProxy(free_port())
    relay.start()
    relay.silence()
    try:
        yield relay
    finally:
        relay.close()


def _with_hosts(url: str, *hosts: str, query: str = "") -> str:
    parts = urlsplit(url)
    user = f"{parts.username}@" if parts.username else ""
    return f"{parts.scheme}://{user}{','.join(hosts)}{parts.path}" + (f"?{query}" if query else "")


def _host(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.hostname}:{parts.port or 5432}"


def test_a_multi_host_url_is_one_url_per_host_and_the_libpq_options() -> None:
    urls, options = hosts_of(
        "postgresql://u:p%40ss@db1:5432,[::1]:5433/poker"
        "?target_session_attrs=read-write&connect_timeout=2&keepalives_idle=7"
    )
    assert urls == [
        "postgresql://u:p%40ss@db1:5432/poker?target_session_attrs=read-write",
        "postgresql://u:p%40ss@[::1]:5433/poker?target_session_attrs=read-write",
    ]
    assert options == {"connect_timeout": 2.0, "keepalives_idle": 7.0}
    # One host and nothing of libpq's own: the URL as it was.
    assert hosts_of("postgresql:///poker?host=/run/pg") == (
        ["postgresql:///poker?host=/run/pg"],
        {},
    )


async def test_hosts_are_tried_in_turn_past_a_refusing_and_a_silent_one(
    private_postgres: PrivatePostgres, silent: DatabaseProxy
) -> None:
    database_url = private_postgres.server_url
    refusing = f"127.0.0.1:{free_port()}"
    url = _with_hosts(
        database_url,
        refusing,
        f"127.0.0.1:{silent.port}",
        _host(database_url),
        query="connect_timeout=1",
    )
    conn = await connect(url)
    try:
        assert await conn.fetchval("SELECT 1") == 1
    finally:
        await conn.close()
    assert silent.attempts == 1
    # The host that answered is tried first from now on: the silent one is not waited on.
    again = await connect(url)
    await again.close()
    assert silent.attempts == 1


async def test_every_pooled_connection_sends_keepalives_and_has_a_command_timeout(
    private_postgres: PrivatePostgres,
) -> None:
    database_url = private_postgres.server_url
    pool = await create_pool(
        _with_hosts(database_url, _host(database_url), query="keepalives_idle=7"),
        min_size=1,
        max_size=1,
        command_timeout=3,
    )
    try:
        async with pool.acquire() as conn:
            raw = conn._con  # the pool's proxy wraps the connection
            sock = raw._transport.get_extra_info("socket")
            assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE) == 1
            assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE) == 7
            assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPCNT) == 3
            assert raw._config.command_timeout == 3
            assert await conn.fetchval("SHOW tcp_keepalives_idle") == "10"
    finally:
        await close_pool(pool)


async def test_a_host_given_up_on_loses_its_connections_and_its_turn(
    private_postgres: PrivatePostgres, silent: DatabaseProxy
) -> None:
    database_url = private_postgres.server_url
    url = _with_hosts(database_url, _host(database_url), f"127.0.0.1:{silent.port}")
    pool = await create_pool(url, min_size=2, max_size=2)
    try:
        async with pool.acquire() as first, pool.acquire() as second:
            assert await first.fetchval("SELECT 1") == await second.fetchval("SELECT 1") == 1
            raw = [first._con, second._con]  # the connections behind the pool's proxies
            assert give_up_on(url) == 2
            assert all(conn.is_closed() for conn in raw)
    finally:
        pool.terminate()  # before it tops itself up again
    # The next connection tries the other host first (here the silent relay), then the one
    # that answered.
    tried = silent.attempts
    conn = await connect(url + "?connect_timeout=1")
    await conn.close()
    assert silent.attempts == tried + 1
