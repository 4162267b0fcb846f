"""Money moves as the ledger and the balances see them: what an event does to a wallet.

Pure: the storage adapter (``events.postgres.wallets``) keeps the balances and the ledger,
written by the same statement that appends the wallet's events, so they are never behind.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal, NamedTuple

import msgspec

from russian_poker.events.codec import decode_event
from russian_poker.events.records import RecordedEvent
from russian_poker.events.wallet import (
    FundsDeposited,
    FundsWithdrawn,
    MoneyReason,
    WalletCredited,
    WalletDebited,
    WalletOpened,
)
from russian_poker.projections.paging import NextCursor
from russian_poker.service.rules.wallets import Wallet

__all__ = [
    "HeldWallet",
    "LedgerEntry",
    "LedgerPage",
    "LedgerRow",
    "Moved",
    "WalletFold",
    "WalletRow",
    "WalletView",
    "money_moved",
]


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


class WalletRow(NamedTuple):
    """A row of ``wallets``."""

    wallet_id: str
    currency: str
    balance: int
    version: int


class LedgerRow(NamedTuple):
    """A row of ``ledger``: one movement and the balance after it."""

    global_position: int
    wallet_id: str
    event_type: str
    amount: int
    reason: str | None
    table_id: str | None
    round: int | None
    box: int | None
    transfer_id: str | None
    balance_after: int
    recorded_at: datetime


class WalletFold:
    """Internal wallets folded from their events, each wallet's in stream order: the
    balances and the ledger's rows the command path writes with the events. The rebuild
    and an audit bundle's verifier compare what was stored with it."""

    def __init__(self) -> None:
        self.wallets: dict[str, WalletRow] = {}

    def apply(self, record: RecordedEvent) -> LedgerRow | None:
        """The ledger row of one wallet event (``None`` for one that moves no money).
        Raises ``LookupError`` for money moved in a wallet that was never opened."""
        event = decode_event(record.event_type, record.schema_version, record.data)
        if isinstance(event, WalletOpened):
            self.wallets[event.wallet_id] = WalletRow(
                event.wallet_id, event.currency, 0, record.stream_version
            )
            return None
        moved = money_moved(event)
        if moved is None:
            return None
        row = self.wallets.get(moved.wallet_id)
        if row is None:
            raise LookupError(f"wallet {moved.wallet_id}: money moved before WalletOpened")
        row = self.wallets[moved.wallet_id] = row._replace(
            balance=row.balance + moved.signed, version=record.stream_version
        )
        return LedgerRow(
            record.global_position,
            moved.wallet_id,
            record.event_type,
            *moved[1:],
            row.balance,
            record.recorded_at,
        )


LedgerKind = Literal[
    "WalletOpened", "FundsDeposited", "FundsWithdrawn", "WalletDebited", "WalletCredited"
]
"""A ledger entry's movement: the wallet event behind it."""


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
        LedgerKind,
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
        MoneyReason | None,
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
