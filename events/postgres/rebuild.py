"""Rebuilding read models in place (``projections.rebuild`` holds the folds and the report).

Each rebuild is one transaction on one connection that first stops the model's writers: a
table lock for the models the command path writes inline (``table_states``; ``wallets``
and ``ledger``), the checkpoint's row lock for a catch-up model. The rebuilt rows are
compared with the live ones as JSON, row by row and key by key, in the database.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Mapping, Sequence
from datetime import datetime
from typing import Any, Final, NamedTuple

import msgspec

from russian_poker.events.postgres.pool import Database, acquired
from russian_poker.events.postgres.projections import (
    Batch,
    ReadModels,
    batch_on,
    load_checkpoint,
)
from russian_poker.events.postgres.store import read_all, recorded_from_row
from russian_poker.events.postgres.tables import catch_up
from russian_poker.events.records import Position, RecordedEvent
from russian_poker.events.streams import TABLE_PREFIX, WALLET_PREFIX
from russian_poker.projections.wallets import LedgerRow, WalletRow
from russian_poker.service.rules.state import Table

__all__ = [
    "AbandonedRow",
    "CatchUpRebuild",
    "Differing",
    "HistoryRebuild",
    "LiveTable",
    "RebuildStore",
    "RoundBoxRow",
    "RoundRow",
    "RowPair",
    "TableRow",
    "TablesRebuild",
    "WalletsRebuild",
]

_STREAM: Final = """
SELECT global_position, tx_id, stream_id, stream_version, event_id, event_type, schema_version,
       data::text AS data, metadata::text AS metadata, recorded_at
FROM events WHERE starts_with(stream_id, $1) ORDER BY stream_id, stream_version
"""
_LIVE_TABLES: Final = (
    "SELECT table_id, version, name, game, status, currency, state FROM table_states"
)


class LiveTable(NamedTuple):
    """A table's row of the live ``table_states``: its snapshot and summary."""

    table_id: str
    version: int
    name: str
    game: str
    status: str
    currency: str
    state: bytes


class TableRow(NamedTuple):
    """A table's row of ``table_states`` as the events make it."""

    table_id: str
    version: int
    name: str
    game: str
    status: str
    currency: str
    state: bytes
    operator_id: str
    shared: bool


class RowPair(NamedTuple):
    """A row the live model and the rebuild disagree on: the live row and the rebuilt one
    as JSON objects (``None`` on the side that lacks it)."""

    live: dict[str, Any] | None
    rebuilt: dict[str, Any] | None


class Differing(NamedTuple):
    """The rows of one of the model's tables that differ from the rebuild's, and the
    columns that key them."""

    table: str
    keys: tuple[str, ...]
    rows: list[RowPair]


async def _stream_events(conn: Any, prefix: str) -> AsyncIterator[RecordedEvent]:
    """Every event of the streams starting with ``prefix``, stream by stream, in order."""
    async for row in conn.cursor(_STREAM, prefix, prefetch=2000):
        yield recorded_from_row(row)


async def _differing(
    conn: Any,
    table: str,
    *,
    live: str,
    rebuilt: str,
    keys: Sequence[str],
    ignore: Sequence[str] = ("updated_at",),
) -> Differing:
    """Every row that differs between two tables of the same shape, by key."""
    on = " AND ".join(f"l.{k} = r.{k}" for k in keys)
    strip = "".join(f" - '{c}'" for c in ignore)
    rows = await conn.fetch(
        f"""
        SELECT (to_jsonb(l){strip})::text AS live, (to_jsonb(r){strip})::text AS rebuilt
        FROM {live} AS l FULL JOIN {rebuilt} AS r ON {on}
        WHERE (to_jsonb(l){strip}) IS DISTINCT FROM (to_jsonb(r){strip})
        """
    )
    pairs = [
        RowPair(
            msgspec.json.decode(row["live"]) if row["live"] else None,
            msgspec.json.decode(row["rebuilt"]) if row["rebuilt"] else None,
        )
        for row in rows
    ]
    return Differing(table, tuple(keys), pairs)


