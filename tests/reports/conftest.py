"""A real server for the report tests: test mode, its clock off, no rate limit (a run of
rounds is many commands), the RTP gauges refreshed five times a second, and a table
harness on it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from russian_poker.service.app import create_app
from tests.api.conftest import fresh_settings
from tests.api.e2e import Harness
from tests.api.live_server import serving


@pytest.fixture
async def harness(database_url: str, tmp_path: Any) -> AsyncIterator[Harness]:
    settings = await fresh_settings(
        database_url, tmp_path, clock=False, rate_limit=0, rtp_refresh_s=0.2
    )
    app = create_app(settings)
    async with serving(app) as url, httpx.AsyncClient(base_url=url, timeout=10) as client:
        yield Harness(client, app, "t1")
