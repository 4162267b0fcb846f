"""The ceiling for ``benchmarks/load.py``: the least a request on this stack can cost.

One Litestar endpoint, ``POST /v1/writes``, that decodes a small msgspec body and does one
``INSERT`` through an asyncpg pool (the same pool factory, session settings and size as the
service), served by the same uvicorn (uvloop, httptools) with the same worker count. No
authentication, no event store, no rules: what is left is HTTP, JSON and one database round
trip with its commit. The service cannot beat it; the benchmark reports how close it gets.

    DATABASE_URL=postgresql://... uvicorn benchmarks.ceiling_app:create_app --factory
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Final

import msgspec
from litestar import Litestar, post
from litestar.datastructures import State

from russian_poker.events.postgres.pool import create_pool

__all__ = ["TABLE_DDL", "Write", "Written", "create_app"]

TABLE_DDL: Final = """
CREATE TABLE IF NOT EXISTS ceiling_writes (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    player     text NOT NULL,
    body       jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
)
"""
_INSERT: Final = "INSERT INTO ceiling_writes (player, body) VALUES ($1, $2) RETURNING id"


class Write(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A body shaped like a table command (``{"type": "PlaceAnte", "box": 1, ...}``)."""

    type: str
    box: int | None = None
    ante: int | None = None
    player: str = "anonymous"


class Written(msgspec.Struct, frozen=True, kw_only=True):
    id: int
    type: str


@post("/v1/writes", status_code=200)
async def write(data: Write, state: State) -> Written:
    row_id = await state.pool.fetchval(_INSERT, data.player, msgspec.json.encode(data).decode())
    return Written(id=row_id, type=data.type)


def create_app() -> Litestar:
    url = os.environ["DATABASE_URL"]
    pool_size = int(os.environ.get("RUSSIAN_POKER_POOL_SIZE", "20"))

    @asynccontextmanager
    async def database(app: Litestar) -> AsyncIterator[None]:
        # Same pool as the service: events.pool session settings, min 2, max pool_size.
        pool = await create_pool(url, min_size=2, max_size=pool_size)
        await pool.execute(TABLE_DDL)
        app.state.pool = pool
        try:
            yield
        finally:
            await pool.close()

    return Litestar(route_handlers=[write], lifespan=[database], debug=False)
