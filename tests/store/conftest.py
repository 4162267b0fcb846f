"""Fixtures for the event store tests: the recorder under test, on either backend."""

from __future__ import annotations

import asyncpg
import pytest

from russian_poker.events.memory import InMemoryRecorder
from russian_poker.events.recorder import EventRecorder, PostgresRecorder


@pytest.fixture(params=["memory", "postgres"])
def recorder(request: pytest.FixtureRequest) -> EventRecorder:
    """Each contract test runs once per backend; both must behave identically."""
    if request.param == "memory":
        return InMemoryRecorder()
    pool: asyncpg.Pool[asyncpg.Record] = request.getfixturevalue("pool")
    return PostgresRecorder(pool)
