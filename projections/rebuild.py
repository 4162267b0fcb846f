"""Rebuilding read models from the events, and proving the live ones equal the rebuild.

Each rebuild runs in one transaction that first stops the model's writers (a table lock for
the inline models, the checkpoint row lock for a catch-up model), folds the events again
into fresh rows, compares them with the live rows field by field, and replaces the live
rows. A difference means the live model had drifted from the events (a bug, or a hand-made
edit); the report lists it, the replacement repairs it.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Final, Protocol

import msgspec

from russian_poker.events.codec import decode_event
from russian_poker.events.game import RoundAbandoned, RoundSettled
from russian_poker.events.postgres.rebuild import (
    AbandonedRow,
    Differing,
    LiveTable,
    RebuildStore,
    RoundBoxRow,
    RoundRow,
    TableRow,
)
from russian_poker.events.records import Position
from russian_poker.events.streams import TABLE_PREFIX
from russian_poker.projections.audit import AuditProjection
from russian_poker.projections.availability import AvailabilityProjection
from russian_poker.projections.compare import differences, render
from russian_poker.projections.history import settled_write
from russian_poker.projections.runner import DEFAULT_BATCH_SIZE, Projection, apply_batch
from russian_poker.projections.tables import decode_state, encode_state
from russian_poker.projections.wallets import LedgerRow, WalletFold
from russian_poker.service.rules.evolve import fold
from russian_poker.service.rules.state import Table

__all__ = ["NAMES", "RebuildReport", "Rebuildable", "rebuild", "rebuild_catch_up"]

NAMES: Final = ("tables", "wallets", "history", "audit", "availability")
"""Every read model that ``russian-poker projections rebuild`` knows."""

_REPORTED: Final = 50
"""Differences listed per table; the rest are only counted."""


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


async def rebuild(store: RebuildStore, name: str) -> RebuildReport:
    """Rebuild one read model by name (see :data:`NAMES`)."""
    started = time.perf_counter()
    if name == "tables":
        report = await _rebuild_tables(store)
    elif name == "wallets":
        report = await _rebuild_wallets(store)
    elif name == "history":
        report = await _rebuild_history(store)
    elif name == "audit":
        report = await rebuild_catch_up(store, AuditProjection())
    elif name == "availability":
        report = await rebuild_catch_up(store, AvailabilityProjection())
    else:
        raise ValueError(f"unknown read model {name!r}; choose from {', '.join(NAMES)}")
    report.seconds = time.perf_counter() - started
    return report


# -- table states ------------------------------------------------------------------------


async def _rebuild_tables(store: RebuildStore) -> RebuildReport:
    report = RebuildReport(name="tables")
    async with store.tables() as rebuilding:
        folded: dict[str, tuple[Table, int]] = {}
        stream, state, version = "", Table(), 0
        async for record in rebuilding.events():
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
        live = {row.table_id: row for row in await rebuilding.live()}
        rows = []
        for table_id in sorted(set(folded) | set(live)):
            if table_id not in folded:
                report.note(f"table {table_id}: live row has no events")
                continue
            state, version = folded[table_id]
            if state.ruleset is None:
                report.note(f"table {table_id}: stream has no TableOpened")
                continue
            rebuilt = TableRow(
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
                current = await rebuilding.catch_up(table_id, decode_state(row.state), row.version)
                _compare_table(report, table_id, row, current, rebuilt, state)
        report.rows = len(rows)
        await rebuilding.replace(rows)
    return report


def _compare_table(
    report: RebuildReport,
    table_id: str,
    live: LiveTable,
    current: tuple[Table, int],
    rebuilt: TableRow,
    state: Table,
) -> None:
    live_state, live_version = current
    seen = {**live._asdict(), "version": live_version}
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


async def _rebuild_wallets(store: RebuildStore) -> RebuildReport:
    report = RebuildReport(name="wallets")
    async with store.wallets() as rebuilding:
        fold = WalletFold()
        ledger: list[LedgerRow] = []
        async for record in rebuilding.events():
            report.events += 1
            try:
                row = fold.apply(record)
            except LookupError as problem:
                report.note(str(problem))
                continue
            if row is not None:
                ledger.append(row)
        wallets = fold.wallets
        report.rows = len(wallets) + len(ledger)
        for differing in await rebuilding.stage(list(wallets.values()), ledger):
            _note_rows(report, differing)
        await rebuilding.replace()
    return report


# -- settled rounds ------------------------------------------------------------------------


async def _rebuild_history(store: RebuildStore) -> RebuildReport:
    """The settled rounds as the settling commands wrote them: each table's events folded by
    the rules' own ``evolve``, each settlement derived as the command derives it
    (``projections.history.settled_write``)."""
    report = RebuildReport(name="history")
    async with store.history() as rebuilding:
        rounds: list[RoundRow] = []
        boxes: list[RoundBoxRow] = []
        abandoned: list[AbandonedRow] = []
        stream, state = "", Table()
        called_off: RoundAbandoned | None = None
        async for record in rebuilding.events():
            if record.stream_id != stream:
                stream, state, called_off = record.stream_id, Table(), None
            event = decode_event(record.event_type, record.schema_version, record.data)
            state = fold(state, [event])
            report.events += 1
            if isinstance(event, RoundAbandoned):
                called_off = event  # written by the same command as the settlement
            if not isinstance(event, RoundSettled):
                continue
            why = [called_off] if called_off and called_off.round == event.round else []
            written = settled_write(state, [*why, event])
            called_off = None
            if written is None:
                continue
            at = record.recorded_at
            rounds.append(
                RoundRow(
                    written.table_id,
                    written.round,
                    at,
                    written.commitment,
                    written.seed,
                    list(written.dealer_cards),
                    written.dealer_hand,
                    written.staked,
                    written.paid_back,
                    list(written.players),
                    written.ruleset_fingerprint,
                )
            )
            boxes.extend(
                RoundBoxRow(
                    written.table_id,
                    written.round,
                    b.box,
                    b.player,
                    at,
                    b.detail.decode(),
                    b.staked,
                    b.paid_back,
                )
                for b in written.boxes
            )
            if written.abandoned is not None:
                a = written.abandoned
                abandoned.append(
                    AbandonedRow(written.table_id, written.round, a.reason, a.after_s, a.phase)
                )
        report.rows = len(rounds) + len(boxes) + len(abandoned)
        for differing in await rebuilding.stage(rounds, boxes, abandoned):
            _note_rows(report, differing)
        await rebuilding.replace()
    return report


# -- catch-up projections ------------------------------------------------------------------


async def rebuild_catch_up(
    store: RebuildStore, projection: Rebuildable, *, batch_size: int = DEFAULT_BATCH_SIZE
) -> RebuildReport:
    """Rebuild up to the live checkpoint, compare, keep the rebuild; then catch up.

    The checkpoint row stays locked for the rebuild, so the live runner waits and both
    sides describe exactly the same events.
    """
    report = RebuildReport(name=projection.name)
    async with store.catch_up(projection.name, projection.keys) as rebuilding:
        checkpoint = rebuilding.checkpoint
        await projection.reset(rebuilding.models)
        after = Position.start()
        while True:
            events = [
                e
                for e in await rebuilding.read_all(after, limit=batch_size)
                if e.position <= checkpoint
            ]
            if not events:
                break
            await projection.apply(rebuilding.models, events)
            report.events += len(events)
            after = events[-1].position
        report.rows += await rebuilding.rows()
        for differing in await rebuilding.differences():
            _note_rows(report, differing)
    while await apply_batch(store, projection, limit=batch_size):
        pass
    return report


def _note_rows(report: RebuildReport, differing: Differing) -> None:
    """Note every row that differs between the live model and the rebuild, by key."""
    name, keys = differing.table, differing.keys
    for live_row, rebuilt_row in differing.rows:
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
