"""Wake-ups for committed appends, many commands per ``NOTIFY``.

A command's answer does not wait for its wake-up: the stream ids it touched are queued, and
one task sends everything queued meanwhile in one statement. Under load that is one round
trip for many commands instead of one each; when idle it is sent at once. A wake-up is only
a hint (listeners also poll), so one lost to a crash or an outage only delays them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable

import asyncpg
import structlog

from russian_poker.events.postgres.pool import DATABASE_GONE
from russian_poker.events.postgres.store import notify

__all__ = ["Notifier"]

_log = structlog.get_logger(__name__)


class Notifier:
    """Sends :func:`~russian_poker.events.postgres.store.notify` for queued stream ids, from
    one background task."""

    def __init__(self, pool: asyncpg.Pool[asyncpg.Record]) -> None:
        self._pool = pool
        self._pending: set[str] = set()
        self._sending: asyncio.Task[None] | None = None

    def notify(self, stream_ids: Iterable[str]) -> None:
        """Queue wake-ups for streams whose appends have committed."""
        self._pending.update(stream_ids)
        if self._pending and self._sending is None:
            self._sending = asyncio.get_running_loop().create_task(self._send())

    async def close(self) -> None:
        """Wait until everything queued so far has been sent (or given up on)."""
        while self._sending is not None:
            await asyncio.shield(self._sending)

    async def _send(self) -> None:
        try:
            while self._pending:
                # Let the commands finishing in this turn of the event loop join the batch.
                await asyncio.sleep(0)
                batch = sorted(self._pending)
                self._pending.clear()
                try:
                    async with self._pool.acquire() as conn:
                        await notify(conn, batch)
                except DATABASE_GONE as error:
                    _log.warning("wake-up not sent", streams=len(batch), error=str(error))
        finally:
            self._sending = None
