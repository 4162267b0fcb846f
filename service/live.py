"""Live tables: every new state of a table, pushed to whoever watches it, on any instance.

One hub per process listens on the store's NOTIFY channel. A notification (or the poll that
backs it up, since a wake-up can be lost) makes the hub read the table's new events and fold
them one transaction at a time, so each command's resulting state is published — not just
the latest. Subscribers get ``(version, state)`` and render their own view; raw events and
secrets never leave the hub. The last states per table are kept so a client reconnecting
with its last version catches up without gaps; one that fell too far behind is told to reset.

Each refresh that finds new events also reads the table's timer rows once, after the
events, for every subscriber's deadlines. Rows read after a state are as new or newer: a
wait of the state that is still pending has kept its row and due time, one already over has
lost it, and rows of later waits are not the state's (each view keeps only its own state's
pending keys). So every state — the latest or one from the history — shows the waits it has
that are still pending, and no other.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import AsyncIterator, Mapping
from datetime import datetime
from itertools import groupby
from typing import Final

import structlog

from russian_poker.events.codec import decode_event
from russian_poker.events.postgres.live import Listener, LiveStore
from russian_poker.events.postgres.pool import DATABASE_GONE
from russian_poker.events.records import RecordedEvent
from russian_poker.events.streams import TABLE_PREFIX
from russian_poker.service.background import Backoff
from russian_poker.service.rules.evolve import fold
from russian_poker.service.rules.state import Table

__all__ = ["LiveHub", "Timers", "Update"]

_log = structlog.get_logger(__name__)
_PING_TIMEOUT_S: Final = 2.0
"""How long the listener's connection may take to answer the poll's ping."""
HISTORY: Final = 256
"""States kept per watched table for catching up."""

Timers = Mapping[str, datetime]
"""A table's timer rows: key to due time."""

_NO_TIMERS: Final[Timers] = {}


class Update:
    """A table state at a version, with the table's timer rows as last read; ``reset`` when
    the client's history could not be kept."""

    __slots__ = ("reset", "state", "timers", "version")

    def __init__(
        self, version: int, state: Table, timers: Timers = _NO_TIMERS, *, reset: bool = False
    ) -> None:
        self.version = version
        self.state = state
        self.timers = timers
        self.reset = reset


class _Watched:
    def __init__(self, version: int, state: Table, timers: Timers) -> None:
        self.history: deque[tuple[int, Table]] = deque([(version, state)], maxlen=HISTORY)
        self.timers = timers
        self.queues: set[asyncio.Queue[Update]] = set()
        self.lock = asyncio.Lock()

    @property
    def latest(self) -> tuple[int, Table]:
        return self.history[-1]


