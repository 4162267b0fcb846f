"""The migration runner, each test on its own empty database."""

from __future__ import annotations

import asyncio
from pathlib import Path

import asyncpg
import pytest

from russian_poker.events.postgres.migrate import (
    Migration,
    MigrationError,
    bundled_migrations,
    load_migrations,
    migrate,
)

# Other packages may ship migrations here too; these tests only assume the store's own.
ALL_LABELS = [m.label for m in bundled_migrations()]
STORE_TABLES = {
    "commands",
    "events",
    "projection_checkpoints",
    "schema_migrations",
    "streams",
}


async def _tables(conn: asyncpg.Connection[asyncpg.Record]) -> set[str]:
    rows = await conn.fetch("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
    return {row[0] for row in rows}


async def test_migrate_creates_the_store_once(scratch_database: str) -> None:
    conn = await asyncpg.connect(scratch_database)
    try:
        assert await migrate(conn) == ALL_LABELS
        assert await migrate(conn) == []
        assert await _tables(conn) >= STORE_TABLES
        # What was never used is gone (migration 0016).
        assert not await _tables(conn) & {"idempotency_keys", "snapshots"}
    finally:
        await conn.close()


async def test_concurrent_migrators_apply_each_migration_once(scratch_database: str) -> None:
    conns = [await asyncpg.connect(scratch_database) for _ in range(4)]
    try:
        results = await asyncio.gather(*(migrate(conn) for conn in conns))
        rows = await conns[0].fetch("SELECT version, name FROM schema_migrations")
    finally:
        await asyncio.gather(*(conn.close() for conn in conns))

    assert sorted(results) == [[], [], [], ALL_LABELS]
    assert sorted(row["name"] for row in rows) == ALL_LABELS


async def test_editing_an_applied_migration_is_refused(scratch_database: str) -> None:
    original, *others = bundled_migrations()
    edited = Migration(version=1, name=original.name, sql=original.sql + "\n-- tweak\n")
    conn = await asyncpg.connect(scratch_database)
    try:
        await migrate(conn)
        with pytest.raises(MigrationError, match="0001_event_store was changed after"):
            await migrate(conn, [edited, *others])
    finally:
        await conn.close()


async def test_new_migrations_apply_in_order(scratch_database: str) -> None:
    later = [
        Migration(version=9002, name="second", sql="ALTER TABLE extra ADD COLUMN y int"),
        Migration(version=9001, name="first", sql="CREATE TABLE extra (x int)"),
    ]
    conn = await asyncpg.connect(scratch_database)
    try:
        await migrate(conn)
        assert await migrate(conn, [*bundled_migrations(), *later]) == ["9001_first", "9002_second"]
        assert await conn.fetchval("SELECT count(*) FROM schema_migrations") == len(ALL_LABELS) + 2
    finally:
        await conn.close()


async def test_failing_migration_leaves_nothing_behind(scratch_database: str) -> None:
    broken = Migration(version=9001, name="broken", sql="CREATE TABLE nope (x no_such_type)")
    conn = await asyncpg.connect(scratch_database)
    try:
        with pytest.raises(asyncpg.UndefinedObjectError):
            await migrate(conn, [*bundled_migrations(), broken])
        assert await _tables(conn) == set()
    finally:
        await conn.close()


def test_migration_files_are_numbered_uniquely(tmp_path: Path) -> None:
    (tmp_path / "0001_one.sql").write_text("SELECT 1")
    (tmp_path / "0002_two.sql").write_text("SELECT 2")
    (tmp_path / "README.md").write_text("not a migration")
    assert [m.label for m in load_migrations(tmp_path)] == ["0001_one", "0002_two"]

    (tmp_path / "02_again.sql").write_text("SELECT 2")
    with pytest.raises(MigrationError, match="share version 2"):
        load_migrations(tmp_path)
