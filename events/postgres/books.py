"""The operator's books: its money calls (``wallet_transactions``) page by page, the game's
side of a reconciliation with its export, and the daily figures of play from both sources
(a seamless operator's calls, an internal one's players' ledgers)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Final, NamedTuple, get_args

from russian_poker.events.wallet import CreditReason, DebitReason
from russian_poker.projections.books import DailyFigures, WalletTransaction
from russian_poker.service.tenancy import DEFAULT_OPERATOR
from russian_poker.service.wallet.reconcile import OurTransaction

__all__ = ["BookStore", "Reconciled", "TransactionFilter", "Window"]

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
  AND ($9::text IS NULL OR transaction_id = $9)
ORDER BY seq
LIMIT $10
"""

_RECONCILED: Final = """
SELECT transaction_id, kind, amount, currency, status,
       ($2::timestamptz IS NULL OR created_at >= $2)
       AND ($3::timestamptz IS NULL OR created_at < $3) AS inside
FROM wallet_transactions WHERE operator_id = $1 ORDER BY seq
"""

# Both sources at once: a seamless operator's money is in wallet_transactions, an internal
# one's in the ledger of its players' wallets (ids `operator:player`, bare for the default
# operator), and an operator whose mode changed has some of each. Every debit of play is a
# stake, every credit of play a win (stakes returned included).
_DAILY: Final = """
WITH moves AS (
    SELECT (t.created_at AT TIME ZONE 'UTC')::date AS day, t.currency,
           t.kind = 'bet' AS stake, t.amount,
           t.player_id AS player, t.table_id || ':' || t.round AS round_id
    FROM wallet_transactions t
    WHERE t.operator_id = $1 AND t.created_at >= $2 AND t.created_at < $3
      AND ((t.kind = 'bet' AND t.status = 'committed')
           OR (t.kind = 'win' AND t.status IN ('queued', 'delivered', 'manual')))
    UNION ALL
    SELECT (l.recorded_at AT TIME ZONE 'UTC')::date, w.currency,
           l.event_type = 'WalletDebited', abs(l.amount),
           CASE WHEN $1 = $4 THEN l.wallet_id ELSE substr(l.wallet_id, length($1) + 2) END,
           l.table_id || ':' || l.round
    FROM ledger l JOIN wallets w USING (wallet_id)
    WHERE l.recorded_at >= $2 AND l.recorded_at < $3 AND l.table_id IS NOT NULL
      AND CASE WHEN $1 = $4 THEN strpos(l.wallet_id, ':') = 0
               ELSE starts_with(l.wallet_id, $1 || ':') END
      AND ((l.event_type = 'WalletDebited' AND l.reason = ANY($5::text[]))
           OR (l.event_type = 'WalletCredited' AND l.reason = ANY($6::text[])))
)
SELECT day, currency,
       coalesce(sum(amount) FILTER (WHERE stake), 0)::bigint AS stakes,
       coalesce(sum(amount) FILTER (WHERE NOT stake), 0)::bigint AS wins,
       count(DISTINCT round_id) FILTER (WHERE stake) AS rounds,
       count(DISTINCT player) FILTER (WHERE stake) AS players
FROM moves
GROUP BY GROUPING SETS ((day, currency), (currency))
ORDER BY day NULLS LAST, currency
"""

_STAKES: Final = list(get_args(DebitReason))
_WINS: Final = list(get_args(CreditReason))


class Window(NamedTuple):
    """Times a list covers: from ``start`` (inclusive) to ``end`` (exclusive); ``None``:
    unbounded."""

    start: datetime | None = None
    end: datetime | None = None


class TransactionFilter(NamedTuple):
    """Which of an operator's calls a page lists."""

    window: Window = Window()
    table_id: str | None = None
    round: int | None = None
    player_id: str | None = None
    kind: str | None = None
    transaction_id: str | None = None


class Reconciled(NamedTuple):
    """The game's side of a reconciliation: its calls inside the window, and the ids of
    those outside it (not compared, but not missing either)."""

    inside: list[OurTransaction]
    elsewhere: set[str]


class BookStore:
    """The operators' books, on a pool."""

    def __init__(self, pool: Any) -> None:
        self._pool = pool

    async def transactions(
        self, operator_id: str, only: TransactionFilter, after: int | None, limit: int
    ) -> list[WalletTransaction]:
        """Up to ``limit`` of the operator's calls after ``after`` (a ``seq``), in order."""
        window = only.window
        rows = await self._pool.fetch(
            _TRANSACTIONS,
            operator_id,
            after,
            window.start,
            window.end,
            only.table_id,
            only.round,
            only.player_id,
            only.kind,
            only.transaction_id,
            limit,
        )
        return [_transaction(row) for row in rows]

    async def reconciled(self, operator_id: str, window: Window) -> Reconciled:
        rows = await self._pool.fetch(_RECONCILED, operator_id, window.start, window.end)
        inside = [
            OurTransaction(
                transaction_id=r["transaction_id"],
                kind=r["kind"],
                amount=r["amount"],
                currency=r["currency"],
                status=r["status"],
            )
            for r in rows
            if r["inside"]
        ]
        return Reconciled(inside, {r["transaction_id"] for r in rows if not r["inside"]})

    async def daily(self, operator_id: str, start: datetime, end: datetime) -> list[DailyFigures]:
        """The figures per UTC day and currency of the days from ``start`` to ``end``
        (exclusive), then per currency over them all (``day`` ``None``)."""
        rows = await self._pool.fetch(
            _DAILY, operator_id, start, end, DEFAULT_OPERATOR, _STAKES, _WINS
        )
        return [_figures(row) for row in rows]


def _transaction(row: Any) -> WalletTransaction:
    values = dict(row)
    number = values.pop("round")
    refs: Sequence[str] | None = values.pop("reference_transaction_ids")
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
