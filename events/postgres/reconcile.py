"""What reconciliation reads (``service.audit.reconcile`` holds the checks): balances and
ledger rows against the sums of the wallet events, and the game and money events of the
rounds opened in a window.

Every read of one reconciliation sees one snapshot (:meth:`ReconcileStore.snapshot`), so a
command committing meanwhile cannot look like a mismatch between two of them. The window's
rounds are chosen once into a temporary table the later reads join.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Iterable, Sequence
from datetime import datetime
from decimal import Decimal
from typing import Any, Final, NamedTuple

import msgspec

from russian_poker.events.postgres.money_streams import opened_wallets
from russian_poker.events.postgres.pool import Database, acquired
from russian_poker.events.streams import TABLE_PREFIX, WALLET_PREFIX

__all__ = [
    "BalanceRow",
    "LedgerDifference",
    "Orphan",
    "ReconcileReads",
    "ReconcileStore",
    "RoundEvent",
]

_SIGNED: Final = """
CASE WHEN event_type IN ('FundsDeposited', 'WalletCredited') THEN (data->>'amount')::bigint
     WHEN event_type IN ('FundsWithdrawn', 'WalletDebited') THEN -(data->>'amount')::bigint
     ELSE 0 END
"""
_BALANCES: Final = f"""
WITH ev AS (
    SELECT substr(stream_id, length($1) + 1) AS wallet_id, max(stream_version) AS version,
           sum({_SIGNED}) AS balance,
           max(data->>'currency') FILTER (WHERE event_type = 'WalletOpened') AS currency
    FROM events WHERE starts_with(stream_id, $1) GROUP BY stream_id
)
SELECT wallet_id, ev.balance AS events_balance, ev.version AS events_version,
       ev.currency AS events_currency, w.balance, w.version, w.currency,
       ev.wallet_id IS NOT NULL AS has_events, w.wallet_id IS NOT NULL AS has_row
FROM ev FULL JOIN wallets AS w USING (wallet_id)
WHERE (ev.balance, ev.version, ev.currency) IS DISTINCT FROM (w.balance, w.version, w.currency)
ORDER BY wallet_id
"""
_WALLET_COUNT: Final = "SELECT count(*) FROM streams WHERE starts_with(stream_id, $1)"
_LEDGER: Final = f"""
WITH ev AS (
    SELECT global_position, substr(stream_id, length($1) + 1) AS stream_wallet,
           data->>'wallet_id' AS wallet_id, event_type, {_SIGNED} AS amount,
           data->>'reason' AS reason, data->>'table_id' AS table_id,
           (data->>'round')::int AS round, (data->>'box')::int AS box,
           data->>'transfer_id' AS transfer_id,
           sum({_SIGNED}) OVER (PARTITION BY stream_id ORDER BY stream_version) AS balance_after,
           recorded_at, stream_version
    FROM events WHERE starts_with(stream_id, $1) AND event_type <> 'WalletOpened'
),
compared AS (
    SELECT coalesce(ev.global_position, l.global_position) AS position,
           coalesce(ev.recorded_at, l.recorded_at) AS recorded_at,
           coalesce(ev.stream_wallet, l.wallet_id) AS wallet,
           ev.stream_version,
           to_jsonb(ev) - 'stream_wallet' - 'stream_version' AS expected, to_jsonb(l) AS actual,
           ev.wallet_id IS DISTINCT FROM ev.stream_wallet AS wrong_stream,
           ev.balance_after < 0 AS overdrawn
    FROM ev FULL JOIN ledger AS l ON l.global_position = ev.global_position
)
SELECT position, wallet, expected::text AS expected, actual::text AS actual, wrong_stream,
       overdrawn, count(*) OVER () AS total
FROM compared
WHERE ($2::timestamptz IS NULL OR recorded_at >= $2)
  AND ($3::timestamptz IS NULL OR recorded_at < $3)
  AND (expected IS DISTINCT FROM actual OR wrong_stream OR overdrawn)
ORDER BY wallet, stream_version NULLS LAST, position
"""
_LEDGER_COUNT: Final = """
SELECT count(*) AS rows, count(*) FILTER (WHERE round IS NOT NULL) AS of_rounds FROM ledger
WHERE ($1::timestamptz IS NULL OR recorded_at >= $1)
  AND ($2::timestamptz IS NULL OR recorded_at < $2)
"""
_ROUNDS: Final = """
CREATE TEMP TABLE reconcile_rounds ON COMMIT DROP AS
SELECT stream_id, (data->>'round')::int AS round FROM events
WHERE event_type = 'RoundOpened'
  AND ($1::timestamptz IS NULL OR recorded_at >= $1)
  AND ($2::timestamptz IS NULL OR recorded_at < $2)
"""
_ROUNDS_SETTLED: Final = """
SELECT count(*) FROM reconcile_rounds AS r
WHERE EXISTS (SELECT 1 FROM events AS s WHERE s.event_type = 'RoundSettled'
              AND s.stream_id = r.stream_id AND (s.data->>'round')::int = r.round)
"""
_ROUND_EVENTS: Final = """
SELECT e.stream_id, e.event_type, e.schema_version, e.data::text AS data
FROM events AS e JOIN reconcile_rounds AS r
  ON e.stream_id = r.stream_id AND (e.data->>'round')::int = r.round
WHERE e.event_type = ANY($1::text[])
ORDER BY e.stream_id, e.stream_version
"""
_MONEY_EVENTS: Final = """
SELECT e.stream_id, e.event_type, e.schema_version, e.data::text AS data
FROM events AS e JOIN reconcile_rounds AS r
  ON r.stream_id = $1 || (e.data->>'table_id') AND (e.data->>'round')::int = r.round
