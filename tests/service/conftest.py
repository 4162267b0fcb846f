"""Fixtures for the service: a clean migrated database and the command handlers on it."""

from __future__ import annotations

from collections.abc import AsyncIterator

import asyncpg
import pytest

from russian_poker.events.postgres.pool import create_pool
from russian_poker.service.application.commands import CommandService
from russian_poker.service.application.transfers import TransferService
from russian_poker.service.bootstrap import command_service, transfer_service


async def truncate_everything(pool: asyncpg.Pool[asyncpg.Record]) -> None:
    async with pool.acquire() as conn:
        names = await conn.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
            " AND tablename <> 'schema_migrations'"
        )
        await conn.execute(f"TRUNCATE {', '.join(r['tablename'] for r in names)} RESTART IDENTITY")


@pytest.fixture
async def db(database_url: str) -> AsyncIterator[asyncpg.Pool[asyncpg.Record]]:
    pool = await create_pool(database_url, min_size=1, max_size=8)
    await truncate_everything(pool)
    try:
        yield pool
    finally:
        await pool.close()


@pytest.fixture
async def handler(db: asyncpg.Pool[asyncpg.Record]) -> AsyncIterator[CommandService]:
    commands = command_service(db, test_mode=True)
    yield commands
    await commands.close()


@pytest.fixture
def wallet_handler(db: asyncpg.Pool[asyncpg.Record]) -> TransferService:
    return transfer_service(db)
