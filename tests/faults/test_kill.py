"""kill -9 of the service in the middle of load, twice, and a restart each time: every command
that got a 2xx is in the store, none is half applied, the projections catch up and equal a
rebuild, replay and reconciliation pass."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Callable

import httpx

from tests.faults.books import check_books
from tests.faults.load import Journal, open_casino, play, tables_of
from tests.processes import ServiceProcess, eventually

TABLES = tables_of(3, 3)
ROUNDS = 12  # enough load that both kills land inside it, however fast the machine
KILLS = 2
ACKNOWLEDGED_BETWEEN_KILLS = 60


async def test_kill_9_mid_load_loses_nothing(
    fresh_database: str, spawn: Callable[..., ServiceProcess], http: httpx.AsyncClient
) -> None:
    service = spawn("solo", fresh_database)
    await service.start_ready()
    await open_casino(service.url, http, TABLES)
    journal = Journal()
    load = asyncio.create_task(play([service.url], http, journal, TABLES, ROUNDS))
    try:
        for _ in range(KILLS):
            target = len(journal.acknowledged) + ACKNOWLEDGED_BETWEEN_KILLS
            await eventually(
                lambda target=target: len(journal.acknowledged) >= target or load.done(),
                timeout=120,
                message="load before the kill",
            )
            if load.done():
                load.result()  # the players' own error, if any
                raise AssertionError("the load ended before the kill")
            assert await service.kill() == -signal.SIGKILL
            await service.start_ready()
        await asyncio.wait_for(load, 240)
    finally:
        load.cancel()

    assert journal.server_errors() == []
    # The kills hit the load: requests went unanswered, and were sent again with their key.
    assert journal.unanswered()
    books = await check_books(fresh_database, journal)
    retried = {a.command_id for a in journal.unanswered() if a.command_id}
    found = sum(1 for a in journal.attempts if a.duplicate and a.command_id in retried)
    print(
        f"kill -9 x{KILLS}: {journal.commands()} commands sent, {books.acknowledged} "
        f"acknowledged, {len(journal.unanswered())} requests unanswered, {found} retries "
        f"found their command already recorded; {books.commands} commands and "
        f"{books.events} events in the store, {books.rounds} rounds replayed; "
        f"statuses {dict(journal.statuses())}, refusals {dict(journal.problems())}"
    )
