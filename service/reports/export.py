"""The regulator's export: every round record settled in a window, and a manifest.

**A round record** is the audit trail's per-round record (``audit_rounds``,
projections/audit.py; the body of ``GET /v1/audit/rounds/{table}/{n}``): game, ruleset
fingerprint, commitment, the revealed seed, times and positions, players, and ``record``
(commands, boxes, dealer, wallets, totals). Only **settled** rounds are exported — a round
is in the window when its ``settled_at`` is in ``[from, to)`` — so no unsettled round's
seed or hidden cards can leave the database; each record still goes through the audit
trail's redaction (a no-op for a settled round).

**Formats.** ``jsonl``: one record per line, as the audit API serves it, keys sorted.
``csv`` (RFC 4180, a header row): the scalar columns, ``players`` as a JSON array, the
round's ``staked``/``paid``/``house`` totals, and the whole ``record`` as JSON text. Rows
are in settlement order (``settled_position``), so the same window exports the same bytes.

**The manifest** (``manifest.json``): the window, format, data file name, row count, the
data file's SHA-256, the software digest and version (service/software.py), when it was
generated, and ``manifest_digest``: SHA-256 of the manifest's other fields as canonical
JSON (keys sorted, ``,``/``:`` separators, UTF-8)::

    python -c 'import hashlib, json, sys; m = json.load(open(sys.argv[1]));
    d = m.pop("manifest_digest"); print(d == hashlib.sha256(json.dumps(m, sort_keys=True,
    separators=(",", ":"), ensure_ascii=False).encode()).hexdigest())' manifest.json
"""

from __future__ import annotations

import csv
import hashlib
import json
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final, Literal, NamedTuple, Protocol

import msgspec

from russian_poker.projections.redaction import redact_record
from russian_poker.service.software import SoftwareManifest

__all__ = [
    "CSV_COLUMNS",
    "Caught",
    "ExportIncomplete",
    "Format",
    "SettledSource",
    "export_rounds",
    "manifest_digest",
]

Format = Literal["jsonl", "csv"]


class Caught(NamedTuple):
    """Rounds settled in a window, and how many of them the audit trail has recorded."""

    settled: int
    recorded: int


class SettledSource(Protocol):
    """The audit trail's settled records (the storage adapter's ``events.postgres.export``)."""

    def snapshot(self) -> AbstractAsyncContextManager[Any]: ...
    async def caught(self, start: datetime | None, end: datetime | None) -> Caught: ...
    def records(
        self, start: datetime | None, end: datetime | None
    ) -> AsyncIterator[dict[str, Any]]: ...


class ExportIncomplete(RuntimeError):
    """The audit trail has not recorded every round settled in the window yet."""

    def __init__(self, recorded: int, settled: int) -> None:
        super().__init__(
            f"the audit trail has recorded {recorded} of the {settled} rounds settled in the"
            " window (its projection is behind, or rows are missing); nothing was exported"
        )
        self.recorded = recorded
        self.settled = settled


CSV_COLUMNS: Final = (
    "table_id",
    "round",
    "game",
    "ruleset_fingerprint",
    "commitment",
    "seed",
    "opened_at",
    "settled_at",
    "opened_position",
    "settled_position",
    "players",
    "staked",
    "paid",
    "house",
    "record",
)


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def manifest_digest(manifest: dict[str, Any]) -> str:
    """SHA-256 of the manifest's fields but ``manifest_digest``, as canonical JSON."""
    body = {k: v for k, v in manifest.items() if k != "manifest_digest"}
    return hashlib.sha256(_canonical(body).encode()).hexdigest()


def _record(found: dict[str, Any]) -> dict[str, Any]:
    found["record"] = redact_record(found["record"], revealed=found["seed"] is not None)
    # The audit API's JSON: times as ISO 8601, lists as lists.
    result: dict[str, Any] = msgspec.to_builtins(found)
    return result


def _csv_row(record: dict[str, Any]) -> list[Any]:
    totals = record["record"].get("totals", {})
    values = {
        **record,
        "players": _canonical(record["players"]),
        "staked": totals.get("staked"),
        "paid": totals.get("paid"),
        "house": totals.get("house"),
        "record": _canonical(record["record"]),
    }
    return [values[c] for c in CSV_COLUMNS]


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


async def export_rounds(
    source: SettledSource,
    out: Path,
    *,
    start: datetime | None,
    end: datetime | None,
    kind: Format,
    software: SoftwareManifest,
    now: datetime | None = None,
) -> dict[str, Any]:
    """Write ``rounds.<kind>`` and ``manifest.json`` into ``out``; the manifest."""
    out.mkdir(parents=True, exist_ok=True)
    data = out / f"rounds.{kind}"
    rows = 0
    digest = hashlib.sha256()
    # Streamed (a long window need not fit in memory) in one snapshot with the check that
    # the audit trail, a moment behind the settling commands, has caught up with them.
    async with source.snapshot():
        caught = await source.caught(start, end)
        if caught.recorded < caught.settled:
            raise ExportIncomplete(caught.recorded, caught.settled)
        with data.open("w", encoding="utf-8", newline="") as handle:
            writer = csv.writer(handle, lineterminator="\r\n") if kind == "csv" else None
            if writer is not None:
                writer.writerow(CSV_COLUMNS)
            async for found in source.records(start, end):
                record = _record(found)
                if writer is not None:
                    writer.writerow(_csv_row(record))
                else:
                    handle.write(_canonical(record) + "\n")
                rows += 1
    digest.update(data.read_bytes())
    manifest: dict[str, Any] = {
        "window": {"from": _iso(start), "to": _iso(end)},
        "format": kind,
        "data_file": data.name,
        "rows": rows,
        "data_sha256": digest.hexdigest(),
        "software_digest": software.digest,
        "software_version": software.version,
        "generated_at": (now or datetime.now(UTC)).isoformat(),
    }
    manifest["manifest_digest"] = manifest_digest(manifest)
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    return manifest
