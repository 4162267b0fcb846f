"""What the live hub reads: a watched table's state, its new events, a kept round-start
state, its timers; and the ``LISTEN`` connection its wake-ups come on."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

import asyncpg

from russian_poker.events.postgres import tables, timers
from russian_poker.events.postgres.pool import DATABASE_GONE, close_connection, connect
from russian_poker.events.postgres.store import NOTIFY_CHANNEL, read_stream
from russian_poker.events.records import RecordedEvent
from russian_poker.events.streams import table_stream
from russian_poker.service.rules.state import Table

__all__ = ["Listener", "LiveStore"]


class Listener:
    """A connection of its own that hears the store's wake-ups (``NOTIFY_CHANNEL``)."""

    def __init__(self, connection: asyncpg.Connection[asyncpg.Record]) -> None:
        self._connection = connection

    @property
    def closed(self) -> bool:
        return self._connection.is_closed()

    async def ping(self, timeout: float) -> bool:
        """Whether the connection still answers within ``timeout`` seconds; one that does
        not is cut (a silent server would otherwise leave it open and deaf forever)."""
        try:
            await self._connection.fetchval("SELECT 1", timeout=timeout)
        except DATABASE_GONE:
            self._connection.terminate()
            return False
        return True

    async def close(self) -> None:
        await close_connection(self._connection)


class LiveStore:
    """The live hub's reads, on a pool."""

    def __init__(self, pool: Any, dsn: str) -> None:
        self._pool = pool
        self._dsn = dsn

    async def listen(self, heard: Callable[[str], None]) -> Listener:
        """Call ``heard`` with each stream id a committed command touched."""

        def notified(_conn: Any, _pid: int, _channel: str, payload: object) -> None:
            if isinstance(payload, str):
                heard(payload)

        connection = await connect(self._dsn, application_name="live-listener")
        try:
            await connection.add_listener(NOTIFY_CHANNEL, notified)
        except BaseException:
            connection.terminate()
            raise
        return Listener(connection)

    async def current(self, table_id: str) -> tuple[Table, int, Mapping[str, datetime]]:
        """The table's state, version and timer rows (read after the state)."""
        async with self._pool.acquire() as conn:
            state, version = await tables.load(conn, table_id)
            rows = await timers.of_table(conn, table_id)
        return state, version, rows

    async def since(
        self, table_id: str, version: int
    ) -> tuple[list[RecordedEvent], Mapping[str, datetime] | None]:
        """The table's events after ``version``, and its timer rows if there were any (rows
        change only as the table's events do: no new events, no second query)."""
        async with self._pool.acquire() as conn:
            fresh = await read_stream(conn, table_stream(table_id), from_version=version + 1)
            rows = await timers.of_table(conn, table_id) if fresh else None
        return fresh, rows

    async def from_checkpoint(
        self, table_id: str, after: int, until: int
    ) -> tuple[Table, int, list[RecordedEvent]] | None:
        """The newest kept round-start state at or before ``after`` and the events after it
        up to ``until``; ``None`` if none is kept that far back."""
        async with self._pool.acquire() as conn:
            start = await tables.load_at_or_before(conn, table_id, after)
            if start is None:
                return None
            state, version = start
            records = await read_stream(
                conn, table_stream(table_id), from_version=version + 1, to_version=until
            )
        return state, version, records
