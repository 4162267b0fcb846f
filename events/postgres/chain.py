"""The event chain's checkpoints as stored (``chain_checkpoints``, their leaves), and what
making and verifying them reads of the events (``service.chain`` computes and checks
every hash and signature itself: nothing here is trusted for that).

A checkpoint's horizon is the xmin of a snapshot: below it no transaction can still
commit, the rule ``events.postgres.store.read_all`` follows, so every later statement (any
snapshot) sees the same events under it. Makers take a transaction-level advisory lock, so
a crashed holder releases it.
"""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import AsyncIterator, Sequence
from datetime import datetime
from typing import Any, Final, NamedTuple

from russian_poker.events.postgres.pool import Database, acquired

__all__ = [
    "CHECKPOINT_LOCK",
    "ChainEvent",
    "ChainSnapshot",
    "ChainStore",
    "CheckpointLeaf",
    "CheckpointMaking",
    "Head",
    "HeadMismatch",
    "Horizon",
    "LeafRow",
    "CHAINED_FIELDS",
    "ChainedEvent",
    "Inclusion",
    "StoredCheckpoint",
]

CHECKPOINT_LOCK: Final = int.from_bytes(
    hashlib.sha256(b"chain:checkpoint").digest()[:8], "big", signed=True
)
"""Advisory lock serialising checkpoint makers (``seq`` and ``prev_digest`` need it)."""

_PREFETCH: Final = 5000

_HORIZON: Final = "SELECT pg_snapshot_xmin(pg_current_snapshot()) AS xmin, now() AS at"
_LAST: Final = """
SELECT seq, created_at, upto_tx_id, upto_position, prev_digest, leaf_count, merkle_root, digest,
       key_id, signature
FROM chain_checkpoints ORDER BY seq DESC LIMIT 1
"""
# Streams with an event in [after, below), each with its head below the horizon (a stream
# may have an event under the horizon written after one above it: the head is the highest).
_HEADS: Final = """
WITH touched AS (
    SELECT stream_id, max(global_position) AS position FROM events
    WHERE tx_id >= $1::xid8 AND tx_id < $2::xid8
    GROUP BY stream_id
)
SELECT t.stream_id, t.position, head.stream_version, head.hash
FROM touched AS t
CROSS JOIN LATERAL (
    SELECT e.stream_version, e.hash FROM events AS e
    WHERE e.stream_id = t.stream_id AND e.tx_id < $2::xid8
    ORDER BY e.stream_version DESC LIMIT 1
) AS head
"""
_INSERT: Final = """
INSERT INTO chain_checkpoints (seq, created_at, upto_tx_id, upto_position, prev_digest,
                               leaf_count, merkle_root, digest, key_id, signature)
VALUES ($1, $2, $3::xid8, $4, $5, $6, $7, $8, $9, $10)
"""
_INSERT_LEAVES: Final = """
INSERT INTO chain_checkpoint_leaves (seq, stream_id, stream_version, hash)
SELECT $1, s, v, h FROM unnest($2::text[], $3::bigint[], $4::bytea[]) AS l(s, v, h)
"""
# Published outside the database: one notification per seamless operator (an internal
# one has no URL to be called at), queued with the checkpoint (migration 0019).
_QUEUE_NOTICES: Final = """
INSERT INTO checkpoint_notifications (operator_id, seq)
SELECT operator_id, $1 FROM operators WHERE wallet_mode = 'seamless'
"""
# A settled round's events at its table (their first and last version), the first
# checkpoint whose leaf for that stream is at or past them, and the events up to that leaf.
_ROUND_SPAN: Final = """
SELECT min(stream_version) AS first, max(stream_version) AS last,
       bool_or(event_type = 'RoundSettled') AS settled
FROM events WHERE stream_id = $1 AND (data->>'round')::int = $2
"""
_COVERING: Final = """
SELECT seq FROM chain_checkpoint_leaves
WHERE stream_id = $1 AND stream_version >= $2 ORDER BY seq LIMIT 1
"""
CHAINED_FIELDS: Final = """global_position, tx_id, stream_id, stream_version, event_id,
       event_type, schema_version, data::text AS data, metadata::text AS metadata, recorded_at,
       prev_hash, hash"""
