"""Events of a wallet's stream: every money movement is its own event.

Each debit and credit names its wallet, amount, reason, table, round and box, so balances,
ledgers and reconciliation need no rule knowledge. Amounts are positive integers in minor
units; the sign is the event type.
"""

from __future__ import annotations

from typing import Literal

import msgspec

__all__ = [
    "CreditReason",
    "DebitReason",
    "FundsDeposited",
    "FundsWithdrawn",
    "WalletCredited",
    "WalletDebited",
    "WalletEvent",
    "WalletOpened",
]

DebitReason = Literal["ante", "bonus", "bet", "draw_fee", "insurance"]
CreditReason = Literal["refund", "bonus", "settlement"]
"""``refund``: a box's stakes back when its bets are cancelled before the deal;
``bonus``: the bonus stake back plus winnings; ``settlement``: the main wager's stakes back
plus winnings (insurance's included)."""


class _WalletEvent(msgspec.Struct, frozen=True, kw_only=True, tag=True):
    wallet_id: str


class WalletOpened(_WalletEvent, frozen=True):
    currency: str


class FundsDeposited(_WalletEvent, frozen=True):
    transfer_id: str
    amount: int


class FundsWithdrawn(_WalletEvent, frozen=True):
    transfer_id: str
    amount: int


class WalletDebited(_WalletEvent, frozen=True):
    amount: int
    reason: DebitReason
    table_id: str
    round: int
    box: int


class WalletCredited(_WalletEvent, frozen=True):
    amount: int
    reason: CreditReason
    table_id: str
    round: int
    box: int


WalletEvent = WalletOpened | FundsDeposited | FundsWithdrawn | WalletDebited | WalletCredited
