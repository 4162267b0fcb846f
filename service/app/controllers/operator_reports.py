"""Reconciliation with the operator (WALLET-PROTOCOL §5): every money call the game made or
owes to a seamless operator's wallet, and the daily figures per operator and currency.

An operator's tokens (the operator and auditor roles) read their own operator only (another's
id is answered 404, as if it did not exist); admins read every operator.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time, timedelta
from typing import Annotated, Any, Final, Literal, get_args

import msgspec
from litestar import Controller, Request, get
from litestar.exceptions import NotFoundException
from litestar.params import QueryParameter

from russian_poker.events.wallet import CreditReason, DebitReason
from russian_poker.service.app.controllers.operators import OperatorId
from russian_poker.service.app.dependencies import Pool
from russian_poker.service.app.policy import access
from russian_poker.service.app.problems import problem
from russian_poker.service.app.responses import problems
from russian_poker.service.application.operators import Operator, OperatorRegistry
from russian_poker.service.tenancy import DEFAULT_OPERATOR

__all__ = [
    "DailyFigures",
    "DailyReport",
    "OperatorReportsController",
    "TransactionPage",
    "WalletTransaction",
]

_ROUND_ID: Final = re.compile(r"^([A-Za-z0-9._-]{1,130}):([0-9]{1,9})\Z")
MAX_REPORT_DAYS: Final = 366
"""The longest window the daily report covers in one request."""


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
        str,
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

    transactions: Annotated[
        list[WalletTransaction],
        msgspec.Meta(description="Money calls in the order the game recorded them (`seq`)."),
    ]
    next_cursor: Annotated[
        int | None,
        msgspec.Meta(
            description="Pass as `cursor` for the next (newer) page; null on the last page."
        ),
    ]


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
        str,
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


_TRANSACTIONS: Final = """
SELECT seq, transaction_id, kind, reason, amount, currency, player_id, session_id, table_id,
       round, box, round_closed, reference_transaction_id, reference_transaction_ids, status,
       answer_status, operator_transaction_id, attempts, created_at, updated_at
FROM wallet_transactions
WHERE operator_id = $1
  AND ($2::bigint IS NULL OR seq > $2)
  AND ($3::timestamptz IS NULL OR created_at >= $3)
  AND ($4::timestamptz IS NULL OR created_at < $4)
  AND ($5::text IS NULL OR (table_id = $5 AND round = $6))
  AND ($7::text IS NULL OR player_id = $7)
  AND ($8::text IS NULL OR kind = $8)
ORDER BY seq
LIMIT $9
"""

# Every debit of play is a stake; every credit but a rollback's (a stake undone) is a win.
_STAKE_DEBITS: Final = get_args(DebitReason)
_WIN_CREDITS: Final = tuple(r for r in get_args(CreditReason) if r != "rollback")

# Both sources at once: a seamless operator's money is in wallet_transactions, an internal
# one's in the ledger of its players' wallets (ids `operator:player`, bare for the default
# operator), and an operator whose mode changed has some of each. Each move is a stake (+),
# a stake undone (-, an internal rollback credit) or a win.
_DAILY: Final = """
WITH moves AS (
    SELECT (t.created_at AT TIME ZONE 'UTC')::date AS day, t.currency,
           CASE t.kind WHEN 'bet' THEN 'stake' ELSE 'win' END AS move, t.amount,
           t.player_id AS player, t.table_id || ':' || t.round AS round_id
    FROM wallet_transactions t
    WHERE t.operator_id = $1 AND t.created_at >= $2 AND t.created_at < $3
      AND ((t.kind = 'bet' AND t.status = 'committed')
           OR (t.kind = 'win' AND t.status IN ('queued', 'delivered', 'manual')))
    UNION ALL
    SELECT (l.recorded_at AT TIME ZONE 'UTC')::date, w.currency,
           CASE WHEN l.event_type = 'WalletDebited' THEN 'stake'
                WHEN l.reason = 'rollback' THEN 'unstake' ELSE 'win' END,
           abs(l.amount),
           CASE WHEN $1 = $4 THEN l.wallet_id ELSE substr(l.wallet_id, length($1) + 2) END,
           l.table_id || ':' || l.round
    FROM ledger l JOIN wallets w USING (wallet_id)
    WHERE l.recorded_at >= $2 AND l.recorded_at < $3 AND l.table_id IS NOT NULL
      AND CASE WHEN $1 = $4 THEN strpos(l.wallet_id, ':') = 0
               ELSE starts_with(l.wallet_id, $1 || ':') END
      AND ((l.event_type = 'WalletDebited' AND l.reason = ANY($5::text[]))
           OR (l.event_type = 'WalletCredited'
               AND (l.reason = ANY($6::text[]) OR l.reason = 'rollback')))
)
SELECT day, currency,
       (coalesce(sum(amount) FILTER (WHERE move = 'stake'), 0)
        - coalesce(sum(amount) FILTER (WHERE move = 'unstake'), 0))::bigint AS stakes,
       coalesce(sum(amount) FILTER (WHERE move = 'win'), 0)::bigint AS wins,
       count(DISTINCT round_id) FILTER (WHERE move = 'stake') AS rounds,
       count(DISTINCT player) FILTER (WHERE move = 'stake') AS players
