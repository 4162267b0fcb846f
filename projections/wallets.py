"""Money moves as the ledger and the balances see them: what an event does to a wallet.

Pure: the storage adapter (``events.postgres.wallets``) keeps the balances and the ledger,
written by the same statement that appends the wallet's events, so they are never behind.
"""

from __future__ import annotations

from typing import NamedTuple

from russian_poker.events.wallet import (
    FundsDeposited,
    FundsWithdrawn,
    WalletCredited,
    WalletDebited,
)
from russian_poker.service.rules.wallets import Wallet

__all__ = ["HeldWallet", "Moved", "money_moved"]


class HeldWallet(NamedTuple):
    wallet: Wallet
    version: int


class Moved(NamedTuple):
    """What one event does to a wallet: its signed amount and the ledger's other columns."""

    wallet_id: str
    signed: int
    reason: str | None
    table_id: str | None
    round: int | None
    box: int | None
    transfer_id: str | None


def money_moved(event: object) -> Moved | None:
    """The money an event moves (``None`` for one that moves none, e.g. ``WalletOpened``):
    deposits and credits in, withdrawals and debits out; game moves name their table, round
    and box, transfers their transfer id."""
    if isinstance(event, WalletDebited | WalletCredited):
        signed = event.amount if isinstance(event, WalletCredited) else -event.amount
        return Moved(
            event.wallet_id, signed, event.reason, event.table_id, event.round, event.box, None
        )
    if isinstance(event, FundsDeposited | FundsWithdrawn):
        signed = event.amount if isinstance(event, FundsDeposited) else -event.amount
        return Moved(event.wallet_id, signed, None, None, None, None, event.transfer_id)
    return None
