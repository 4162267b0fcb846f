"""Fixtures of the operator-integration suites: the reference wallet's (a real process per
test) and a service in test mode with a casino harness on it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from russian_poker.service.app import create_app
from tests.api.conftest import fresh_settings
from tests.api.live_server import serving
from tests.operators.casino import Casino
from tests.wallet.conftest import reference_wallet, reference_wallet_factory

__all__ = ["casino", "reference_wallet", "reference_wallet_factory"]


@pytest.fixture
async def casino(database_url: str, tmp_path: Path) -> AsyncIterator[Casino]:
    """The service in-process on a real port (its clock off; the outbox on, retrying fast)."""
    settings = await fresh_settings(
        database_url,
        tmp_path,
        clock=False,
        rate_limit=0,
        wallet_backoff_max_s=0.2,
    )
    app = create_app(settings)
    async with serving(app) as url, httpx.AsyncClient(base_url=url, timeout=30) as client:
        yield Casino(client, app)
