"""A database that goes away gives clean 503s with Retry-After, never a 500."""

from __future__ import annotations

import asyncpg
import httpx

from tests.api.conftest import bearer

OPERATOR = bearer("operator", "op")


async def test_lost_connections_recover_by_themselves(
    api: httpx.AsyncClient, database_url: str
) -> None:
    assert (await api.get("/v1/tables", headers=OPERATOR)).status_code == 200
    admin = await asyncpg.connect(database_url)
    try:
        # Kill every session the app holds, as a database restart would.
        await admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
    finally:
        await admin.close()
    statuses = [(await api.get("/v1/tables", headers=OPERATOR)).status_code for _ in range(25)]
    assert set(statuses) <= {200, 503}
    assert statuses[-1] == 200  # the pool replaced its dead connections


async def test_no_database_is_a_503_with_retry_after(api: httpx.AsyncClient) -> None:
    await api.app.state.services.pool.close()  # type: ignore[attr-defined]
    response = await api.get("/v1/tables", headers=OPERATOR)
    assert response.status_code == 503
    assert response.headers["retry-after"] == "2"
    assert response.headers["content-type"].startswith("application/problem+json")
    assert response.json()["type"] == "/problems/unavailable"
    assert "postgres" not in response.text.lower()
    ready = await api.get("/health/ready")
    assert ready.status_code == 503
