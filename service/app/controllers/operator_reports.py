"""Reconciliation with the operator (docs/wallet-protocol.md §5): every money call the game made or
owes to a seamless operator's wallet, and the daily figures per operator and currency.

An operator's tokens (the operator and auditor roles) read their own operator only (another's
id is answered 404, as if it did not exist); admins read every operator.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time, timedelta
from typing import Annotated, Final, Literal

from litestar import Controller, get
from litestar.exceptions import NotFoundException
from litestar.params import QueryParameter

from russian_poker.events.postgres.books import TransactionFilter, Window
from russian_poker.projections.books import (
    DailyFigures,
    DailyReport,
    TransactionPage,
    WalletTransaction,
)
from russian_poker.projections.paging import read_serial, serial_cursor
from russian_poker.service.app.controllers.operators import OperatorId
from russian_poker.service.app.dependencies import Operators, Store
from russian_poker.service.app.params import PageCursor
from russian_poker.service.app.policy import access
from russian_poker.service.app.problems import problem
from russian_poker.service.app.responses import problems
from russian_poker.service.app.window import time_window
from russian_poker.service.application.operators import Operator, OperatorRegistry

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


async def _operator(operators: OperatorRegistry, operator_id: str) -> Operator:
    operator = await operators.get(operator_id)
    if operator is None:
        raise NotFoundException(f"no operator {operator_id!r}")
    return operator


def _round(round_id: str | None) -> tuple[str | None, int | None]:
    if round_id is None:
        return None, None
    matched = _ROUND_ID.match(round_id)
    if matched is None:
        raise problem(
            "invalid_round_id", 400, f"round_id: {round_id!r} is not `table:round`, e.g. t1:42"
        )
    return matched[1], int(matched[2])


class OperatorReportsController(Controller):
    path = "/v1/operators"
    tags = ("operators",)

    @get(
        "/{operator_id:str}/transactions",
        summary="Every money call the game made or owes to the operator's wallet, oldest first",
        description=(
            "The game's own list of its calls to a seamless operator's wallet"
            " (docs/wallet-protocol.md §5), to reconcile with the operator's ledger"
            " transaction by transaction: bets"
            " (with whether the game kept, undid or saw refused each), wins and rollbacks"
            " (delivered, still owed, or left for manual handling). Ordered by `seq`, the"
            " order the game recorded them in; pass `next_cursor` back as `cursor` for the"
            " next page. An internal operator has none: its money is in its players' wallet"
            " ledgers (`GET /v1/wallets/{id}/ledger`). An operator's own tokens (the"
            " operator and auditor roles) read it; admins read every operator's."
        ),
        responses=problems(400, 404, 422),
        opt=access("operator", "auditor", "admin", scope="operator"),
        operation_id="listOperatorTransactions",
    )
    async def transactions(
        self,
        operator_id: OperatorId,
        operators: Operators,
        store: Store,
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
        transaction_id: Annotated[
            str | None,
            QueryParameter(
                required=False,
                max_length=128,
                description=(
                    "Only the call with this `transaction_id` (what the operator's wallet"
                    " recorded): support staff find the round behind a player's transaction."
                ),
            ),
        ] = None,
        cursor: PageCursor = None,
        limit: Annotated[
            int, QueryParameter(ge=1, le=1000, description="Calls per page, 1..1000.")
        ] = 100,
    ) -> TransactionPage:
        await _operator(operators, operator_id)
        window = time_window(since, until)
        after = read_serial(cursor)
        table_id, number = _round(round_id)
        only = TransactionFilter(
            Window(window.start, window.end), table_id, number, player_id, kind, transaction_id
        )
        listed = await store.books.transactions(operator_id, only, after, limit + 1)
        page = listed[:limit]
        more = len(listed) > limit
        return TransactionPage(
            items=page, next_cursor=serial_cursor(page[-1].seq) if more else None
        )

    @get(
        "/{operator_id:str}/reports/daily",
        summary="Stakes, wins, GGR, rounds and players per UTC day and currency",
        description=(
            "The operator's figures per UTC day and currency (docs/wallet-protocol.md §5), in"
            " integers of the currency's minor units. **stakes**: every debit the game kept"
            " (a seamless operator's `committed` bets; bets rolled back or refused are not"
            " stakes), on the day it was made. **wins**: every credit paid or owed (a"
            " seamless operator's `win` calls queued, delivered or left for manual handling,"
            " returned stakes included), on the day the game recorded it. **ggr** = stakes"
            " - wins. **rounds**: distinct rounds (table and number) with a stake that day;"
            " **players**: distinct players with a stake that day. For an internal operator"
            " the same figures come from its players' wallet ledgers: debits for `ante`,"
            " `bonus`, `bet`, `draw_fee` and `insurance` are stakes; credits `refund`,"
            " `bonus` and `settlement` are wins. Deposits and withdrawals are not figures"
            " of play. A round whose stakes span midnight counts"
            " on each day it took one."
        ),
        responses=problems(404, 422),
        opt=access("operator", "auditor", "admin", scope="operator"),
        operation_id="getDailyReport",
    )
    async def daily(
        self,
        operator_id: OperatorId,
        operators: Operators,
        store: Store,
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
        operator = await _operator(operators, operator_id)
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
        figures = await store.books.daily(
            operator_id,
            datetime.combine(first, time(), UTC),
            datetime.combine(last + timedelta(days=1), time(), UTC),
        )
        return DailyReport(
            operator_id=operator_id,
            wallet_mode=operator.wallet.mode,
            since=first,
            until=last,
            days=[f for f in figures if f.day is not None],
            totals=[f for f in figures if f.day is None],
        )
