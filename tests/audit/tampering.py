"""Tampering with the record for one test only: a connection whose writes are undone."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

import asyncpg

__all__ = ["rolled_back"]


@contextlib.asynccontextmanager
async def rolled_back(
    pool: asyncpg.Pool[asyncpg.Record],
) -> AsyncIterator[asyncpg.pool.PoolConnectionProxy[asyncpg.Record]]:
    """A connection inside a transaction that is rolled back afterwards, so that what a test
    forged is gone before the next one reads the record."""
    async with pool.acquire() as conn:
        transaction = conn.transaction()
        await transaction.start()
        try:
            yield conn
        finally:
            await transaction.rollback()
