"""Two service instances (separate processes) on one fresh database, and a racing client.

The instances share nothing but PostgreSQL, as two replicas behind a load balancer do.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import asyncpg
import httpx
import pytest

from russian_poker.events.postgres.pool import create_pool
from tests.api.conftest import bearer
from tests.races.instances import instance
from tests.security.conftest import fresh_database

__all__ = ["OPERATOR", "Pair", "Sent", "player"]

OPERATOR = bearer("operator", "op")


def player(name: str) -> dict[str, str]:
    return bearer("player", name)


@dataclass
class Sent:
    """A request's final answer, after retrying 503s (busy) with the same key."""

    status: int
    body: Any
    attempts: int


class Pair:
    def __init__(
        self, a: httpx.AsyncClient, b: httpx.AsyncClient, pool: asyncpg.Pool[asyncpg.Record]
    ) -> None:
        self.a = a
        self.b = b
        self.clients = (a, b)
        self.pool = pool
        self.busy = 0
        """503s answered along the way (each retried with the same key)."""

    async def send(
        self,
        client: httpx.AsyncClient,
        method: str,
        path: str,
        body: Any = None,
        headers: dict[str, str] | None = None,
    ) -> Sent:
        """A request, retried as a client would on 503 (same body, same Idempotency-Key).

        The bound on retries is a count, not a time: the test never waits on a clock.
        """
        for attempt in range(1, 51):
            response = await client.request(method, path, json=body, headers=headers)
            if response.status_code != 503:
                return Sent(
                    response.status_code, response.json() if response.content else None, attempt
                )
            self.busy += 1
            assert response.headers.get("retry-after"), response.text
        raise AssertionError(f"{method} {path} still busy after 50 attempts")

    async def command(
        self, client: httpx.AsyncClient, table: str, who: str, key: str, body: dict[str, Any]
    ) -> Sent:
        return await self.send(
            client,
            "POST",
            f"/v1/tables/{table}/commands",
            body,
            {**player(who), "Idempotency-Key": key},
        )

    async def ok(self, sent: Sent) -> Any:
        assert 200 <= sent.status < 300, (sent.status, sent.body)
        return sent.body


@pytest.fixture(scope="module")
async def pair(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Pair]:
    await fresh_database(database_url)
    root = tmp_path_factory.mktemp("instances")
    # Small pools and many retries: contention is the point here.
    async with (
        instance(database_url, root / "a", "a", pool_size="6") as a,
        instance(database_url, root / "b", "b", pool_size="6") as b,
        httpx.AsyncClient(base_url=a.url, timeout=60) as client_a,
        httpx.AsyncClient(base_url=b.url, timeout=60) as client_b,
    ):
        pool = await create_pool(database_url, min_size=1, max_size=4)
        try:
            yield Pair(client_a, client_b, pool)
        finally:
            await pool.close()
