"""Money moves as the ledger and the balances see them: what an event does to a wallet.

Pure: the storage adapter (``events.postgres.wallets``) keeps the balances and the ledger,
written by the same statement that appends the wallet's events, so they are never behind.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, NamedTuple

import msgspec

from russian_poker.events.wallet import (
    FundsDeposited,
    FundsWithdrawn,
    WalletCredited,
    WalletDebited,
)
from russian_poker.projections.paging import NextCursor
from russian_poker.service.rules.wallets import Wallet

__all__ = ["HeldWallet", "LedgerEntry", "LedgerPage", "Moved", "WalletView", "money_moved"]


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


class WalletView(msgspec.Struct, frozen=True, kw_only=True):
    """A wallet's balance."""

    wallet_id: Annotated[
        str, msgspec.Meta(description="The wallet's id: the player id it belongs to.")
    ]
    currency: Annotated[str, msgspec.Meta(description="ISO 4217 code of the wallet's currency.")]
    balance: Annotated[
        int,
        msgspec.Meta(
            description="Balance in minor units of the wallet's currency; never negative."
        ),
    ]
    version: Annotated[
        int,
        msgspec.Meta(
            description="The wallet's event-stream version (the number of movements recorded)."
        ),
    ]


class LedgerEntry(msgspec.Struct, frozen=True, kw_only=True):
    """One movement of a wallet: a deposit, a withdrawal, or a table's debit or credit."""

    position: Annotated[
        int,
        msgspec.Meta(
            description=(
                "Global position of the movement in the event store; pass it as "
                "`cursor` to page on."
            )
        ),
    ]
    kind: Annotated[
        str,
        msgspec.Meta(
            description=(
                "The movement: `WalletOpened`, `FundsDeposited`, `FundsWithdrawn`, "
                "`WalletDebited` or `WalletCredited`."
            )
        ),
    ]
    amount: Annotated[
        int,
        msgspec.Meta(
            description=(
                "Amount moved, in minor units of the wallet's currency (`kind` says which way)."
            )
        ),
    ]
    reason: Annotated[
        str | None,
        msgspec.Meta(
            description=(
                "Why a table moved money: debits `ante`, `bonus`, `bet`, `draw_fee`, "
                "`insurance`; credits `refund`, `bonus`, `settlement`. Null for "
                "deposits and withdrawals."
            )
        ),
    ]
    table_id: Annotated[
        str | None,
        msgspec.Meta(
            description=(
                "The table whose round moved the money; null for deposits and withdrawals."
            )
        ),
    ]
    round: Annotated[
        int | None,
        msgspec.Meta(
            description="The round number at that table; null for deposits and withdrawals."
        ),
    ]
    box: Annotated[
        int | None,
        msgspec.Meta(
            description="The box number the money was for; null for deposits and withdrawals."
        ),
    ]
    transfer_id: Annotated[
        str | None,
        msgspec.Meta(
            description="The operator's transfer id of a deposit or withdrawal; else null."
        ),
    ]
    balance_after: Annotated[
        int,
        msgspec.Meta(
            description=(
                "The wallet's balance after this movement, in minor units of its currency."
            )
        ),
    ]
    recorded_at: Annotated[
        datetime, msgspec.Meta(description="When the movement was recorded (with its time zone).")
    ]


class LedgerPage(msgspec.Struct, frozen=True, kw_only=True):
    """A page of a wallet's ledger."""

    items: Annotated[
        list[LedgerEntry], msgspec.Meta(description="Movements of the wallet, newest first.")
    ]
    next_cursor: NextCursor