"""The columns of a :class:`ChainedEvent`, in its order."""
_LINKED: Final = f"""
SELECT {CHAINED_FIELDS} FROM events
WHERE stream_id = $1 AND stream_version BETWEEN $2 AND $3 ORDER BY stream_version
"""
_FIELDS: Final = """
e.stream_id, e.stream_version, e.event_id, e.event_type, e.schema_version,
e.data::text AS data, e.metadata::text AS metadata, e.recorded_at, e.prev_hash, e.hash
"""
_EVENTS: Final = f"""
SELECT {_FIELDS}, NULL::bytea AS pred_hash, false AS pred_present FROM events AS e
ORDER BY e.stream_id, e.stream_version
"""
# A window: each stream's first event in it is still checked against its predecessor.
_EVENTS_IN: Final = f"""
SELECT {_FIELDS}, p.hash AS pred_hash, p.stream_id IS NOT NULL AS pred_present
FROM events AS e
LEFT JOIN events AS p ON p.stream_id = e.stream_id AND p.stream_version = e.stream_version - 1
WHERE ($1::timestamptz IS NULL OR e.recorded_at >= $1)
  AND ($2::timestamptz IS NULL OR e.recorded_at < $2)
ORDER BY e.stream_id, e.stream_version
"""
_STREAM: Final = f"""
SELECT {_FIELDS}, NULL::bytea AS pred_hash, false AS pred_present FROM events AS e
WHERE e.stream_id = $1 ORDER BY e.stream_version
"""
_HEAD_MISMATCHES: Final = """
SELECT coalesce(s.stream_id, e.stream_id) AS stream_id, s.version, e.last
FROM streams AS s
FULL JOIN (SELECT stream_id, max(stream_version) AS last FROM events GROUP BY stream_id) AS e
    ON e.stream_id = s.stream_id
WHERE s.version IS DISTINCT FROM e.last
ORDER BY 1
"""
_CHECKPOINTS: Final = """
SELECT c.seq, c.created_at, c.upto_tx_id, c.upto_position, c.prev_digest, c.leaf_count,
       c.merkle_root, c.digest, c.key_id, c.signature,
       l.stream_id, l.stream_version, l.hash AS leaf_hash, e.hash AS event_hash,
       e.stream_id IS NOT NULL AS present
FROM chain_checkpoints AS c
LEFT JOIN chain_checkpoint_leaves AS l ON l.seq = c.seq
LEFT JOIN events AS e ON e.stream_id = l.stream_id AND e.stream_version = l.stream_version
ORDER BY c.seq, l.stream_id COLLATE "C"
"""
_UNCOVERED: Final = "SELECT count(*) FROM events WHERE tx_id >= $1::xid8"
_PAGE: Final = """
SELECT seq, created_at, upto_tx_id, upto_position, prev_digest, leaf_count, merkle_root, digest,
       key_id, signature
FROM chain_checkpoints WHERE seq > $1 ORDER BY seq LIMIT $2
"""
_PAGE_LEAVES: Final = """
SELECT seq, stream_id, stream_version, hash FROM chain_checkpoint_leaves
WHERE seq = ANY($1::bigint[]) ORDER BY seq, stream_id COLLATE "C"
"""


class StoredCheckpoint(NamedTuple):
    """A row of ``chain_checkpoints``."""

    seq: int
    created_at: datetime
    upto_tx_id: int
    upto_position: int
    prev_digest: bytes
    leaf_count: int
    merkle_root: bytes
    digest: bytes
    key_id: str
    signature: bytes


class LeafRow(NamedTuple):
    """A stream head a checkpoint commits to, as stored."""

    stream_id: str
    stream_version: int
    hash: bytes


class Horizon(NamedTuple):
    """The xmin of the maker's snapshot (no transaction below it can still commit), and
    the database's time."""

    xmin: int
    at: datetime


class Head(NamedTuple):
    """A stream changed since the last checkpoint: its head below the horizon, and its
    highest global position in the range."""

    stream_id: str
    position: int
    stream_version: int
    hash: bytes