class LiveHub:
    def __init__(self, store: LiveStore, *, poll_s: float = 2.0):
        self._store = store
        self._poll_s = poll_s
        self._tables: dict[str, _Watched] = {}
        self._listener: Listener | None = None
        self._poller: asyncio.Task[None] | None = None
        self.connections = 0
        self._closing = False

    async def start(self) -> None:
        await self._listen()
        self._poller = asyncio.create_task(self._poll())

    async def _listen(self) -> None:
        self._listener = await self._store.listen(self._notified)

    def close_streams(self) -> None:
        """End every live stream now (the instance is stopping); clients reconnect elsewhere."""
        self._closing = True
        for watched in self._tables.values():
            for queue in watched.queues:
                queue.put_nowait(_CLOSED)

    async def stop(self) -> None:
        self.close_streams()
        if self._poller:
            self._poller.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._poller
        if self._listener is not None:
            with contextlib.suppress(Exception):
                await self._listener.close()

    async def subscribe(
        self, table_id: str, after: int | None, *, idle_s: float | None = None
    ) -> AsyncIterator[Update | None]:
        """Updates for one client: the catch-up (or current state), then every new state;
        with ``idle_s``, ``None`` after each ``idle_s`` seconds without one (the client's
        keep-alive: proxies close a connection that stays silent)."""
        if self._closing:
            return
        watched = await self._watch(table_id)
        queue: asyncio.Queue[Update] = asyncio.Queue()
        async with watched.lock:
            updates = _catch_up(watched, after)
            if updates is None:
                assert after is not None
                updates = await self._replayed(table_id, after, watched)
            for update in updates:
                queue.put_nowait(update)
            watched.queues.add(queue)
        self.connections += 1
        try:
            while True:
                try:
                    update = await asyncio.wait_for(queue.get(), idle_s)
                except TimeoutError:
                    yield None
                    continue
                if update is _CLOSED:
                    break
                yield update
        finally:
            self.connections -= 1
            watched.queues.discard(queue)
            if not watched.queues:
                self._tables.pop(table_id, None)

    async def refresh(self, table_id: str) -> None:
        """Fold and publish whatever the table's stream gained since the hub last looked."""
        watched = self._tables.get(table_id)
        if watched is None:
            return
        async with watched.lock:
            version, state = watched.latest
            # Rows change only as the table's events do (the clock's firing appends too):
            # no new events, no second query, so the backup poll stays one read.
            fresh, rows = await self._store.since(table_id, version)
            if rows is not None:
                watched.timers = rows
            for update in _states(state, fresh, watched.timers):
                watched.history.append((update.version, update.state))
                for queue in watched.queues:
                    queue.put_nowait(update)

    async def _replayed(self, table_id: str, after: int, watched: _Watched) -> list[Update]:
        """Every state after ``after``, rebuilt from the nearest round-start checkpoint."""
        start = await self._store.from_checkpoint(table_id, after, watched.latest[0])
        if start is None:
            state, version, timers = await self._store.current(table_id)
            return [Update(version, state, timers, reset=True)]
        state, version, records = start
        # Old states, with the hub's latest rows: only their waits still pending show.
        return [u for u in _states(state, records, watched.timers) if u.version > after]

    async def _watch(self, table_id: str) -> _Watched:
        watched = self._tables.get(table_id)
        if watched is None:
            state, version, timers = await self._store.current(table_id)
            watched = self._tables.setdefault(table_id, _Watched(version, state, timers))
        return watched

    def _notified(self, stream_id: str) -> None:
        if stream_id.startswith(TABLE_PREFIX):
            table_id = stream_id.removeprefix(TABLE_PREFIX)
            if table_id in self._tables:
                asyncio.get_running_loop().create_task(self._safe_refresh(table_id))

    async def _safe_refresh(self, table_id: str) -> None:
        try:
            await self.refresh(table_id)
        except DATABASE_GONE as error:
            _log.warning("live refresh failed", table_id=table_id, error=str(error))

    async def _poll(self) -> None:
        backoff = Backoff(first=self._poll_s, most=max(5.0, self._poll_s))
        delay = self._poll_s
        while True:
            await asyncio.sleep(delay)
            delay = self._poll_s
            listener = self._listener
            # A listener that stopped answering (the server went silent, or was replaced by
            # a promoted standby behind the same address) hears nothing: cut and replace it.
            if listener is not None and not listener.closed:
                await listener.ping(_PING_TIMEOUT_S)
            if self._listener is None or self._listener.closed:
                # The database restarted or dropped us: listen again; polling covers the gap.
                try:
                    await self._listen()
                except DATABASE_GONE as error:
                    # The next try waits longer, up to a few seconds.
                    delay = backoff.next_delay()
                    _log.warning(
                        "live listener reconnect failed",
                        error=str(error) or type(error).__name__,
                        failures=backoff.failures,
                    )
                    continue
            backoff.succeeded()
            for table_id in list(self._tables):
                await self._safe_refresh(table_id)


_CLOSED: Final = Update(-1, Table())


def _states(state: Table, records: list[RecordedEvent], timers: Timers) -> list[Update]:
    """The state after each transaction (one transaction is one command)."""
    updates = []
    for _, batch in groupby(records, key=lambda e: e.tx_id):
        chunk = list(batch)
        state = fold(state, (decode_event(e.event_type, e.schema_version, e.data) for e in chunk))
        updates.append(Update(chunk[-1].stream_version, state, timers))
    return updates


def _catch_up(watched: _Watched, after: int | None) -> list[Update] | None:
    """From the hub's own history, or ``None`` if it does not reach back far enough."""
    version, state = watched.latest
    if after is None:
        return [Update(version, state, watched.timers)]
    if after >= version:
        return []
    kept = [(v, s) for v, s in watched.history if v > after]
    if watched.history[0][0] <= after:
        return [Update(v, s, watched.timers) for v, s in kept]
    return None
