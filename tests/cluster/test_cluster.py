"""Two service processes on one database, playing the same tables.

Every player sends its requests to the two instances in turn, several players act on each
table at once (so commands on one table race across processes), and a live-stream client
watches every table on each instance. Midway the projection leader is killed with -9: the
other instance takes the lead and the audit trail catches up; the killed one is started
again and follows. At the end: the same outcome as one instance (nothing acknowledged lost,
money conserved, replay verifies, the books reconcile) and every live client saw every
state of its table, in order, with no gap.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Callable

import httpx

from tests.faults.books import audit_caught_up, check_books, check_watchers
from tests.faults.load import Journal, Watcher, open_casino, play, tables_of
from tests.processes import PrivatePostgres, ServiceProcess, eventually, leaders

TABLES = tables_of(2, 3, prefix="c")
ROUNDS = 7
BEFORE_KILL = 60


async def the_leader(url: str, services: list[ServiceProcess]) -> ServiceProcess:
    """The one instance holding the audit projection's lock (waits until there is one)."""
    found: list[ServiceProcess | None] = []

    async def one() -> bool:
        found[:] = await leaders(url, services)
        return len(found) == 1 and found[0] is not None

    await eventually(one, timeout=60, message="exactly one projection leader")
    assert found[0] is not None
    return found[0]


async def test_two_instances_play_the_same_tables(
    fresh_database: str,
    private_postgres: PrivatePostgres,
    spawn: Callable[..., ServiceProcess],
    http: httpx.AsyncClient,
) -> None:
    a = spawn("a", fresh_database)
    b = spawn("b", fresh_database)
    both = [a, b]
    a.start()
    b.start()
    await asyncio.gather(a.wait_ready(), b.wait_ready())
    first_leader = await the_leader(fresh_database, both)
    races_before = private_postgres.log_text().count("is at version")

    await open_casino(a.url, http, TABLES)
    watchers = [
        Watcher(table_id, [own.url, other.url], http)
        for own, other in ((a, b), (b, a))
        for table_id in TABLES
    ]
    for watcher in watchers:
        watcher.start()
    for watcher in watchers:
        await asyncio.wait_for(watcher.opened.wait(), 60)

    journal = Journal()
    load = asyncio.create_task(play([a.url, b.url], http, journal, TABLES, ROUNDS))
    try:
        await eventually(
            lambda: len(journal.acknowledged) >= BEFORE_KILL or load.done(),
            timeout=120,
            message="load before the kill",
        )
        if load.done():
            load.result()  # the players' own error, if any
            raise AssertionError("the load ended before the kill")
        # Both instances took commands.
        assert {x.instance for x in journal.acknowledged.values()} == {a.url, b.url}

        leader = await the_leader(fresh_database, both)
        follower = b if leader is a else a
        assert await leader.kill() == -signal.SIGKILL
        # The follower takes over while the load goes on (every request the dead instance
        # would have had goes to the follower).
        assert await the_leader(fresh_database, both) is follower
        # The killed instance comes back as a follower: still exactly one leader.
        await leader.start_ready()
        assert await the_leader(fresh_database, both) is follower
        await asyncio.wait_for(load, 240)
        assert await the_leader(fresh_database, both) is follower
        assert journal.server_errors() == []
        seen = await check_watchers(fresh_database, watchers)
    finally:
        load.cancel()
        for watcher in watchers:
            await watcher.stop()

    await eventually(lambda: audit_caught_up(fresh_database), timeout=90, interval=0.2)
    books = await check_books(fresh_database, journal)
    races = private_postgres.log_text().count("is at version") - races_before
    assert races > 0, "the instances never raced for a table"
    per_instance = {
        s.name: sum(1 for x in journal.acknowledged.values() if x.instance == s.url) for s in both
    }
    assert "Exception in ASGI application" not in a.log_text() + b.log_text()
    # Who led, by the processes' own words: the first leader until it was killed, then the
    # follower; the killed instance, started again, never led.
    # Each projection (audit, availability) leads on its own; count the audit's.
    led = {
        (s.name, start): sum(
            '"projection leader"' in line and '"projection":"audit"' in line
            for line in segment.splitlines()
        )
        for s in both
        for start, segment in enumerate(s.log_text().split("===== start ")[1:], 1)
    }
    assert led == {(first_leader.name, 1): 1, (first_leader.name, 2): 0, (follower.name, 1): 1}
    print(
        f"two instances: {journal.commands()} commands sent, {books.acknowledged} acknowledged "
        f"({per_instance}), {races} version races lost and retried in the service, "
        f"{len(journal.unanswered())} requests unanswered (the kill); leader "
        f"{first_leader.name} killed, {follower.name} took over; {books.rounds} rounds "
        f"replayed; {len(watchers)} live clients saw {seen} states in order "
        f"({sum(len(w.connections) for w in watchers)} reconnects with Last-Event-ID); "
        f"statuses {dict(journal.statuses())}"
    )
