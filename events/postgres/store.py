"""The PostgreSQL event store: append with optimistic concurrency, read streams and the
global order without ever skipping an event.

Every function takes a connection, so a caller that needs other writes in the same
transaction (a projection updated with read-your-writes) passes its own; outside a
transaction each call is a single statement and therefore its own transaction.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Final, TypeAlias

import asyncpg
import msgspec

from russian_poker.events.postgres.pool import Database, acquired
from russian_poker.events.records import (
    DuplicateCommand,
    DuplicateEvent,
    EventStoreError,
    NewEvent,
    Position,
    RecordedEvent,
    SessionEnded,
    StreamAppend,
    WrongExpectedVersion,
    validate_appends,
)

if TYPE_CHECKING:
    from asyncpg.pool import PoolConnectionProxy

__all__ = [
    "EventStore",
    "APPEND",
    "NOTIFY_CHANNEL",
    "AnyConnection",
    "DuplicateCommand",
    "DuplicateEvent",
    "EventStoreError",
    "NewEvent",
    "Position",
    "RecordedEvent",
    "SideWrites",
    "StreamAppend",
    "WrongExpectedVersion",
    "append",
    "lookup_command",
    "notify",
    "prepared_append",
    "read_all",
    "read_stream",
    "recorded_events",
    "recorded_from_row",
    "stream_version",
]

AnyConnection: TypeAlias = (
    "asyncpg.Connection[asyncpg.Record] | PoolConnectionProxy[asyncpg.Record]"
)
"""A plain connection or one borrowed from a pool."""

NOTIFY_CHANNEL: Final = "events"
"""Committed appends send each touched stream id on this channel (see :func:`append`)."""

_WRONG_VERSION: Final = "ES001"
_DUPLICATE_COMMAND: Final = "ES002"
_SESSION_ENDED: Final = "ES003"
_EVENT_ID_KEY: Final = "events_event_id_key"
_STREAM_VERSION_KEY: Final = "events_stream_id_stream_version_key"
_UUID: Final = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
# Greedy, so a stream id containing ", " still splits at the last comma.
_STREAM_SLOT: Final = re.compile(r"\)=\((.*), (\d+)\)")

APPEND: Final = """
SELECT event_id, global_position, tx_id, stream_version, recorded_at
FROM event_store_append($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
"""
_APPEND_PARAMETERS: Final = 14
# The append as a CTE that the side writes read, so it runs (and takes its stream locks)
# before any of them writes: every writer locks in the same order, streams first.
_APPEND_WITH: Final = """
WITH appended AS (
    SELECT event_id, global_position, tx_id, stream_version, recorded_at
    FROM event_store_append($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
), {ctes}
SELECT event_id, global_position, tx_id, stream_version, recorded_at FROM appended{guards}
"""
_NOTIFY: Final = f"SELECT pg_notify('{NOTIFY_CHANNEL}', s) FROM unnest($1::text[]) AS s"
_COLUMNS: Final = """
global_position, tx_id, stream_id, stream_version, event_id, event_type, schema_version,
data::text AS data, metadata::text AS metadata, recorded_at
"""
_READ_STREAM: Final = f"""
SELECT {_COLUMNS} FROM events
WHERE stream_id = $1 AND stream_version >= $2 AND ($3::bigint IS NULL OR stream_version <= $3)
ORDER BY stream_version
"""
# Identity values are taken before commit, so a later position can become visible before an
# earlier one. Below the oldest running transaction's xid nothing can still appear, and
# ordering by the writing transaction first keeps the checkpoint monotonic.
_READ_ALL: Final = f"""
SELECT {_COLUMNS} FROM events
WHERE (tx_id, global_position) > ($1::xid8, $2::bigint)
  AND tx_id < pg_snapshot_xmin(pg_current_snapshot())
ORDER BY tx_id, global_position
LIMIT $3
"""
_STREAM_VERSION: Final = "SELECT version FROM streams WHERE stream_id = $1"
_LOOKUP_COMMAND: Final = "SELECT coalesce(result, 'null')::text FROM commands WHERE command_id = $1"


class SideWrites:
    """Writes to run in the append's own statement, so append and writes are one round
    trip and atomic without a transaction around them (see :func:`append`).

    Each write is a data-modifying CTE (``INSERT``, ``UPDATE`` or ``DELETE``). It may read
    the CTE ``appended`` (``event_id, global_position, tx_id, stream_version,
    recorded_at`` of every event appended) and must, so that it runs after the append: an
    ``INSERT … SELECT … WHERE EXISTS (SELECT FROM appended)`` or a join does. All of them
    see the snapshot the statement started with, not each other's rows. Values go in as
    parameters through :meth:`param`. One CTE is not a write: the session guard
    (:meth:`guard_session`), which the statement's answer reads.
    """

    def __init__(self) -> None:
        self.ctes: list[str] = []
        self.args: list[Any] = []
        self.session_id: str | None = None
        """A launched session that must still be open when the statement runs, or it fails
        with :class:`~russian_poker.events.records.SessionEnded` (``guard_session``)."""

    def guard_session(self, session_id: str) -> None:
        """Fail the whole statement if ``session_id`` has ended or expired by then.

        Not a write: a plain CTE, which runs because the statement's answer reads it, and
        only after the append (it reads ``appended``), so a duplicate command or a lost
        version race is answered as such, never as an ended session."""
        self.session_id = session_id
        self.add(
            "session_open",
            f"SELECT game_session_open({self.param(session_id)}) AS open"
            " FROM (SELECT FROM appended LIMIT 1) AS after_append",
        )

    def param(self, value: Any) -> str:
        """A placeholder (``$n``) for ``value``."""
        self.args.append(value)
        return f"${_APPEND_PARAMETERS + len(self.args)}"

    def add(self, name: str, sql: str) -> None:
        """The CTE ``name AS (sql)``; names are unique within the statement."""
        self.ctes.append(f"{name} AS ({sql})")

    def __bool__(self) -> bool:
        return bool(self.ctes)


class _Conflict(msgspec.Struct, frozen=True):
    stream_id: str
    expected: int | None
    actual: int


async def append(
    conn: AnyConnection,
    appends: Sequence[StreamAppend],
    *,
    command_id: str | None = None,
    command_result: bytes | None = None,
    notify: bool = True,
    side_writes: SideWrites | None = None,
) -> list[RecordedEvent]:
    """Append to one or more streams atomically and return the events as recorded.

    Runs as one statement: inside the caller's transaction if there is one, else as its own.
    Expected versions are checked before any event is inserted, streams are locked in
    ``stream_id`` order, and ``command_id`` (if given) is recorded with ``command_result``
    for idempotent retries. On any error nothing is appended; inside a caller's
    transaction that transaction is aborted and must be rolled back.

    ``notify`` wakes listeners on :data:`NOTIFY_CHANNEL` with each touched stream id. Outside
    a transaction that happens right after the append commits. Inside the caller's
    transaction it is queued there and delivered at its commit; but PostgreSQL serialises
    the commits of notifying transactions, so a hot path passes ``notify=False`` and calls
    :func:`notify` once its transaction has committed.

    ``side_writes`` run in the same statement (:class:`SideWrites`): read models kept in
    step with the events need no transaction around the append, and cost no round trip of
    their own. An error in any of them fails the append too.

    Raises:
        WrongExpectedVersion: a stream was not at its expected version.
        DuplicateCommand: ``command_id`` was already recorded; carries the stored result.
        DuplicateEvent: an event id is already stored.
        SessionEnded: the side writes guard a session (``guard_session``) that has ended.
    """
    notify_after = notify and not conn.is_in_transaction()
    sql, arguments, ordered, flat = prepared_append(
        appends,
        command_id=command_id,
        command_result=command_result,
        notify_in_statement=notify and not notify_after,
        side_writes=side_writes,
    )
    try:
        rows = await conn.fetch(sql, *arguments)
    except asyncpg.PostgresError as error:
        session_id = side_writes.session_id if side_writes is not None else None
        translated = _translate(error, ordered, command_id, session_id)
        if translated is error:
            raise
        raise translated from error
    if notify_after:
        await _notify(conn, [a.stream_id for a in ordered])
    return recorded_events(rows, ordered, flat)


_Flat: TypeAlias = list[tuple[int, NewEvent]]


def prepared_append(
    appends: Sequence[StreamAppend],
    *,
    command_id: str | None,
    command_result: bytes | None,
    notify_in_statement: bool,
    side_writes: SideWrites | None,
) -> tuple[str, list[Any], list[StreamAppend], _Flat]:
    """The statement of :func:`append` and its arguments, with the appends in lock order and
    their events flattened (:func:`recorded_events` reads the rows back with them)."""
    validate_appends(appends)
    ordered = sorted(appends, key=lambda a: a.stream_id)
    flat: _Flat = []
    for index, stream in enumerate(ordered, start=1):
        flat.extend((index, event) for event in stream.events)
    offsets = [offset for stream in ordered for offset in range(1, len(stream.events) + 1)]
    sql, extra = (
        (
            _APPEND_WITH.format(
                ctes=",\n".join(side_writes.ctes),
                # A plain CTE runs only if read: the answer's rows read it.
                guards=", session_open" if side_writes.session_id is not None else "",
            ),
            side_writes.args,
        )
        if side_writes
        else (APPEND, [])
    )
    arguments = [
        [a.stream_id for a in ordered],
        [a.expected_version for a in ordered],
        [len(a.events) for a in ordered],
        [index for index, _ in flat],
        offsets,
        [e.event_id for _, e in flat],
        [e.event_type for _, e in flat],
        [e.schema_version for _, e in flat],
        [e.data.decode() for _, e in flat],
        [e.metadata.decode() for _, e in flat],
        command_id,
        appends[0].stream_id if appends else None,
        command_result.decode() if command_result is not None else None,
        notify_in_statement,
        *extra,
    ]
    return sql, arguments, ordered, flat


def recorded_events(
    rows: Iterable[asyncpg.Record], ordered: Sequence[StreamAppend], flat: _Flat
) -> list[RecordedEvent]:
    """The appended events as recorded, from the rows the append statement returned."""
    by_id = {row["event_id"]: row for row in rows}
    recorded = []
    for index, event in flat:
        row = by_id[event.event_id]
        recorded.append(
            RecordedEvent(
                global_position=row["global_position"],
                tx_id=row["tx_id"],
                stream_id=ordered[index - 1].stream_id,
                stream_version=row["stream_version"],
                event_id=event.event_id,
                event_type=event.event_type,
                schema_version=event.schema_version,
                data=event.data,
                metadata=event.metadata,
                recorded_at=row["recorded_at"],
            )
        )
    return recorded


async def notify(conn: AnyConnection, stream_ids: Iterable[str]) -> None:
    """Wake listeners for streams whose appends have committed (see :func:`append`).

    Sent as its own statement when ``conn`` is outside a transaction, it changes no data, so
    its commit waits for no WAL flush and holds PostgreSQL's notify lock only for an
    instant. A wake-up lost to a crash between the commit and this call only delays
    listeners until their next poll.
    """
    await _notify(conn, sorted(set(stream_ids)))


async def _notify(conn: AnyConnection, stream_ids: list[str]) -> None:
    if stream_ids:
        await conn.execute(_NOTIFY, stream_ids)


def _translate(
    error: asyncpg.PostgresError,
    appends: Sequence[StreamAppend],
    command_id: str | None,
    session_id: str | None,
) -> Exception:
    """The store's own error for a failed append, or ``error`` itself if it has none."""
    if error.sqlstate == _WRONG_VERSION:
        conflict = msgspec.json.decode(error.detail or "", type=_Conflict)
        return WrongExpectedVersion(conflict.stream_id, conflict.expected, conflict.actual)
    if error.sqlstate == _DUPLICATE_COMMAND:
        return DuplicateCommand(command_id or "", (error.detail or "null").encode())
    if error.sqlstate == _SESSION_ENDED:
        return SessionEnded(session_id or "")
    if isinstance(error, asyncpg.UniqueViolationError):
        detail = error.detail or ""
        if error.constraint_name == _EVENT_ID_KEY:
            found = _UUID.search(detail)
            return DuplicateEvent(uuid.UUID(found.group()) if found else None)
        if error.constraint_name == _STREAM_VERSION_KEY:
            # Only reachable if `streams` disagrees with `events`; the version check
            # passed, so the real current version is unknown here.
            slot = _STREAM_SLOT.search(detail)
            stream_id = slot.group(1) if slot else appends[0].stream_id
            expected = next((a.expected_version for a in appends if a.stream_id == stream_id), None)
            return WrongExpectedVersion(stream_id, expected, None)
    return error


async def read_stream(
    conn: AnyConnection, stream_id: str, *, from_version: int = 1, to_version: int | None = None
) -> list[RecordedEvent]:
    """A stream's events with ``from_version <= stream_version <= to_version``, in order."""
    rows = await conn.fetch(_READ_STREAM, stream_id, from_version, to_version)
    return [recorded_from_row(row) for row in rows]


async def stream_version(conn: AnyConnection, stream_id: str) -> int:
    """The stream's current version: its last event's ``stream_version``, 0 if none."""
    version: int | None = await conn.fetchval(_STREAM_VERSION, stream_id)
    return version or 0


async def read_all(
    conn: AnyConnection, after: Position, *, limit: int = 1000
) -> list[RecordedEvent]:
    """Up to ``limit`` events after ``after`` in the global order, never skipping one.

    Only events of transactions that finished before the oldest still-running one are
    returned, so a reader that checkpoints the last event's ``position`` and asks again
    from there sees every committed event exactly once. The price: a long-running
    transaction anywhere on the server holds every reader back until it ends.
    """
    rows = await conn.fetch(_READ_ALL, after.tx_id, after.global_position, limit)
    return [recorded_from_row(row) for row in rows]


async def lookup_command(conn: AnyConnection, command_id: str) -> bytes | None:
    """The result stored with a recorded command (``b"null"`` if none), else ``None``."""
    result: str | None = await conn.fetchval(_LOOKUP_COMMAND, command_id)
    return result.encode() if result is not None else None


def recorded_from_row(row: asyncpg.Record) -> RecordedEvent:
    """A row of ``events`` (data and metadata selected as text) as a :class:`RecordedEvent`."""
    return RecordedEvent(
        global_position=row["global_position"],
        tx_id=row["tx_id"],
        stream_id=row["stream_id"],
        stream_version=row["stream_version"],
        event_id=row["event_id"],
        event_type=row["event_type"],
        schema_version=row["schema_version"],
        data=row["data"].encode(),
        metadata=row["metadata"].encode(),
        recorded_at=row["recorded_at"],
    )


class EventStore:
    """The event store on ``db``: a pool (each call borrows a connection and is its own
    transaction) or one connection (a CLI's). For readers that need one call at a time
    (the live hub, replay, tools); the command path appends through its unit of work
    (``commit``), on its own connection."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def append(
        self,
        appends: Sequence[StreamAppend],
        *,
        command_id: str | None = None,
        command_result: bytes | None = None,
    ) -> list[RecordedEvent]:
        """:func:`append` on a connection of ``db``."""
        async with acquired(self._db) as conn:
            return await append(conn, appends, command_id=command_id, command_result=command_result)

    async def read_stream(
        self, stream_id: str, *, from_version: int = 1, to_version: int | None = None
    ) -> list[RecordedEvent]:
        async with acquired(self._db) as conn:
            return await read_stream(
                conn, stream_id, from_version=from_version, to_version=to_version
            )

    async def stream_version(self, stream_id: str) -> int:
        async with acquired(self._db) as conn:
            return await stream_version(conn, stream_id)

    async def read_all(self, after: Position, *, limit: int = 1000) -> list[RecordedEvent]:
        async with acquired(self._db) as conn:
            return await read_all(conn, after, limit=limit)

    async def lookup_command(self, command_id: str) -> bytes | None:
        async with acquired(self._db) as conn:
            return await lookup_command(conn, command_id)
