"""``russian-poker audit bundle``: every round settled in a window, as signed files.

One snapshot of the store: the whole stream of every table with a round settled in the
window (from its opening, so each round can be re-run from the table's first event) and of
every wallet those tables' commands moved, with their chain hashes; every checkpoint; each
round's fairness proof and round record; every ruleset the tables played by; the internal
wallets' ledgers, the operators' wallet calls and the tables' availability log; the
software digest; and the manifest of the files' SHA-256, signed. Streams are written as
they are read, so memory holds one table's events at a time (its proofs are derived from
them)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, TYPE_CHECKING, cast

import msgspec
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from russian_poker.events.codec import decode_event
from russian_poker.events.game import RulesetChanged, TableOpened
from russian_poker.events.streams import TABLE_PREFIX, WALLET_PREFIX, table_stream
from russian_poker.events.wallet import MoneyReason
from russian_poker.projections.audit import AuditProjection
from russian_poker.projections.availability import AvailabilityProjection
from russian_poker.projections.wallets import LedgerKind
from russian_poker.service.audit.bundle import files as f
from russian_poker.service.chain.keys import key_id, public_pem
from russian_poker.service.chain.views import checkpoint_view
from russian_poker.service.fairness.proof import proof_from_events, round_events
from russian_poker.service.software import SoftwareManifest

if TYPE_CHECKING:
    from russian_poker.events.postgres.bundle import BundleSnapshot, BundleStore
    from russian_poker.events.postgres.chain import ChainedEvent
    from russian_poker.projections.wallets import LedgerRow

__all__ = ["BundleSummary", "ledger_line", "sha256_of", "write_bundle"]

_encode = msgspec.json.Encoder().encode


class BundleSummary(msgspec.Struct, kw_only=True):
    rounds: int = 0
    tables: int = 0
    streams: int = 0
    events: int = 0
    checkpoints: int = 0


def sha256_of(path: Path) -> str:
    """The file's SHA-256, hex, read a megabyte at a time."""
    with path.open("rb") as file:
        return hashlib.file_digest(file, "sha256").hexdigest()


def _line(record: msgspec.Struct) -> bytes:
    return _encode(record) + b"\n"


def ledger_line(row: LedgerRow) -> f.LedgerLine:
    """A ledger row as ``ledger.jsonl`` holds it (and the ledger API shows it)."""
    return f.LedgerLine(
        wallet_id=row.wallet_id,
        position=row.global_position,
        kind=cast("LedgerKind", row.event_type),
        amount=row.amount,
        reason=cast("MoneyReason | None", row.reason),
        table_id=row.table_id,
        round=row.round,
        box=row.box,
        transfer_id=row.transfer_id,
        balance_after=row.balance_after,
        recorded_at=row.recorded_at,
    )


def _event(e: ChainedEvent) -> f.BundleEvent:
    return f.BundleEvent(
        stream_id=e.stream_id,
        stream_version=e.stream_version,
        global_position=e.global_position,
        tx_id=e.tx_id,
        event_id=str(e.event_id),
        event_type=e.event_type,
        schema_version=e.schema_version,
        recorded_at=e.recorded_at,
        data=msgspec.Raw(e.data.encode()),
        metadata=msgspec.Raw(e.metadata.encode()),
        prev_hash=bytes(e.prev_hash).hex(),
        hash=bytes(e.hash).hex(),
    )


