"""What ``verify-chain`` can find, and how a broken stream is classified.

The verifier walks each stream once; at its first anomaly it loads that stream again and
:func:`classify` names what happened from the links that are left: an insider who changes,
deletes, inserts or reorders events cannot re-link the rest without re-hashing every later
event, and a stream re-hashed throughout is caught by the checkpoints instead.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Literal

import msgspec

from russian_poker.service.chain.hashing import GENESIS

__all__ = ["Finding", "Kind", "StoredRow", "classify"]

Kind = Literal["changed", "deleted", "inserted", "reordered", "rewritten", "forged", "invalid"]


class Finding(msgspec.Struct, frozen=True, kw_only=True):
    """One problem: which event (or checkpoint), what kind, in words."""

    kind: Kind
    detail: str
    stream_id: str | None = None
    stream_version: int | None = None
    event_id: str | None = None
    checkpoint: int | None = None

    def __str__(self) -> str:
        where = []
        if self.stream_id is not None:
            where.append(f"stream {self.stream_id}")
        if self.stream_version is not None:
            where.append(f"version {self.stream_version}")
        if self.event_id is not None:
            where.append(f"(event {self.event_id})")
        if self.checkpoint is not None:
            where.append(f"checkpoint {self.checkpoint}")
        return f"{self.kind}: {' '.join(where)}: {self.detail}"


class StoredRow(msgspec.Struct, frozen=True):
    """An event as the verifier sees it: stored links, and whether its hash is its own."""

    version: int
    event_id: uuid.UUID
    prev_hash: bytes
    hash: bytes
    self_ok: bool


def classify(
    stream_id: str, rows: Sequence[StoredRow], *, first: int = 1, before: bytes | None = GENESIS
) -> Finding | None:
    """The first problem in one stream's rows (ordered by version), or ``None``.

    ``first`` is the version the rows should start at and ``before`` the hash its event
    must link to (``None``: that predecessor is missing), for a window of the stream.
    """
    by_hash = {row.hash: row for row in rows}
    by_version = {row.version: row for row in rows}
    expected_version, expected_prev = first, before
    for row in rows:
        if row.version < first:
            continue  # before the window: only a link target
        problem = _problem(row, expected_version, expected_prev, by_hash)
        if problem is not None:
            kind, detail, version = problem
            named = by_version.get(version)
            return Finding(
                kind=kind,
                detail=detail,
                stream_id=stream_id,
                stream_version=version,
                event_id=str(named.event_id) if named is not None else None,
            )
        expected_version, expected_prev = row.version + 1, row.hash
    return None


def _span(low: int, high: int) -> str:
    return f"{low}" if low == high else f"{low}..{high}"


def _problem(
    row: StoredRow, version: int, prev: bytes | None, by_hash: dict[bytes, StoredRow]
) -> tuple[Kind, str, int] | None:
    """What is wrong at ``row``, expected at ``version`` linking to ``prev``: the kind, the
    words, and the version to name."""
    if row.version != version:
        return "deleted", f"version {_span(version, row.version - 1)} is missing", version
    if prev is None:
        return "deleted", f"it is missing: version {row.version} links to nothing", row.version - 1
    if row.prev_hash != prev:
        target = by_hash.get(row.prev_hash)
        if row.prev_hash == GENESIS:
            return "reordered", "it links to the start: it was the stream's first", row.version
        if target is not None and target.version > row.version:
            return (
                "reordered",
                f"it links to the event now at version {target.version}",
                row.version,
            )
        if target is not None and target.version < row.version - 1:
            span = _span(target.version + 1, row.version - 1)
            return (
                "inserted",
                f"version {span} was inserted: version {row.version} links to version "
                f"{target.version}, no event links to the inserted one",
                target.version + 1,
            )
        if row.self_ok:
            return (
                "changed",
                f"it was changed and re-hashed: version {row.version} still links to its "
                "original hash",
                row.version - 1,
            )
        return (
            "deleted",
            "the event it links to is missing (deleted, the later events renumbered)",
            row.version,
        )
    if not row.self_ok:
        return "changed", "its content does not match its hash", row.version
    return None
