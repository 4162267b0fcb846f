"""Fixtures of the deployment suites that run real processes (PgBouncer's)."""

from __future__ import annotations

from tests.faults.fixtures import fresh_database, http, private_postgres, spawn
from tests.wallet.conftest import reference_wallet, reference_wallet_factory

__all__ = [
    "fresh_database",
    "http",
    "private_postgres",
    "reference_wallet",
    "reference_wallet_factory",
    "spawn",
]
