"""The recorder interface the application codes against, and its PostgreSQL backend.

Modelled on the ``eventsourcing`` library's recorders: the application sees one protocol,
tests and simulations can swap in :class:`events.memory.InMemoryRecorder`, and both are held
to the same contract by one shared test suite.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import asyncpg

from russian_poker.events import store
from russian_poker.events.records import Position, RecordedEvent, StreamAppend

__all__ = ["EventRecorder", "PostgresRecorder"]


class EventRecorder(Protocol):
    """Where events are appended and read; see :mod:`events.store` for the semantics."""

    async def append(
        self,
        appends: Sequence[StreamAppend],
        *,
        command_id: str | None = None,
        command_result: bytes | None = None,
    ) -> list[RecordedEvent]:
        """Append to several streams atomically, checking expected versions."""
        ...

    async def read_stream(
        self, stream_id: str, *, from_version: int = 1, to_version: int | None = None
    ) -> list[RecordedEvent]:
        """A stream's events in version order."""
        ...

    async def stream_version(self, stream_id: str) -> int:
        """The stream's current version, 0 if it does not exist."""
        ...

    async def read_all(self, after: Position, *, limit: int = 1000) -> list[RecordedEvent]:
        """Events after ``after`` in the global order, never skipping one."""
        ...

    async def lookup_command(self, command_id: str) -> bytes | None:
        """The result stored with a recorded command, ``None`` if unknown."""
        ...


class PostgresRecorder:
    """An :class:`EventRecorder` that borrows a pooled connection for each call."""

    def __init__(self, pool: asyncpg.Pool[asyncpg.Record]) -> None:
        self._pool = pool

    async def append(
        self,
        appends: Sequence[StreamAppend],
        *,
        command_id: str | None = None,
        command_result: bytes | None = None,
    ) -> list[RecordedEvent]:
        async with self._pool.acquire() as conn:
            return await store.append(
                conn, appends, command_id=command_id, command_result=command_result
            )

    async def read_stream(
        self, stream_id: str, *, from_version: int = 1, to_version: int | None = None
    ) -> list[RecordedEvent]:
        async with self._pool.acquire() as conn:
            return await store.read_stream(
                conn, stream_id, from_version=from_version, to_version=to_version
            )

    async def stream_version(self, stream_id: str) -> int:
        async with self._pool.acquire() as conn:
            return await store.stream_version(conn, stream_id)

    async def read_all(self, after: Position, *, limit: int = 1000) -> list[RecordedEvent]:
        async with self._pool.acquire() as conn:
            return await store.read_all(conn, after, limit=limit)

    async def lookup_command(self, command_id: str) -> bytes | None:
        async with self._pool.acquire() as conn:
            return await store.lookup_command(conn, command_id)
