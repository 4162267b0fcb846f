"""``russian-poker audit export``: the rounds settled in a window, in JSON lines and CSV, with
a manifest whose digests match; a round settled outside the window and a round still in
play (its seed secret) are not exported. The command runs as a real process."""

from __future__ import annotations

import csv
import hashlib
import json
import os
import subprocess
import sys
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from russian_poker.service.reports.export import CSV_COLUMNS, manifest_digest
from russian_poker.service.software import installed
from tests.api.conftest import bearer
from tests.api.e2e import Harness, deck_for
from tests.processes import eventually

RUSSIAN_POKER = str(Path(sys.executable).parent / "russian-poker")

BOXES = ["7s 7h 7d Kc 2s"]
DEALER = "8s 8d Ah 4c 6h"


def run_export(
    database_url: str, out: Path, kind: str, start: datetime, end: datetime
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            RUSSIAN_POKER,
            "audit",
            "export",
            "--from",
            start.isoformat(),
            "--to",
            end.isoformat(),
            "--format",
            kind,
            "--out",
            str(out),
        ],
        env={**os.environ, "DATABASE_URL": database_url},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def export(
    database_url: str, out: Path, kind: str, start: datetime, end: datetime
) -> dict[str, Any]:
    done = run_export(database_url, out, kind, start, end)
    assert done.returncode == 0, done.stderr
    manifest: dict[str, Any] = json.loads((out / "manifest.json").read_text())
    assert f"exported {manifest['rows']} rounds" in done.stdout
    return manifest


async def test_export_of_a_window(harness: Harness, database_url: str, tmp_path: Path) -> None:
    h = harness
    await h.fund({"alice": 100_000})
    await h.open("oasis", deck_for(BOXES, DEALER))
    await h.send("alice", "SitDown")
    for _ in range(3):
        await h.send("alice", "PlaceAnte", box=1, ante=100)
        await h.send("alice", "Deal")
        await h.next_deck(deck_for(BOXES, DEALER))
        await h.send("alice", "Play", box=1)
    # Round 4 is dealt and undecided: its seed and hidden cards are secret.
    await h.send("alice", "PlaceAnte", box=1, ante=100)
    await h.send("alice", "Deal")
    pool = h.app.state.services.pool

    async def recorded() -> bool:
        count = await pool.fetchval(
            "SELECT count(*) FROM audit_rounds WHERE table_id = 't1' AND settled_at IS NOT NULL"
        )
        opened = await pool.fetchval(
            "SELECT count(*) FROM audit_rounds WHERE table_id = 't1' AND round = 4"
        )
        return bool(count == 3 and opened == 1)

    await eventually(recorded)
    settled = {
        r["round"]: r["settled_at"]
        for r in await pool.fetch(
            "SELECT round, settled_at FROM audit_rounds WHERE seed IS NOT NULL"
        )
    }
    secret = await pool.fetchval("SELECT seed FROM rounds WHERE table_id = 't1' AND round = 4")
    assert secret is None  # not settled: only the audit trail's commitment exists
    # The window: round 1 settled before it; rounds 2 and 3 inside.
    start = settled[1] + (settled[2] - settled[1]) / 2
    end = settled[3] + timedelta(seconds=1)

    jsonl = export(database_url, tmp_path / "jsonl", "jsonl", start, end)
    data = (tmp_path / "jsonl" / "rounds.jsonl").read_bytes()
    lines = [json.loads(line) for line in data.decode().splitlines()]
    assert jsonl["rows"] == len(lines) == 2
    assert [(r["table_id"], r["round"]) for r in lines] == [("t1", 2), ("t1", 3)]
    assert jsonl["data_sha256"] == hashlib.sha256(data).hexdigest()
    assert jsonl["manifest_digest"] == manifest_digest(jsonl)
    assert jsonl["software_digest"] == installed().digest
    assert jsonl["format"] == "jsonl" and jsonl["data_file"] == "rounds.jsonl"
    assert jsonl["window"] == {"from": start.isoformat(), "to": end.isoformat()}
    for line in lines:
        assert hashlib.sha256(bytes.fromhex(line["seed"])).hexdigest() == line["commitment"]
        assert line["record"]["boxes"][0]["cards"][0] != "??"
    # The same as the audit API's record of the round.
    served = await h.client.get("/v1/audit/rounds/t1/2", headers=bearer("auditor", "aud"))
    assert served.json() == lines[0]

    tampered = dict(jsonl, rows=3)
    assert manifest_digest(tampered) != jsonl["manifest_digest"]

    table = export(database_url, tmp_path / "csv", "csv", start, end)
    raw = (tmp_path / "csv" / "rounds.csv").read_bytes()
    assert table["data_sha256"] == hashlib.sha256(raw).hexdigest()
    assert table["manifest_digest"] == manifest_digest(table)
    with (tmp_path / "csv" / "rounds.csv").open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert table["rows"] == len(rows) == 2
    assert list(rows[0]) == list(CSV_COLUMNS)
    for row, line in zip(rows, lines, strict=True):
        assert (row["table_id"], int(row["round"]), row["seed"]) == (
            line["table_id"],
            line["round"],
            line["seed"],
        )
        assert json.loads(row["record"]) == line["record"]
        assert int(row["staked"]) == line["record"]["totals"]["staked"] == 300

    # Everything up to now: three settled rounds, never the one in play.
    everything = export(
        database_url, tmp_path / "all", "jsonl", settled[1] - timedelta(hours=1), end
    )
    exported = (tmp_path / "all" / "rounds.jsonl").read_text()
    assert everything["rows"] == 3
    assert '"round":4' not in exported

    # A window the audit trail has not recorded in full (its projection behind, or a row
    # gone) is refused rather than exported short.
    await pool.execute("DELETE FROM audit_rounds WHERE table_id = 't1' AND round = 2")
    refused = run_export(database_url, tmp_path / "short", "jsonl", start, end)
    assert refused.returncode == 1
    assert "recorded 1 of the 2 rounds settled in the window" in refused.stderr
    assert not (tmp_path / "short" / "rounds.jsonl").exists()
