"""An audit bundle of the played rounds (internal wallets, every decision the bots make),
verified from its files alone; then copies tampered with, each caught with the file and
line. The database is not read by the verifier: it gets a directory and a public key."""

from __future__ import annotations

import hashlib
import json
import shutil
import uuid
from datetime import datetime
from decimal import Decimal
from pathlib import Path

import asyncpg
import msgspec
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from russian_poker.events.postgres.bundle import BundleStore
from russian_poker.events.postgres.projections import ProjectionStore
from russian_poker.projections.audit import AuditProjection
from russian_poker.projections.availability import AvailabilityProjection
from russian_poker.projections.runner import ProjectionRunner
from russian_poker.service.audit.bundle import files as f
from russian_poker.service.audit.bundle.verify import verify_bundle
from russian_poker.service.audit.bundle.write import write_bundle
from russian_poker.service.bootstrap import (
    bundled_read_models_caught_up,
    command_service,
    transfer_service,
)
from russian_poker.service.chain.hashing import event_hash, jsonb_text
from russian_poker.service.software import installed
from tests.audit.bots import default_plans, fund_players, play_tables
from tests.audit.conftest import Played, catch_up_fully
from tests.audit.tampering import resign_bundle

KEY = Ed25519PrivateKey.from_private_bytes(hashlib.sha256(b"bundle test key").digest())


