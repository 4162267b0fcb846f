"""Lifecycle of service processes: a graceful stop under load, a start before the database,
and several instances migrating one fresh database together.

Nothing here measures time: each step waits (boundedly) for a state — a lock, a listener, a
process exit — and asserts on that state.
"""

from __future__ import annotations

import asyncio
import signal
import time
from collections.abc import Awaitable, Callable

import asyncpg
import httpx
import psutil

from russian_poker.events.postgres.migrate import bundled_migrations
from tests.cluster.test_cluster import the_leader
from tests.faults.books import check_books, check_watchers
from tests.faults.load import OPERATOR, Journal, Watcher, open_casino, play, tables_of
from tests.processes import (
    DatabaseProxy,
    PrivatePostgres,
    ServiceProcess,
    create_database,
    drop_database,
    eventually,
    held_streams,
    token_headers,
    waiting_on_locks,
)

TABLES = tables_of(2, 3, prefix="g")
HELD = ("h0", "h1", "h2")
"""Tables whose one command each is kept in flight across the stop."""
ROUNDS = 5
KEEP_ALIVE_RACE = {"RemoteProtocolError", "ReadError"}
CONNECTION_ERRORS = {"ConnectError", "WriteError", *KEEP_ALIVE_RACE}


async def test_sigterm_under_load_finishes_in_flight_work_and_hands_over(
    fresh_database: str, spawn: Callable[..., ServiceProcess], http: httpx.AsyncClient
) -> None:
    a = spawn("a", fresh_database)
    b = spawn("b", fresh_database)
    await a.start_ready()
    assert await the_leader(fresh_database, [a]) is a
    await b.start_ready()
    both = [a, b]
    assert await the_leader(fresh_database, both) is a

    await open_casino(b.url, http, TABLES)
    for table_id in HELD:
        r = await http.post(f"{b.url}/v1/tables", json={"table_id": table_id}, headers=OPERATOR)
        assert r.status_code == 201, r.text
        # A player sits down only with a wallet: the held commands must reach the store.
        wallet = {"wallet_id": f"holder-{table_id}"}
        r = await http.post(f"{b.url}/v1/wallets", json=wallet, headers=OPERATOR)
        assert r.status_code == 201, r.text
    # Live clients of the stopping instance (they move to the other one when it ends them).
    watchers = [Watcher(table_id, [a.url, b.url], http) for table_id in TABLES]
    for watcher in watchers:
        watcher.start()
    for watcher in watchers:
        await asyncio.wait_for(watcher.opened.wait(), 60)

    journal = Journal()
    load = asyncio.create_task(play([a.url, b.url], http, journal, TABLES, ROUNDS))
    try:
        await eventually(
            lambda: len(journal.acknowledged) >= 40 or load.done(),
            timeout=120,
            message="load before the stop",
        )
        if load.done():
            load.result()  # the players' own error, if any
            raise AssertionError("the load ended before the stop")
        async with held_streams(fresh_database, [f"table-{t}" for t in HELD]):
            # Commands certainly in flight on `a` when it is told to stop: each waits on its
            # table's stream row inside its transaction.
            in_flight = [
                asyncio.create_task(
                    http.post(
                        f"{a.url}/v1/tables/{table_id}/commands",
                        json={"type": "SitDown"},
                        headers={
                            **token_headers("player", f"holder-{table_id}"),
                            "Idempotency-Key": "in-flight",
                        },
                    )
                )
                for table_id in HELD
            ]
            await eventually(
                lambda: _at_least(waiting_on_locks(fresh_database), len(HELD)),
                message="the commands waiting in flight",
            )
            signalled = time.monotonic()
            a.send(signal.SIGTERM)
            # The listener closes; live streams end; in-flight work holds the process up.
            await eventually(lambda: _not(a.listening()), message="the listener closing")
            await eventually(
                lambda: all(w.connections for w in watchers), message="live streams ending"
            )
            assert a.running
        answers = await asyncio.gather(*in_flight)
        assert [r.status_code for r in answers] == [200] * len(HELD), [r.text for r in answers]
        # uvicorn re-raises the signal once it has shut down cleanly: -15 (143 in a shell).
        exit_code = await a.wait_exit(60)
        assert exit_code in (0, -signal.SIGTERM)
        # Leadership was handed over: the other instance holds the lock now.
        assert await the_leader(fresh_database, both) is b
        await asyncio.wait_for(load, 240)
        assert journal.server_errors() == []
        seen = await check_watchers(fresh_database, watchers)
    finally:
        load.cancel()
        for watcher in watchers:
            await watcher.stop()

    # The streams a closed ended cleanly, not with an error; the clients went on at b.
    for watcher in watchers:
        assert watcher.connections[0] == (a.url, "end"), watcher.connections
    # Every request sent to `a` before the signal was answered. The one exception HTTP/1.1
    # allows: a request written to an idle keep-alive connection in the instant the server
    # closes it, never read by the server (it ends without a response, or reset for the
    # unread bytes); like every unanswered request, it was sent again, to b, with its key.
    unanswered = journal.unanswered()
    assert {x.instance for x in unanswered} <= {a.url}
    assert {x.error for x in unanswered} <= CONNECTION_ERRORS
    before = [x for x in journal.attempts if x.instance == a.url and x.sent_at < signalled]
    raced = [x for x in before if x.status is None]
    assert {x.error for x in raced} <= KEEP_ALIVE_RACE
    assert all(x.command_id in journal.acknowledged for x in raced if x.command_id)
    books = await check_books(fresh_database, journal)
    assert "Exception in ASGI application" not in a.log_text() + b.log_text()
    print(
        f"SIGTERM under load: {len(HELD)} commands in flight finished with 200 after the "
        f"listener closed; {len(before)} requests sent to the stopping instance before the "
        f"signal, {len(before) - len(raced)} answered; "
        f"{len(unanswered)} refused after; {len(watchers)} live streams ended cleanly and "
        f"resumed on the other instance ({seen} states, no gap); "
        f"{books.acknowledged} commands acknowledged, none lost; exit code {exit_code}"
    )


