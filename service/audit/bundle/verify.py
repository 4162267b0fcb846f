"""``russian-poker audit verify-bundle``: a bundle checked from its files alone.

No database, network or data directory. In order: the manifest's signature by a key the
auditor trusts (never the copy inside the bundle) and every file's digest; every stream's
hash links from the first event; every checkpoint (digest, signature, sequence, links,
Merkle root, and its leaves against the events); every ruleset file line against the event
that recorded it; every proof against the proof the events give and against the seeds
(every card re-derived); every round re-run through the rules; every box's money
reconciled to the unit: the debits and credits its game events call for, and no others,
against the operators' calls; and the round records, ledgers and availability log folded
again from the events (``read_models``). Each problem is a finding naming the file and line
(or the round) and what differs."""

from __future__ import annotations

import json
import uuid
from collections import defaultdict
from collections.abc import Mapping, Sequence
from decimal import Decimal
from pathlib import Path
from typing import Final

import msgspec
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from russian_poker.events.codec import Event, decode_event
from russian_poker.events.game import RulesetChanged, TableOpened
from russian_poker.events.records import RecordedEvent
from russian_poker.events.streams import SEAMLESS_PREFIX, TABLE_PREFIX
from russian_poker.service.audit.bundle import files as f
from russian_poker.service.audit.bundle.read_models import check_read_models
from russian_poker.service.audit.bundle.reads import BundleReads
from russian_poker.service.audit.bundle.write import sha256_of
from russian_poker.service.audit.reconcile import reconcile_rounds
from russian_poker.service.audit.replay import verify_rounds
from russian_poker.service.chain.checkpoints import checkpoint_digest
from russian_poker.service.chain.hashing import GENESIS, event_hash, jsonb_text
from russian_poker.service.chain.keys import key_id, verify_signature
from russian_poker.service.chain.merkle import leaf_bytes, merkle_root
from russian_poker.service.chain.views import CheckpointView
from russian_poker.service.fairness.check import check_proof
from russian_poker.service.fairness.proof import RoundProof, proof_from_events, round_events
from russian_poker.service.rules.tenancy import operator_of

__all__ = ["BundleReport", "verify_bundle"]


class BundleReport(msgspec.Struct, kw_only=True):
    events: int = 0
    streams: int = 0
    checkpoints: int = 0
    rulesets: int = 0
    rounds: int = 0
    cards: int = 0
    boxes: int = 0
    calls: int = 0
    unsigned: int = 0
    """Events of the bundle no checkpoint in it signs (after each stream's last leaf)."""
    findings: list[str] = msgspec.field(default_factory=list)


def _canonical(raw: msgspec.Raw) -> str:
    """The canonical ``jsonb`` text of a stored JSON value, the bytes its hash covers."""
    return jsonb_text(json.loads(bytes(raw), parse_float=Decimal))


async def verify_bundle(
    root: Path,
    trusted: Sequence[Ed25519PublicKey],
    kept: Mapping[int, bytes] | None = None,
) -> BundleReport:
    """Every check of the module's docstring; the report's findings in the order found.

    ``kept``: checkpoints the auditor kept outside the operator's reach (seq -> digest):
    each must be in the bundle, unchanged (the links then make it an ancestor of every
    later one), or someone holding the key dropped or replaced checkpoints and signed the
    manifest again."""
    report = BundleReport()
    manifest = _manifest_holds(root, trusted, report)
    if manifest is None:
        return report  # nothing in files an unsigned manifest lists can be believed
    heads = _events(root, report)
    if report.findings:
        return report
    recorded, hashes = heads
    digests = _checkpoints(root, trusted, hashes, report)
    for seq, digest in sorted((kept or {}).items()):
        found = digests.get(seq)
        if found is None:
            report.findings.append(
                f"{f.CHECKPOINTS}: checkpoint {seq}, which the auditor kept, is not in the bundle"
            )
        elif found != digest:
            report.findings.append(
                f"{f.CHECKPOINTS}: checkpoint {seq}'s digest is {found.hex()[:16]}…, the auditor"
                f" kept {digest.hex()[:16]}…: the chain was replaced after it"
            )
    tables = _tables(recorded)
    _rulesets(root, tables, report)
    selection = _proofs(root, tables, report)
    reads = BundleReads(recorded, reads_rounds(selection))
    replayed = await verify_rounds(reads, selection)
    for difference in replayed.differences:
        report.findings.append(f"round {difference.table_id}:{difference.round}: {difference}")
    _operator_calls(root, recorded, set(reads_rounds(selection)), report)
    books = await reconcile_rounds(reads)
    report.boxes = books.boxes
    for mismatch in books.mismatches:
        report.findings.append(f"money: {mismatch.subject}: {mismatch.detail}")
    await check_read_models(
        root, recorded, set(reads_rounds(selection)), manifest.read_models, report.findings
    )
    return report


