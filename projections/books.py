"""The operator's books as the game keeps them: every money call made or owed to a seamless
operator's wallet, and the figures of play per UTC day and currency (for both wallet modes).
Read models only; the queries are the storage adapter's (``events.postgres.books``)."""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated, Literal

import msgspec

from russian_poker.projections.paging import NextCursor
from russian_poker.service.wallet.protocol import CallReason

__all__ = ["DailyFigures", "DailyReport", "OperatorCall", "TransactionPage", "WalletTransaction"]


class WalletTransaction(msgspec.Struct, frozen=True, kw_only=True):
    """One money call the game made to the operator's wallet, or still owes it."""

    seq: Annotated[
        int,
        msgspec.Meta(
            description="The call's position in the game's list (increasing): the page cursor."
        ),
    ]
    transaction_id: Annotated[
        str,
        msgspec.Meta(
            description="The idempotency key the game sends (unique per operator across calls)."
        ),
    ]
    kind: Annotated[
        Literal["bet", "win", "rollback"],
        msgspec.Meta(description="`bet` (a debit), `win` (a credit) or `rollback` (a bet undone)."),
    ]
    reason: Annotated[
        CallReason,
        msgspec.Meta(
            description=(
                "What the call is for: `ante`, `bonus`, `bet`, `draw_fee`, `insurance` (bets"
                " and their rollbacks); `win`, `stake_returned`, `bonus_win`, `insurance_win`"
                " (wins)."
            )
        ),
    ]
    amount: Annotated[
        int, msgspec.Meta(description="The amount in the currency's minor units (≥ 0).")
    ]
    currency: Annotated[str, msgspec.Meta(description="ISO 4217 code of the amount.")]
    player_id: Annotated[str, msgspec.Meta(description="The operator's own id for the player.")]
    session_id: Annotated[str, msgspec.Meta(description="The game session the call belongs to.")]
    table_id: Annotated[str, msgspec.Meta(description="The table of the round.")]
    round_id: Annotated[
        str, msgspec.Meta(description="The round, as the call names it: `table:round`.")
    ]
    box: Annotated[int, msgspec.Meta(description="The box the money is for.")]
    round_closed: Annotated[
        bool,
        msgspec.Meta(description="Whether this call closes the player's round at the operator."),
    ]
    reference_transaction_id: Annotated[
        str | None,
        msgspec.Meta(description="A rollback's bet (the `transaction_id` it undoes); else null."),
    ]
    reference_transaction_ids: Annotated[
        list[str] | None,
        msgspec.Meta(description="A win's references: the player's bets of the round; else null."),
    ]
    status: Annotated[
        Literal[
            "pending",
            "accepted",
            "committed",
            "refused",
            "rolled_back",
            "queued",
            "delivered",
            "manual",
        ],
        msgspec.Meta(
            description=(
                "The game's status. Bets: `pending`/`accepted` (the command has not finished;"
                " recovery finishes it), `committed` (kept), `refused` (the operator refused"
                " it), `rolled_back` (undone by a rollback call). Wins and rollbacks:"
                " `queued` (owed, being delivered), `delivered` (answered `ok`, or"
                " `transaction_not_found` for a rollback), `manual` (still unanswered after"
                " the retry window: for a person to settle)."
            )
        ),
    ]
    answer_status: Annotated[
        str | None,
        msgspec.Meta(description="The operator's last answer's `status`; null before one."),
    ]
    operator_transaction_id: Annotated[
        str | None,
        msgspec.Meta(description="The operator's own id for the call, from its `ok` answer."),
    ]
    attempts: Annotated[
        int, msgspec.Meta(description="How many times the call was sent to the operator.")
    ]
    created_at: Annotated[
        datetime, msgspec.Meta(description="When the game recorded the call (ISO 8601, UTC).")
    ]
    updated_at: Annotated[
        datetime, msgspec.Meta(description="When its status last changed (ISO 8601, UTC).")
    ]


class TransactionPage(msgspec.Struct, frozen=True, kw_only=True):
    """A page of the operator's transactions, oldest first."""

    items: Annotated[
        list[WalletTransaction],
        msgspec.Meta(description="Money calls in the order the game recorded them (`seq`)."),
    ]
    next_cursor: NextCursor


class OperatorCall(WalletTransaction, frozen=True, kw_only=True):
    """A call to a seamless operator's wallet as ``GET /v1/operators/{id}/transactions``
    serves it, and the operator it went to (a line of an audit bundle's
    ``operator-calls.jsonl``)."""

    operator_id: str


class DailyFigures(msgspec.Struct, frozen=True, kw_only=True):
    """One currency's figures for one UTC day, or for the whole window (`day` null)."""

    day: Annotated[
        date | None,
        msgspec.Meta(description="The UTC day (`YYYY-MM-DD`); null in `totals` (the window)."),
    ]
    currency: Annotated[str, msgspec.Meta(description="ISO 4217 code of the figures.")]
    stakes: Annotated[
        int, msgspec.Meta(description="Stakes the operator's players bet, in minor units.")
    ]
    wins: Annotated[
        int,
        msgspec.Meta(
            description="Credits paid or owed to them (stakes back included), in minor units."
        ),
    ]
    ggr: Annotated[
        int,
        msgspec.Meta(
            description="Gross gaming revenue: `stakes - wins` (negative: the players won)."
        ),
    ]
    rounds: Annotated[
        int, msgspec.Meta(description="Distinct rounds (table and number) with a stake.")
    ]
    players: Annotated[int, msgspec.Meta(description="Distinct players with a stake.")]


class DailyReport(msgspec.Struct, frozen=True, kw_only=True):
    """An operator's daily figures per currency over a window of UTC days."""

    operator_id: Annotated[str, msgspec.Meta(description="The operator reported on.")]
    wallet_mode: Annotated[
        Literal["seamless", "internal"],
        msgspec.Meta(description="`seamless` or `internal`: where its players' money lives."),
    ]
    since: Annotated[date, msgspec.Meta(description="The window's first UTC day (inclusive).")] = (
        msgspec.field(name="from")
    )
    until: Annotated[date, msgspec.Meta(description="The window's last UTC day (inclusive).")] = (
        msgspec.field(name="to")
    )
    days: Annotated[
        list[DailyFigures],
        msgspec.Meta(
            description="One entry per day and currency with any stake or win, by day then"
            " currency; days without either are left out."
        ),
    ]
    totals: Annotated[
        list[DailyFigures],
        msgspec.Meta(
            description="Per currency over the whole window (`day` null). `rounds` and"
            " `players` count distinct ones over the window, so they are not the sums of"
            " the days'."
        ),
    ]
