"""The wallet aggregate: a balance in one currency that never goes below zero (docs/rules.md §7)."""

from __future__ import annotations

from collections.abc import Iterable
from functools import reduce

import msgspec

from russian_poker.events.wallet import (
    FundsDeposited,
    FundsWithdrawn,
    WalletCredited,
    WalletDebited,
    WalletEvent,
    WalletOpened,
)
from russian_poker.service.rules.errors import RuleViolation

__all__ = ["Wallet", "deposit", "evolve_wallet", "fold_wallet", "open_wallet", "withdraw"]


class Wallet(msgspec.Struct, frozen=True, kw_only=True):
    """``Wallet()`` is a wallet not opened yet."""

    wallet_id: str = ""
    currency: str = ""
    balance: int = 0
    opened: bool = False


def evolve_wallet(wallet: Wallet, event: WalletEvent) -> Wallet:
    match event:
        case WalletOpened():
            return Wallet(wallet_id=event.wallet_id, currency=event.currency, opened=True)
        case FundsDeposited() | WalletCredited():
            return msgspec.structs.replace(wallet, balance=wallet.balance + event.amount)
        case FundsWithdrawn() | WalletDebited():
            return msgspec.structs.replace(wallet, balance=wallet.balance - event.amount)
    return wallet


def fold_wallet(wallet: Wallet, events: Iterable[WalletEvent]) -> Wallet:
    return reduce(evolve_wallet, events, wallet)


def open_wallet(wallet: Wallet, wallet_id: str, currency: str) -> list[WalletEvent]:
    if wallet.opened:
        raise RuleViolation("wallet_exists")
    if len(currency) != 3 or not currency.isalpha() or not currency.isupper():
        raise RuleViolation("invalid_currency")
    return [WalletOpened(wallet_id=wallet_id, currency=currency)]


def deposit(wallet: Wallet, transfer_id: str, amount: int) -> list[WalletEvent]:
    _need_amount(wallet, amount)
    return [FundsDeposited(wallet_id=wallet.wallet_id, transfer_id=transfer_id, amount=amount)]


def withdraw(wallet: Wallet, transfer_id: str, amount: int) -> list[WalletEvent]:
    _need_amount(wallet, amount)
    if amount > wallet.balance:
        raise RuleViolation("insufficient_funds")
    return [FundsWithdrawn(wallet_id=wallet.wallet_id, transfer_id=transfer_id, amount=amount)]


def _need_amount(wallet: Wallet, amount: int) -> None:
    if not wallet.opened:
        raise RuleViolation("no_wallet")
    if not 1 <= amount <= 10**15:
        raise RuleViolation("invalid_amount", "an amount is 1..10^15 minor units")