async def write_bundle(
    store: BundleStore,
    key: Ed25519PrivateKey,
    out: Path,
    *,
    start: datetime | None,
    end: datetime | None,
    software: SoftwareManifest,
    progress: Callable[[BundleSummary], None] | None = None,
) -> BundleSummary:
    """Write the bundle of ``[start, end)`` into ``out`` (created; must hold no bundle)."""
    out.mkdir(parents=True, exist_ok=True)
    if (out / f.MANIFEST).exists():
        raise FileExistsError(f"{out} already holds a bundle ({f.MANIFEST})")
    summary = BundleSummary()
    async with store.snapshot() as snapshot:
        rounds = await snapshot.settled_rounds(start, end)
        by_table: dict[str, list[int]] = {}
        for table_id, number in rounds:
            by_table.setdefault(table_id, []).append(number)
        summary.rounds, summary.tables = len(rounds), len(by_table)
        with (
            (out / f.EVENTS).open("wb") as events,
            (out / f.PROOFS).open("wb") as proofs,
            (out / f.ROUND_RECORDS).open("wb") as records,
            (out / f.RULESETS).open("wb") as rulesets,
            (out / f.LEDGER).open("wb") as ledger,
        ):
            for table_id, numbers in by_table.items():
                await _table(snapshot, table_id, numbers, events, proofs, rulesets, summary)
                for row in await snapshot.round_records(table_id, numbers):
                    records.write(_line(row))
                if progress is not None:
                    progress(summary)
            streams = [table_stream(t) for t in by_table]
            for stream_id in await snapshot.money_streams(streams):
                summary.streams += 1
                async for event in snapshot.stream(stream_id):
                    events.write(_line(_event(event)))
                    summary.events += 1
                if stream_id.startswith(WALLET_PREFIX):
                    async for moved in snapshot.ledger(stream_id.removeprefix(WALLET_PREFIX)):
                        ledger.write(_line(ledger_line(moved)))
        with (out / f.OPERATOR_CALLS).open("wb") as calls:
            for call in await snapshot.operator_calls(rounds):
                calls.write(_line(call))
        with (out / f.AVAILABILITY).open("wb") as availability:
            for change in await snapshot.availability(list(by_table)):
                availability.write(_line(change))
        with (out / f.CHECKPOINTS).open("wb") as checkpoints:
            for stored, leaves in await snapshot.checkpoints():
                summary.checkpoints += 1
                checkpoints.write(_line(checkpoint_view(stored, leaves)))
        folded = {
            name: await snapshot.folded(name)
            for name in (AuditProjection.name, AvailabilityProjection.name)
        }
    (out / f.SOFTWARE).write_bytes(_encode(software) + b"\n")
    (out / f.PUBLIC_KEY).write_text(public_pem(key.public_key()))
    _sign(out, key, start, end, summary, folded)
    return summary


async def _table(
    snapshot: BundleSnapshot,
    table_id: str,
    numbers: list[int],
    events: IO[bytes],
    proofs: IO[bytes],
    rulesets: IO[bytes],
    summary: BundleSummary,
) -> None:
    """One table's stream, whole, then its rounds' proofs and its rulesets."""
    decoded = []
    summary.streams += 1
    async for event in snapshot.stream(table_stream(table_id)):
        events.write(_line(_event(event)))
        summary.events += 1
        recorded = decode_event(event.event_type, event.schema_version, event.data)
        decoded.append(recorded)
        if isinstance(recorded, TableOpened | RulesetChanged):
            rulesets.write(
                _line(
                    f.BundleRuleset(
                        table_id=event.stream_id.removeprefix(TABLE_PREFIX),
                        stream_version=event.stream_version,
                        fingerprint=recorded.ruleset.fingerprint,
                        ruleset=recorded.ruleset,
                    )
                )
            )
    by_round = round_events(decoded)
    for number in numbers:
        proofs.write(_line(proof_from_events(table_id, by_round.get(number, []), number)))


def _sign(
    out: Path,
    key: Ed25519PrivateKey,
    start: datetime | None,
    end: datetime | None,
    summary: BundleSummary,
    folded: dict[str, f.Position],
) -> None:
    digests = {
        name: sha256_of(out / name)
        for name in (
            f.EVENTS,
            f.CHECKPOINTS,
            f.PROOFS,
            f.ROUND_RECORDS,
            f.RULESETS,
            f.LEDGER,
            f.OPERATOR_CALLS,
            f.AVAILABILITY,
            f.SOFTWARE,
            f.PUBLIC_KEY,
        )
    }
    manifest = f.Manifest(
        format=f.FORMAT,
        created_at=datetime.now(UTC),
        start=start,
        end=end,
        rounds=summary.rounds,
        streams=summary.streams,
        events=summary.events,
        key_id=key_id(key.public_key()),
        read_models=folded,
        files=digests,
    )
    body = msgspec.json.format(_encode(manifest), indent=2) + b"\n"
    (out / f.MANIFEST).write_bytes(body)
    (out / f.MANIFEST_SIG).write_text(key.sign(body).hex() + "\n")
