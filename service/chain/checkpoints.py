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
from typing import Any, Final

import msgspec
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from russian_poker.events.postgres.chain import ChainStore, LeafRow, StoredCheckpoint
from russian_poker.service.chain.hashing import GENESIS, micros
from russian_poker.service.chain.keys import key_id
from russian_poker.service.chain.merkle import leaf_bytes, merkle_root

__all__ = [
    "Checkpoint",
    "Leaf",
    "checkpoint_digest",
    "make_checkpoint",
    "sorted_leaves",
]

DOMAIN: Final = b"russian-poker/chain-checkpoint/v1\x00"
_BODY: Final = struct.Struct(">qqQq32sq32s32s")


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
    store: ChainStore, key: Ed25519PrivateKey, *, allow_empty: bool = False, wait: bool = True
) -> Checkpoint | None:
    """Sign and store the next checkpoint; ``None`` when no stream changed since the last
    one (unless ``allow_empty``) or, without ``wait``, another maker holds the lock."""
    async with store.making(wait=wait) as making:
        if making is None:
            return None
        horizon = await making.horizon()
        last = await making.last()
        after = last.upto_tx_id if last else 0
        # Below an xmin nothing can still commit, so every later statement (any snapshot)
        # sees the same events under it.
        below = max(horizon.xmin, after)
        heads = await making.heads(after, below)
        if not heads and not allow_empty:
            return None
        leaves = sorted_leaves(
            [
                Leaf(stream_id=h.stream_id, stream_version=h.stream_version, hash=h.hash)
                for h in heads
            ]
        )
        position = max([last.upto_position if last else 0, *(h.position for h in heads)])
        public = key.public_key()
        values: dict[str, Any] = {
            "seq": (last.seq + 1) if last else 1,
            "created_at": horizon.at,
            "upto_tx_id": below,
            "upto_position": position,
            "prev_digest": bytes(last.digest) if last else GENESIS,
            "leaf_count": len(leaves),
            "merkle_root": merkle_root(
                [leaf_bytes(x.stream_id, x.stream_version, x.hash) for x in leaves]
            ),
            "key_id": key_id(public),
        }
        digest = checkpoint_digest(**values)
        checkpoint = Checkpoint(**values, digest=digest, signature=key.sign(digest))
        await making.insert(
            StoredCheckpoint(**msgspec.structs.asdict(checkpoint)),
            [LeafRow(x.stream_id, x.stream_version, x.hash) for x in leaves],
        )
        return checkpoint
