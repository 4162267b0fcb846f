"""Which wallet ids are internal wallets, by the events: those whose ``wallet-`` stream was
opened (``WalletOpened`` is always an internal wallet's first event). The rule and why it
is the events that decide: ``service.audit.money_streams``."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

from russian_poker.events.streams import WALLET_PREFIX, wallet_stream

__all__ = ["opened_wallets"]

_OPENED: Final = """
SELECT substr(stream_id, length($2) + 1) AS wallet_id FROM events
WHERE stream_id = ANY($1::text[]) AND stream_version = 1 AND event_type = 'WalletOpened'
"""


async def opened_wallets(db: Any, wallet_ids: Iterable[str]) -> set[str]:
    """Those of ``wallet_ids`` whose ``wallet-`` stream was opened, on ``db`` (a pool or
    a connection)."""
    streams = sorted({wallet_stream(w) for w in wallet_ids})
    if not streams:
        return set()
    rows = await db.fetch(_OPENED, streams, WALLET_PREFIX)
    return {row["wallet_id"] for row in rows}
