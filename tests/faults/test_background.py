"""The service outlives whatever a lost database connection raises: its background loops go
on, and a request gets a clean 503.

A restart or a network cut surfaces in asyncpg not only as ``PostgresError``/``OSError`` but
also as ``InterfaceError`` ("the underlying connection is closed") and, now and then, as
``InternalClientError`` ("cannot switch to state 15; another operation (2) is in progress",
MagicStack/asyncpg#784). Any of them escaping a loop ends it for good: no more time-outs
from that instance, no more live states, no projection. Deterministic, without a database.
"""

from __future__ import annotations

import asyncio
from typing import Any

import asyncpg
from litestar import Litestar, get
from litestar.testing import AsyncTestClient

from russian_poker.events.postgres.projections import ProjectionStore
from russian_poker.projections.runner import ProjectionRunner
from russian_poker.service.app.problems import problem_details_plugin
from russian_poker.service.clock import Clock
from russian_poker.service.live import LiveHub

GONE: list[BaseException] = [
    asyncpg.InterfaceError("cannot call Transaction.__aexit__(): the connection is closed"),
    asyncpg.InternalClientError("cannot switch to state 15; another operation (2) is in progress"),
    asyncpg.ConnectionDoesNotExistError("connection was closed in the middle of operation"),
    ConnectionRefusedError(111, "Connect call failed"),
]


class Failing:
    """Raises each of ``GONE`` in turn, then succeeds and says so."""

    def __init__(self) -> None:
        self.calls = 0
        self.recovered = asyncio.Event()

    def __call__(self, *_: Any) -> None:
        self.calls += 1
        if self.calls <= len(GONE):
            raise GONE[self.calls - 1]
        self.recovered.set()


async def test_the_clock_keeps_ticking_after_the_database_went() -> None:
    failing = Failing()

    class Timers:
        async def due(self, *_: Any) -> list[Any]:
            failing()
            return []

    clock = Clock(Timers(), None, interval_s=0.01)  # type: ignore[arg-type]
    clock.start()
    try:
        await asyncio.wait_for(failing.recovered.wait(), 10)
    finally:
        await clock.stop()


async def test_the_live_hub_keeps_polling_after_the_database_went() -> None:
    failing = Failing()

    class Listener:
        closed = False

        async def ping(self, _timeout: float) -> bool:
            return True

        async def close(self) -> None:
            pass

    hub = LiveHub(None, poll_s=0.01)  # type: ignore[arg-type]

    async def refresh(_table_id: str) -> None:
        failing()

    hub._listener = Listener()  # type: ignore[assignment]
    hub._tables["t1"] = object()  # type: ignore[assignment]
    hub.refresh = refresh  # type: ignore[method-assign, assignment]
    hub._poller = asyncio.create_task(hub._poll())
    try:
        await asyncio.wait_for(failing.recovered.wait(), 10)
        assert not hub._poller.done()
    finally:
        hub._tables.clear()
        await hub.stop()


async def test_the_projection_runner_tries_to_lead_again_after_the_database_went() -> None:
    failing = Failing()

    class Projection:
        name = "audit"

    runner = ProjectionRunner(
        Projection(),  # type: ignore[arg-type]
        ProjectionStore("postgresql://unused"),
        retry_interval=0.01,
    )

    async def lead_once() -> None:
        failing()
        await runner._stopping.wait()

    runner._lead_once = lead_once  # type: ignore[method-assign]
    await runner.start()
    try:
        await asyncio.wait_for(failing.recovered.wait(), 10)
    finally:
        await asyncio.wait_for(runner.stop(), 10)


async def test_every_lost_connection_error_is_a_clean_503() -> None:
    errors = iter(GONE)

    @get("/")
    async def handler() -> None:
        raise next(errors)

    app = Litestar([handler], plugins=[problem_details_plugin()])
    async with AsyncTestClient(app=app) as client:
        for error in GONE:
            response = await client.get("/")
            assert response.status_code == 503, (error, response.text)
            assert response.headers["retry-after"]
            assert response.json()["type"] == "/problems/unavailable"
