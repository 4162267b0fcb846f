"""Wallet balances as stored (the ledger's rows are written with the wallet's events, by the
command's statement: ``events.postgres.command_write``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import msgspec

from russian_poker.events.postgres import command_write
from russian_poker.events.records import RecordedEvent
from russian_poker.events.writes import CommandWrite
from russian_poker.projections.wallets import HeldWallet
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
