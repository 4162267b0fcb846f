"""Fixtures of the availability tests: the API on a real port (tests/api) and, for the
operator's notifications, the casino harness with the reference wallet as a process
(tests/operators)."""

from __future__ import annotations

from tests.api.conftest import api
from tests.operators.conftest import casino
from tests.wallet.conftest import reference_wallet, reference_wallet_factory

__all__ = ["api", "casino", "reference_wallet", "reference_wallet_factory"]
