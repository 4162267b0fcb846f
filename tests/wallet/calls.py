"""Building wallet calls and funded internal wallets for the wallet tests."""

from __future__ import annotations

import uuid
from typing import Any, Final

import msgspec

from russian_poker.service.wallet.protocol import (
    BalanceCall,
    BetCall,
    RollbackCall,
    WinCall,
    rollback_of,
)

__all__ = [
    "CURRENCY",
    "OPERATOR",
    "balance_call",
    "bet_call",
    "rollback_call",
    "tx",
    "win_call",
]

OPERATOR: Final = "acme"
CURRENCY: Final = "EUR"


def tx() -> str:
    return f"tx-{uuid.uuid4().hex}"


def balance_call(player: str, *, operator: str = OPERATOR, currency: str = CURRENCY) -> BalanceCall:
    return BalanceCall(
        request_id=uuid.uuid4().hex,
        operator_id=operator,
        player_id=player,
        session_id="s1",
        currency=currency,
    )


def _money(
    player: str,
    amount: int,
    transaction_id: str | None,
    operator: str,
    currency: str,
    round_id: str,
) -> dict[str, Any]:
    """The fields a bet and a win of these tests share (session s1, box 2)."""
    return {
        "request_id": uuid.uuid4().hex,
        "operator_id": operator,
        "player_id": player,
        "session_id": "s1",
        "currency": currency,
        "transaction_id": transaction_id or tx(),
        "amount": amount,
        "round_id": round_id,
        "table_id": round_id.rpartition(":")[0],
        "box": 2,
    }


def bet_call(
    player: str,
    amount: int,
    *,
    transaction_id: str | None = None,
    operator: str = OPERATOR,
    currency: str = CURRENCY,
    round_id: str = "t1:7",
    reason: str = "ante",
) -> BetCall:
    return BetCall(
        **_money(player, amount, transaction_id, operator, currency, round_id), reason=reason
    )


def win_call(
    player: str,
    amount: int,
    *,
    transaction_id: str | None = None,
    operator: str = OPERATOR,
    currency: str = CURRENCY,
    references: tuple[str, ...] = (),
    round_id: str = "t1:7",
) -> WinCall:
    return WinCall(
        **_money(player, amount, transaction_id, operator, currency, round_id),
        reason="win",
        round_closed=True,
        reference_transaction_ids=references,
    )


def rollback_call(
    bet: BetCall, *, transaction_id: str | None = None, currency: str | None = None
) -> RollbackCall:
    call = rollback_of(bet, request_id=uuid.uuid4().hex, transaction_id=transaction_id or tx())
    return call if currency is None else msgspec.structs.replace(call, currency=currency)