def _manifest_holds(
    root: Path, trusted: Sequence[Ed25519PublicKey], report: BundleReport
) -> f.Manifest | None:
    """The manifest, if a trusted key signed it and every file is the one it lists."""
    try:
        body = (root / f.MANIFEST).read_bytes()
        signature = bytes.fromhex((root / f.MANIFEST_SIG).read_text().strip())
    except (OSError, ValueError) as error:
        report.findings.append(f"{f.MANIFEST}: cannot read it or its signature: {error}")
        return None
    if not any(verify_signature(key, signature, body) for key in trusted):
        keys = ", ".join(key_id(k)[:16] + "…" for k in trusted)
        report.findings.append(
            f"{f.MANIFEST_SIG}: the manifest is not signed by a trusted key ({keys})"
        )
        return None
    manifest = msgspec.json.decode(body, type=f.Manifest)
    if manifest.format != f.FORMAT:
        report.findings.append(f"{f.MANIFEST}: format {manifest.format!r}, expected {f.FORMAT}")
        return None
    present = {p.name for p in root.iterdir()} - {f.MANIFEST, f.MANIFEST_SIG}
    for name in sorted(present - set(manifest.files)):
        report.findings.append(f"{name}: a file the manifest does not list")
    for name, digest in sorted(manifest.files.items()):
        if name not in present:
            report.findings.append(f"{name}: listed in the manifest, missing")
        elif sha256_of(root / name) != digest:
            report.findings.append(f"{name}: its SHA-256 is not the one the manifest signs")
    return None if report.findings else manifest


def _hash(e: f.BundleEvent, previous: bytes, data: str, metadata: str) -> bytes:
    return event_hash(
        previous,
        e.stream_id,
        e.stream_version,
        uuid.UUID(e.event_id),
        e.event_type,
        e.schema_version,
        data,
        metadata,
        e.recorded_at,
    )


def _events(
    root: Path, report: BundleReport
) -> tuple[list[RecordedEvent], dict[tuple[str, int], bytes]]:
    """Every event, its links checked stream by stream from the first event."""
    recorded: list[RecordedEvent] = []
    hashes: dict[tuple[str, int], bytes] = {}
    stream, version, previous = "", 0, GENESIS
    with (root / f.EVENTS).open("rb") as lines:
        for number, line in enumerate(lines, 1):
            where = f"{f.EVENTS} line {number}"
            try:
                e = msgspec.json.decode(line, type=f.BundleEvent)
            except msgspec.DecodeError as error:
                report.findings.append(f"{where}: not an event record: {error}")
                return recorded, hashes
            if e.stream_id != stream:
                stream, version, previous = e.stream_id, 0, GENESIS
                report.streams += 1
            report.events += 1
            if e.stream_version != version + 1:
                report.findings.append(
                    f"{where}: stream {stream} goes from version {version} to {e.stream_version}"
                )
                return recorded, hashes
            if bytes.fromhex(e.prev_hash) != previous:
                report.findings.append(
                    f"{where}: stream {stream} version {e.stream_version} does not link to"
                    f" version {version}'s hash"
                )
                return recorded, hashes
            # The file carries the stored canonical text as written: if its bytes give the
            # recorded hash they are that text (a hash has no second preimage). Only a file
            # re-formatted since needs the text rendered again from the parsed values.
            data, metadata = bytes(e.data).decode(), bytes(e.metadata).decode()
            own = _hash(e, previous, data, metadata)
            if own.hex() != e.hash:
                data, metadata = _canonical(e.data), _canonical(e.metadata)
                own = _hash(e, previous, data, metadata)
            if own.hex() != e.hash:
                report.findings.append(
                    f"{where}: stream {stream} version {e.stream_version} (event {e.event_id}):"
                    " its content does not match its hash"
                )
                return recorded, hashes
            version, previous = e.stream_version, own
            hashes[(stream, version)] = own
            recorded.append(
                RecordedEvent(
                    global_position=e.global_position,
                    tx_id=e.tx_id,
                    stream_id=e.stream_id,
                    stream_version=e.stream_version,
                    event_id=uuid.UUID(e.event_id),
                    event_type=e.event_type,
                    schema_version=e.schema_version,
                    data=data.encode(),
                    metadata=metadata.encode(),
                    recorded_at=e.recorded_at,
                )
            )
    return recorded, hashes


