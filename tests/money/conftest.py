"""One casino and one operator's wallet process serve the whole package; each test makes
its own operators, players and tables."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.money.books import MODES, Book, Mode
from tests.operators import module_fixtures
from tests.operators.casino import Casino
from tests.wallet.reference import ReferenceWallet

shared_casino = module_fixtures.shared_casino
shared_wallet = module_fixtures.shared_wallet


@pytest.fixture(params=MODES)
async def book(
    request: pytest.FixtureRequest, shared_casino: Casino, shared_wallet: ReferenceWallet
) -> AsyncIterator[Book]:
    """A fresh operator of each mode in turn: every test of the contract runs against both."""
    mode: Mode = request.param
    yield await Book.open(shared_casino, shared_wallet, mode)
    await shared_casino.delivered()
