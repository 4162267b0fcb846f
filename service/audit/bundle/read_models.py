"""The read models an audit bundle ships, checked against the events they were folded from:
the round records (the audit trail the regulator's API serves), the internal wallets'
ledgers, and the availability log. Each is folded again from the bundle's events by the
projection's own code — up to where the manifest says the stored one had got, for the two
that catch up — and compared with the file line by line, so an edited, missing or extra row
is named with its file, line and the field that differs."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import msgspec

from russian_poker.events.records import Position, RecordedEvent
from russian_poker.events.streams import TABLE_PREFIX, WALLET_PREFIX
from russian_poker.projections.audit import AuditProjection, AuditRow, TableRules, fold_rounds
from russian_poker.projections.availability import (
    AvailabilityProjection,
    change_of,
    log_entries,
)
from russian_poker.projections.compare import differences, render
from russian_poker.projections.wallets import WalletFold
from russian_poker.service.audit.bundle import files as f
from russian_poker.service.audit.bundle.write import ledger_line

__all__ = ["check_read_models"]


class _MemoryRows:
    """The audit trail's rows held in memory, for one fold of a bundle's events."""

    def __init__(self, balances: dict[int, int]) -> None:
        self._balances = balances
        self._tables: dict[str, TableRules] = {}
        self.rows: dict[tuple[str, int], AuditRow] = {}

    async def tables(self, table_ids: Iterable[str]) -> dict[str, TableRules]:
        return {t: self._tables[t] for t in table_ids if t in self._tables}

    async def rounds(self, keys: Sequence[tuple[str, int]]) -> list[AuditRow]:
        return [self.rows[k] for k in keys if k in self.rows]

    async def balances_after(self, positions: Sequence[int]) -> dict[int, int]:
        return {p: self._balances[p] for p in positions if p in self._balances}

    async def balance_from_events(self, stream_id: str, version: int) -> int:
        raise LookupError(f"{stream_id} version {version}: no ledger row in the bundle")

    async def ruleset_changed(
        self, table_id: str, rules: TableRules, settled: Sequence[int]
    ) -> None:
        for (t, number), row in self.rows.items():
            if t == table_id and row.settled_at is None and number not in settled:
                row.game, row.ruleset_fingerprint = rules

    async def save(
        self, tables: Sequence[tuple[str, TableRules]], rounds: Sequence[AuditRow]
    ) -> None:
        self._tables.update(tables)
        self.rows.update({(r.table_id, r.round): r for r in rounds})


def _folded(events: Iterable[RecordedEvent], upto: Position) -> list[RecordedEvent]:
    """The events a read model at ``upto`` had folded, in the store's global order."""
    covered = [
        e for e in events if (e.tx_id, e.global_position) <= (upto.tx_id, upto.global_position)
    ]
    return sorted(covered, key=lambda e: (e.tx_id, e.global_position))


def _lines(root: Path, name: str) -> list[bytes]:
    return (root / name).read_bytes().splitlines()


def _differ(expected: msgspec.Struct, found: msgspec.Struct) -> str:
    """The first field that differs, as ``path: file has X, the events give Y``."""
    want = msgspec.to_builtins(expected, order="deterministic")
    have = msgspec.to_builtins(found, order="deterministic")
    for diff in differences(want, have):
        return (
            f"{diff.path}: the file has {render(diff.actual)},"
            f" its events give {render(diff.expected)}"
        )
    return "differs"  # pragma: no cover - unequal Structs differ in some field


async def check_read_models(
    root: Path,
    events: Sequence[RecordedEvent],
    rounds: set[tuple[str, int]],
    read_models: dict[str, Position],
    findings: list[str],
) -> None:
    """Every check of the module's docstring, each problem appended to ``findings``."""
    balances = _ledger(root, events, findings)
    await _round_records(root, events, rounds, read_models, balances, findings)
    _availability(root, events, read_models, findings)


