"""The seamless wallet's wire format (docs/wallet-protocol.md §3): the calls the service makes to an
operator's wallet and the answers it reads back.

Every call is ``POST {url}/{call}`` with one of the request structs below as its JSON body;
every business answer is HTTP 200 with a ``status``. Amounts are integers in minor units.
"""

from __future__ import annotations

from typing import Annotated, Final, Literal, get_args

import msgspec

__all__ = [
    "BALANCE",
    "BET",
    "CALLS",
    "CREDIT_REASONS",
    "DEBIT_REASONS",
    "ERROR_STATUSES",
    "FINAL_ROLLBACK_STATUSES",
    "ROLLBACK",
    "WIN",
    "Answer",
    "BalanceCall",
    "BetCall",
    "Call",
    "CallName",
    "RollbackCall",
    "Status",
    "WinCall",
    "money_fields",
    "round_id",
    "rollback_of",
]

CallName = Literal["balance", "bet", "win", "rollback"]
BALANCE: Final = "balance"
BET: Final = "bet"
WIN: Final = "win"
ROLLBACK: Final = "rollback"
CALLS: Final[tuple[CallName, ...]] = ("balance", "bet", "win", "rollback")

Status = Literal[
    "ok",
    "insufficient_funds",
    "invalid_session",
    "session_expired",
    "player_blocked",
    "limit_reached",
    "wrong_currency",
    "duplicate_transaction",
    "transaction_not_found",
    "transaction_rolled_back",
    "invalid_signature",
    "unknown",
]
ERROR_STATUSES: Final[tuple[str, ...]] = tuple(s for s in get_args(Status) if s != "ok")
FINAL_ROLLBACK_STATUSES: Final = frozenset({"ok", "transaction_not_found"})
"""A rollback answered with either is done (§3.3); anything else is sent again."""

CallReason = Literal[
    "ante",
    "bonus",
    "bet",
    "draw_fee",
    "insurance",
    "win",
    "stake_returned",
    "bonus_win",
    "insurance_win",
]
"""What a money call is for (docs/wallet-protocol.md §2)."""
DEBIT_REASONS: Final = ("ante", "bonus", "bet", "draw_fee", "insurance")
CREDIT_REASONS: Final = ("win", "stake_returned", "bonus_win", "insurance_win")

_RequestId = Annotated[
    str, msgspec.Meta(description="New for every attempt, for tracing; not part of the payload.")
]
_OperatorId = Annotated[str, msgspec.Meta(description="The operator's id at the game.")]
_PlayerId = Annotated[
    str, msgspec.Meta(description="The operator's own id for the player, as given at launch.")
]
_SessionId = Annotated[str, msgspec.Meta(description="The game session the call belongs to.")]
_Currency = Annotated[str, msgspec.Meta(description="ISO 4217 code.")]
_TransactionId = Annotated[
    str,
    msgspec.Meta(
        description=(
            "The idempotency key: the same on every re-send of this call, never reused for"
            " another; unique per operator across all calls."
        )
    ),
]
_Amount = Annotated[int, msgspec.Meta(ge=0, description="Minor units of the currency.")]
_RoundId = Annotated[str, msgspec.Meta(description="Stable per table round: `table:number`.")]
_TableId = Annotated[str, msgspec.Meta(description="The table the round is played at.")]
_Box = Annotated[int, msgspec.Meta(description="The box the money belongs to.")]
_Reason = Annotated[
    CallReason,
    msgspec.Meta(
        description=(
            "Debits: ante, bonus, bet, draw_fee, insurance. Credits: win, stake_returned,"
            " bonus_win, insurance_win. A rollback carries the reason of the bet it undoes."
        )
    ),
]
_RoundClosed = Annotated[
    bool,
    msgspec.Meta(
        description=(
            "True only on the last call of this player's round; a bet or a rollback is never"
            " the last."
        )
    ),
]


class _Common(msgspec.Struct, frozen=True, kw_only=True):
    request_id: _RequestId
    operator_id: _OperatorId
    player_id: _PlayerId
    session_id: _SessionId
    currency: _Currency


class BalanceCall(_Common, frozen=True, kw_only=True):
    """`balance`: the player's balance."""


class _Money(_Common, frozen=True, kw_only=True):
    transaction_id: _TransactionId
    amount: _Amount
    round_id: _RoundId
    table_id: _TableId
    box: _Box
    reason: _Reason
    round_closed: _RoundClosed = False


class BetCall(_Money, frozen=True, kw_only=True):
    """`bet`: a debit (amount > 0)."""


class WinCall(_Money, frozen=True, kw_only=True):
    """`win`: a credit (amount ≥ 0: a win of 0 closes a round with nothing to pay)."""

    reference_transaction_ids: Annotated[
        tuple[str, ...], msgspec.Meta(description="The round's bets this credit settles.")
    ] = ()


class RollbackCall(_Money, frozen=True, kw_only=True):
    """`rollback`: undo a bet (`reference_transaction_id`), applied even for a bet the
    operator never saw, which it must then refuse with `transaction_rolled_back`."""

    reference_transaction_id: Annotated[str, msgspec.Meta(description="The bet to undo.")]


Call = BalanceCall | BetCall | WinCall | RollbackCall


class Answer(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """The operator's answer to any call (HTTP 200)."""

    status: Annotated[Status, msgspec.Meta(description="`ok`, or why the call was not applied.")]
    balance: Annotated[
        int | None,
        msgspec.Meta(
            description="The player's balance after the call (and on insufficient_funds)."
        ),
    ] = None
    operator_transaction_id: Annotated[
        str | None, msgspec.Meta(description="The operator's own id for the money call.")
    ] = None
    message: Annotated[
        str | None, msgspec.Meta(description="A human-readable reason, for logs only.")
    ] = None


def round_id(table_id: str, number: int) -> str:
    """A round's id on the wire: stable per table round (§3), e.g. ``t1:42``."""
    return f"{table_id}:{number}"


def money_fields(call: Call) -> dict[str, object]:
    """What makes a money call the call it is: everything but ``request_id``, which is new
    on every attempt. Two sends of one ``transaction_id`` agree on all of it (§3.1)."""
    fields = msgspec.structs.asdict(call)
    fields.pop("request_id", None)
    return fields


def rollback_of(bet: BetCall, *, request_id: str, transaction_id: str) -> RollbackCall:
    """The rollback of ``bet``: its own player, session, amount, round, box and reason
    (§3.3), under a transaction id of its own, naming the bet."""
    return RollbackCall(
        request_id=request_id,
        operator_id=bet.operator_id,
        player_id=bet.player_id,
        session_id=bet.session_id,
        currency=bet.currency,
        transaction_id=transaction_id,
        amount=bet.amount,
        round_id=bet.round_id,
        table_id=bet.table_id,
        box=bet.box,
        reason=bet.reason,
        reference_transaction_id=bet.transaction_id,
    )
