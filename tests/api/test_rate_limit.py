"""Rate limiting counts per verified player, not per claimed identity."""

from __future__ import annotations

from collections import Counter
from collections.abc import AsyncIterator
from typing import Any

import pytest
from litestar.testing import AsyncTestClient

from russian_poker.service.app import create_app
from russian_poker.service.settings import Settings
from tests.api.conftest import SECRET, bearer


@pytest.fixture
async def limited(database_url: str, tmp_path: Any) -> AsyncIterator[AsyncTestClient]:  # type: ignore[type-arg]
    settings = Settings(
        database_url=database_url, jwt_secret=SECRET, data_dir=str(tmp_path), rate_limit=3
    )
    async with AsyncTestClient(app=create_app(settings)) as client:
        yield client


async def test_a_player_beyond_the_limit_gets_429(limited: AsyncTestClient) -> None:  # type: ignore[type-arg]
    alice, bob = bearer("player", "alice"), bearer("player", "bob")
    statuses = Counter(
        [(await limited.get("/v1/tables", headers=alice)).status_code for _ in range(40)]
    )
    # 40 requests cannot span more than a few one-second windows of 3 requests each.
    assert statuses[429] >= 25 and statuses[200] >= 3
    refused = await limited.get("/v1/tables", headers=alice)
    if refused.status_code == 429:
        assert refused.headers["content-type"].startswith("application/problem+json")
    # Bob has his own budget.
    assert (await limited.get("/v1/tables", headers=bob)).status_code == 200
    # Health checks are never limited.
    assert all([(await limited.get("/health/live")).status_code == 200 for _ in range(10)])