class ChainEvent(NamedTuple):
    """An event as the chain hashes it, with the hash of the event before it when a window
    starts after the stream's beginning."""

    stream_id: str
    stream_version: int
    event_id: Any
    event_type: str
    schema_version: int
    data: str
    metadata: str
    recorded_at: datetime
    prev_hash: bytes
    hash: bytes
    pred_hash: bytes | None
    pred_present: bool


class ChainedEvent(NamedTuple):
    """An event as stored, with its links: ``data`` and ``metadata`` are PostgreSQL's
    canonical ``jsonb`` text, the bytes the hash covers."""

    global_position: int
    tx_id: int
    stream_id: str
    stream_version: int
    event_id: Any
    event_type: str
    schema_version: int
    data: str
    metadata: str
    recorded_at: datetime
    prev_hash: bytes
    hash: bytes


class Inclusion(NamedTuple):
    """A settled round's events (versions ``first`` to ``last`` of its table's stream), the
    first checkpoint that covers them with its leaves (``None`` and none: not covered yet),
    and the stream's events from ``first`` up to that checkpoint's leaf (else to ``last``)."""

    first: int
    last: int
    checkpoint: StoredCheckpoint | None
    leaves: list[LeafRow]
    events: list[ChainedEvent]


class HeadMismatch(NamedTuple):
    """A stream whose ``streams.version`` is not its last event's version (``None``: no
    row, or no event)."""

    stream_id: str
    version: int | None
    last: int | None


class CheckpointLeaf(NamedTuple):
    """A checkpoint with one of its leaves (``None``: it has none), and the event the leaf
    names if it is still there (``present``) with that event's hash as stored now."""

    checkpoint: StoredCheckpoint
    leaf: LeafRow | None
    event_hash: bytes | None
    present: bool


class CheckpointMaking:
    """The next checkpoint being made, the makers' lock held."""

    def __init__(self, conn: Any) -> None:
        self._conn = conn

    async def horizon(self) -> Horizon:
        row = await self._conn.fetchrow(_HORIZON)
        return Horizon(int(row["xmin"]), row["at"])

    async def last(self) -> StoredCheckpoint | None:
        row = await self._conn.fetchrow(_LAST)
        return StoredCheckpoint(*row) if row is not None else None

    async def heads(self, after: int, below: int) -> list[Head]:
        """The heads below ``below`` of the streams with an event in ``[after, below)``."""
        return [Head(*row) for row in await self._conn.fetch(_HEADS, after, below)]

    async def insert(self, checkpoint: StoredCheckpoint, leaves: Sequence[LeafRow]) -> None:
        await self._conn.execute(_INSERT, *checkpoint)
        await self._conn.execute(
            _INSERT_LEAVES,
            checkpoint.seq,
            [x.stream_id for x in leaves],
            [x.stream_version for x in leaves],
            [x.hash for x in leaves],
        )
        await self._conn.execute(_QUEUE_NOTICES, checkpoint.seq)


class ChainSnapshot:
    """What verifying reads, in one consistent snapshot, through server-side cursors."""

    def __init__(self, conn: Any) -> None:
        self._conn = conn

    async def events(
        self, start: datetime | None, end: datetime | None
    ) -> AsyncIterator[ChainEvent]:
        """Every event recorded in ``[start, end)`` (default: all), stream by stream in
        version order; in a window, each with its predecessor's hash."""
        if start is None and end is None:
            cursor = self._conn.cursor(_EVENTS, prefetch=_PREFETCH)
        else:
            cursor = self._conn.cursor(_EVENTS_IN, start, end, prefetch=_PREFETCH)
        async for row in cursor:
            yield ChainEvent(*row)

    async def stream(self, stream_id: str) -> list[ChainEvent]:
        return [ChainEvent(*row) for row in await self._conn.fetch(_STREAM, stream_id)]

    async def head_mismatches(self) -> list[HeadMismatch]:
        return [HeadMismatch(*row) for row in await self._conn.fetch(_HEAD_MISMATCHES)]

    async def checkpoint_leaves(self) -> AsyncIterator[CheckpointLeaf]:
        """Every checkpoint in order, one row per leaf in the tree's order (by the stream
        id's bytes), or one row without a leaf."""
        async for row in self._conn.cursor(_CHECKPOINTS, prefetch=_PREFETCH):
            values = tuple(row)
            stream_id, stream_version, leaf_hash, event_hash, present = values[10:]
            leaf = LeafRow(stream_id, stream_version, leaf_hash) if stream_id is not None else None
            yield CheckpointLeaf(StoredCheckpoint(*values[:10]), leaf, event_hash, present)

    async def uncovered(self, horizon: int) -> int:
        """Events at or above ``horizon``: linked, not yet signed for."""
        count: int = await self._conn.fetchval(_UNCOVERED, horizon)
        return count


