"""An app on the test database, and tokens for every role."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from litestar.testing import AsyncTestClient

from russian_poker.events.postgres.pool import create_pool
from russian_poker.service.app import create_app
from russian_poker.service.app.auth import mint_token
from russian_poker.service.settings import Settings
from tests.api.live_server import serving
from tests.service.conftest import truncate_everything

SECRET = "test-secret-" + "x" * 40


def bearer(role: str, subject: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {mint_token(SECRET, role, subject)}"}  # type: ignore[arg-type]


async def fresh_settings(database_url: str, tmp_path: Any, **overrides: Any) -> Settings:
    """Settings for an app on an emptied database: test mode and the tests' secret, then
    ``overrides``."""
    pool = await create_pool(database_url)
    await truncate_everything(pool)
    await pool.close()
    chosen: dict[str, Any] = {
        "database_url": database_url,
        "jwt_secret": SECRET,
        "test_mode": True,
        "data_dir": str(tmp_path),
        **overrides,
    }
    return Settings(**chosen)


@pytest.fixture
async def client(database_url: str, tmp_path: object) -> AsyncIterator[AsyncTestClient]:  # type: ignore[type-arg]
    settings = await fresh_settings(database_url, tmp_path, rate_limit=0)
    async with AsyncTestClient(app=create_app(settings)) as test_client:
        yield test_client


@pytest.fixture
async def api(database_url: str, tmp_path: Any) -> AsyncIterator[httpx.AsyncClient]:
    app = create_app(await fresh_settings(database_url, tmp_path, clock=False, rate_limit=0))
    async with serving(app) as url, httpx.AsyncClient(base_url=url, timeout=10) as client:
        client.app = app  # type: ignore[attr-defined]
        yield client
