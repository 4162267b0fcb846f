"""The availability log: every opening, closing, reopening and ruleset change of a table.

A catch-up projection (``projections.runner``) of ``TableOpened``, ``TableClosed``,
``TableReopened`` and ``RulesetChanged``. Nothing is recorded twice: the reason is in the
event, who acted is the actor of the event's metadata (as for every command; an admin
acting for the table's operator is marked there), and the time is the event's own record
time. The ruleset version is 1 at opening and the ``RulesetChanged`` event's after that; a
closing or reopening carries the version in force. ``russian-poker projections rebuild
availability`` folds the events again and compares.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import msgspec

from russian_poker.events.codec import decode_event
from russian_poker.events.game import RulesetChanged, TableClosed, TableOpened, TableReopened
from russian_poker.events.postgres.store import AnyConnection, RecordedEvent
from russian_poker.events.streams import TABLE_PREFIX

__all__ = ["KINDS", "AvailabilityProjection"]

KINDS: Final = {
    "TableOpened": "opened",
    "TableClosed": "closed",
    "TableReopened": "reopened",
    "RulesetChanged": "ruleset_changed",
}
"""The events the log records, and the ``kind`` each is listed as."""

_LOAD: Final = """
SELECT DISTINCT ON (table_id) table_id, operator_id, shared, ruleset_version
FROM availability_log WHERE table_id = ANY($1::text[])
ORDER BY table_id, global_position DESC
"""
_SAVE: Final = """
INSERT INTO availability_log (global_position, table_id, operator_id, shared, kind,
    actor_role, actor_id, reason, ruleset_version, ruleset, command_id, recorded_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11, $12)
"""

_encode = msgspec.json.Encoder().encode


class _Actor(msgspec.Struct, frozen=True):
    role: str = "system"
    id: str = "system"
    admin: bool = False


class _Meta(msgspec.Struct, frozen=True):
    actor: _Actor | None = None
    command_id: str | None = None


_meta = msgspec.json.Decoder(_Meta)


class AvailabilityProjection:
    """Builds ``availability_log``; what it needs of earlier batches (a table's operator
    and ruleset version) it reads back from the log itself."""

    name: Final = "availability"
    keys: Final = {"availability_log": ("global_position",)}
    """The read model's table and its key (what a rebuild compares)."""

    async def reset(self, conn: AnyConnection) -> None:
        await conn.execute("DELETE FROM availability_log")

    async def apply(self, conn: AnyConnection, events: Sequence[RecordedEvent]) -> None:
        mine = [e for e in events if e.event_type in KINDS and e.stream_id.startswith(TABLE_PREFIX)]
        if not mine:
            return
        tables = {e.stream_id.removeprefix(TABLE_PREFIX) for e in mine}
        known: dict[str, tuple[str, bool, int]] = {
            row["table_id"]: (row["operator_id"], row["shared"], row["ruleset_version"])
            for row in await conn.fetch(_LOAD, sorted(tables))
        }
        rows = []
        for record in mine:
            table_id = record.stream_id.removeprefix(TABLE_PREFIX)
            row = _row(record, table_id, known.get(table_id))
            if row is None:
                continue
            known[table_id] = (row[2], row[3], row[8])
            rows.append(row)
        if rows:
            await conn.executemany(_SAVE, rows)


def _row(
    record: RecordedEvent, table_id: str, known: tuple[str, bool, int] | None
) -> tuple[Any, ...] | None:
    """The log's row for one event, given what the log knew of the table before it."""
    event = decode_event(record.event_type, record.schema_version, record.data)
    ruleset: bytes | None = None
    if isinstance(event, TableOpened):
        operator_id, shared, version = event.operator_id, event.shared, 1
        ruleset = _encode(event.ruleset)
    elif known is None:
        return None  # a table whose opening the log never saw: nothing to attach it to
    else:
        operator_id, shared, version = known
        if isinstance(event, RulesetChanged):
            version = event.version
            ruleset = _encode(event.ruleset)
    assert isinstance(event, TableOpened | TableClosed | TableReopened | RulesetChanged)
    meta = _meta.decode(record.metadata)
    actor = meta.actor or _Actor()
    # An admin acts on tables as their operator does; the log says who it really was.
    role = "admin" if actor.admin else actor.role
    return (
        record.global_position,
        table_id,
        operator_id,
        shared,
        KINDS[record.event_type],
        role,
        actor.id,
        event.reason,
        version,
        ruleset.decode() if ruleset is not None else None,
        meta.command_id,
        record.recorded_at,
    )
