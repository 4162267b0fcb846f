"""Signed checkpoints of the event chain (docs/audit.md, "Tamper-evident log").

A checkpoint covers every event with ``tx_id`` below its horizon (the xmin of a snapshot:
no transaction below it can still commit, the rule ``read_all`` follows). Its leaves are
the heads of the streams with an event between the previous horizon and its own, so a
checkpoint costs O(streams changed), and the chain of checkpoints (each names the digest of
the one before) commits to every stream head. The digest is signed with Ed25519.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Sequence
from datetime import datetime
from typing import Final

import msgspec
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from russian_poker.events.postgres.store import AnyConnection
from russian_poker.service.chain.hashing import GENESIS, micros
from russian_poker.service.chain.keys import key_id
from russian_poker.service.chain.merkle import leaf_bytes, merkle_root

__all__ = [
    "CHECKPOINT_LOCK",
    "Checkpoint",
    "Leaf",
    "checkpoint_digest",
    "make_checkpoint",
    "sorted_leaves",
]

CHECKPOINT_LOCK: Final = int.from_bytes(
    hashlib.sha256(b"chain:checkpoint").digest()[:8], "big", signed=True
)
"""Advisory lock serialising checkpoint makers (``seq`` and ``prev_digest`` need it)."""

DOMAIN: Final = b"russian-poker/chain-checkpoint/v1\x00"
_BODY: Final = struct.Struct(">qqQq32sq32s32s")

_HORIZON: Final = "SELECT pg_snapshot_xmin(pg_current_snapshot()) AS xmin, now() AS at"
_LAST: Final = """
SELECT seq, upto_tx_id, upto_position, digest FROM chain_checkpoints ORDER BY seq DESC LIMIT 1
"""
# Streams with an event in [after, below), each with its head below the horizon (a stream
# may have an event under the horizon written after one above it: the head is the highest).
_LEAVES: Final = """
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


class Leaf(msgspec.Struct, frozen=True, kw_only=True):
    """A stream's head as a checkpoint commits to it."""

    stream_id: str
    stream_version: int
    hash: bytes


class Checkpoint(msgspec.Struct, frozen=True, kw_only=True):
    """A checkpoint as stored (``digest`` and ``signature`` over the other fields)."""

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


def checkpoint_digest(
    *,
    seq: int,
    created_at: datetime | int,
    upto_tx_id: int,
    upto_position: int,
    prev_digest: bytes,
    leaf_count: int,
    merkle_root: bytes,
    key_id: str,
) -> bytes:
    """sha256(DOMAIN ‖ int8 seq ‖ int8 created_at µs ‖ uint8 upto_tx_id ‖ int8 upto_position
    ‖ prev_digest ‖ int8 leaf_count ‖ merkle_root ‖ key id (32 raw bytes))."""
    at = created_at if isinstance(created_at, int) else micros(created_at)
    body = _BODY.pack(
        seq,
        at,
        upto_tx_id,
        upto_position,
        prev_digest,
        leaf_count,
        merkle_root,
        bytes.fromhex(key_id),
    )
    return hashlib.sha256(DOMAIN + body).digest()


def sorted_leaves(leaves: Sequence[Leaf]) -> list[Leaf]:
    """Leaves in the tree's order: by the UTF-8 bytes of the stream id."""
    return sorted(leaves, key=lambda leaf: leaf.stream_id.encode())


async def make_checkpoint(
    conn: AnyConnection, key: Ed25519PrivateKey, *, allow_empty: bool = False, wait: bool = True
) -> Checkpoint | None:
    """Sign and store the next checkpoint; ``None`` when no stream changed since the last
    one (unless ``allow_empty``) or, without ``wait``, another maker holds the lock."""
    async with conn.transaction():
        # READ COMMITTED on purpose: the statements after the lock see the checkpoint its
        # previous holder committed (a REPEATABLE READ snapshot would predate the lock).
        if wait:
            await conn.execute("SELECT pg_advisory_xact_lock($1)", CHECKPOINT_LOCK)
        elif not await conn.fetchval("SELECT pg_try_advisory_xact_lock($1)", CHECKPOINT_LOCK):
            return None
        horizon = await conn.fetchrow(_HORIZON)
        assert horizon is not None
        last = await conn.fetchrow(_LAST)
        after = int(last["upto_tx_id"]) if last else 0
        # Below an xmin nothing can still commit, so every later statement (any snapshot)
        # sees the same events under it.
        below = max(int(horizon["xmin"]), after)
        rows = await conn.fetch(_LEAVES, after, below)
        if not rows and not allow_empty:
            return None
        leaves = sorted_leaves(
            [
                Leaf(stream_id=r["stream_id"], stream_version=r["stream_version"], hash=r["hash"])
                for r in rows
            ]
        )
        position = max([last["upto_position"] if last else 0, *(r["position"] for r in rows)])
        public = key.public_key()
        values = {
            "seq": (last["seq"] + 1) if last else 1,
            "created_at": horizon["at"],
            "upto_tx_id": below,
            "upto_position": position,
            "prev_digest": bytes(last["digest"]) if last else GENESIS,
            "leaf_count": len(leaves),
            "merkle_root": merkle_root(
                [leaf_bytes(x.stream_id, x.stream_version, x.hash) for x in leaves]
            ),
            "key_id": key_id(public),
        }
        digest = checkpoint_digest(**values)
        checkpoint = Checkpoint(**values, digest=digest, signature=key.sign(digest))
        await conn.execute(
            _INSERT,
            checkpoint.seq,
            checkpoint.created_at,
            checkpoint.upto_tx_id,
            checkpoint.upto_position,
            checkpoint.prev_digest,
            checkpoint.leaf_count,
            checkpoint.merkle_root,
            checkpoint.digest,
            checkpoint.key_id,
            checkpoint.signature,
        )
        await conn.execute(
            _INSERT_LEAVES,
            checkpoint.seq,
            [x.stream_id for x in leaves],
            [x.stream_version for x in leaves],
            [x.hash for x in leaves],
        )
        return checkpoint
