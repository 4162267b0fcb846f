"""The back office's fixtures: a real service process (test mode, a checkpoint every second
so a round is soon covered by one) and Debian's Chromium, as for the table client; a world
of rounds played over HTTP by the operator and its players."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.client.conftest import browser, playwright
from tests.processes import ServiceProcess, service_on_fresh_database
from tests.wallet.conftest import reference_wallet, reference_wallet_factory

__all__ = [
    "browser",
    "office_service",
    "playwright",
    "reference_wallet",
    "reference_wallet_factory",
]


@pytest.fixture(scope="module")
async def office_service(
    server_url: str, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[ServiceProcess]:
    async with service_on_fresh_database(
        server_url,
        "office",
        tmp_path_factory.mktemp("office-service"),
        env={"RUSSIAN_POKER_TEST_MODE": "true", "RUSSIAN_POKER_CHECKPOINT_EVERY_S": "1"},
    ) as service:
        yield service
