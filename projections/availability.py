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

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Annotated, Final, Literal, NamedTuple, cast

import msgspec

from russian_poker.events.codec import decode_event
from russian_poker.events.game import RulesetChanged, TableClosed, TableOpened, TableReopened
from russian_poker.events.records import RecordedEvent
from russian_poker.events.ruleset import Ruleset
from russian_poker.events.streams import TABLE_PREFIX
from russian_poker.projections.paging import NextCursor

if TYPE_CHECKING:
    from russian_poker.events.postgres.projections import ReadModels

__all__ = [
    "KINDS",
    "change_of",
    "log_entries",
    "AvailabilityChange",
    "AvailabilityPage",
    "AvailabilityProjection",
    "ChangeActor",
    "LogEntry",
    "TableFacts",
]

Kind = Literal["opened", "closed", "reopened", "ruleset_changed"]

KINDS: Final[dict[str, Kind]] = {
    "TableOpened": "opened",
    "TableClosed": "closed",
    "TableReopened": "reopened",
    "RulesetChanged": "ruleset_changed",
}
"""The events the log records, and the ``kind`` each is listed as."""


class TableFacts(NamedTuple):
    """What the log knows of a table from its latest entry."""

    operator_id: str
    shared: bool
    ruleset_version: int


class LogEntry(NamedTuple):
    """One row of ``availability_log``, its columns in the table's order."""

    global_position: int
    table_id: str
    operator_id: str
    shared: bool
    kind: Kind
    actor_role: str
    actor_id: str
    reason: str | None
    ruleset_version: int
    ruleset: str | None
    """The ruleset as JSON, for an opening and a ruleset change."""
    command_id: str | None
    recorded_at: datetime


ActorRole = Literal["operator", "admin", "system"]
"""Who may change a table's availability."""


class ChangeActor(msgspec.Struct, frozen=True, kw_only=True):
    """Who made a change."""

    role: Annotated[
        ActorRole,
        msgspec.Meta(
            description=(
                "`operator` (the table's operator's staff), `admin` (the game's staff) or `system`."
            )
        ),
    ]
    id: Annotated[str, msgspec.Meta(description="Their name (the subject of their token).")]


class AvailabilityChange(msgspec.Struct, frozen=True, kw_only=True):
    """One change of a table's availability or rules."""

    position: Annotated[
        int,
        msgspec.Meta(
            description="The change's event's position in the store (increasing): the cursor."
        ),
    ]
    table_id: Annotated[str, msgspec.Meta(description="The table changed.")]
    operator_id: Annotated[str, msgspec.Meta(description="The operator the table belongs to.")]
    shared: Annotated[bool, msgspec.Meta(description="A shared table (players of every operator).")]
    kind: Annotated[Kind, msgspec.Meta(description="What changed.")]
    actor: Annotated[ChangeActor, msgspec.Meta(description="Who changed it.")]
    reason: Annotated[
        str | None,
        msgspec.Meta(
            description=(
                "Why, as given (required for closing and ruleset changes; null where none"
                " was given)."
            )
        ),
    ]
    time: Annotated[
        datetime, msgspec.Meta(description="When the change was recorded (ISO 8601, UTC).")
    ]
    ruleset_version: Annotated[
        int,
        msgspec.Meta(
            description=(
                "The table's ruleset version in force after the change: 1 at opening, one"
                " more for each ruleset change."
            )
        ),
    ]
    ruleset: Annotated[
        Ruleset | None,
        msgspec.Meta(
            description=(
                "The ruleset from this change on: set for `opened` and `ruleset_changed`,"
                " null otherwise (the version's ruleset is unchanged)."
            )
        ),
    ]
    command_id: Annotated[str | None, msgspec.Meta(description="The command that made the change.")]


class AvailabilityPage(msgspec.Struct, frozen=True, kw_only=True):
    """A page of the availability log, oldest first."""

    items: Annotated[
        list[AvailabilityChange], msgspec.Meta(description="Changes in the order recorded.")
    ]
    next_cursor: NextCursor


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

    async def reset(self, models: ReadModels) -> None:
        await models.availability.reset()

    async def apply(self, models: ReadModels, events: Sequence[RecordedEvent]) -> None:
        mine = [e for e in events if e.event_type in KINDS and e.stream_id.startswith(TABLE_PREFIX)]
        if not mine:
            return
        log = models.availability
        tables = {e.stream_id.removeprefix(TABLE_PREFIX) for e in mine}
        rows = log_entries(mine, await log.latest(sorted(tables)))
        if rows:
            await log.save(rows)


def log_entries(records: Iterable[RecordedEvent], known: dict[str, TableFacts]) -> list[LogEntry]:
    """The log's rows for ``records`` (in the store's order), given what the log knew of
    each table before them; ``known`` is kept up to date."""
    rows = []
    for record in records:
        if record.event_type not in KINDS or not record.stream_id.startswith(TABLE_PREFIX):
            continue
        table_id = record.stream_id.removeprefix(TABLE_PREFIX)
        row = _row(record, table_id, known.get(table_id))
        if row is None:
            continue
        known[table_id] = TableFacts(row.operator_id, row.shared, row.ruleset_version)
        rows.append(row)
    return rows


def change_of(entry: LogEntry) -> AvailabilityChange:
    """A row of the log as the API and an audit bundle show it."""
    return AvailabilityChange(
        position=entry.global_position,
        table_id=entry.table_id,
        operator_id=entry.operator_id,
        shared=entry.shared,
        kind=entry.kind,
        actor=ChangeActor(role=cast("ActorRole", entry.actor_role), id=entry.actor_id),
        reason=entry.reason,
        time=entry.recorded_at,
        ruleset_version=entry.ruleset_version,
        ruleset=_ruleset.decode(entry.ruleset) if entry.ruleset is not None else None,
        command_id=entry.command_id,
    )


_ruleset = msgspec.json.Decoder(Ruleset)


def _row(record: RecordedEvent, table_id: str, known: TableFacts | None) -> LogEntry | None:
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
    return LogEntry(
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