def _ledger(root: Path, events: Sequence[RecordedEvent], findings: list[str]) -> dict[int, int]:
    """Each internal wallet's ledger against its stream; the balances after each movement."""
    fold = WalletFold()
    expected: dict[str, list[f.LedgerLine]] = {}
    for e in events:  # the bundle holds each wallet's stream whole and in order
        if e.stream_id.startswith(WALLET_PREFIX):
            row = fold.apply(e)
            if row is not None:
                expected.setdefault(row.wallet_id, []).append(ledger_line(row))
    balances = {row.position: row.balance_after for rows in expected.values() for row in rows}
    at: dict[str, int] = {}
    for number, raw in enumerate(_lines(root, f.LEDGER), 1):
        where = f"{f.LEDGER} line {number}"
        line = msgspec.json.decode(raw, type=f.LedgerLine)
        index = at.get(line.wallet_id, 0)
        at[line.wallet_id] = index + 1
        wanted = expected.get(line.wallet_id, [])
        if index >= len(wanted):
            findings.append(f"{where}: wallet {line.wallet_id} has no such movement in its events")
        elif wanted[index] != line:
            findings.append(
                f"{where}: wallet {line.wallet_id} position {line.position}:"
                f" {_differ(wanted[index], line)}"
            )
    for wallet_id, rows in sorted(expected.items()):
        if at.get(wallet_id, 0) < len(rows):
            missing = rows[at.get(wallet_id, 0)]
            findings.append(
                f"{f.LEDGER}: wallet {wallet_id}'s movement at position {missing.position}"
                " is missing"
            )
    return balances


async def _round_records(
    root: Path,
    events: Sequence[RecordedEvent],
    rounds: set[tuple[str, int]],
    read_models: dict[str, Position],
    balances: dict[int, int],
    findings: list[str],
) -> None:
    """Each round record against the trail folded again up to where the stored one was."""
    rows = _MemoryRows(balances)
    upto = read_models.get(AuditProjection.name, Position.start())
    await fold_rounds(rows, _folded(events, upto))
    expected = {
        key: row for key, row in rows.rows.items() if key in rounds and row.settled_at is not None
    }
    seen = set()
    for number, raw in enumerate(_lines(root, f.ROUND_RECORDS), 1):
        where = f"{f.ROUND_RECORDS} line {number}"
        record = msgspec.json.decode(raw, type=AuditRow)
        key = (record.table_id, record.round)
        seen.add(key)
        wanted = expected.get(key)
        if wanted is None:
            findings.append(
                f"{where}: round {record.table_id}:{record.round} is not a round of the bundle"
                " that the audit trail had settled"
            )
        elif _plain(wanted) != _plain(record):
            findings.append(
                f"{where}: round {record.table_id}:{record.round}: {_differ(wanted, record)}"
            )
    for table_id, number in sorted(set(expected) - seen):
        findings.append(f"{f.ROUND_RECORDS}: round {table_id}:{number}'s record is missing")


def _plain(row: AuditRow) -> Any:
    return msgspec.to_builtins(row, order="deterministic")


def _availability(
    root: Path,
    events: Sequence[RecordedEvent],
    read_models: dict[str, Position],
    findings: list[str],
) -> None:
    """The tables' availability log against their opening, closing, reopening and ruleset
    events, up to where the stored log was."""
    upto = read_models.get(AvailabilityProjection.name, Position.start())
    tables = [e for e in _folded(events, upto) if e.stream_id.startswith(TABLE_PREFIX)]
    expected = sorted(
        (change_of(entry) for entry in log_entries(tables, {})), key=lambda c: c.position
    )
    lines = _lines(root, f.AVAILABILITY)
    for number, raw in enumerate(lines, 1):
        where = f"{f.AVAILABILITY} line {number}"
        change = msgspec.json.decode(raw, type=f.AvailabilityChange)
        if number > len(expected):
            findings.append(f"{where}: no event of table {change.table_id} made this change")
        elif expected[number - 1] != change:
            findings.append(
                f"{where}: table {change.table_id} position {change.position}:"
                f" {_differ(expected[number - 1], change)}"
            )
    for change in expected[len(lines) :]:
        findings.append(
            f"{f.AVAILABILITY}: table {change.table_id}'s change at position {change.position}"
            " is missing"
        )
