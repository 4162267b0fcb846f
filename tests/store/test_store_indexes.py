"""Migration 0014: the command-id index covers money events only, the ledger's unused index
goes; an existing database upgrades in place, and replay's query still uses an index."""

from __future__ import annotations

import uuid

import asyncpg

from russian_poker.events.postgres import replay
from russian_poker.events.postgres.migrate import bundled_migrations, migrate
from russian_poker.events.streams import MONEY_PREFIXES, SEAMLESS_PREFIX, WALLET_PREFIX

_INDEXES = "SELECT indexname FROM pg_indexes WHERE tablename = ANY($1::text[])"
_INSERT = """
INSERT INTO events (stream_id, stream_version, event_id, event_type, schema_version, data,
                    metadata)
VALUES ($1, 1, $2, 'Test', 1, '{}', jsonb_build_object('command_id', $3::text))
"""


async def _indexes(conn: asyncpg.Connection[asyncpg.Record]) -> set[str]:
    return {r["indexname"] for r in await conn.fetch(_INDEXES, ["events", "ledger"])}


async def test_an_existing_store_upgrades_and_replay_still_finds_money_events_by_index(
    scratch_database: str,
) -> None:
    every = bundled_migrations()
    before = [m for m in every if m.version < 14]
    conn = await asyncpg.connect(scratch_database)
    try:
        await migrate(conn, before)
        assert {"events_command_id_idx", "ledger_round_idx"} <= await _indexes(conn)
        for stream in ("table-t1", "wallet-alice", "seamless-op:bob"):
            await conn.execute(_INSERT, stream, uuid.uuid4(), "c1")

        assert [label for label in await migrate(conn) if label.startswith("0014")]
        indexes = await _indexes(conn)
        assert "events_money_command_id_idx" in indexes
        assert not {"events_command_id_idx", "ledger_round_idx"} & indexes

        rows = await conn.fetch(replay._WALLET_EVENTS, ["c1"])
        assert sorted(r["stream_id"] for r in rows) == ["seamless-op:bob", "wallet-alice"]
        # However few rows the table has: the query's predicate is the index's.
        await conn.execute("SET enable_seqscan = off")
        plan = "\n".join(r[0] for r in await conn.fetch("EXPLAIN " + replay._WALLET_EVENTS, ["c1"]))
        assert "events_money_command_id_idx" in plan, plan
    finally:
        await conn.close()


def test_the_index_predicate_names_every_money_stream() -> None:
    # Replay spells the prefixes out to match the index; a new kind of money stream must
    # be added to both (and to a migration).
    assert MONEY_PREFIXES == (WALLET_PREFIX, SEAMLESS_PREFIX)
    sql = next(m.sql for m in bundled_migrations() if m.version == 14)
    assert all(f"starts_with(stream_id, '{prefix}')" in sql for prefix in MONEY_PREFIXES)
