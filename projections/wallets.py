"""Wallet balances and the per-wallet ledger, written by the same statement that appends
the wallet's events.

The balance row is also what the command path checks debits against: it is written with
every event of the wallet's stream, atomically, so it is never behind it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Final, NamedTuple

import msgspec

from russian_poker.events.codec import decode_event
from russian_poker.events.postgres.store import SideWrites, StreamAppend
from russian_poker.events.streams import WALLET_PREFIX
from russian_poker.events.wallet import (
    FundsDeposited,
    FundsWithdrawn,
    WalletCredited,
    WalletDebited,
    WalletOpened,
)
from russian_poker.service.rules.wallets import Wallet

__all__ = ["LOAD_AS_JSON", "HeldWallet", "Moved", "apply", "from_json", "load", "money_moved"]


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


_LOAD: Final = "SELECT wallet_id, currency, balance, version FROM wallets WHERE wallet_id = ANY($1)"


LOAD_AS_JSON: Final = """
(SELECT json_agg(json_build_array(wallet_id, currency, balance, version))::text
 FROM wallets WHERE wallet_id = ANY({wallet_ids}))
"""
"""The named wallets as one JSON value, for a query that reads them with other things
(``projections.tables.load_for_command``); :func:`from_json` reads it back."""


def from_json(text: str | None) -> dict[str, HeldWallet]:
    """The wallets of a :data:`LOAD_AS_JSON` value, as :func:`load` gives them."""
    rows = _rows.decode(text) if text else []
    return {
        wallet_id: HeldWallet(
            Wallet(wallet_id=wallet_id, currency=currency, balance=balance, opened=True), version
        )
        for wallet_id, currency, balance, version in rows
    }


_rows: Final = msgspec.json.Decoder(list[tuple[str, str, int, int]])


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


def apply(writes: SideWrites, appends: Iterable[StreamAppend]) -> None:
    """Fold the wallet events being appended into balances and the ledger, in the append's
    own statement: every wallet is updated once, by the sum of its moves, and every ledger
    row gets the balance after it. As if the moves were applied one by one, a balance that
    would go below zero on the way fails ``CHECK (balance >= 0)`` (it is written as -1),
    and a move for a wallet without a row fails the ledger's ``NOT NULL``. A wallet opened
    in the same append cannot be moved in it (the statement does not see the new row)."""
    opened: list[tuple[Any, ...]] = []
    moves: list[tuple[Any, ...]] = []
    for stream in appends:
        if not stream.stream_id.startswith(WALLET_PREFIX):
            continue
        for new in stream.events:
            event = decode_event(new.event_type, new.schema_version, new.data)
            if isinstance(event, WalletOpened):
                opened.append((new.event_id, event.wallet_id, event.currency))
                continue
            moved = money_moved(event)
            if moved is not None:
                moves.append((new.event_id, moved.wallet_id, new.event_type, *moved[1:]))
    if opened:
        ids, wallet_ids, currencies = (writes.param(list(c)) for c in zip(*opened, strict=True))
        writes.add(
            "opened_wallets",
            f"""
            INSERT INTO wallets (wallet_id, currency, balance, version)
            SELECT o.wallet_id, o.currency, 0, a.stream_version
            FROM unnest({ids}::uuid[], {wallet_ids}::text[], {currencies}::text[])
                AS o(event_id, wallet_id, currency)
            JOIN appended a USING (event_id)
            """,
        )
    if not moves:
        return
    columns = ", ".join(
        f"{writes.param(list(column))}::{kind}[]"
        for column, kind in zip(zip(*moves, strict=True), _MOVE_TYPES, strict=True)
    )
    writes.add(
        "wallet_moves",
        f"""
        SELECT m.*, a.global_position, a.recorded_at, a.stream_version
        FROM unnest({columns}) WITH ORDINALITY
            AS m(event_id, wallet_id, event_type, amount, reason, table_id, round, box,
                 transfer_id, n)
        JOIN appended a USING (event_id)
        """,
    )
    writes.add(
        "moved_wallets",
        """
        UPDATE wallets w SET
            balance = CASE WHEN w.balance + t.lowest < 0 THEN -1 ELSE w.balance + t.amount END,
            version = t.version, updated_at = now()
        FROM (
            SELECT wallet_id, sum(amount) AS amount, min(running) AS lowest,
                   max(stream_version) AS version
            FROM (SELECT wallet_id, amount, stream_version,
                         sum(amount) OVER (PARTITION BY wallet_id ORDER BY n) AS running
                  FROM wallet_moves) AS r
            GROUP BY wallet_id
        ) AS t
        WHERE w.wallet_id = t.wallet_id
        RETURNING w.wallet_id, w.balance
        """,
    )
    writes.add(
        "ledger_entries",
        """
        INSERT INTO ledger (global_position, wallet_id, event_type, amount, reason, table_id,
                            round, box, transfer_id, balance_after, recorded_at)
        SELECT m.global_position, m.wallet_id, m.event_type, m.amount, m.reason, m.table_id,
               m.round, m.box, m.transfer_id,
               moved.balance - coalesce(sum(m.amount) OVER (
                   PARTITION BY m.wallet_id ORDER BY m.n
                   ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING), 0),
               m.recorded_at
        FROM wallet_moves m LEFT JOIN moved_wallets moved USING (wallet_id)
        """,
    )


_MOVE_TYPES: Final = ("uuid", "text", "text", "bigint", "text", "text", "int", "int", "text")
