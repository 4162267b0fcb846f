"""The serving instance's watch on its database server: a primary that goes silent is given
up on in seconds, not at the end of every statement's timeout.

A server that refuses (it stopped, it restarted) closes its connections itself and the next
attempt fails at once. One that stops answering — a powered-off machine, a network
partition — leaves every pooled connection open and deaf: each statement on one would wait
for its command timeout, and, behind a multi-host URL, the standby promoted meanwhile would
get no traffic until then. The watch asks the server ``SELECT 1`` every second on a
connection of its own; after two answers missed in a row it cuts every connection to that
host (:func:`~russian_poker.events.postgres.pool.give_up_on`): statements in flight fail
now (a clean 503, the client retries with its key) and new connections try the next host
first.
"""

from __future__ import annotations

import asyncio
from typing import Final

import asyncpg
import structlog

from russian_poker.events.postgres.pool import DATABASE_GONE, connect, give_up_on
from russian_poker.service.background import BackgroundLoop

__all__ = ["ServerWatch"]

_log = structlog.get_logger(__name__)

EVERY_S: Final = 1.0
TIMEOUT_S: Final = 2.0
MISSES: Final = 2


class ServerWatch(BackgroundLoop):
    name = "database-watch"

    def __init__(
        self,
        dsn: str,
        *,
        every_s: float = EVERY_S,
        timeout_s: float = TIMEOUT_S,
        misses: int = MISSES,
    ) -> None:
        self._dsn = dsn
        self._every_s = every_s
        self._timeout_s = timeout_s
        self._misses = misses
        self._conn: asyncpg.Connection[asyncpg.Record] | None = None
        self.given_up = 0
        """How many times the watch gave a host up."""

    async def answered(self) -> bool:
        """One look: whether the server answered within the timeout."""
        try:
            if self._conn is None or self._conn.is_closed():
                self._conn = await connect(
                    self._dsn,
                    application_name="database-watch",
                    connect_timeout=self._timeout_s,
                )
            await self._conn.fetchval("SELECT 1", timeout=self._timeout_s)
        except DATABASE_GONE:
            if self._conn is not None:
                self._conn.terminate()
                self._conn = None
            return False
        return True

    async def _run(self) -> None:
        missed = 0
        while True:
            await asyncio.sleep(self._every_s)
            if await self.answered():
                missed = 0
                continue
            missed += 1
            if missed == self._misses:
                # Once per outage: cutting again while it lasts would only turn the
                # preference round the hosts.
                cut = give_up_on(self._dsn)
                self.given_up += 1
                _log.warning("database silent: its connections cut", connections=cut)

    async def _closed(self) -> None:
        if self._conn is not None:
            self._conn.terminate()
            self._conn = None
