"""The values and errors every event recorder speaks, independent of any backend.

Payloads are opaque, already-encoded JSON: the store neither knows nor imports the game's
event types, so the vocabulary can evolve without touching it.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime

import msgspec

__all__ = [
    "DuplicateCommand",
    "DuplicateEvent",
    "EventStoreError",
    "NewEvent",
    "Position",
    "RecordedEvent",
    "SessionEnded",
    "StreamAppend",
    "WrongExpectedVersion",
    "validate_appends",
]


class NewEvent(msgspec.Struct, frozen=True, kw_only=True):
    """An event to append; ``data`` and ``metadata`` are encoded JSON objects."""

    event_id: uuid.UUID
    event_type: str
    schema_version: int
    data: bytes
    metadata: bytes = b"{}"


class StreamAppend(msgspec.Struct, frozen=True, kw_only=True):
    """Events for one stream, guarded by the version the writer based its decision on.

    ``expected_version=0`` means the stream must not exist yet; ``None`` accepts any
    version, for writes that protect no invariant (a credit to a wallet).
    """

    stream_id: str
    expected_version: int | None
    events: Sequence[NewEvent]


class Position(msgspec.Struct, frozen=True, kw_only=True, order=True):
    """A reader's checkpoint in the global order: ``(tx_id, global_position)``.

    Field order is the sort order, so positions compare the way ``read_all`` orders events.
    """

    tx_id: int
    global_position: int

    @classmethod
    def start(cls) -> Position:
        """The position before the first event."""
        return cls(tx_id=0, global_position=0)


class RecordedEvent(msgspec.Struct, frozen=True, kw_only=True):
    """An event as stored; ``data`` and ``metadata`` are its raw JSON."""

    global_position: int
    tx_id: int
    stream_id: str
    stream_version: int
    event_id: uuid.UUID
    event_type: str
    schema_version: int
    data: bytes
    metadata: bytes
    recorded_at: datetime

    @property
    def position(self) -> Position:
        """The checkpoint a reader stores after handling this event."""
        return Position(tx_id=self.tx_id, global_position=self.global_position)


class EventStoreError(Exception):
    """Base class of the errors an append reports."""


class WrongExpectedVersion(EventStoreError):
    """A stream was not at the version the writer expected; nothing was appended.

    ``actual`` is ``None`` only when the conflict was caught by the
    ``(stream_id, stream_version)`` constraint rather than the version check.
    """

    def __init__(self, stream_id: str, expected: int | None, actual: int | None) -> None:
        super().__init__(f"stream {stream_id!r} is at version {actual}, expected {expected}")
        self.stream_id = stream_id
        self.expected = expected
        self.actual = actual


class DuplicateCommand(EventStoreError):
    """The command was already recorded; nothing was appended.

    ``result`` is the JSON the first run stored (``b"null"`` if it stored none), so a retry
    can answer exactly as the first attempt did.
    """

    def __init__(self, command_id: str, result: bytes) -> None:
        super().__init__(f"command {command_id!r} was already recorded")
        self.command_id = command_id
        self.result = result


class SessionEnded(EventStoreError):
    """The launched session a write was made under has ended or expired; nothing was
    written."""

    def __init__(self, session_id: str) -> None:
        super().__init__(f"the game session {session_id!r} has ended")
        self.session_id = session_id


class DuplicateEvent(EventStoreError):
    """An event id is already stored (or repeated in the append); nothing was appended."""

    def __init__(self, event_id: uuid.UUID | None) -> None:
        super().__init__(f"event {event_id} is already recorded")
        self.event_id = event_id


def validate_appends(appends: Sequence[StreamAppend]) -> None:
    """Reject appends whose meaning would be ambiguous, before touching any storage."""
    seen: set[str] = set()
    for append in appends:
        if append.stream_id in seen:
            raise ValueError(f"stream {append.stream_id!r} appears twice in one append")
        seen.add(append.stream_id)
        if not append.events:
            raise ValueError(f"append to stream {append.stream_id!r} has no events")
        if append.expected_version is not None and append.expected_version < 0:
            raise ValueError(f"negative expected version for stream {append.stream_id!r}")