@pytest.fixture(scope="module")
async def bundle(played: Played, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("bundle") / "b"
    await bundled_read_models_caught_up(played.url)  # as `audit bundle` does first
    summary = await write_bundle(
        BundleStore(played.pool), KEY, out, start=None, end=None, software=installed()
    )
    assert summary.rounds == played.rounds
    return out


def _copy(bundle: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "copy"
    if copy.exists():
        copy = tmp_path / f"copy-{len(list(tmp_path.iterdir()))}"
    shutil.copytree(bundle, copy)
    return copy


def _edit(root: Path, name: str, line: int, change: object) -> None:
    lines = (root / name).read_bytes().splitlines(keepends=True)
    lines[line] = change(lines[line]) if callable(change) else change  # type: ignore[assignment]
    (root / name).write_bytes(b"".join(lines))


async def _first_finding(root: Path) -> str:
    report = await verify_bundle(root, [KEY.public_key()])
    assert report.findings, "the tampering went unseen"
    return report.findings[0]


async def test_the_bundle_verifies_offline(bundle: Path, played: Played) -> None:
    report = await verify_bundle(bundle, [KEY.public_key()])
    assert report.findings == []
    assert report.rounds == played.rounds and report.cards > 5 * played.rounds
    assert report.events > played.commands and report.rulesets >= 10
    assert report.boxes > played.rounds  # every box's money reconciled
    names = {p.name for p in bundle.iterdir()}
    assert {f.EVENTS, f.PROOFS, f.RULESETS, f.CHECKPOINTS, f.MANIFEST, f.MANIFEST_SIG} <= names
    # Every round's record, the ledgers of the wallets that played, every table's opening.
    assert _count(bundle, f.ROUND_RECORDS) == played.rounds
    assert _count(bundle, f.LEDGER) > played.rounds
    changes = [json.loads(x) for x in (bundle / f.AVAILABILITY).read_bytes().splitlines()]
    assert sum(c["kind"] == "opened" for c in changes) == len(played.plans)


def _count(root: Path, name: str) -> int:
    return len((root / name).read_bytes().splitlines())


async def test_only_the_auditors_key_is_trusted(bundle: Path, tmp_path: Path) -> None:
    other = Ed25519PrivateKey.generate()
    report = await verify_bundle(bundle, [other.public_key()])
    assert report.findings[0].startswith("manifest.sig: the manifest is not signed by a trusted")
    # A bundle re-signed by another key, its own public key shipped inside: still refused.
    copy = _copy(bundle, tmp_path)
    resign_bundle(copy, other)
    assert (await _first_finding(copy)).startswith("manifest.sig: the manifest is not signed")


async def test_a_file_changed_after_signing(bundle: Path, tmp_path: Path) -> None:
    copy = _copy(bundle, tmp_path)
    _edit(copy, f.RULESETS, 0, lambda line: line.replace(b'"straight":4', b'"straight":5'))
    assert (
        await _first_finding(copy)
        == "rulesets.jsonl: its SHA-256 is not the one the manifest signs"
    )


def _amount_edited(line: bytes) -> bytes:
    event = json.loads(line)
    event["data"]["amount"] += 1
    return json.dumps(event).encode() + b"\n"


async def test_events_tampered_with_are_named(bundle: Path, tmp_path: Path) -> None:
    lines = (bundle / f.EVENTS).read_bytes().splitlines(keepends=True)
    debit = next(i for i, line in enumerate(lines) if b'"WalletDebited"' in line)

    edited = _copy(bundle, tmp_path / "a")
    _edit(edited, f.EVENTS, debit, _amount_edited)
    resign_bundle(edited, KEY)
    finding = await _first_finding(edited)
    assert finding.startswith(f"events.jsonl line {debit + 1}: stream wallet-")
    assert finding.endswith("its content does not match its hash")

    deleted = _copy(bundle, tmp_path / "b")
    _edit(deleted, f.EVENTS, 5, b"")
    resign_bundle(deleted, KEY)
    assert (await _first_finding(deleted)).startswith("events.jsonl line 6: stream table-")

    swapped = _copy(bundle, tmp_path / "c")
    _edit(swapped, f.EVENTS, 5, lines[6])
    _edit(swapped, f.EVENTS, 6, lines[5])
    resign_bundle(swapped, KEY)
    assert "goes from version 5 to 7" in await _first_finding(swapped)


async def test_money_the_rules_did_not_call_for(bundle: Path, tmp_path: Path) -> None:
    """A debit re-hashed throughout its stream (an insider's consistent rewrite, signed by
    the exporter's key) still links, replays... and does not reconcile: the game events
    call for another amount. The replay names it first."""
    copy = _copy(bundle, tmp_path)
    lines = (copy / f.EVENTS).read_bytes().splitlines(keepends=True)
    index = next(i for i, line in enumerate(lines) if b'"WalletCredited"' in line)
    stream = json.loads(lines[index])["stream_id"]
    _edit(copy, f.EVENTS, index, _amount_edited)
    _rehash(copy, stream)
    resign_bundle(copy, KEY)
    report = await verify_bundle(copy, [KEY.public_key()])
    assert any(x.startswith("money: ") for x in report.findings), report.findings
    assert report.findings[0].startswith("round "), report.findings[0]


def _rehash(root: Path, stream: str) -> None:
    """Re-link ``stream`` after an edit, as an insider with the hashing rules would."""
    lines = (root / f.EVENTS).read_bytes().splitlines(keepends=True)
    prev = bytes(32)
    for i, line in enumerate(lines):
        e = json.loads(line, parse_float=Decimal)
        if e["stream_id"] != stream:
            continue
        e["prev_hash"] = prev.hex()
        prev = event_hash(
            prev,
            e["stream_id"],
            e["stream_version"],
            uuid.UUID(e["event_id"]),
            e["event_type"],
            e["schema_version"],
            jsonb_text(e["data"]),
            jsonb_text(e["metadata"]),
            datetime.fromisoformat(e["recorded_at"]),
        )
        e["hash"] = prev.hex()
        lines[i] = json.dumps(e, default=str).encode() + b"\n"
    (root / f.EVENTS).write_bytes(b"".join(lines))


async def test_a_card_in_a_proof_and_a_paytable_number(bundle: Path, tmp_path: Path) -> None:
    proofs = _copy(bundle, tmp_path / "p")

    def other_card(line: bytes) -> bytes:
        proof = json.loads(line)
        hand = proof["dealt"][0]["cards"]
        hand[0] = next(c for c in ("2c", "3d", "4h", "5s") if c not in hand)
        return msgspec.json.encode(proof) + b"\n"

    _edit(proofs, f.PROOFS, 0, other_card)
    resign_bundle(proofs, KEY)
    assert (await _first_finding(proofs)).startswith("proofs.jsonl line 1: round ")

    paytable = _copy(bundle, tmp_path / "r")
    _edit(paytable, f.RULESETS, 0, lambda line: line.replace(b'"straight":4', b'"straight":5'))
    resign_bundle(paytable, KEY)
    assert "ruleset differs from the one its event" in await _first_finding(paytable)


def _json_edit(change: object) -> object:
    def edit(line: bytes) -> bytes:
        record = json.loads(line)
        change(record)  # type: ignore[operator]
        return json.dumps(record).encode() + b"\n"

    return edit


async def test_read_models_tampered_with_are_named(bundle: Path, tmp_path: Path) -> None:
    """A round record, a ledger row or an availability entry edited (and the manifest
    signed again) differs from what its events fold into; a record left out is missing."""
    record = _copy(bundle, tmp_path / "r")

    def more_paid(row: dict[str, object]) -> None:
        row["record"]["totals"]["paid"] += 1  # type: ignore[index]

    _edit(record, f.ROUND_RECORDS, 0, _json_edit(more_paid))
    resign_bundle(record, KEY)
    finding = await _first_finding(record)
    assert finding.startswith("round-records.jsonl line 1: round "), finding
    assert "record.totals.paid: the file has" in finding

    dropped = _copy(bundle, tmp_path / "d")
    first = json.loads((bundle / f.ROUND_RECORDS).read_bytes().splitlines()[0])
    _edit(dropped, f.ROUND_RECORDS, 0, b"")
    resign_bundle(dropped, KEY)
    assert await _first_finding(dropped) == (
        f"round-records.jsonl: round {first['table_id']}:{first['round']}'s record is missing"
    )

    ledger = _copy(bundle, tmp_path / "l")

    def richer(row: dict[str, int]) -> None:
        row["balance_after"] += 100

    _edit(ledger, f.LEDGER, 3, _json_edit(richer))
    resign_bundle(ledger, KEY)
    finding = await _first_finding(ledger)
    assert finding.startswith("ledger.jsonl line 4: wallet "), finding
    assert "balance_after: the file has" in finding

    log = _copy(bundle, tmp_path / "a")

    def other_reason(change: dict[str, str]) -> None:
        change["reason"] = "maintenance"

    _edit(log, f.AVAILABILITY, 0, _json_edit(other_reason))
    resign_bundle(log, KEY)
    finding = await _first_finding(log)
    assert finding.startswith("availability.jsonl line 1: table "), finding
    assert 'reason: the file has "maintenance"' in finding


async def test_read_models_behind_the_events(
    db: asyncpg.Pool[asyncpg.Record], database_url: str, tmp_path: Path
) -> None:
    """Rounds settled after the round records were last folded are in the bundle (events,
    proofs, replay, money) but have no record yet: the manifest says how far the read
    models had got, the verifier folds that far, and the bundle verifies."""
    plans = default_plans(2, prefix="behind")
    await fund_players(transfer_service(db), plans)
    handler = command_service(db)
    await play_tables(handler, db, plans, 3)
    store = ProjectionStore(database_url)
    try:
        for projection in (AuditProjection(), AvailabilityProjection()):
            await catch_up_fully(ProjectionRunner(projection, store), db)
    finally:
        await store.close()
    await play_tables(handler, db, plans, 2, seed=2)  # the same tables, two rounds more

    out = tmp_path / "behind"
    summary = await write_bundle(
        BundleStore(db), KEY, out, start=None, end=None, software=installed()
    )
    assert summary.rounds == 10
    assert _count(out, f.PROOFS) == 10 and _count(out, f.ROUND_RECORDS) == 6
    manifest = json.loads((out / f.MANIFEST).read_bytes())
    last = max(json.loads(x)["global_position"] for x in (out / f.EVENTS).read_bytes().splitlines())
    assert manifest["read_models"]["audit"]["global_position"] < last
    report = await verify_bundle(out, [KEY.public_key()])
    assert report.findings == [] and report.rounds == 10
