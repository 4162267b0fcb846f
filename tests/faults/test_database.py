"""PostgreSQL restarted (a normal fast restart, and a crash) or unreachable in the middle of
load, on the tests' private server: clients get clean 503s with ``Retry-After`` and never a
500; the service recovers by itself when the database returns (the same process goes on
taking commands, pushing live states and sending time-outs), and the books reconcile."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

import asyncpg
import httpx
import pytest

from russian_poker.service.application.idempotency import player_command_id
from tests.faults.books import check_books, check_watchers
from tests.faults.load import OPERATOR, Journal, Watcher, open_casino, play, tables_of
from tests.processes import (
    DatabaseProxy,
    PrivatePostgres,
    ServiceProcess,
    eventually,
    held_streams,
    token_headers,
    waiting_on_locks,
)

TABLES = tables_of(2, 3)
ROUNDS = 6
BEFORE_FAULT = 40
"""Commands acknowledged before the fault is injected."""

HOLDER = token_headers("player", "holder")
SLEEPER = token_headers("player", "sleeper")


def assert_unavailable(response: httpx.Response) -> None:
    assert response.status_code == 503, (response.status_code, response.text)
    assert response.headers["retry-after"].isdigit()
    assert response.headers["content-type"].startswith("application/problem+json")
    assert response.json()["type"] in ("/problems/unavailable", "/problems/busy")


async def open_side_tables(url: str, http: httpx.AsyncClient) -> None:
    """``held``: a table whose command is kept in flight across the fault; ``clock``: a table
    with one-second time-outs, for the clock to act on after the fault."""
    for name in ("holder", "sleeper"):
        r = await http.post(f"{url}/v1/wallets", json={"wallet_id": name}, headers=OPERATOR)
        assert r.status_code == 201, r.text
        r = await http.post(
            f"{url}/v1/wallets/{name}/deposits",
            json={"transfer_id": f"start-{name}", "amount": 10_000},
            headers=OPERATOR,
        )
        assert r.status_code == 200, r.text
    for table_id, overrides in (
        ("held", {}),
        ("clock", {"betting_timeout_s": 1, "decision_timeout_s": 1}),
    ):
        body = {"table_id": table_id, "overrides": overrides}
        r = await http.post(f"{url}/v1/tables", json=body, headers=OPERATOR)
        assert r.status_code == 201, r.text


async def send(
    http: httpx.AsyncClient, url: str, table_id: str, who: dict[str, str], key: str, body: object
) -> httpx.Response:
    return await http.post(
        f"{url}/v1/tables/{table_id}/commands",
        json=body,
        headers={**who, "Idempotency-Key": key},
    )


async def probe_while_down(http: httpx.AsyncClient, url: str) -> None:
    """Reads, commands and readiness, with the database gone: each a clean 503."""
    assert_unavailable(await http.get(f"{url}/v1/tables", headers=OPERATOR))
    assert_unavailable(await http.get(f"{url}/v1/tables/held", headers=HOLDER))
    assert_unavailable(await send(http, url, "held", HOLDER, "probe", {"type": "SitDown"}))
    ready = await http.get(f"{url}/health/ready")
    assert ready.status_code == 503 and ready.headers["retry-after"]
    assert (await http.get(f"{url}/health/live")).status_code == 200


async def the_clock_still_acts(http: httpx.AsyncClient, url: str) -> None:
    """A bet on the ``clock`` table and nobody deals: the service's clock deals when betting
    time runs out, folds the undecided box, and the next round opens."""
    r = await send(http, url, "clock", SLEEPER, "sit", {"type": "SitDown"})
    assert r.status_code == 200, r.text
    r = await send(http, url, "clock", SLEEPER, "bet", {"type": "PlaceAnte", "box": 1, "ante": 100})
    assert r.status_code == 200, r.text
    number = r.json()["table"]["round"]["number"]

    async def next_round() -> bool:
        view = (await http.get(f"{url}/v1/tables/clock", headers=SLEEPER)).json()
        return bool(view["round"]["number"] > number)

    await eventually(next_round, timeout=60, interval=0.2, message="the clock's time-outs")
    view = (await http.get(f"{url}/v1/tables/clock", headers=SLEEPER)).json()
    assert view["previous_round"]["boxes"][0]["decision"] == "fold"


@asynccontextmanager
async def load_with_watchers(
    service: ServiceProcess, http: httpx.AsyncClient
) -> AsyncIterator[tuple[Journal, list[Watcher], asyncio.Task[object]]]:
    await open_casino(service.url, http, TABLES)
    await open_side_tables(service.url, http)
    watchers = [Watcher(table_id, [service.url], http) for table_id in TABLES]
    for watcher in watchers:
        watcher.start()
    for watcher in watchers:
        await asyncio.wait_for(watcher.opened.wait(), 60)
    journal = Journal()
    load: asyncio.Task[object] = asyncio.create_task(
        play([service.url], http, journal, TABLES, ROUNDS)
    )
    try:
        await eventually(
            lambda: len(journal.acknowledged) >= BEFORE_FAULT or load.done(),
            timeout=120,
            message="load before the fault",
        )
        if load.done():
            load.result()  # the players' own error, if any
            raise AssertionError("the load ended before the fault")
        yield journal, watchers, load
    finally:
        load.cancel()
        for watcher in watchers:
            await watcher.stop()


async def survive(
    service: ServiceProcess,
    http: httpx.AsyncClient,
    database_url: str,
    fault: Callable[[Journal], Awaitable[None]],
) -> str:
    """Load with live clients, ``fault`` in the middle, then the whole verdict."""
    await service.start_ready()
    pid = service.pid
    async with load_with_watchers(service, http) as (journal, watchers, load):
        await fault(journal)
        await asyncio.wait_for(load, 240)
        # Recovered by itself: the same process, never restarted.
        assert service.running and service.pids == [pid]
        assert journal.server_errors() == []
        await the_clock_still_acts(http, service.url)
        seen = await check_watchers(database_url, watchers)
        reconnects = sum(len(w.connections) for w in watchers)
    books = await check_books(database_url, journal)
    assert "Exception in ASGI application" not in service.log_text()
    return (
        f"{journal.commands()} commands sent, {books.acknowledged} acknowledged, "
        f"{len(journal.unavailable())} clean 503s, {len(journal.unanswered())} unanswered; "
        f"{books.rounds} rounds replayed, {seen} live states seen in order "
        f"({reconnects} stream reconnects); statuses {dict(journal.statuses())}"
    )


@pytest.mark.parametrize("mode", ["fast", "immediate"])
async def test_database_restart_mid_load(
    mode: str,
    fresh_database: str,
    private_postgres: PrivatePostgres,
    spawn: Callable[..., ServiceProcess],
    http: httpx.AsyncClient,
) -> None:
    """``fast``: PostgreSQL ends every session and restarts (an upgrade, a failover);
    ``immediate``: it dies at once and recovers from its WAL (a crash)."""
    service = spawn("solo", fresh_database)

    async def restart(journal: Journal) -> None:
        # A command in flight when the database goes: its answer is a 503, not a 500.
        async with a_command_in_flight(http, service.url, fresh_database) as in_flight:
            await asyncio.to_thread(private_postgres.stop, mode)
        answer = await in_flight
        if answer.status_code != 200:
            assert_unavailable(answer)
        await probe_while_down(http, service.url)
        await asyncio.to_thread(private_postgres.start)
        if answer.status_code == 200:
            # A fast stop ends the lock holder's session first: the command can get its
            # lock and commit before its own session is ended. Then it was acknowledged,
            # and so it must be in the store.
            assert await _recorded(
                fresh_database, player_command_id("held", "holder", "in-flight")
            ), answer.text

    summary = await survive(service, http, fresh_database, restart)
    print(f"PostgreSQL {mode} restart: {summary}")


async def test_database_unreachable_mid_load(
    fresh_database: str,
    private_postgres: PrivatePostgres,
    spawn: Callable[..., ServiceProcess],
    http: httpx.AsyncClient,
) -> None:
    """The network to the database goes: every connection reset, new ones refused, while
    PostgreSQL itself keeps running; then it comes back."""
    proxy = DatabaseProxy(private_postgres.port)
    proxy.start()
    try:
        database = fresh_database.rsplit("/", 1)[1]
        service = spawn("solo", proxy.url(database))

        async def partition(journal: Journal) -> None:
            async with a_command_in_flight(http, service.url, fresh_database) as in_flight:
                before = len(journal.unavailable())
                proxy.cut()
                assert_unavailable(await in_flight)
            await probe_while_down(http, service.url)
            # The players meet the outage too, and keep retrying their commands.
            await eventually(
                lambda: len(journal.unavailable()) > before,
                timeout=60,
                message="players meeting the outage",
            )
            proxy.restore()

        summary = await survive(service, http, fresh_database, partition)
        print(f"PostgreSQL unreachable: {summary}")
    finally:
        proxy.close()


@asynccontextmanager
async def a_command_in_flight(
    http: httpx.AsyncClient, url: str, database: str
) -> AsyncIterator[asyncio.Task[httpx.Response]]:
    """A ``SitDown`` on ``held`` sent and kept waiting for its table's stream lock until the
    block ends; the task gives its answer."""
    async with held_streams(database, ["table-held"]):
        in_flight = asyncio.create_task(
            send(http, url, "held", HOLDER, "in-flight", {"type": "SitDown"})
        )
        await eventually(
            lambda: _at_least(waiting_on_locks(database), 1),
            message="the command waiting in flight",
        )
        yield in_flight


async def _recorded(url: str, command_id: str) -> bool:
    conn = await asyncpg.connect(url)
    try:
        return bool(
            await conn.fetchval("SELECT count(*) FROM commands WHERE command_id = $1", command_id)
        )
    finally:
        await conn.close()


async def _at_least(count: Awaitable[int], least: int) -> bool:
    return await count >= least