class TablesRebuild:
    """``table_states`` being rebuilt, its writers held off."""

    def __init__(self, conn: Any) -> None:
        self._conn = conn

    def events(self) -> AsyncIterator[RecordedEvent]:
        """Every table's events, table by table, in order."""
        return _stream_events(self._conn, TABLE_PREFIX)

    async def live(self) -> list[LiveTable]:
        return [LiveTable(*row) for row in await self._conn.fetch(_LIVE_TABLES)]

    async def catch_up(self, table_id: str, state: Table, version: int) -> tuple[Table, int]:
        """``state`` at ``version`` with the table's later events folded in."""
        return await catch_up(self._conn, table_id, state, version)

    async def replace(self, rows: Sequence[TableRow]) -> None:
        await self._conn.execute("DELETE FROM table_states")
        await self._conn.copy_records_to_table(
            "table_states", records=rows, columns=list(TableRow._fields)
        )


class WalletsRebuild:
    """``wallets`` and ``ledger`` being rebuilt, their writers held off."""

    def __init__(self, conn: Any) -> None:
        self._conn = conn

    def events(self) -> AsyncIterator[RecordedEvent]:
        """Every internal wallet's events, wallet by wallet, in order."""
        return _stream_events(self._conn, WALLET_PREFIX)

    async def stage(
        self, wallets: Sequence[WalletRow], ledger: Sequence[LedgerRow]
    ) -> list[Differing]:
        """Keep the rebuilt rows beside the live ones; what differs, table by table."""
        for table in ("wallets", "ledger"):
            # Dropped first: a caller may run two rebuilds inside one transaction.
            await self._conn.execute(f"DROP TABLE IF EXISTS pg_temp.rebuilt_{table}")
            await self._conn.execute(
                f"CREATE TEMP TABLE rebuilt_{table} (LIKE {table} INCLUDING DEFAULTS) "
                "ON COMMIT DROP"
            )
        await self._conn.copy_records_to_table(
            "rebuilt_wallets", records=wallets, columns=list(WalletRow._fields)
        )
        await self._conn.copy_records_to_table(
            "rebuilt_ledger", records=ledger, columns=list(LedgerRow._fields)
        )
        return [
            await _differing(
                self._conn,
                "wallets",
                live="wallets",
                rebuilt="rebuilt_wallets",
                keys=("wallet_id",),
            ),
            await _differing(
                self._conn,
                "ledger",
                live="ledger",
                rebuilt="rebuilt_ledger",
                keys=("global_position",),
            ),
        ]

    async def replace(self) -> None:
        """The staged rows become the live ones."""
        await self._conn.execute("DELETE FROM ledger")
        await self._conn.execute("DELETE FROM wallets")
        await self._conn.execute("INSERT INTO wallets SELECT * FROM rebuilt_wallets")
        await self._conn.execute("INSERT INTO ledger SELECT * FROM rebuilt_ledger")


class RoundRow(NamedTuple):
    """A row of ``rounds``: a settled round's history."""

    table_id: str
    round: int
    settled_at: datetime
    commitment: str
    seed: str
    dealer_cards: list[str]
    dealer_hand: str | None
    staked: int
    paid_back: int
    players: list[str]
    ruleset_fingerprint: str


class RoundBoxRow(NamedTuple):
    """A row of ``round_boxes``: one box of a settled round."""

    table_id: str
    round: int
    box: int
    player: str
    settled_at: datetime
    detail: str
    staked: int
    paid_back: int


class AbandonedRow(NamedTuple):
    """A row of ``abandoned_rounds``: why a round was completed by the rules' defaults."""

    table_id: str
    round: int
    reason: str
    after_s: int
    phase: str


_HISTORY: Final[tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...]] = (
    ("rounds", RoundRow._fields, ("table_id", "round")),
    ("round_boxes", RoundBoxRow._fields, ("table_id", "round", "box")),
    ("abandoned_rounds", AbandonedRow._fields, ("table_id", "round")),
)


