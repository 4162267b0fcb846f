"""Wallet balances as stored (the ledger's rows are written with the wallet's events, by the
command's statement: ``events.postgres.command_write``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import msgspec

from russian_poker.events.postgres import command_write
from russian_poker.events.records import RecordedEvent
from russian_poker.events.writes import CommandWrite
from russian_poker.projections.paging import serial_cursor
from russian_poker.projections.wallets import HeldWallet, LedgerEntry, LedgerPage, WalletView
from russian_poker.service.rules.wallets import Wallet

__all__ = ["LOAD_AS_JSON", "WalletStore", "from_json", "load"]

_LOAD: Final = "SELECT wallet_id, currency, balance, version FROM wallets WHERE wallet_id = ANY($1)"

LOAD_AS_JSON: Final = """
(SELECT json_agg(json_build_array(wallet_id, currency, balance, version))::text
 FROM wallets WHERE wallet_id = ANY({wallet_ids}))
"""
"""The named wallets as one JSON value, for a query that reads them with other things
(``tables.load_for_command``); :func:`from_json` reads it back."""

_rows: Final = msgspec.json.Decoder(list[tuple[str, str, int, int]])


def from_json(text: str | None) -> dict[str, HeldWallet]:
    """The wallets of a :data:`LOAD_AS_JSON` value, as :func:`load` gives them."""
    rows = _rows.decode(text) if text else []
    return {
        wallet_id: HeldWallet(
            Wallet(wallet_id=wallet_id, currency=currency, balance=balance, opened=True), version
        )
        for wallet_id, currency, balance, version in rows
    }


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


class WalletStore:
    """Internal wallets on a pool: their balances, and a transfer's one statement."""

    def __init__(self, pool: Any) -> None:
        self._pool = pool

    async def wallets(self, wallet_ids: Sequence[str]) -> dict[str, HeldWallet]:
        async with self._pool.acquire() as conn:
            return await load(conn, wallet_ids)

    async def commit(self, write: CommandWrite) -> list[RecordedEvent]:
        async with self._pool.acquire() as conn:
            return await command_write.commit(conn, write)

    async def view(self, wallet_id: str, shown: str) -> WalletView | None:
        """The wallet ``wallet_id``, named ``shown`` (the caller's own id for it)."""
        row = await self._pool.fetchrow(
            "SELECT currency, balance, version FROM wallets WHERE wallet_id = $1", wallet_id
        )
        return WalletView(wallet_id=shown, **dict(row)) if row else None

    async def ledger(self, wallet_id: str, cursor: int | None, limit: int) -> LedgerPage:
        """The wallet's movements, newest first, before ``cursor`` (a global position)."""
        rows = await self._pool.fetch(
            "SELECT * FROM ledger WHERE wallet_id = $1 AND ($2::bigint IS NULL OR "
            "global_position < $2) ORDER BY global_position DESC LIMIT $3",
            wallet_id,
            cursor,
            limit + 1,
        )
        entries = [
            LedgerEntry(
                position=r["global_position"],
                kind=r["event_type"],
                amount=r["amount"],
                reason=r["reason"],
                table_id=r["table_id"],
                round=r["round"],
                box=r["box"],
                transfer_id=r["transfer_id"],
                balance_after=r["balance_after"],
                recorded_at=r["recorded_at"],
            )
            for r in rows[:limit]
        ]
        more = len(rows) > limit
        return LedgerPage(
            items=entries, next_cursor=serial_cursor(entries[-1].position) if more else None
        )
