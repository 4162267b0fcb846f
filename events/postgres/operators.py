"""The operators as stored (``operators``): their registrations, wallet secret included (read
only by the wallet adapters, never shown)."""

from __future__ import annotations

from typing import Any, Final

from russian_poker.service.application.operators import Operator, WalletConfig

__all__ = ["OperatorStore"]

_COLUMNS: Final = (
    "operator_id, name, currencies, wallet_mode, wallet_url, wallet_secret, timeout_ms"
)


def _from_row(row: Any) -> Operator:
    return Operator(
        operator_id=row["operator_id"],
        name=row["name"],
        currencies=tuple(row["currencies"]),
        wallet=WalletConfig(
            mode=row["wallet_mode"],
            url=row["wallet_url"],
            secret=row["wallet_secret"],
            timeout_ms=row["timeout_ms"] or 2000,
        ),
    )


class OperatorStore:
    """The operators on a pool."""

    def __init__(self, pool: Any) -> None:
        self._pool = pool

    async def get(self, operator_id: str) -> Operator | None:
        row = await self._pool.fetchrow(
            f"SELECT {_COLUMNS} FROM operators WHERE operator_id = $1", operator_id
        )
        return _from_row(row) if row else None

    async def upsert(self, operator: Operator) -> bool:
        """Insert, or replace an existing registration; True when it is new."""
        wallet = operator.wallet
        created: bool = await self._pool.fetchval(
            f"""
            INSERT INTO operators ({_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)
            ON CONFLICT (operator_id) DO UPDATE SET
                name = excluded.name, currencies = excluded.currencies,
                wallet_mode = excluded.wallet_mode, wallet_url = excluded.wallet_url,
                wallet_secret = excluded.wallet_secret, timeout_ms = excluded.timeout_ms,
                updated_at = now()
            RETURNING xmax = 0
            """,
            operator.operator_id,
            operator.name,
            list(operator.currencies),
            wallet.mode,
            wallet.url,
            wallet.secret,
            wallet.timeout_ms if wallet.mode == "seamless" else None,
        )
        return created

    async def all(self) -> list[Operator]:
        rows = await self._pool.fetch(f"SELECT {_COLUMNS} FROM operators ORDER BY operator_id")
        return [_from_row(row) for row in rows]
