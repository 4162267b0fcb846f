"""Fixtures of the failover suite: a replicated pair per test, service processes, the
reference wallet (the seamless operator's, on the shared server: it outlives the failover)."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.failover.cluster import Replicated
from tests.faults.fixtures import fresh_database, http, private_postgres, spawn
from tests.wallet.conftest import reference_wallet, reference_wallet_factory

__all__ = [
    "fresh_database",
    "http",
    "private_postgres",
    "reference_wallet",
    "reference_wallet_factory",
    "replicated",
    "spawn",
]


@pytest.fixture
async def replicated(_embedded_server_root: Path) -> AsyncIterator[Replicated]:
    """A primary and its synchronous standby, streaming; both gone after the test."""
    # The root is shared by the run's workers: a name of this test's own.
    cluster = Replicated(_embedded_server_root / f"replicated-{uuid.uuid4().hex[:12]}")
    try:
        await cluster.setup()
        yield cluster
    finally:
        print(f"----- standby log -----\n{cluster.standby_log()[-4000:]}")
        cluster.teardown()
