"""``verify-chain``: re-hash every event, check every link and every signed checkpoint.

All of it reads one consistent snapshot (a REPEATABLE READ, read-only transaction) through
server-side cursors, and recomputes every hash in Python (:mod:`service.chain.hashing`):
nothing the database computes, and no key it stores, is trusted.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any, cast

import msgspec
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from russian_poker.events.postgres.chain import (
    ChainEvent,
    ChainSnapshot,
    ChainStore,
    CheckpointLeaf,
)
from russian_poker.service.chain.checkpoints import checkpoint_digest
from russian_poker.service.chain.findings import Finding, StoredRow, classify
from russian_poker.service.chain.hashing import GENESIS, event_hash
from russian_poker.service.chain.keys import key_id, verify_signature
from russian_poker.service.chain.merkle import leaf_bytes, merkle_root

__all__ = ["ChainReport", "verify_chain"]


class ChainReport(msgspec.Struct, kw_only=True):
    """What ``verify-chain`` checked and found."""

    events: int = 0
    streams: int = 0
    checkpoints: int = 0
    leaves: int = 0
    uncovered: int = 0
    """Events no checkpoint signs for: after the last one's horizon, or all of them when
    there is none. Linked, but an insider could re-hash them unseen."""
    seconds: float = 0.0
    findings: list[Finding] = msgspec.field(default_factory=list)

    @property
    def events_per_second(self) -> float:
        return self.events / self.seconds if self.seconds else 0.0


def _self_ok(row: ChainEvent, prev: bytes) -> bool:
    return bool(
        event_hash(
            prev,
            row.stream_id,
            row.stream_version,
            row.event_id,
            row.event_type,
            row.schema_version,
            row.data,
            row.metadata,
            row.recorded_at,
        )
        == row.hash
    )


async def verify_chain(
    store: ChainStore,
    trusted: Sequence[Ed25519PublicKey],
    *,
    start: datetime | None = None,
    end: datetime | None = None,
    progress: Callable[[int], None] | None = None,
    kept: Mapping[int, bytes] | None = None,
) -> ChainReport:
    """Check the events recorded in ``[start, end)`` (default: all) and every checkpoint
    (leaves only of checkpoints made in the window) against the ``trusted`` keys;
    ``progress`` gets the events re-hashed so far, every 10,000. ``kept`` are checkpoints
    the auditor kept outside the database (seq: digest): each must still be there, with
    that digest, in the verified chain, or an insider deleted or replaced it."""
    report = ChainReport()
    began = time.perf_counter()
    windowed = start is not None or end is not None
    async with store.snapshot() as chain:
        broken = await _walk_events(chain, report, start, end, windowed, progress)
        for stream_id, (first, before) in broken.items():
            found = await _diagnose(chain, stream_id, first, before)
            # classify() repeats the walk's checks, so it names something; just in case:
            report.findings.append(
                found
                or Finding(kind="changed", stream_id=stream_id, detail="its links do not verify")
            )
        if end is None:
            await _check_heads(chain, report, set(broken))
        digests = await _check_checkpoints(chain, report, trusted, set(broken), start, end)
    _check_kept(report, digests, kept or {})
    report.seconds = time.perf_counter() - began
    return report


async def _walk_events(
    chain: ChainSnapshot,
    report: ChainReport,
    start: datetime | None,
    end: datetime | None,
    windowed: bool,
    progress: Callable[[int], None] | None,
) -> dict[str, tuple[int, bytes | None]]:
    """One pass in (stream, version) order; the streams with an anomaly, each with the
    version and link its checked part starts from (for :func:`classify`)."""
    broken: dict[str, tuple[int, bytes | None]] = {}
    stream: str | None = None
    version = 0
    prev: bytes | None = GENESIS
    origin: tuple[int, bytes | None] = (1, GENESIS)
    async for row in chain.events(start, end):
        report.events += 1
        if progress is not None and report.events % 10_000 == 0:
            progress(report.events)
        stream_id = row.stream_id
        if stream_id != stream:
            stream = stream_id
            report.streams += 1
            version = row.stream_version
            if version == 1 or not windowed:
                version, prev = 1, GENESIS
            else:
                prev = bytes(cast(bytes, row.pred_hash)) if row.pred_present else None
            origin = (version, prev)
        if stream_id in broken:
            continue
        hash_ = bytes(row.hash)
        if (
            row.stream_version != version
            or row.prev_hash != prev
            or prev is None
            or not _self_ok(row, prev)
        ):
            broken[stream_id] = origin
            continue
        version, prev = version + 1, hash_
    return broken


async def _diagnose(
    chain: ChainSnapshot, stream_id: str, first: int, before: bytes | None
) -> Finding | None:
    rows = [
        StoredRow(
            version=r.stream_version,
            event_id=r.event_id,
            prev_hash=bytes(r.prev_hash),
            hash=bytes(r.hash),
            self_ok=_self_ok(r, bytes(r.prev_hash)),
        )
        for r in await chain.stream(stream_id)
    ]
    return classify(stream_id, rows, first=first, before=before)


async def _check_heads(chain: ChainSnapshot, report: ChainReport, skip: set[str]) -> None:
    """``streams.version`` is each stream's last event: else events went at its end (or
    were added past it)."""
    for stream_id, head, last in await chain.head_mismatches():
        if stream_id in skip:
            continue
        if last is None or (head is not None and head > last):
            low = 1 if last is None else last + 1
            span = f"{low}" if low == head else f"{low}..{head}"
            report.findings.append(
                Finding(
                    kind="deleted",
                    stream_id=stream_id,
                    stream_version=low,
                    detail=f"the stream is at version {head}: version {span} is missing",
                )
            )
        else:
            low = 1 if head is None else head + 1
            report.findings.append(
                Finding(
                    kind="inserted",
                    stream_id=stream_id,
                    stream_version=low,
                    detail=f"the stream is at version {head or 0}, events go up to {last}",
                )
            )


async def _check_checkpoints(
    chain: ChainSnapshot,
    report: ChainReport,
    trusted: Sequence[Ed25519PublicKey],
    skip: set[str],
    start: datetime | None,
    end: datetime | None,
) -> dict[int, bytes]:
    keys = {key_id(key): key for key in trusted}
    previous: tuple[int, bytes, int] = (0, GENESIS, 0)  # seq, digest, horizon
    digests: dict[int, bytes] = {}
    group: list[CheckpointLeaf] = []
    async for row in chain.checkpoint_leaves():
        if group and row.checkpoint.seq != group[0].checkpoint.seq:
            previous = _check_checkpoint(report, group, previous, keys, skip, start, end)
            digests[previous[0]] = previous[1]
            group = []
        group.append(row)
    if group:
        previous = _check_checkpoint(report, group, previous, keys, skip, start, end)
        digests[previous[0]] = previous[1]
    # With no checkpoint at all, every event is unsigned (horizon 0), not none of them.
    report.uncovered = await chain.uncovered(previous[2])
    return digests


def _check_kept(
    report: ChainReport, digests: Mapping[int, bytes], kept: Mapping[int, bytes]
) -> None:
    """Every checkpoint the auditor kept is in the chain just verified, unchanged: the
    chain's links (``prev_digest``) then make it an ancestor of every later checkpoint."""
    for seq, digest in sorted(kept.items()):
        found = digests.get(seq)
        if found is None:
            detail = "the auditor kept it, the store has no such checkpoint"
            report.findings.append(Finding(kind="deleted", checkpoint=seq, detail=detail))
        elif found != digest:
            report.findings.append(
                Finding(
                    kind="rewritten",
                    checkpoint=seq,
                    detail=f"its digest is {found.hex()[:16]}…, the auditor kept"
                    f" {digest.hex()[:16]}…: the chain was replaced after it",
                )
            )


