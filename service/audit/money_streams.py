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
from typing import Protocol

from russian_poker.events.streams import MONEY_PREFIXES, seamless_stream, wallet_stream

__all__ = ["OpenedWallets", "WalletKinds", "internal_wallets", "money_stream", "wallet_of_stream"]


class OpenedWallets(Protocol):
    """Where the audit looks up which wallet streams were opened (its store)."""

    async def opened_wallets(self, wallet_ids: Iterable[str]) -> set[str]:
        """Those of ``wallet_ids`` whose ``wallet-`` stream was opened."""
        ...


async def internal_wallets(events: OpenedWallets, wallet_ids: Iterable[str]) -> set[str]:
    """Those of ``wallet_ids`` that are internal wallets (their stream was opened)."""
    return await events.opened_wallets(wallet_ids)


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

    def __init__(self, events: OpenedWallets) -> None:
        self._events = events
        self._internal: dict[str, bool] = {}

    async def load(self, wallet_ids: Iterable[str]) -> None:
        """Look up, in one query, every one of ``wallet_ids`` not known yet."""
        unknown = {w for w in wallet_ids if w not in self._internal}
        if not unknown:
            return
        internal = await internal_wallets(self._events, unknown)
        self._internal.update({w: w in internal for w in unknown})

    async def internal(self, wallet_id: str) -> bool:
        """Whether ``wallet_id`` is an internal wallet (else a seamless player)."""
        await self.load((wallet_id,))
        return self._internal[wallet_id]
