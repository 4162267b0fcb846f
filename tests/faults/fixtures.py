"""Fixtures shared by the fault, cluster and lifecycle tests (imported by both conftests;
the private server behind them is one per test process either way)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.processes import (
    PrivatePostgres,
    ServiceProcess,
    create_database,
    drop_database,
    shared_private_postgres,
)

__all__ = ["fresh_database", "http", "private_postgres", "spawn"]


@pytest.fixture(scope="session")
def private_postgres(_embedded_server_root: Path) -> Iterator[PrivatePostgres]:
    """A PostgreSQL of this test process's own, which the tests may stop and crash."""
    with shared_private_postgres(_embedded_server_root) as server:
        yield server


@pytest.fixture
async def fresh_database(private_postgres: PrivatePostgres) -> AsyncIterator[str]:
    """A new migrated database on the private server, dropped afterwards."""
    private_postgres.ensure_up()
    url = await create_database(private_postgres.server_url, "faults")
    yield url
    private_postgres.ensure_up()
    await drop_database(private_postgres.server_url, url)


@pytest.fixture
async def http() -> AsyncIterator[httpx.AsyncClient]:
    limits = httpx.Limits(max_connections=200, max_keepalive_connections=50)
    async with httpx.AsyncClient(timeout=httpx.Timeout(60.0), limits=limits) as client:
        yield client


@pytest.fixture
def spawn(tmp_path: Path) -> Iterator[Callable[..., ServiceProcess]]:
    """Makes service processes (not started); every one is killed at the end, and its log
    tail printed (pytest shows it when the test failed)."""
    made: list[ServiceProcess] = []

    def make(name: str, database_url: str, **options: Any) -> ServiceProcess:
        service = ServiceProcess(name, database_url, tmp_path / name, **options)
        made.append(service)
        return service

    yield make
    for service in made:
        service.stop_now()
        print(f"----- {service.name} (pids {service.pids}) -----\n{service.log_tail(80)}")