def _checkpoints(
    root: Path,
    trusted: Sequence[Ed25519PublicKey],
    hashes: dict[tuple[str, int], bytes],
    report: BundleReport,
) -> dict[int, bytes]:
    """Check ``checkpoints.jsonl``; each checkpoint's digest by its seq."""
    keys = {key_id(k): k for k in trusted}
    heads: dict[str, int] = {}
    for stream, version in hashes:
        heads[stream] = max(version, heads.get(stream, 0))
    signed: dict[str, int] = {}
    digests: dict[int, bytes] = {}
    previous = GENESIS
    with (root / f.CHECKPOINTS).open("rb") as lines:
        for number, line in enumerate(lines, 1):
            where = f"{f.CHECKPOINTS} line {number}"
            c = msgspec.json.decode(line, type=CheckpointView)
            report.checkpoints += 1
            leaves = [
                leaf_bytes(x.stream_id, x.stream_version, bytes.fromhex(x.hash)) for x in c.leaves
            ]
            root_hash = merkle_root(leaves)
            digest = checkpoint_digest(
                seq=c.seq,
                created_at=c.created_at,
                upto_tx_id=int(c.upto_tx_id),
                upto_position=c.upto_position,
                prev_digest=bytes.fromhex(c.prev_digest),
                leaf_count=c.leaf_count,
                merkle_root=root_hash,
                key_id=c.key_id,
            )
            key = keys.get(c.key_id)
            if c.seq != number:
                report.findings.append(f"{where}: checkpoint {number} is missing before it")
            elif bytes.fromhex(c.prev_digest) != previous:
                report.findings.append(
                    f"{where}: checkpoint {c.seq} does not follow the one before"
                )
            elif c.leaf_count != len(leaves) or root_hash.hex() != c.merkle_root:
                report.findings.append(f"{where}: checkpoint {c.seq}'s leaves do not give its root")
            elif key is None or not verify_signature(key, bytes.fromhex(c.signature), digest):
                report.findings.append(
                    f"{where}: checkpoint {c.seq} is not signed by a trusted key"
                )
            for leaf in c.leaves:
                if leaf.stream_id not in heads:
                    continue  # a stream the window does not involve
                signed[leaf.stream_id] = max(leaf.stream_version, signed.get(leaf.stream_id, 0))
                found = hashes.get((leaf.stream_id, leaf.stream_version))
                if found is None or found.hex() != leaf.hash:
                    report.findings.append(
                        f"{where}: checkpoint {c.seq} signed {leaf.stream_id} version"
                        f" {leaf.stream_version} with another hash than the bundle's event"
                    )
            previous = digests[c.seq] = digest
    report.unsigned = sum(max(0, head - signed.get(stream, 0)) for stream, head in heads.items())
    return digests


def reads_rounds(selection: dict[str, list[int]]) -> list[tuple[str, int]]:
    return [(t, n) for t, numbers in selection.items() for n in numbers]


_PAID: Final = ("queued", "delivered", "manual")
"""A win call's statuses that pay it (owed or done); a bet's only one is ``committed``."""