def _check_checkpoint(
    report: ChainReport,
    rows: list[CheckpointLeaf],
    previous: tuple[int, bytes, int],
    keys: dict[str, Ed25519PublicKey],
    skip: set[str],
    start: datetime | None,
    end: datetime | None,
) -> tuple[int, bytes, int]:
    """One checkpoint (its rows: one per leaf, or one without a leaf); returns what the
    next one must follow."""
    head = rows[0].checkpoint
    seq = head.seq
    report.checkpoints += 1
    leaves = [(r.leaf, r) for r in rows if r.leaf is not None]
    report.leaves += len(leaves)
    root = merkle_root(
        [leaf_bytes(x.stream_id, x.stream_version, bytes(x.hash)) for x, _ in leaves]
    )
    try:
        digest = checkpoint_digest(
            seq=seq,
            created_at=head.created_at,
            upto_tx_id=int(head.upto_tx_id),
            upto_position=head.upto_position,
            prev_digest=bytes(head.prev_digest),
            leaf_count=head.leaf_count,
            merkle_root=bytes(head.merkle_root),
            key_id=head.key_id,
        )
    except ValueError:  # a key_id that is not hex: refused below as an unknown key
        digest = bytes(head.digest)

    def invalid(kind: Any, detail: str) -> tuple[int, bytes, int]:
        report.findings.append(Finding(kind=kind, checkpoint=seq, detail=detail))
        return seq, digest, int(head.upto_tx_id)

    key = keys.get(head.key_id)
    if key is None:
        return invalid("forged", f"signed by key {head.key_id[:16]}…, not a trusted key")
    if not verify_signature(key, bytes(head.signature), digest):
        return invalid("forged", "its signature does not match its contents")
    if seq != previous[0] + 1:
        return invalid("invalid", f"checkpoint {previous[0] + 1} is missing before it")
    if bytes(head.prev_digest) != previous[1]:
        return invalid("invalid", f"it does not follow checkpoint {previous[0]}")
    if int(head.upto_tx_id) < previous[2]:
        return invalid("invalid", "its horizon is before the previous checkpoint's")
    if head.leaf_count != len(leaves) or root != bytes(head.merkle_root):
        return invalid("invalid", "its leaves do not match its signed Merkle root")
    in_window = (start is None or head.created_at >= start) and (
        end is None or head.created_at < end
    )
    for leaf, found in leaves if in_window else ():
        if leaf.stream_id in skip:
            continue
        if not found.present:
            report.findings.append(
                Finding(
                    kind="deleted",
                    stream_id=leaf.stream_id,
                    stream_version=leaf.stream_version,
                    checkpoint=seq,
                    detail=f"the event checkpoint {seq} committed to is missing",
                )
            )
            skip.add(leaf.stream_id)
        elif bytes(cast(bytes, found.event_hash)) != bytes(leaf.hash):
            report.findings.append(
                Finding(
                    kind="rewritten",
                    stream_id=leaf.stream_id,
                    stream_version=leaf.stream_version,
                    checkpoint=seq,
                    detail=f"the stream was rewritten after checkpoint {seq}: this event's "
                    "hash is not the one the checkpoint signed",
                )
            )
            skip.add(leaf.stream_id)
    return seq, digest, int(head.upto_tx_id)
