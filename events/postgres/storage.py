"""Every store of the adapter on one pool: what the HTTP edge and the CLI read through."""

from __future__ import annotations

from typing import Any

from russian_poker.events.postgres.books import BookStore
from russian_poker.events.postgres.history import HistoryStore
from russian_poker.events.postgres.pool import DATABASE_GONE
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

    async def answers(self, timeout_s: float) -> bool:
        """Whether the database answers within ``timeout_s``."""
        try:
            await self.pool.fetchval("SELECT 1", timeout=timeout_s)
        except DATABASE_GONE:
            return False
        return True
