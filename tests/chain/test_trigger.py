"""The trigger chains every writer: multi-row statements, several streams at once,
concurrent appenders (READ COMMITTED), direct inserts; the migration chains what was there."""

from __future__ import annotations

import asyncio
import json
import uuid
from typing import TYPE_CHECKING, TypeAlias

import asyncpg
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from russian_poker.events.postgres.chain import ChainStore
from russian_poker.events.postgres.migrate import bundled_migrations, migrate
from russian_poker.events.postgres.pool import create_pool
from russian_poker.events.postgres.store import StreamAppend, append
from russian_poker.service.chain.hashing import GENESIS
from russian_poker.service.chain.verify import verify_chain
from tests.chain.conftest import event, verify

if TYPE_CHECKING:
    Pool: TypeAlias = asyncpg.Pool[asyncpg.Record]

_LINKS = """
SELECT e.stream_version, e.prev_hash = coalesce(p.hash, $2) AS linked
FROM events AS e
LEFT JOIN events AS p ON p.stream_id = e.stream_id AND p.stream_version = e.stream_version - 1
WHERE e.stream_id = $1 ORDER BY e.stream_version
"""


async def test_a_multi_row_insert_chains_within_itself(pool: Pool, key: Ed25519PrivateKey) -> None:
    """A BEFORE ROW trigger sees the rows its own statement inserted before."""
    await pool.execute(
        """
        INSERT INTO events (stream_id, stream_version, event_id, event_type, schema_version,
                            data)
        SELECT 'multi', v, gen_random_uuid(), 'Tested', 1, jsonb_build_object('n', v)
        FROM generate_series(1, 50) AS v
        """
    )
    rows = await pool.fetch(_LINKS, "multi", GENESIS)
    assert [r["stream_version"] for r in rows] == list(range(1, 51))
    assert all(r["linked"] for r in rows)
    await pool.execute("INSERT INTO streams VALUES ('multi', 50)")
    assert (await verify(pool, key)).findings == []


async def test_one_append_of_several_streams_chains_each(
    pool: Pool, key: Ed25519PrivateKey
) -> None:
    async with pool.acquire() as conn:
        await append(
            conn,
            [
                StreamAppend(stream_id=s, expected_version=0, events=[event(n) for n in range(4)])
                for s in ("x", "y", "z")
            ],
        )
        await append(
            conn,
            [
                StreamAppend(stream_id=s, expected_version=4, events=[event(n) for n in range(3)])
                for s in ("x", "z")
            ],
        )
    report = await verify(pool, key)
    assert report.findings == [] and report.events == 18


async def test_an_event_without_its_predecessor_is_refused(pool: Pool) -> None:
    with pytest.raises(asyncpg.PostgresError, match="no predecessor") as raised:
        await pool.execute(
            "INSERT INTO events (stream_id, stream_version, event_id, event_type, "
            "schema_version, data) VALUES ('gap', 2, $1, 'Tested', 1, '{}')",
            uuid.uuid4(),
        )
    assert raised.value.sqlstate == "ES003"


async def test_the_hash_covers_the_time_stored(pool: Pool, key: Ed25519PrivateKey) -> None:
    """A NULL recorded_at is set by the trigger, so what is hashed is what is stored."""
    await pool.execute(
        "INSERT INTO events (stream_id, stream_version, event_id, event_type, schema_version, "
        "data, recorded_at) VALUES ('when', 1, $1, 'Tested', 1, '{}', NULL)",
        uuid.uuid4(),
    )
    await pool.execute("INSERT INTO streams VALUES ('when', 1)")
    assert await pool.fetchval("SELECT recorded_at IS NOT NULL FROM events")
    assert (await verify(pool, key)).findings == []


async def test_concurrent_appenders_chain_correctly(
    database_url: str, pool: Pool, key: Ed25519PrivateKey
) -> None:
    """Sixteen connections: eight on their own streams, eight racing on one stream (no
    expected version, so each waits for the streams row lock of the one before)."""
    writers = await create_pool(database_url, min_size=16, max_size=16)

    async def appender(stream: str, expected: bool, count: int) -> None:
        async with writers.acquire() as conn:
            for n in range(count):
                await append(
                    conn,
                    [
                        StreamAppend(
                            stream_id=stream,
                            expected_version=n * 2 if expected else None,
                            events=[event(n), event(n)],
                        )
                    ],
                )

    try:
        await asyncio.gather(
            *(appender(f"own-{i}", True, 40) for i in range(8)),
            *(appender("shared", False, 40) for _ in range(8)),
        )
    finally:
        await writers.close()
    assert await pool.fetchval("SELECT version FROM streams WHERE stream_id = 'shared'") == 640
    report = await verify(pool, key)
    assert report.findings == [] and report.events == 8 * 80 + 640


async def test_the_migration_chains_existing_events(scratch_database: str) -> None:
    conn = await asyncpg.connect(scratch_database)
    try:
        await migrate(conn, [m for m in bundled_migrations() if m.version < 10])
        for stream, count in (("old-a", 5), ("old-b", 3)):
            for version in range(1, count + 1):
                await conn.execute(
                    "INSERT INTO events (stream_id, stream_version, event_id, event_type, "
                    "schema_version, data) VALUES ($1, $2, $3, 'Old', 1, $4::jsonb)",
                    stream,
                    version,
                    uuid.uuid4(),
                    json.dumps({"v": version, "text": "ü"}),
                )
            await conn.execute("INSERT INTO streams VALUES ($1, $2)", stream, count)
        await migrate(conn)
        report = await verify_chain(ChainStore(conn), [])
        assert report.findings == [] and report.events == 8
        nullable = await conn.fetchval(
            "SELECT count(*) FROM information_schema.columns WHERE table_name = 'events' "
            "AND column_name IN ('prev_hash', 'hash') AND is_nullable = 'NO'"
        )
        assert nullable == 2
    finally:
        await conn.close()
