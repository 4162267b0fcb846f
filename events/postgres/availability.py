"""The availability log as stored (``availability_log``): written by its projection
(``projections.availability``) on its batch's connection, read a page at a time."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Final

from russian_poker.events.postgres.pool import Database
from russian_poker.projections.availability import (
    AvailabilityChange,
    AvailabilityPage,
    LogEntry,
    TableFacts,
    change_of,
)
from russian_poker.projections.paging import serial_cursor

__all__ = ["AvailabilityStore"]

_LATEST: Final = """
SELECT DISTINCT ON (table_id) table_id, operator_id, shared, ruleset_version
FROM availability_log WHERE table_id = ANY($1::text[])
ORDER BY table_id, global_position DESC
"""
_SAVE: Final = """
INSERT INTO availability_log (global_position, table_id, operator_id, shared, kind,
    actor_role, actor_id, reason, ruleset_version, ruleset, command_id, recorded_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11, $12)
"""
_PAGE: Final = """
SELECT global_position, table_id, operator_id, shared, kind, actor_role, actor_id, reason,
       recorded_at, ruleset_version, ruleset::text AS ruleset, command_id
FROM availability_log
WHERE ($1::text IS NULL OR table_id = $1)
  AND ($2::text IS NULL OR operator_id = $2)
  AND ($3::timestamptz IS NULL OR recorded_at >= $3)
  AND ($4::timestamptz IS NULL OR recorded_at < $4)
  AND ($5::bigint IS NULL OR global_position > $5)
ORDER BY global_position
LIMIT $6
"""


def _change(row: Any) -> AvailabilityChange:
    return change_of(LogEntry(**dict(row)))


class AvailabilityStore:
    """The availability log on ``db``."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def reset(self) -> None:
        await self._db.execute("DELETE FROM availability_log")

    async def latest(self, table_ids: Sequence[str]) -> dict[str, TableFacts]:
        """What the latest entry of each of ``table_ids`` says (those that have one)."""
        return {
            row["table_id"]: TableFacts(row["operator_id"], row["shared"], row["ruleset_version"])
            for row in await self._db.fetch(_LATEST, list(table_ids))
        }

    async def save(self, entries: Sequence[LogEntry]) -> None:
        await self._db.executemany(_SAVE, entries)

    async def page(
        self,
        *,
        table_id: str | None,
        operator_id: str | None,
        start: datetime | None,
        end: datetime | None,
        cursor: int | None,
        limit: int,
    ) -> AvailabilityPage:
        """The changes after ``cursor`` recorded in ``[start, end)``, oldest first."""
        rows = await self._db.fetch(_PAGE, table_id, operator_id, start, end, cursor, limit + 1)
        page = [_change(r) for r in rows[:limit]]
        more = len(rows) > limit
        return AvailabilityPage(
            items=page, next_cursor=serial_cursor(page[-1].position) if more else None
        )
