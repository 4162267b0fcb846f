"""Every store of the adapter on one pool: what the HTTP edge and the CLI read through."""

from __future__ import annotations

import asyncio
from typing import Any

from russian_poker.events.postgres.audit import AuditStore
from russian_poker.events.postgres.availability import AvailabilityStore
from russian_poker.events.postgres.books import BookStore
from russian_poker.events.postgres.chain import ChainStore
from russian_poker.events.postgres.history import HistoryStore
from russian_poker.events.postgres.notices import checkpoint_notices, table_status_notices
from russian_poker.events.postgres.pool import DATABASE_GONE
from russian_poker.events.postgres.reconcile import ReconcileStore
from russian_poker.events.postgres.replay import ReplayStore
from russian_poker.events.postgres.rtp import RtpStore
from russian_poker.events.postgres.store import EventStore
from russian_poker.events.postgres.tables import TableStore
from russian_poker.events.postgres.wallets import WalletStore

__all__ = ["Storage"]


class Storage:
    """The stores on ``pool``, built once per process."""

    def __init__(self, pool: Any, *, sessions: Any = None) -> None:
        """``sessions``: a pool straight to the server, for what holds session locks (the
        notifications' deliverers); ``pool`` itself when none is given."""
        self.pool = pool
        sessions = pool if sessions is None else sessions
        self.books = BookStore(pool)
        self.events = EventStore(pool)
        self.history = HistoryStore(pool)
        self.rtp = RtpStore(pool)
        self.tables = TableStore(pool)
        self.wallets = WalletStore(pool)
        self.audit = AuditStore(pool)
        self.availability = AvailabilityStore(pool)
        self.chain = ChainStore(pool)
        self.notices = table_status_notices(sessions)
        self.checkpoint_notices = checkpoint_notices(sessions)
        self.reconcile = ReconcileStore(pool)
        self.replay = ReplayStore(pool)
        self._probe: asyncio.Task[bool] | None = None

    async def answers(self, timeout_s: float) -> bool:
        """Whether the database answers within ``timeout_s``, a free connection included.

        The look runs as a task of its own that the caller stops waiting for, never one it
        cancels: a cancelled statement's connection waits for its cancel request to be
        answered, which a silent server never does. While one look is unanswered, callers
        wait on it rather than start more."""
        if self._probe is None or self._probe.done():
            self._probe = asyncio.create_task(self._select_one())
        probe = self._probe
        done, _ = await asyncio.wait({probe}, timeout=timeout_s)
        return bool(done) and probe.result()

    async def _select_one(self) -> bool:
        try:
            await self.pool.fetchval("SELECT 1")
        except DATABASE_GONE:
            return False
        return True