async def test_start_up_waits_for_the_database(
    private_postgres: PrivatePostgres, spawn: Callable[..., ServiceProcess]
) -> None:
    """Started while PostgreSQL is down: the service keeps trying (the proxy sees it), and
    becomes ready — with its migrations applied — once the database is up."""
    url = await create_database(private_postgres.server_url, "late", migrated=False)
    proxy = DatabaseProxy(private_postgres.port)
    proxy.start()
    try:
        await asyncio.to_thread(private_postgres.stop, "fast")
        service = spawn("late", proxy.url(url.rsplit("/", 1)[1]))
        service.start()
        await eventually(
            lambda: proxy.refused_upstream >= 3, timeout=90, message="connection attempts"
        )
        assert service.running
        assert not await service.listening()
        await asyncio.to_thread(private_postgres.start)
        await service.wait_ready()
        assert await service.terminate() in (0, -signal.SIGTERM)
        conn = await asyncpg.connect(url)
        try:
            versions = [
                r["version"] for r in await conn.fetch("SELECT version FROM schema_migrations")
            ]
        finally:
            await conn.close()
        assert sorted(versions) == [m.version for m in bundled_migrations()]
    finally:
        proxy.close()
        private_postgres.ensure_up()
        await drop_database(private_postgres.server_url, url)


async def test_instances_starting_together_migrate_once(
    private_postgres: PrivatePostgres, spawn: Callable[..., ServiceProcess]
) -> None:
    url = await create_database(private_postgres.server_url, "together", migrated=False)
    try:
        services = [spawn(f"m{i}", url) for i in range(3)]
        for service in services:
            service.start()
        await asyncio.gather(*(s.wait_ready() for s in services))
        conn = await asyncpg.connect(url)
        try:
            rows = await conn.fetch(
                "SELECT version, count(*) AS n FROM schema_migrations GROUP BY version"
            )
        finally:
            await conn.close()
        assert {r["version"]: r["n"] for r in rows} == {m.version: 1 for m in bundled_migrations()}
        await the_leader(url, services)
        codes = await asyncio.gather(*(s.terminate() for s in services))
        assert set(codes) <= {0, -signal.SIGTERM}
    finally:
        await drop_database(private_postgres.server_url, url)


async def _at_least(count: Awaitable[int], least: int) -> bool:
    return await count >= least


async def _not(condition: Awaitable[bool]) -> bool:
    return not await condition


async def test_no_process_outlives_a_killed_serve(
    fresh_database: str, spawn: Callable[..., ServiceProcess]
) -> None:
    """``serve --workers 2`` killed with ``kill -9`` (the OOM killer's way): its workers, and
    multiprocessing's resource tracker, end with it instead of living on as orphans with
    their database connections (265 such workers were once found holding 20 GiB)."""
    service = spawn("workers", fresh_database, workers=2)
    await service.start_ready()
    assert service.pid is not None
    children = psutil.Process(service.pid).children(recursive=True)
    assert len(children) >= 2, children  # the workers (and the resource tracker)

    await service.kill()

    def gone() -> bool:
        return not any(c.is_running() and c.status() != psutil.STATUS_ZOMBIE for c in children)

    await eventually(gone, timeout=60, message="every child of the killed serve ending")
