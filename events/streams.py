"""Stream ids: one stream per table, one per internal wallet, and one per seamless player.

A seamless player's money lives at their operator: their stream records the game's debits
and credits (what it asked the operator for), but holds no balance, so nothing that keeps
internal balances reads it."""

from __future__ import annotations

from typing import Final

__all__ = [
    "MONEY_PREFIXES",
    "SEAMLESS_PREFIX",
    "TABLE_PREFIX",
    "WALLET_PREFIX",
    "seamless_stream",
    "table_stream",
    "wallet_stream",
]

TABLE_PREFIX: Final = "table-"
WALLET_PREFIX: Final = "wallet-"
SEAMLESS_PREFIX: Final = "seamless-"
MONEY_PREFIXES: Final = (WALLET_PREFIX, SEAMLESS_PREFIX)


def table_stream(table_id: str) -> str:
    return TABLE_PREFIX + table_id


def wallet_stream(wallet_id: str) -> str:
    return WALLET_PREFIX + wallet_id


def seamless_stream(wallet_id: str) -> str:
    return SEAMLESS_PREFIX + wallet_id
