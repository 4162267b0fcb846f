"""Rebuilding read models from the events, and proving the live ones equal the rebuild.

Each rebuild runs in one transaction that first stops the model's writers (a table lock for
the inline models, the checkpoint row lock for a catch-up model), folds the events again
into fresh rows, compares them with the live rows field by field, and replaces the live
rows. A difference means the live model had drifted from the events (a bug, or a hand-made
edit); the report lists it, the replacement repairs it.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Any, Final, Protocol

import asyncpg
import msgspec

from russian_poker.events.codec import decode_event
from russian_poker.events.postgres.store import (
    AnyConnection,
    RecordedEvent,
    read_all,
    recorded_from_row,
)
from russian_poker.events.postgres.tables import catch_up
from russian_poker.events.records import Position
from russian_poker.events.streams import TABLE_PREFIX, WALLET_PREFIX
from russian_poker.events.wallet import WalletOpened
from russian_poker.projections.audit import AuditProjection
from russian_poker.projections.availability import AvailabilityProjection
from russian_poker.projections.compare import differences, render
from russian_poker.projections.runner import (
    DEFAULT_BATCH_SIZE,
    Projection,
    apply_batch,
    load_checkpoint,
)
from russian_poker.projections.tables import decode_state, encode_state
from russian_poker.projections.wallets import money_moved
from russian_poker.service.rules.evolve import fold
from russian_poker.service.rules.state import Table

__all__ = ["NAMES", "RebuildReport", "Rebuildable", "rebuild", "rebuild_catch_up"]

NAMES: Final = ("tables", "wallets", "audit", "availability")
"""Every read model that ``russian-poker projections rebuild`` knows."""

_REPORTED: Final = 50
"""Differences listed per table; the rest are only counted."""

_STREAM: Final = """
SELECT global_position, tx_id, stream_id, stream_version, event_id, event_type, schema_version,
       data::text AS data, metadata::text AS metadata, recorded_at
