"""Money movements against wallets: the check that no balance goes below zero.

``decide`` says what moves; this says whether the wallets allow it. Kept apart so the table
aggregate needs no wallet, and the shell loads only the wallets a command actually touches.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from russian_poker.events.codec import Event
from russian_poker.events.wallet import WalletCredited, WalletDebited
from russian_poker.service.rules.errors import RuleViolation
from russian_poker.service.rules.wallets import Wallet

__all__ = ["check_funds", "check_seating", "wallets_touched"]


def wallets_touched(events: Iterable[Event]) -> list[str]:
    """The wallets the events move money in, in first-touched order."""
    return list(
        dict.fromkeys(e.wallet_id for e in events if isinstance(e, WalletDebited | WalletCredited))
    )


def check_funds(events: Iterable[Event], wallets: Mapping[str, Wallet], currency: str) -> None:
    """Refuse the whole command if any wallet is missing, in another currency, or would go
    below zero at any point of the movements, taken in order."""
    running: dict[str, int] = {}
    for event in events:
        if not isinstance(event, WalletDebited | WalletCredited):
            continue
        wallet = wallets.get(event.wallet_id)
        if wallet is None or not wallet.opened:
            raise RuleViolation("no_wallet")
        if wallet.currency != currency:
            raise RuleViolation(
                "currency_mismatch",
                f"the table plays in {currency}, the wallet holds {wallet.currency}",
            )
        balance = running.get(event.wallet_id, wallet.balance)
        if isinstance(event, WalletDebited):
            balance -= event.amount
            if balance < 0:
                raise RuleViolation("insufficient_funds")
        else:
            balance += event.amount
        running[event.wallet_id] = balance


def check_seating(player: str, wallets: Mapping[str, Wallet], currency: str) -> None:
    """A player sits down only with a wallet in the table's currency: told so at the seat,
    not at the first bet."""
    wallet = wallets.get(player)
    if wallet is None or not wallet.opened:
        raise RuleViolation(
            "no_wallet", "the player has no wallet: the operator opens one before they sit down"
        )
    if wallet.currency != currency:
        raise RuleViolation(
            "currency_mismatch",
            f"the table plays in {currency}, the player's wallet holds {wallet.currency}",
        )
