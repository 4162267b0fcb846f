"""Which kind of money stream must hold a wallet id's debits and credits.

An internal wallet's events live in ``wallet-<id>`` (with its balance and ledger); a
seamless player's in ``seamless-<id>`` (the balance is at the operator). The audit decides
which kind a wallet id is from the events themselves, as it reads everything else: a wallet
id is **internal when its ``wallet-`` stream was opened** — ``WalletOpened`` is always the
first event of an internal wallet's stream — and seamless otherwise. That holds because the
command path seats an internal player only with an opened wallet, and the wallets API
refuses to open one for a seamless operator's player.

Why not the operator's current ``wallet_mode``: the ``operators`` row holds only the
mode of today, and an operator's registration can be edited, while the events say how
each player's money was kept when it moved — the same record the replay and reconciliation
check everything else against. (An operator switched from internal to seamless while its
players still hold internal wallets has their later seamless movements reported as in the
wrong kind of stream: balances left at the game that the operator no longer pays out, which
an auditor should see.)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from russian_poker.events.postgres.store import AnyConnection
from russian_poker.events.streams import (
    MONEY_PREFIXES,
    WALLET_PREFIX,
    seamless_stream,
    wallet_stream,
)

__all__ = ["WalletKinds", "internal_wallets", "money_stream", "wallet_of_stream"]

_OPENED: Final = """
SELECT substr(stream_id, length($2) + 1) AS wallet_id FROM events
WHERE stream_id = ANY($1::text[]) AND stream_version = 1 AND event_type = 'WalletOpened'
"""


async def internal_wallets(conn: AnyConnection, wallet_ids: Iterable[str]) -> set[str]:
    """Those of ``wallet_ids`` that are internal wallets (their stream was opened)."""
    streams = sorted({wallet_stream(w) for w in wallet_ids})
    if not streams:
        return set()
    rows = await conn.fetch(_OPENED, streams, WALLET_PREFIX)
    return {row["wallet_id"] for row in rows}


def money_stream(wallet_id: str, *, internal: bool) -> str:
    """The stream a wallet id's debits and credits belong in."""
    return wallet_stream(wallet_id) if internal else seamless_stream(wallet_id)


def wallet_of_stream(stream_id: str) -> str | None:
    """The wallet id a money stream belongs to; ``None`` for any other stream."""
    for prefix in MONEY_PREFIXES:
        if stream_id.startswith(prefix):
            return stream_id.removeprefix(prefix)
    return None


class WalletKinds:
    """Wallet ids' kinds, looked up once each (a replay meets the same players often)."""

    def __init__(self, conn: AnyConnection) -> None:
        self._conn = conn
        self._internal: dict[str, bool] = {}

    async def load(self, wallet_ids: Iterable[str]) -> None:
        """Look up, in one query, every one of ``wallet_ids`` not known yet."""
        unknown = {w for w in wallet_ids if w not in self._internal}
        if not unknown:
            return
        internal = await internal_wallets(self._conn, unknown)
        self._internal.update({w: w in internal for w in unknown})

    async def internal(self, wallet_id: str) -> bool:
        """Whether ``wallet_id`` is an internal wallet (else a seamless player)."""
        await self.load((wallet_id,))
        return self._internal[wallet_id]
