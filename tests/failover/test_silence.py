"""A database that stops answering (or refuses, over and over) never holds the instance:
readiness answers, ``SIGTERM`` ends it at any moment, and no background loop spins.

Real processes: ``russian-poker serve`` reaching the tests' private PostgreSQL through a
relay of the test's own, which is made silent (nothing passes, nothing is refused) or cut
(every connection reset, new ones refused)."""

from __future__ import annotations

import asyncio
import json
import signal
from collections import Counter
from collections.abc import AsyncIterator, Callable

import httpx
import pytest

from tests.faults.load import OPERATOR, Journal, open_casino, play, tables_of
from tests.processes import DatabaseProxy, PrivatePostgres, ServiceProcess, eventually

FAILURES = (
    "projection runner lost its connection",
    "clock tick failed",
    "live listener reconnect failed",
    "wallet_outbox_failed",
    "notifier_failed",
    "chain checkpoint failed",
)
"""What each background loop logs when the database fails it: one line per attempt."""


@pytest.fixture
async def relay(private_postgres: PrivatePostgres) -> AsyncIterator[DatabaseProxy]:
    proxy = DatabaseProxy(private_postgres.port)
    proxy.start()
    try:
        yield proxy
    finally:
        proxy.close()


def _database(fresh_database: str) -> str:
    return fresh_database.rsplit("/", 1)[1]


async def test_sigterm_ends_a_start_up_waiting_on_a_silent_database(
    fresh_database: str, relay: DatabaseProxy, spawn: Callable[..., ServiceProcess]
) -> None:
    relay.silence()
    service = spawn("waiting", relay.url(_database(fresh_database)))
    service.start()
    await eventually(lambda: relay.attempts >= 1, message="the instance trying the database")
    assert not await service.listening()
    service.send(signal.SIGTERM)
    # The start-up would wait RUSSIAN_POKER_DATABASE_WAIT_S (90 s here) without the stop.
    await service.wait_exit(timeout=30)
    assert "stopped before start-up finished" in service.log_text()


async def test_a_silent_database_leaves_readiness_answering_and_sigterm_working(
    fresh_database: str,
    relay: DatabaseProxy,
    spawn: Callable[..., ServiceProcess],
    http: httpx.AsyncClient,
) -> None:
    service = spawn("silenced", relay.url(_database(fresh_database)))
    await service.start_ready()
    await open_casino(service.url, http, tables_of(1, 1))
    relay.silence()
    # A command sent into the silence gets an answer, a 503, in bounded time.
    answer = await http.post(
        f"{service.url}/v1/tables/t0/commands",
        json={"type": "SitDown"},
        headers={
            **OPERATOR,
            "Authorization": _player_token("t0p0"),
            "Idempotency-Key": "into-the-silence",
        },
        timeout=60,
    )
    assert answer.status_code == 503, answer.text
    # The probe answers within its second whatever the database does (the client here
    # would give up after five).
    for _ in range(3):
        ready = await http.get(f"{service.url}/health/ready", timeout=5)
        assert ready.status_code == 503 and ready.headers["retry-after"]
    assert (await http.get(f"{service.url}/health/live", timeout=5)).status_code == 200
    service.send(signal.SIGTERM)
    await service.wait_exit(timeout=60)
    assert "Exception in ASGI application" not in service.log_text()


def _player_token(name: str) -> str:
    from tests.processes import token_headers

    return token_headers("player", name)["Authorization"]


def _failure_lines(log: str) -> Counter[str]:
    counted: Counter[str] = Counter()
    for line in log.splitlines():
        if not line.startswith("{"):
            continue
        event = json.loads(line).get("event")
        if event in FAILURES:
            counted[event] += 1
    return counted


@pytest.mark.parametrize("fault", ["cut", "silence"])
async def test_no_background_loop_spins_while_the_database_is_gone(
    fault: str,
    fresh_database: str,
    relay: DatabaseProxy,
    spawn: Callable[..., ServiceProcess],
    http: httpx.AsyncClient,
) -> None:
    """Every loop fails, waits longer each time (up to a few seconds) and tries again; and
    comes back when the database does. The database goes in the middle of play, so wake-ups
    are pending when it does (a projection runner that spun on one logged 221,451 lines in
    150 s)."""
    service = spawn("outage", relay.url(_database(fresh_database)))
    await service.start_ready()
    tables = tables_of(1, 2)
    await open_casino(service.url, http, tables)
    # A live stream, so the hub's listener and refresh are in play too.
    watching = asyncio.create_task(
        http.get(f"{service.url}/v1/tables/t0/stream", headers=OPERATOR, timeout=None)
    )
    journal = Journal()
    load = asyncio.ensure_future(play([service.url], http, journal, tables, 3))
    try:
        await eventually(lambda: len(journal.acknowledged) >= 10, message="play before the fault")
        before = _failure_lines(service.log_text())
        if fault == "cut":
            relay.cut()
        else:
            relay.silence()
        # Long enough for every loop to fail several times over.
        await asyncio.sleep(8)
        during = _failure_lines(service.log_text()) - before
        if fault == "cut":
            relay.restore()
        else:
            relay.silent = False
        # Each loop noticed, and failed at most a few dozen times in 8 s.
        assert during["projection runner lost its connection"] >= 1, during
        assert max(during.values()) <= 30, during
        # And the game goes on once the database is back.
        await asyncio.wait_for(load, 240)
    finally:
        load.cancel()
        watching.cancel()
    assert journal.server_errors() == []
    await eventually(service.ready, timeout=60, message="ready again once the database is back")
