"""A pure-Python :class:`~events.recorder.EventRecorder` with the store's semantics.

For unit tests and simulations. Every check runs before any state changes, and nothing
awaits in between, so an append is atomic with respect to other tasks. All events share
``tx_id`` 1: there are no concurrent transactions to order.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import UTC, datetime

from russian_poker.events.records import (
    DuplicateCommand,
    DuplicateEvent,
    Position,
    RecordedEvent,
    StreamAppend,
    WrongExpectedVersion,
    validate_appends,
)

__all__ = ["InMemoryRecorder"]

_TX_ID = 1


class InMemoryRecorder:
    """Events and commands held in process memory."""

    def __init__(self) -> None:
        self._events: list[RecordedEvent] = []
        self._streams: dict[str, list[RecordedEvent]] = {}
        self._event_ids: set[uuid.UUID] = set()
        self._commands: dict[str, bytes] = {}

    async def append(
        self,
        appends: Sequence[StreamAppend],
        *,
        command_id: str | None = None,
        command_result: bytes | None = None,
    ) -> list[RecordedEvent]:
        validate_appends(appends)
        # Same order of checks as PostgreSQL, so both report the same error for one input.
        if command_id is not None and command_id in self._commands:
            raise DuplicateCommand(command_id, self._commands[command_id])
        ordered = sorted(appends, key=lambda a: a.stream_id)
        for stream in ordered:
            actual = len(self._streams.get(stream.stream_id, ()))
            if stream.expected_version is not None and stream.expected_version != actual:
                raise WrongExpectedVersion(stream.stream_id, stream.expected_version, actual)
        new_ids: set[uuid.UUID] = set()
        for event in (e for stream in ordered for e in stream.events):
            if event.event_id in self._event_ids or event.event_id in new_ids:
                raise DuplicateEvent(event.event_id)
            new_ids.add(event.event_id)

        now = datetime.now(UTC)
        recorded = []
        for stream in ordered:
            events = self._streams.setdefault(stream.stream_id, [])
            for event in stream.events:
                record = RecordedEvent(
                    global_position=len(self._events) + 1,
                    tx_id=_TX_ID,
                    stream_id=stream.stream_id,
                    stream_version=len(events) + 1,
                    event_id=event.event_id,
                    event_type=event.event_type,
                    schema_version=event.schema_version,
                    data=event.data,
                    metadata=event.metadata,
                    recorded_at=now,
                )
                events.append(record)
                self._events.append(record)
                recorded.append(record)
        self._event_ids |= new_ids
        if command_id is not None:
            self._commands[command_id] = command_result if command_result is not None else b"null"
        return recorded

    async def read_stream(
        self, stream_id: str, *, from_version: int = 1, to_version: int | None = None
    ) -> list[RecordedEvent]:
        events = self._streams.get(stream_id, [])
        last = len(events) if to_version is None else min(to_version, len(events))
        return events[max(from_version, 1) - 1 : max(last, 0)]

    async def stream_version(self, stream_id: str) -> int:
        return len(self._streams.get(stream_id, ()))

    async def read_all(self, after: Position, *, limit: int = 1000) -> list[RecordedEvent]:
        if after.tx_id > _TX_ID:
            return []
        start = after.global_position if after.tx_id == _TX_ID else 0
        return self._events[start : start + max(limit, 0)]

    async def lookup_command(self, command_id: str) -> bytes | None:
        return self._commands.get(command_id)