class HistoryRebuild:
    """``rounds``, ``round_boxes`` and ``abandoned_rounds`` being rebuilt, writers held off."""

    def __init__(self, conn: Any) -> None:
        self._conn = conn

    def events(self) -> AsyncIterator[RecordedEvent]:
        """Every table's events, table by table, in order."""
        return _stream_events(self._conn, TABLE_PREFIX)

    async def stage(
        self,
        rounds: Sequence[RoundRow],
        boxes: Sequence[RoundBoxRow],
        abandoned: Sequence[AbandonedRow],
    ) -> list[Differing]:
        """Keep the rebuilt rows beside the live ones; what differs, table by table."""
        found = []
        for (table, columns, keys), rows in zip(_HISTORY, (rounds, boxes, abandoned), strict=True):
            await self._conn.execute(f"DROP TABLE IF EXISTS pg_temp.rebuilt_{table}")
            await self._conn.execute(
                f"CREATE TEMP TABLE rebuilt_{table} (LIKE {table} INCLUDING DEFAULTS) "
                "ON COMMIT DROP"
            )
            await self._conn.copy_records_to_table(
                f"rebuilt_{table}", records=rows, columns=list(columns)
            )
            found.append(
                await _differing(
                    self._conn, table, live=table, rebuilt=f"rebuilt_{table}", keys=keys
                )
            )
        return found

    async def replace(self) -> None:
        """The staged rows become the live ones."""
        for table, _, _ in _HISTORY:
            await self._conn.execute(f"DELETE FROM {table}")
            await self._conn.execute(f"INSERT INTO {table} SELECT * FROM rebuilt_{table}")


class CatchUpRebuild:
    """A catch-up model being rebuilt up to its checkpoint, which stays locked meanwhile."""

    def __init__(self, conn: Any, checkpoint: Position, tables: Mapping[str, Sequence[str]]):
        self._conn = conn
        self._tables = tables
        self.checkpoint = checkpoint
        self.models = ReadModels(conn)

    async def read_all(self, after: Position, *, limit: int) -> list[RecordedEvent]:
        return await read_all(self._conn, after, limit=limit)

    async def rows(self) -> int:
        """The rebuilt model's rows, all its tables together."""
        total = 0
        for table in self._tables:
            total += await self._conn.fetchval(f"SELECT count(*) FROM {table}")
        return total

    async def differences(self) -> list[Differing]:
        """What differs between the live rows (kept aside) and the rebuilt ones, table by
        table."""
        return [
            await _differing(self._conn, table, live=f"live_{table}", rebuilt=table, keys=keys)
            for table, keys in self._tables.items()
        ]


class RebuildStore:
    """Rebuilds on ``db``: each in one transaction on one connection."""

    def __init__(self, db: Database) -> None:
        self._db = db

    @contextlib.asynccontextmanager
    async def tables(self) -> AsyncIterator[TablesRebuild]:
        async with acquired(self._db) as conn, conn.transaction():
            # Commands write table_states in their own transaction: hold them off (reads go on).
            await conn.execute("LOCK TABLE table_states IN SHARE ROW EXCLUSIVE MODE")
            yield TablesRebuild(conn)

    @contextlib.asynccontextmanager
    async def wallets(self) -> AsyncIterator[WalletsRebuild]:
        async with acquired(self._db) as conn, conn.transaction():
            # The same order the command path takes them in, so neither side can deadlock.
            await conn.execute("LOCK TABLE wallets, ledger IN SHARE ROW EXCLUSIVE MODE")
            yield WalletsRebuild(conn)

    @contextlib.asynccontextmanager
    async def history(self) -> AsyncIterator[HistoryRebuild]:
        async with acquired(self._db) as conn, conn.transaction():
            # The settling command writes them in its own statement: hold it off.
            await conn.execute(
                "LOCK TABLE rounds, round_boxes, abandoned_rounds IN SHARE ROW EXCLUSIVE MODE"
            )
            yield HistoryRebuild(conn)

    @contextlib.asynccontextmanager
    async def catch_up(
        self, name: str, tables: Mapping[str, Sequence[str]]
    ) -> AsyncIterator[CatchUpRebuild]:
        """The model ``name`` (its ``tables`` and their keys) emptied for a rebuild, its live
        rows kept aside, in a transaction that holds its checkpoint."""
        async with acquired(self._db) as conn, conn.transaction():
            checkpoint = await load_checkpoint(conn, name, lock=True)
            for table in tables:
                await conn.execute(f"DROP TABLE IF EXISTS pg_temp.live_{table}")
                await conn.execute(
                    f"CREATE TEMP TABLE live_{table} ON COMMIT DROP AS SELECT * FROM {table}"
                )
            yield CatchUpRebuild(conn, checkpoint, tables)

    def batch(self, name: str, limit: int) -> contextlib.AbstractAsyncContextManager[Batch]:
        """The live runner's next batch, on this store's connection."""
        return batch_on(self._db, name, limit)
