"""Stream ids: one stream per table and one per wallet."""

from __future__ import annotations

from typing import Final

__all__ = ["TABLE_PREFIX", "WALLET_PREFIX", "table_stream", "wallet_stream"]

TABLE_PREFIX: Final = "table-"
WALLET_PREFIX: Final = "wallet-"


def table_stream(table_id: str) -> str:
    return TABLE_PREFIX + table_id


def wallet_stream(wallet_id: str) -> str:
    return WALLET_PREFIX + wallet_id
