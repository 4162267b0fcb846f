"""Apply the numbered SQL migrations in ``events/migrations`` exactly once.

Every instance of the service may call :func:`migrate` at start-up: a transaction-scoped
advisory lock makes concurrent callers take turns, and the second finds nothing to do.
"""

from __future__ import annotations

import hashlib
import itertools
import re
from collections.abc import Iterable, Sequence
from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import TYPE_CHECKING, Final

import msgspec

if TYPE_CHECKING:
    from russian_poker.events.postgres.store import AnyConnection

__all__ = [
    "MIGRATION_LOCK_KEY",
    "Migration",
    "MigrationError",
    "bundled_migrations",
    "load_migrations",
    "migrate",
]

MIGRATION_LOCK_KEY: Final = 0x6576_656E_7473_0001
"""``pg_advisory_xact_lock`` key serialising migrators (the ASCII of ``events`` + 1)."""

_FILE_NAME: Final = re.compile(r"^(\d+)_(\w+)\.sql$")

_CREATE_TABLE: Final = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    version    int PRIMARY KEY,
    name       text NOT NULL,
    checksum   text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
)
"""


class MigrationError(Exception):
    """The migrations on disk do not agree with those recorded in the database."""


class Migration(msgspec.Struct, frozen=True, kw_only=True):
    """One migration file: ``NNNN_name.sql``."""

    version: int
    name: str
    sql: str

    @property
    def checksum(self) -> str:
        """SHA-256 of the SQL, recorded so an edit after applying is caught."""
        return hashlib.sha256(self.sql.encode()).hexdigest()

    @property
    def label(self) -> str:
        """The file name without ``.sql``, as reported by :func:`migrate`."""
        return f"{self.version:04d}_{self.name}"


def load_migrations(directory: Traversable) -> list[Migration]:
    """The ``NNNN_name.sql`` files of ``directory``, ordered by version."""
    migrations = []
    for entry in directory.iterdir():
        match = _FILE_NAME.match(entry.name)
        if match is None:
            continue
        migrations.append(
            Migration(
                version=int(match.group(1)),
                name=match.group(2),
                sql=entry.read_text(encoding="utf-8"),
            )
        )
    return _checked_order(migrations)


def bundled_migrations() -> list[Migration]:
    """The migrations shipped in the ``events`` package."""
    return load_migrations(files("russian_poker.events") / "migrations")


def _checked_order(migrations: Iterable[Migration]) -> list[Migration]:
    ordered = sorted(migrations, key=lambda m: m.version)
    for before, after in itertools.pairwise(ordered):
        if before.version == after.version:
            raise MigrationError(
                f"migrations {before.label} and {after.label} share version {before.version}"
            )
    return ordered


async def migrate(conn: AnyConnection, migrations: Sequence[Migration] | None = None) -> list[str]:
    """Apply the pending migrations in version order; return the labels applied.

    All of it runs in one transaction, so a failing migration leaves the schema as it was.
    Migrations recorded in the database but missing here are ignored (an older instance
    starting after a newer one migrated).

    Raises:
        MigrationError: an applied migration's SQL changed since it was applied.
    """
    wanted = _checked_order(bundled_migrations() if migrations is None else migrations)
    async with conn.transaction():
        # Taken before the CREATE TABLE: concurrent CREATE TABLE IF NOT EXISTS can still
        # collide on the catalog's unique indexes.
        await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK_KEY)
        await conn.execute(_CREATE_TABLE)
        rows = await conn.fetch("SELECT version, name, checksum FROM schema_migrations")
        applied = {row["version"]: row for row in rows}
        for migration in wanted:
            row = applied.get(migration.version)
            if row is not None and row["checksum"] != migration.checksum:
                raise MigrationError(
                    f"migration {migration.label} was changed after it was applied "
                    f"(recorded as {row['name']!r} with checksum {row['checksum'][:12]}…, "
                    f"file now has {migration.checksum[:12]}…); add a new migration "
                    "instead of editing an applied one"
                )
        pending = [m for m in wanted if m.version not in applied]
        for migration in pending:
            await conn.execute(migration.sql)
            await conn.execute(
                "INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)",
                migration.version,
                migration.label,
                migration.checksum,
            )
    return [m.label for m in pending]