def _operator_calls(
    root: Path, recorded: list[RecordedEvent], rounds: set[tuple[str, int]], report: BundleReport
) -> None:
    """Per seamless player and round: the bets the operator committed are the debits the
    game recorded, and the wins paid or owed are its credits, to the unit."""
    calls: dict[tuple[str, str, int], list[int]] = defaultdict(lambda: [0, 0])
    with (root / f.OPERATOR_CALLS).open("rb") as lines:
        for line in lines:
            call = msgspec.json.decode(line, type=f.OperatorCall)
            report.calls += 1
            table_id, _, number = call.round_id.rpartition(":")
            key = (f"{call.operator_id}:{call.player_id}", table_id, int(number))
            if call.kind == "bet" and call.status == "committed":
                calls[key][0] += call.amount
            elif call.kind == "win" and call.status in _PAID:
                calls[key][1] += call.amount
    moved: dict[tuple[str, str, int], list[int]] = defaultdict(lambda: [0, 0])
    for event in recorded:
        if not event.stream_id.startswith(SEAMLESS_PREFIX) or event.event_type not in _MONEY:
            continue
        data = json.loads(event.data)
        if (data["table_id"], data["round"]) not in rounds:
            continue
        ref = operator_of(event.stream_id.removeprefix(SEAMLESS_PREFIX))
        key = (f"{ref.operator_id}:{ref.player_id}", data["table_id"], data["round"])
        moved[key][event.event_type == "WalletCredited"] += data["amount"]
    for key in sorted(set(calls) | set(moved)):
        (bets, wins), (debits, credits) = calls[key], moved[key]
        if (bets, wins) != (debits, credits):
            player, table_id, at = key
            report.findings.append(
                f"{f.OPERATOR_CALLS}: {player} at {table_id}:{at}: the operator's calls"
                f" commit bets of {bets} and pay wins of {wins}, the events debit {debits}"
                f" and credit {credits}"
            )


_MONEY: Final = ("WalletDebited", "WalletCredited")


def _tables(recorded: list[RecordedEvent]) -> dict[str, list[tuple[int, Event]]]:
    tables: dict[str, list[tuple[int, Event]]] = {}
    for r in recorded:
        if r.stream_id.startswith(TABLE_PREFIX):
            event = decode_event(r.event_type, r.schema_version, r.data)
            tables.setdefault(r.stream_id.removeprefix(TABLE_PREFIX), []).append(
                (r.stream_version, event)
            )
    return tables


def _rulesets(root: Path, tables: dict[str, list[tuple[int, Event]]], report: BundleReport) -> None:
    recorded = {
        (table_id, version): event.ruleset
        for table_id, events in tables.items()
        for version, event in events
        if isinstance(event, TableOpened | RulesetChanged)
    }
    seen = set()
    with (root / f.RULESETS).open("rb") as lines:
        for number, line in enumerate(lines, 1):
            where = f"{f.RULESETS} line {number}"
            r = msgspec.json.decode(line, type=f.BundleRuleset)
            report.rulesets += 1
            seen.add((r.table_id, r.stream_version))
            expected = recorded.get((r.table_id, r.stream_version))
            if expected is None:
                report.findings.append(f"{where}: no event of table {r.table_id} set a ruleset")
            elif r.ruleset != expected:
                report.findings.append(
                    f"{where}: table {r.table_id}'s ruleset differs from the one its event"
                    f" {r.stream_version} recorded"
                )
            elif r.fingerprint != expected.fingerprint:
                report.findings.append(f"{where}: the fingerprint is not the ruleset's")
    for table_id, version in sorted(set(recorded) - seen):
        report.findings.append(
            f"{f.RULESETS}: table {table_id}'s ruleset of event {version} is missing"
        )


def _proofs(
    root: Path, tables: dict[str, list[tuple[int, Event]]], report: BundleReport
) -> dict[str, list[int]]:
    selection: dict[str, list[int]] = {}
    by_table: dict[str, dict[int, list[Event]]] = {}
    with (root / f.PROOFS).open("rb") as lines:
        for number, line in enumerate(lines, 1):
            where = f"{f.PROOFS} line {number}"
            proof = msgspec.json.decode(line, type=RoundProof)
            round_id = f"round {proof.table_id}:{proof.round}"
            report.rounds += 1
            selection.setdefault(proof.table_id, []).append(proof.round)
            if proof.table_id not in by_table:
                by_table[proof.table_id] = round_events(
                    [e for _, e in tables.get(proof.table_id, [])]
                )
            events = by_table[proof.table_id].get(proof.round, [])
            try:
                expected = proof_from_events(proof.table_id, events, proof.round)
            except LookupError as error:
                report.findings.append(f"{where}: {round_id}: {error}")
                continue
            if expected != proof:
                report.findings.append(f"{where}: {round_id}: not the proof its events give")
                continue
            verdict = check_proof(proof)
            report.cards += verdict.cards_checked
            if not verdict.ok:
                report.findings.append(f"{where}: {round_id}: {verdict.mismatch}")
    return selection