class ChainStore:
    """The checkpoints on ``db``."""

    def __init__(self, db: Database) -> None:
        self._db = db

    @contextlib.asynccontextmanager
    async def making(self, *, wait: bool = True) -> AsyncIterator[CheckpointMaking | None]:
        """A transaction holding the makers' lock (waiting for it, or ``None`` at once
        when another maker holds it and not ``wait``)."""
        async with acquired(self._db) as conn, conn.transaction():
            # READ COMMITTED on purpose: the statements after the lock see the checkpoint its
            # previous holder committed (a REPEATABLE READ snapshot would predate the lock).
            if wait:
                await conn.execute("SELECT pg_advisory_xact_lock($1)", CHECKPOINT_LOCK)
            elif not await conn.fetchval("SELECT pg_try_advisory_xact_lock($1)", CHECKPOINT_LOCK):
                yield None
                return
            yield CheckpointMaking(conn)

    @contextlib.asynccontextmanager
    async def snapshot(self) -> AsyncIterator[ChainSnapshot]:
        """A REPEATABLE READ, read-only transaction."""
        async with (
            acquired(self._db) as conn,
            conn.transaction(isolation="repeatable_read", readonly=True),
        ):
            yield ChainSnapshot(conn)

    async def inclusion(self, stream_id: str, number: int) -> Inclusion | None:
        """What proves round ``number`` of the table stream ``stream_id`` is in a signed
        checkpoint (without one while none covers it yet); ``None`` if the round is not
        settled."""
        async with acquired(self._db) as conn, conn.transaction(isolation="repeatable_read"):
            span = await conn.fetchrow(_ROUND_SPAN, stream_id, number)
            if span is None or not span["settled"]:
                return None
            first, upto = span["first"], span["last"]
            checkpoint, leaves = None, []
            seq = await conn.fetchval(_COVERING, stream_id, upto)
            if seq is not None:
                (row,) = await conn.fetch(_PAGE, seq - 1, 1)
                checkpoint = StoredCheckpoint(*row)
                leaves = [
                    LeafRow(x["stream_id"], x["stream_version"], x["hash"])
                    for x in await conn.fetch(_PAGE_LEAVES, [seq])
                ]
                upto = next(x for x in leaves if x.stream_id == stream_id).stream_version
            events = await conn.fetch(_LINKED, stream_id, first, upto)
        return Inclusion(
            first, span["last"], checkpoint, leaves, [ChainedEvent(*e) for e in events]
        )

    async def page(
        self, after_seq: int, limit: int
    ) -> list[tuple[StoredCheckpoint, list[LeafRow]]]:
        """Up to ``limit`` checkpoints after ``after_seq``, each with its leaves in the
        tree's order."""
        async with acquired(self._db) as conn, conn.transaction(isolation="repeatable_read"):
            rows = await conn.fetch(_PAGE, after_seq, limit)
            leaves = await conn.fetch(_PAGE_LEAVES, [r["seq"] for r in rows])
        by_seq: dict[int, list[LeafRow]] = {r["seq"]: [] for r in rows}
        for leaf in leaves:
            by_seq[leaf["seq"]].append(
                LeafRow(leaf["stream_id"], leaf["stream_version"], leaf["hash"])
            )
        return [(StoredCheckpoint(*r), by_seq[r["seq"]]) for r in rows]