WHERE e.event_type IN ('WalletDebited', 'WalletCredited')
ORDER BY e.global_position
"""
_ORPHANS: Final = """
SELECT e.stream_id, e.data->>'table_id' AS table_id, (e.data->>'round')::int AS round,
       e.global_position
FROM events AS e
WHERE e.event_type IN ('WalletDebited', 'WalletCredited')
  AND ($2::timestamptz IS NULL OR e.recorded_at >= $2)
  AND ($3::timestamptz IS NULL OR e.recorded_at < $3)
  AND NOT EXISTS (
      SELECT 1 FROM events AS o
      WHERE o.event_type = 'RoundOpened' AND o.stream_id = $1 || (e.data->>'table_id')
        AND (o.data->>'round')::int = (e.data->>'round')::int
  )
"""


class BalanceRow(NamedTuple):
    """An internal wallet whose balance row and events disagree (``None``: no such value)."""

    wallet_id: str
    events_balance: Decimal | None
    """A sum of bigints: numeric."""
    events_version: int | None
    events_currency: str | None
    balance: int | None
    version: int | None
    currency: str | None
    has_events: bool
    has_row: bool


class LedgerDifference(NamedTuple):
    """A ledger row and the row the wallet's events call for, as JSON objects (``None`` on
    the side that lacks it), when they differ or the events themselves are wrong."""

    position: int
    wallet: str
    expected: dict[str, Any] | None
    actual: dict[str, Any] | None
    wrong_stream: bool | None
    """The event names another wallet than its stream's."""
    overdrawn: bool | None
    """The events take the balance below zero."""


class RoundEvent(NamedTuple):
    """An event of a chosen round, its data as stored (JSON)."""

    stream_id: str
    event_type: str
    schema_version: int
    data: str


class Orphan(NamedTuple):
    """A wallet event naming a round that was never opened."""

    stream_id: str
    table_id: str | None
    round: int | None
    global_position: int


class ReconcileReads:
    """The reads of one reconciliation, in its snapshot."""

    def __init__(self, conn: Any) -> None:
        self._conn = conn

    async def wallet_count(self) -> int:
        """Internal wallets' streams."""
        count: int = await self._conn.fetchval(_WALLET_COUNT, WALLET_PREFIX)
        return count

    async def balances(self) -> list[BalanceRow]:
        """Internal wallets whose balance, version or currency is not their events'."""
        return [BalanceRow(*row) for row in await self._conn.fetch(_BALANCES, WALLET_PREFIX)]

    async def ledger_counts(self, start: datetime | None, end: datetime | None) -> tuple[int, int]:
        """Ledger rows recorded in ``[start, end)``, and of those, rows of a round."""
        row = await self._conn.fetchrow(_LEDGER_COUNT, start, end)
        assert row is not None
        return row["rows"], row["of_rounds"]

    async def ledger(self, start: datetime | None, end: datetime | None) -> list[LedgerDifference]:
        """Internal wallets' ledger rows of ``[start, end)`` that differ from their events,
        wallet by wallet in stream order."""
        return [
            LedgerDifference(
                row["position"],
                row["wallet"],
                msgspec.json.decode(row["expected"]) if row["expected"] else None,
                msgspec.json.decode(row["actual"]) if row["actual"] else None,
                row["wrong_stream"],
                row["overdrawn"],
            )
            for row in await self._conn.fetch(_LEDGER, WALLET_PREFIX, start, end)
        ]

    async def choose_rounds(self, start: datetime | None, end: datetime | None) -> int:
        """Choose the rounds opened in ``[start, end)`` for the reads below; how many."""
        # Dropped first: a caller may run two reconciliations inside one transaction.
        await self._conn.execute("DROP TABLE IF EXISTS pg_temp.reconcile_rounds")
        await self._conn.execute(_ROUNDS, start, end)
        count: int = await self._conn.fetchval("SELECT count(*) FROM reconcile_rounds")
        return count

    async def settled(self) -> int:
        """Of the chosen rounds, those settled by now."""
        count: int = await self._conn.fetchval(_ROUNDS_SETTLED)
        return count

    async def round_events(self, types: Sequence[str]) -> list[RoundEvent]:
        """The chosen rounds' table events of ``types``, table by table in stream order."""
        return [RoundEvent(*row) for row in await self._conn.fetch(_ROUND_EVENTS, list(types))]

    async def money_events(self) -> list[RoundEvent]:
        """The debits and credits naming a chosen round, from any stream, in global order."""
        return [RoundEvent(*row) for row in await self._conn.fetch(_MONEY_EVENTS, TABLE_PREFIX)]

    async def opened_wallets(self, wallet_ids: Iterable[str]) -> set[str]:
        return await opened_wallets(self._conn, wallet_ids)

    async def orphans(self, start: datetime | None, end: datetime | None) -> list[Orphan]:
        """Debits and credits recorded in ``[start, end)`` whose round was never opened."""
        return [Orphan(*row) for row in await self._conn.fetch(_ORPHANS, TABLE_PREFIX, start, end)]


class ReconcileStore:
    """Reconciliation's reads on ``db``."""

    def __init__(self, db: Database) -> None:
        self._db = db

    @contextlib.asynccontextmanager
    async def snapshot(self) -> AsyncIterator[ReconcileReads]:
        """Every read in one REPEATABLE READ snapshot; inside a caller's transaction (a
        savepoint) the caller's snapshot rules instead."""
        async with acquired(self._db) as conn:
            nested = conn.is_in_transaction()
            async with conn.transaction(isolation=None if nested else "repeatable_read"):
                yield ReconcileReads(conn)
