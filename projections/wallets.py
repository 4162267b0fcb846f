"""Wallet balances and the per-wallet ledger, kept in the command's own transaction.

The balance row is also what the command path checks debits against: it is written in the
same transaction as every event of the wallet's stream, so it is never behind it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Final, NamedTuple

from events.codec import decode_event
from events.store import RecordedEvent
from events.streams import WALLET_PREFIX
from events.wallet import (
    FundsDeposited,
    FundsWithdrawn,
    WalletCredited,
    WalletDebited,
    WalletOpened,
)
from service.rules.wallets import Wallet

__all__ = ["HeldWallet", "apply", "load"]


class HeldWallet(NamedTuple):
    wallet: Wallet
    version: int


_LOAD: Final = "SELECT wallet_id, currency, balance, version FROM wallets WHERE wallet_id = ANY($1)"
_OPEN: Final = """
INSERT INTO wallets (wallet_id, currency, balance, version) VALUES ($1, $2, 0, $3)
"""
_MOVE: Final = """
UPDATE wallets SET balance = balance + $2, version = $3, updated_at = now()
WHERE wallet_id = $1 RETURNING balance
"""
_LEDGER: Final = """
INSERT INTO ledger (global_position, wallet_id, event_type, amount, reason, table_id, round,
                    box, transfer_id, balance_after, recorded_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
"""


async def load(conn: Any, wallet_ids: Sequence[str]) -> dict[str, HeldWallet]:
    """The named wallets that exist, with their stream versions."""
    if not wallet_ids:
        return {}
    rows = await conn.fetch(_LOAD, list(wallet_ids))
    return {
        row["wallet_id"]: HeldWallet(
            Wallet(
                wallet_id=row["wallet_id"],
                currency=row["currency"],
                balance=row["balance"],
                opened=True,
            ),
            row["version"],
        )
        for row in rows
    }


async def apply(conn: Any, recorded: Iterable[RecordedEvent]) -> None:
    """Fold newly recorded wallet events into balances and the ledger."""
    for record in recorded:
        if not record.stream_id.startswith(WALLET_PREFIX):
            continue
        event = decode_event(record.event_type, record.schema_version, record.data)
        if isinstance(event, WalletOpened):
            await conn.execute(_OPEN, event.wallet_id, event.currency, record.stream_version)
            continue
        if isinstance(event, FundsDeposited | WalletCredited):
            signed = event.amount
        elif isinstance(event, FundsWithdrawn | WalletDebited):
            signed = -event.amount
        else:
            continue
        balance = await conn.fetchval(_MOVE, event.wallet_id, signed, record.stream_version)
        game = event if isinstance(event, WalletDebited | WalletCredited) else None
        await conn.execute(
            _LEDGER,
            record.global_position,
            event.wallet_id,
            record.event_type,
            signed,
            game.reason if game else None,
            game.table_id if game else None,
            game.round if game else None,
            game.box if game else None,
            None if game else event.transfer_id,  # type: ignore[union-attr]
            balance,
            record.recorded_at,
        )
