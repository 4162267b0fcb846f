"""Module-scoped fixtures of the wallet fault suites: one reference wallet process and one
casino serve a whole test module (each test makes its own operator, players and tables).

A test module takes them by naming them at its top level (``shared_casino =
module_fixtures.shared_casino``): pytest finds fixtures by the module's names.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.operators.casino import Casino
from tests.operators.faults_helpers import running_casino, running_wallet
from tests.wallet.reference import ReferenceWallet

__all__ = ["shared_casino", "shared_wallet"]


@pytest.fixture(scope="module")
async def shared_wallet(
    server_url: str, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[ReferenceWallet]:
    async with running_wallet(server_url, tmp_path_factory.mktemp("wallets")) as wallet:
        yield wallet


@pytest.fixture(scope="module")
async def shared_casino(
    database_url: str, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Casino]:
    async with running_casino(database_url, tmp_path_factory.mktemp("casino")) as casino:
        yield casino
