"""The bundle's files and their records, as docs/audit-bundle.md lays them out."""

from __future__ import annotations

from datetime import datetime
from typing import Final

import msgspec

from russian_poker.events.records import Position
from russian_poker.events.ruleset import Ruleset
from russian_poker.projections.audit import AuditRow
from russian_poker.projections.availability import AvailabilityChange
from russian_poker.projections.books import OperatorCall
from russian_poker.projections.wallets import LedgerEntry

__all__ = [
    "AVAILABILITY",
    "CHECKPOINTS",
    "LEDGER",
    "ROUND_RECORDS",
    "EVENTS",
    "FORMAT",
    "MANIFEST",
    "MANIFEST_SIG",
    "OPERATOR_CALLS",
    "PROOFS",
    "PUBLIC_KEY",
    "RULESETS",
    "SOFTWARE",
    "AuditRow",
    "AvailabilityChange",
    "BundleEvent",
    "BundleRuleset",
    "LedgerLine",
    "Manifest",
    "OperatorCall",
    "Position",
]

FORMAT: Final = "russian-poker-audit-bundle/1"
EVENTS: Final = "events.jsonl"
CHECKPOINTS: Final = "checkpoints.jsonl"
PROOFS: Final = "proofs.jsonl"
RULESETS: Final = "rulesets.jsonl"
SOFTWARE: Final = "software.json"
PUBLIC_KEY: Final = "public-key.pem"
MANIFEST: Final = "manifest.json"
MANIFEST_SIG: Final = "manifest.sig"
OPERATOR_CALLS: Final = "operator-calls.jsonl"
ROUND_RECORDS: Final = "round-records.jsonl"
LEDGER: Final = "ledger.jsonl"
AVAILABILITY: Final = "availability.jsonl"


class BundleEvent(msgspec.Struct, frozen=True, kw_only=True):
    """One line of ``events.jsonl``. ``data`` and ``metadata`` are the stored JSON; the hash
    covers their canonical ``jsonb`` text (docs/audit.md, "The hash of an event")."""

    stream_id: str
    stream_version: int
    global_position: int
    tx_id: int
    """The transaction that appended it: the store's global order is (tx_id,
    global_position), which says what a read model's position covers."""
    event_id: str
    event_type: str
    schema_version: int
    recorded_at: datetime
    data: msgspec.Raw
    metadata: msgspec.Raw
    prev_hash: str
    hash: str


class BundleRuleset(msgspec.Struct, frozen=True, kw_only=True):
    """One line of ``rulesets.jsonl``: a ruleset a table opened with or changed to, with
    the event that recorded it (its stream and version) and its fingerprint."""

    table_id: str
    stream_version: int
    fingerprint: str
    ruleset: Ruleset


class LedgerLine(LedgerEntry, frozen=True, kw_only=True):
    """One line of ``ledger.jsonl``: a row of an internal wallet's ledger, as
    ``GET /v1/wallets/{id}/ledger`` serves it, with the wallet it belongs to."""

    wallet_id: str


class Manifest(msgspec.Struct, frozen=True, kw_only=True):
    """``manifest.json``; ``manifest.sig`` signs its exact bytes."""

    format: str
    created_at: datetime
    start: datetime | None = msgspec.field(name="from")
    end: datetime | None = msgspec.field(name="to")
    rounds: int
    streams: int
    events: int
    key_id: str
    read_models: dict[str, Position]
    """How far the catch-up read models shipped (``audit``: the round records,
    ``availability``: the log) had folded the events when the bundle was read."""
    files: dict[str, str]
    """Every other file of the bundle and its SHA-256, hex."""
