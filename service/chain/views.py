"""A checkpoint as auditors receive it: served by ``GET /v1/audit/checkpoints`` and written
to an audit bundle's ``checkpoints.jsonl``, one shape for both (byte strings in hex)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

import msgspec

from russian_poker.events.postgres.chain import LeafRow, StoredCheckpoint

__all__ = [
    "CheckpointSummary",
    "CheckpointView",
    "LeafView",
    "checkpoint_summary",
    "checkpoint_view",
]


class LeafView(msgspec.Struct, frozen=True, kw_only=True):
    """A stream head a checkpoint commits to."""

    stream_id: Annotated[str, msgspec.Meta(description="The stream's id.")]
    stream_version: Annotated[
        int, msgspec.Meta(description="Its highest version below the checkpoint's horizon.")
    ]
    hash: Annotated[str, msgspec.Meta(description="That event's chain hash, hex.")]


class CheckpointSummary(msgspec.Struct, frozen=True, kw_only=True):
    """A signed checkpoint without its leaves: all its digest covers but the tree, whose
    root it names (docs/audit.md, "Tamper-evident log")."""

    seq: Annotated[int, msgspec.Meta(description="Its number: 1, 2, 3 … without gaps.")]
    created_at: Annotated[datetime, msgspec.Meta(description="When it was made (µs).")]
    upto_tx_id: Annotated[
        str,
        msgspec.Meta(
            description="Its horizon: it covers every event with a tx_id below this (decimal)."
        ),
    ]
    upto_position: Annotated[
        int, msgspec.Meta(description="The greatest global position among the events covered.")
    ]
    prev_digest: Annotated[
        str, msgspec.Meta(description="The previous checkpoint's digest, hex (zeros for 1).")
    ]
    leaf_count: Annotated[int, msgspec.Meta(description="How many leaves it has.")]
    merkle_root: Annotated[
        str, msgspec.Meta(description="RFC 6962 Merkle tree hash of its leaves, hex.")
    ]
    digest: Annotated[
        str, msgspec.Meta(description="SHA-256 of its canonical body, hex: what is signed.")
    ]
    key_id: Annotated[
        str, msgspec.Meta(description="SHA-256 of the signing key's 32 raw bytes, hex.")
    ]
    signature: Annotated[
        str, msgspec.Meta(description="Ed25519 signature of `digest` (its 32 bytes), hex.")
    ]


class CheckpointView(CheckpointSummary, frozen=True, kw_only=True):
    """A signed checkpoint with its leaves (docs/audit.md, "Tamper-evident log")."""

    leaves: Annotated[
        list[LeafView],
        msgspec.Meta(
            description=(
                "The head of every stream changed since the previous checkpoint, ordered by the"
                " stream id's UTF-8 bytes."
            )
        ),
    ]


def checkpoint_summary(c: StoredCheckpoint) -> CheckpointSummary:
    """A stored checkpoint, its leaves left out."""
    return CheckpointSummary(
        seq=c.seq,
        created_at=c.created_at,
        upto_tx_id=str(c.upto_tx_id),
        upto_position=c.upto_position,
        prev_digest=bytes(c.prev_digest).hex(),
        leaf_count=c.leaf_count,
        merkle_root=bytes(c.merkle_root).hex(),
        digest=bytes(c.digest).hex(),
        key_id=c.key_id,
        signature=bytes(c.signature).hex(),
    )


def checkpoint_view(c: StoredCheckpoint, leaves: list[LeafRow]) -> CheckpointView:
    """A stored checkpoint and its leaves, as auditors receive them."""
    return CheckpointView(
        **msgspec.structs.asdict(checkpoint_summary(c)),
        leaves=[
            LeafView(
                stream_id=leaf.stream_id,
                stream_version=leaf.stream_version,
                hash=bytes(leaf.hash).hex(),
            )
            for leaf in leaves
        ],
    )