FROM events WHERE starts_with(stream_id, $1) ORDER BY stream_id, stream_version
"""


class Rebuildable(Projection, Protocol):
    """A catch-up projection that names its tables and their keys."""

    @property
    def keys(self) -> Mapping[str, tuple[str, ...]]: ...


class RebuildReport(msgspec.Struct, kw_only=True):
    name: str
    events: int = 0
    rows: int = 0
    differences: int = 0
    details: list[str] = msgspec.field(default_factory=list)
    seconds: float = 0.0

    @property
    def differed(self) -> bool:
        return self.differences > 0

    def note(self, message: str) -> None:
        self.differences += 1
        if len(self.details) < _REPORTED:
            self.details.append(message)

    @property
    def events_per_second(self) -> float:
        return self.events / self.seconds if self.seconds else 0.0


async def rebuild(conn: AnyConnection, name: str) -> RebuildReport:
    """Rebuild one read model by name (see :data:`NAMES`)."""
    started = time.perf_counter()
    if name == "tables":
        report = await _rebuild_tables(conn)
    elif name == "wallets":
        report = await _rebuild_wallets(conn)
    elif name == "audit":
        report = await rebuild_catch_up(conn, AuditProjection())
    elif name == "availability":
        report = await rebuild_catch_up(conn, AvailabilityProjection())
    else:
        raise ValueError(f"unknown read model {name!r}; choose from {', '.join(NAMES)}")
    report.seconds = time.perf_counter() - started
    return report


async def _stream_events(conn: AnyConnection, prefix: str) -> AsyncIterator[RecordedEvent]:
    """Every event of the streams starting with ``prefix``, stream by stream, in order."""
    async for row in conn.cursor(_STREAM, prefix, prefetch=2000):
        yield recorded_from_row(row)


# -- table states ------------------------------------------------------------------------


async def _rebuild_tables(conn: AnyConnection) -> RebuildReport:
    report = RebuildReport(name="tables")
    async with conn.transaction():
        # Commands write table_states in their own transaction: hold them off (reads go on).
        await conn.execute("LOCK TABLE table_states IN SHARE ROW EXCLUSIVE MODE")
        folded: dict[str, tuple[Table, int]] = {}
        stream, state, version = "", Table(), 0
        async for record in _stream_events(conn, TABLE_PREFIX):
            if record.stream_id != stream:
                if stream:
                    folded[stream.removeprefix(TABLE_PREFIX)] = (state, version)
                stream, state = record.stream_id, Table()
            event = decode_event(record.event_type, record.schema_version, record.data)
            state = fold(state, [event])
            version = record.stream_version
            report.events += 1
        if stream:
            folded[stream.removeprefix(TABLE_PREFIX)] = (state, version)
        live = {
            row["table_id"]: row
            for row in await conn.fetch(
                "SELECT table_id, version, name, game, status, currency, state FROM table_states"
            )
        }
        rows = []
        for table_id in sorted(set(folded) | set(live)):
            if table_id not in folded:
                report.note(f"table {table_id}: live row has no events")
                continue
            state, version = folded[table_id]
            if state.ruleset is None:
                report.note(f"table {table_id}: stream has no TableOpened")
                continue
            rebuilt = (
                table_id,
                version,
                state.name,
                state.rules.game,
                state.status,
                state.rules.currency,
                encode_state(state),
                state.operator_id,
                state.shared,
            )
            rows.append(rebuilt)
            if table_id not in live:
                report.note(f"table {table_id}: missing from the live model")
            else:
                # The live snapshot is written at round boundaries: compare it caught up.
                row = live[table_id]
                current = await catch_up(conn, table_id, decode_state(row["state"]), row["version"])
                _compare_table(report, table_id, row, current, rebuilt, state)
        report.rows = len(rows)
        await conn.execute("DELETE FROM table_states")
        await conn.copy_records_to_table(
            "table_states",
            records=rows,
            columns=[
                "table_id",
                "version",
                "name",
                "game",
                "status",
                "currency",
                "state",
                "operator_id",
                "shared",
            ],
        )
    return report


def _compare_table(
    report: RebuildReport,
    table_id: str,
    live: asyncpg.Record,
    current: tuple[Table, int],
    rebuilt: tuple[Any, ...],
    state: Table,
) -> None:
    live_state, live_version = current
    seen = {**dict(live), "version": live_version}
    for index, column in enumerate(("version", "name", "game", "status", "currency"), start=1):
        if seen[column] != rebuilt[index]:
            report.note(
                f"table {table_id}: {column}: live {render(seen[column])}, "
                f"events say {render(rebuilt[index])}"
            )
    if live_state == state:
        return
    # Sets are encoded in hash order; "deterministic" sorts them so only real changes show.
    expected = msgspec.to_builtins(state, order="deterministic")
    actual = msgspec.to_builtins(live_state, order="deterministic")
    for diff in differences(expected, actual):
        report.note(
            f"table {table_id}: state.{diff.path}: live {render(diff.actual)}, "
            f"events say {render(diff.expected)}"
        )


# -- wallets and ledger --------------------------------------------------------------------


async def _rebuild_wallets(conn: AnyConnection) -> RebuildReport:
    report = RebuildReport(name="wallets")
    async with conn.transaction():
        # The same order the command path takes them in, so neither side can deadlock.
        await conn.execute("LOCK TABLE wallets, ledger IN SHARE ROW EXCLUSIVE MODE")
        wallets: dict[str, list[Any]] = {}
        ledger: list[tuple[Any, ...]] = []
        async for record in _stream_events(conn, WALLET_PREFIX):
            report.events += 1
            event = decode_event(record.event_type, record.schema_version, record.data)
            if isinstance(event, WalletOpened):
                wallets[event.wallet_id] = [
                    event.wallet_id,
                    event.currency,
                    0,
                    record.stream_version,
                ]
                continue
            moved = money_moved(event)
            if moved is None:
                continue
            row = wallets.get(moved.wallet_id)
            if row is None:
                report.note(f"wallet {moved.wallet_id}: money moved before WalletOpened")
                continue
            row[2] += moved.signed
            row[3] = record.stream_version
            ledger.append(
                (
                    record.global_position,
                    moved.wallet_id,
                    record.event_type,
                    *moved[1:],
                    row[2],
                    record.recorded_at,
                )
            )
        for table in ("wallets", "ledger"):
            # Dropped first: a caller may run two rebuilds inside one transaction.
            await conn.execute(f"DROP TABLE IF EXISTS pg_temp.rebuilt_{table}")
            await conn.execute(
                f"CREATE TEMP TABLE rebuilt_{table} (LIKE {table} INCLUDING DEFAULTS) "
                "ON COMMIT DROP"
            )
        await conn.copy_records_to_table(
            "rebuilt_wallets",
            records=[tuple(r) for r in wallets.values()],
            columns=["wallet_id", "currency", "balance", "version"],
        )
        await conn.copy_records_to_table(
            "rebuilt_ledger",
            records=ledger,
            columns=[
                "global_position",
                "wallet_id",
                "event_type",
                "amount",
                "reason",
                "table_id",
                "round",
                "box",
                "transfer_id",
                "balance_after",
                "recorded_at",
            ],
        )
        report.rows = len(wallets) + len(ledger)
        await compare_tables(
            conn, report, "wallets", live="wallets", rebuilt="rebuilt_wallets", keys=("wallet_id",)
        )
        await compare_tables(
            conn,
            report,
            "ledger",
            live="ledger",
            rebuilt="rebuilt_ledger",
            keys=("global_position",),
        )
        await conn.execute("DELETE FROM ledger")
        await conn.execute("DELETE FROM wallets")
        await conn.execute("INSERT INTO wallets SELECT * FROM rebuilt_wallets")
        await conn.execute("INSERT INTO ledger SELECT * FROM rebuilt_ledger")
    return report


# -- catch-up projections ------------------------------------------------------------------


async def rebuild_catch_up(
    conn: AnyConnection, projection: Rebuildable, *, batch_size: int = DEFAULT_BATCH_SIZE
) -> RebuildReport:
    """Rebuild up to the live checkpoint, compare, keep the rebuild; then catch up.

    The checkpoint row stays locked for the rebuild, so the live runner waits and both
    sides describe exactly the same events.
    """
    report = RebuildReport(name=projection.name)
    async with conn.transaction():
        checkpoint = await load_checkpoint(conn, projection.name, lock=True)
        for table in projection.keys:
            await conn.execute(f"DROP TABLE IF EXISTS pg_temp.live_{table}")
            await conn.execute(
                f"CREATE TEMP TABLE live_{table} ON COMMIT DROP AS SELECT * FROM {table}"
            )
        await projection.reset(conn)
        after = Position.start()
        while True:
            events = [
                e for e in await read_all(conn, after, limit=batch_size) if e.position <= checkpoint
            ]
            if not events:
                break
            await projection.apply(conn, events)
            report.events += len(events)
            after = events[-1].position
        for table, keys in projection.keys.items():
            report.rows += await conn.fetchval(f"SELECT count(*) FROM {table}")
            await compare_tables(
                conn, report, table, live=f"live_{table}", rebuilt=table, keys=keys
            )
    while await apply_batch(conn, projection, limit=batch_size):
        pass
    return report


async def compare_tables(
    conn: AnyConnection,
    report: RebuildReport,
    name: str,
    *,
    live: str,
    rebuilt: str,
    keys: Sequence[str],
    ignore: Sequence[str] = ("updated_at",),
) -> None:
    """Note every row that differs between two tables of the same shape, by key."""
    on = " AND ".join(f"l.{k} = r.{k}" for k in keys)
    strip = "".join(f" - '{c}'" for c in ignore)
    rows = await conn.fetch(
        f"""
        SELECT (to_jsonb(l){strip})::text AS live, (to_jsonb(r){strip})::text AS rebuilt
        FROM {live} AS l FULL JOIN {rebuilt} AS r ON {on}
        WHERE (to_jsonb(l){strip}) IS DISTINCT FROM (to_jsonb(r){strip})
        """
    )
    for row in rows:
        live_row = msgspec.json.decode(row["live"]) if row["live"] else None
        rebuilt_row = msgspec.json.decode(row["rebuilt"]) if row["rebuilt"] else None
        key_source = rebuilt_row or live_row or {}
        key = ", ".join(f"{k}={key_source.get(k)}" for k in keys)
        if live_row is None:
            report.note(f"{name} [{key}]: missing from the live model")
        elif rebuilt_row is None:
            report.note(f"{name} [{key}]: live row that the events do not produce")
        else:
            for diff in differences(rebuilt_row, live_row):
                report.note(
                    f"{name} [{key}]: {diff.path}: live {render(diff.actual)}, "
                    f"events say {render(diff.expected)}"
                )
