"""Fixtures: a reference operator wallet (a real process on a fresh database) per test, and
a factory for more of them (another secret, a broken variant)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from tests.processes import create_database, drop_database
from tests.wallet.reference import ReferenceWallet

WalletFactory = Callable[..., Awaitable[ReferenceWallet]]


@pytest.fixture
async def reference_wallet_factory(server_url: str, tmp_path: Path) -> AsyncIterator[WalletFactory]:
    """``await factory(broken=None)``: one more wallet, ready, on a database of its own;
    every one is stopped and its database dropped at the end of the test."""
    started: list[ReferenceWallet] = []

    async def start(broken: str | None = None) -> ReferenceWallet:
        url = await create_database(server_url, "refwallet", migrated=False)
        wallet = ReferenceWallet(url, tmp_path / "reference-wallets", broken=broken)
        started.append(wallet)
        await wallet.start_ready()
        return wallet

    try:
        yield start
    finally:
        for wallet in started:
            try:
                await wallet.stop()
            finally:
                wallet.stop_now()
                await drop_database(server_url, wallet.database_url)


@pytest.fixture
async def reference_wallet(reference_wallet_factory: WalletFactory) -> ReferenceWallet:
    """A correct reference wallet, ready, on a fresh database of its own."""
    return await reference_wallet_factory()
