"""Events of a wallet's stream: every money movement is its own event.

Each debit and credit names its wallet, amount, reason, table, round and box, so balances,
ledgers and reconciliation need no rule knowledge. Amounts are positive integers in minor
units; the sign is the event type.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

# The fields many events share, described once.
RoundNo = Annotated[int, msgspec.Meta(description="The round's number at the table, from 1.")]
BoxNo = Annotated[int, msgspec.Meta(description="The box's number, from 1.")]
WalletId = Annotated[str, msgspec.Meta(description="The wallet's id: the player it belongs to.")]
Amount = Annotated[int, msgspec.Meta(description="Minor units of the wallet's currency.")]
TransferId = Annotated[
    str,
    msgspec.Meta(description="The operator's id for the transfer: the same id is applied once."),
]

__all__ = [
    "CreditReason",
    "DebitReason",
    "MoneyReason",
    "FundsDeposited",
    "FundsWithdrawn",
    "WalletCredited",
    "WalletDebited",
    "WalletEvent",
    "WalletOpened",
]

DebitReason = Literal["ante", "bonus", "bet", "draw_fee", "insurance"]
CreditReason = Literal["refund", "bonus", "settlement"]
"""``refund``: a box's stakes back when its bets are cancelled before the deal;
``bonus``: the bonus stake back plus winnings; ``settlement``: the main wager's stakes back
plus winnings (insurance's included)."""
MoneyReason = Literal["ante", "bonus", "bet", "draw_fee", "insurance", "refund", "settlement"]
"""Either: why a table moved money (``bonus`` is both a debit's and a credit's)."""


class _WalletEvent(msgspec.Struct, frozen=True, kw_only=True, tag=True):
    wallet_id: WalletId


class WalletOpened(_WalletEvent, frozen=True):
    currency: Annotated[str, msgspec.Meta(description="ISO 4217 code of the wallet's currency.")]


class FundsDeposited(_WalletEvent, frozen=True):
    transfer_id: TransferId
    amount: Amount


class FundsWithdrawn(_WalletEvent, frozen=True):
    transfer_id: TransferId
    amount: Amount


class WalletDebited(_WalletEvent, frozen=True):
    amount: Amount
    reason: Annotated[
        DebitReason,
        msgspec.Meta(
            description=(
                "Why the table took the money: `ante`, `bonus`, `bet`, `draw_fee` or `insurance`."
            )
        ),
    ]
    table_id: Annotated[str, msgspec.Meta(description="The table whose round moved the money.")]
    round: RoundNo
    box: BoxNo


class WalletCredited(_WalletEvent, frozen=True):
    amount: Amount
    reason: Annotated[
        CreditReason,
        msgspec.Meta(
            description="Why the table paid: `refund` (bets cancelled), `bonus` or `settlement`."
        ),
    ]
    table_id: Annotated[str, msgspec.Meta(description="The table whose round moved the money.")]
    round: RoundNo
    box: BoxNo


WalletEvent = WalletOpened | FundsDeposited | FundsWithdrawn | WalletDebited | WalletCredited
