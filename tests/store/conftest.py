"""Fixtures for the event store tests: the store under test, on the test database."""

from __future__ import annotations

import asyncpg
import pytest

from russian_poker.events.postgres.store import EventStore


@pytest.fixture
def store(pool: asyncpg.Pool[asyncpg.Record]) -> EventStore:
    """The event store's contract, on PostgreSQL (the only backend the product runs)."""
    return EventStore(pool)