FROM moves
GROUP BY GROUPING SETS ((day, currency), (currency))
ORDER BY day NULLS LAST, currency
"""


async def _operator(request: Request[Any, Any, Any], operator_id: str) -> Operator:
    registry: OperatorRegistry = request.app.state.operators
    operator = await registry.get(operator_id)
    if operator is None:
        raise NotFoundException(f"no operator {operator_id!r}")
    return operator


def _utc(value: datetime | None) -> datetime | None:
    """A time without a zone is UTC."""
    if value is None or value.tzinfo is not None:
        return value
    return value.replace(tzinfo=UTC)


def _round(round_id: str | None) -> tuple[str | None, int | None]:
    if round_id is None:
        return None, None
    matched = _ROUND_ID.match(round_id)
    if matched is None:
        raise problem(
            "invalid_round_id", 400, f"round_id: {round_id!r} is not `table:round`, e.g. t1:42"
        )
    return matched[1], int(matched[2])


def _transaction(row: Any) -> WalletTransaction:
    values = dict(row)
    number = values.pop("round")
    refs = values.pop("reference_transaction_ids")
    return WalletTransaction(
        **values,
        round_id=f"{values['table_id']}:{number}",
        reference_transaction_ids=list(refs) if refs is not None else None,
    )


def _figures(row: Any) -> DailyFigures:
    return DailyFigures(
        day=row["day"],
        currency=row["currency"],
        stakes=row["stakes"],
        wins=row["wins"],
        ggr=row["stakes"] - row["wins"],
        rounds=row["rounds"],
        players=row["players"],
    )


class OperatorReportsController(Controller):
    path = "/v1/operators"
    tags = ("operators",)

    @get(
        "/{operator_id:str}/transactions",
        summary="Every money call the game made or owes to the operator's wallet, oldest first",
        description=(
            "The game's own list of its calls to a seamless operator's wallet (WALLET-PROTOCOL"
            " §5), to reconcile with the operator's ledger transaction by transaction: bets"
            " (with whether the game kept, undid or saw refused each), wins and rollbacks"
            " (delivered, still owed, or left for manual handling). Ordered by `seq`, the"
            " order the game recorded them in; pass `next_cursor` back as `cursor` for the"
            " next page. An internal operator has none: its money is in its players' wallet"
            " ledgers (`GET /v1/wallets/{id}/ledger`). An operator's own tokens (the"
            " operator and auditor roles) read it; admins read every operator's."
        ),
        responses=problems(400, 404, 422),
        opt=access("operator", "auditor", "admin", scope="operator"),
    )
    async def transactions(
        self,
        operator_id: OperatorId,
        request: Request[Any, Any, Any],
        pool: Pool,
        since: Annotated[
            datetime | None,
            QueryParameter(
                name="from",
                required=False,
                description=(
                    "Only calls recorded at or after this time (ISO 8601; without a zone:"
                    " UTC). Omit for no lower bound."
                ),
            ),
        ] = None,
        until: Annotated[
            datetime | None,
            QueryParameter(
                name="to",
                required=False,
                description=(
                    "Only calls recorded before this time (ISO 8601; without a zone: UTC)."
                    " Omit for no upper bound."
                ),
            ),
        ] = None,
        round_id: Annotated[
            str | None,
            QueryParameter(
                required=False,
                max_length=80,
                description="Only this round's calls: `table:round`, e.g. `t1:42`.",
            ),
        ] = None,
        player_id: Annotated[
            str | None,
            QueryParameter(
                required=False,
                max_length=128,
                description="Only this player's calls (the operator's own id for the player).",
            ),
        ] = None,
        kind: Annotated[
            Literal["bet", "win", "rollback"] | None,
            QueryParameter(required=False, description="Only calls of this kind."),
        ] = None,
        cursor: Annotated[
            int | None,
            QueryParameter(
                ge=0,
                le=2**63 - 1,
                required=False,
                description=(
                    "`next_cursor` of the previous page: calls after it; omit for the first."
                ),
            ),
        ] = None,
        limit: Annotated[
            int, QueryParameter(ge=1, le=1000, description="Calls per page, 1..1000.")
        ] = 100,
    ) -> TransactionPage:
        await _operator(request, operator_id)
        start, end = _utc(since), _utc(until)
        if start is not None and end is not None and start >= end:
            raise problem("invalid_window", 422, "from: must be before to")
        table_id, number = _round(round_id)
        rows = await pool.fetch(
            _TRANSACTIONS,
            operator_id,
            cursor,
            start,
            end,
            table_id,
            number,
            player_id,
            kind,
            limit + 1,
        )
        page = [_transaction(r) for r in rows[:limit]]
        more = len(rows) > limit
        return TransactionPage(transactions=page, next_cursor=page[-1].seq if more else None)

    @get(
        "/{operator_id:str}/reports/daily",
        summary="Stakes, wins, GGR, rounds and players per UTC day and currency",
        description=(
            "The operator's figures per UTC day and currency (WALLET-PROTOCOL §5), in"
            " integers of the currency's minor units. **stakes**: every debit the game kept"
            " (a seamless operator's `committed` bets; bets rolled back or refused are not"
            " stakes), on the day it was made. **wins**: every credit paid or owed (a"
            " seamless operator's `win` calls queued, delivered or left for manual handling,"
            " returned stakes included), on the day the game recorded it. **ggr** = stakes"
            " - wins. **rounds**: distinct rounds (table and number) with a stake that day;"
            " **players**: distinct players with a stake that day. For an internal operator"
            " the same figures come from its players' wallet ledgers: debits for `ante`,"
            " `bonus`, `bet`, `draw_fee` and `insurance` are stakes, less credits of a bet"
            " rolled back; credits `refund`, `bonus`, `settlement` (and the wallet port's"
            " `win`, `stake_returned`, `bonus_win`, `insurance_win`) are wins. Deposits and"
            " withdrawals are not figures of play. A round whose stakes span midnight counts"
            " on each day it took one."
        ),
        responses=problems(404, 422),
        opt=access("operator", "auditor", "admin", scope="operator"),
    )
    async def daily(
        self,
        operator_id: OperatorId,
        request: Request[Any, Any, Any],
        pool: Pool,
        since: Annotated[
            date | None,
            QueryParameter(
                name="from",
                required=False,
                description=(
                    "The first UTC day (`YYYY-MM-DD`, inclusive). Omit for 30 days before `to`."
                ),
            ),
        ] = None,
        until: Annotated[
            date | None,
            QueryParameter(
                name="to",
                required=False,
                description="The last UTC day (`YYYY-MM-DD`, inclusive). Omit for today.",
            ),
        ] = None,
    ) -> DailyReport:
        operator = await _operator(request, operator_id)
        last = until or datetime.now(UTC).date()
        if last == date.max:
            # The window ends at the start of the next day, which this one has not.
            raise problem("invalid_window", 422, "to: must be before 9999-12-31")
        first = since or date.fromordinal(max(last.toordinal() - 30, 1))
        if first > last:
            raise problem("invalid_window", 422, "from: must be on or before to")
        if (last - first).days + 1 > MAX_REPORT_DAYS:
            raise problem(
                "invalid_window", 422, f"from, to: at most {MAX_REPORT_DAYS} days in one report"
            )
        rows = await pool.fetch(
            _DAILY,
            operator_id,
            datetime.combine(first, time(), UTC),
            datetime.combine(last + timedelta(days=1), time(), UTC),
            DEFAULT_OPERATOR,
            list(_STAKE_DEBITS),
            list(_WIN_CREDITS),
        )
        figures = [_figures(r) for r in rows]
        return DailyReport(
            operator_id=operator_id,
            wallet_mode=operator.wallet.mode,
            since=first,
            until=last,
            days=[f for f in figures if f.day is not None],
            totals=[f for f in figures if f.day is None],
        )
