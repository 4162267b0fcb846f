"""Every store of the adapter on one pool: what the HTTP edge and the CLI read through."""

from __future__ import annotations

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

    def __init__(self, pool: Any) -> None:
        self.pool = pool
        self.books = BookStore(pool)
        self.events = EventStore(pool)
        self.history = HistoryStore(pool)
        self.rtp = RtpStore(pool)
        self.tables = TableStore(pool)
        self.wallets = WalletStore(pool)
        self.audit = AuditStore(pool)
        self.availability = AvailabilityStore(pool)
        self.chain = ChainStore(pool)
        self.notices = table_status_notices(pool)
        self.checkpoint_notices = checkpoint_notices(pool)
        self.reconcile = ReconcileStore(pool)
        self.replay = ReplayStore(pool)

    async def answers(self, timeout_s: float) -> bool:
        """Whether the database answers within ``timeout_s``."""
        try:
            await self.pool.fetchval("SELECT 1", timeout=timeout_s)
        except DATABASE_GONE:
            return False
        return True
