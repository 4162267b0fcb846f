"""The event chain's signed checkpoints for auditors, who keep them elsewhere: a copy the
database's insiders cannot reach is what makes a deleted or rewritten history visible."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

import msgspec
from litestar import Controller, get
from litestar.params import QueryParameter

from russian_poker.service.app.dependencies import CheckpointKey, Store
from russian_poker.service.app.policy import access
from russian_poker.service.app.responses import problems
from russian_poker.service.chain.keys import key_id, public_pem, raw_public

__all__ = ["ChainController", "CheckpointPage", "CheckpointView", "LeafView", "PublicKey"]


class LeafView(msgspec.Struct, frozen=True, kw_only=True):
    """A stream head a checkpoint commits to."""

    stream_id: Annotated[str, msgspec.Meta(description="The stream's id.")]
    stream_version: Annotated[
        int, msgspec.Meta(description="Its highest version below the checkpoint's horizon.")
    ]
    hash: Annotated[str, msgspec.Meta(description="That event's chain hash, hex.")]


class CheckpointView(msgspec.Struct, frozen=True, kw_only=True):
    """A signed checkpoint with its leaves (docs/audit.md, "Tamper-evident log")."""

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
    leaves: Annotated[
        list[LeafView],
        msgspec.Meta(
            description=(
                "The head of every stream changed since the previous checkpoint, ordered by the"
                " stream id's UTF-8 bytes."
            )
        ),
    ]


class CheckpointPage(msgspec.Struct, frozen=True, kw_only=True):
    """A page of checkpoints, oldest first."""

    items: Annotated[list[CheckpointView], msgspec.Meta(description="Checkpoints in order.")]
    next_after_seq: Annotated[
        int,
        msgspec.Meta(
            description="Pass as `after_seq` for the next page; equals the input at the end."
        ),
    ]


class PublicKey(msgspec.Struct, frozen=True, kw_only=True):
    """The key checkpoints are signed with: keep it (and the checkpoints) elsewhere."""

    algorithm: Annotated[str, msgspec.Meta(description="Always `Ed25519`.")]
    key_id: Annotated[
        str, msgspec.Meta(description="SHA-256 of the 32 raw key bytes, hex, as in checkpoints.")
    ]
    public_key: Annotated[str, msgspec.Meta(description="The 32 raw key bytes, hex.")]
    pem: Annotated[
        str,
        msgspec.Meta(
            description="SubjectPublicKeyInfo PEM, for `audit verify-chain --public-key`."
        ),
    ]


class ChainController(Controller):
    path = "/v1/audit/checkpoints"
    tags = ("audit",)

    @get(
        "",
        summary="The event chain's signed checkpoints",
        description=(
            "Each checkpoint's leaves name every stream of every operator: admins and the"
            " game's own auditors read them."
        ),
        responses=problems(),
        opt=access("auditor", "admin", unbound_only=True),
        operation_id="listCheckpoints",
    )
    async def checkpoints(
        self,
        store: Store,
        after_seq: Annotated[
            int,
            QueryParameter(
                ge=0,
                le=2**63 - 1,
                description="Checkpoints after this `seq`; 0 (the default) from the first.",
            ),
        ] = 0,
        limit: Annotated[
            int, QueryParameter(ge=1, le=100, description="Checkpoints per page, 1..100.")
        ] = 20,
    ) -> CheckpointPage:
        items = [
            CheckpointView(
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
                leaves=[
                    LeafView(
                        stream_id=leaf.stream_id,
                        stream_version=leaf.stream_version,
                        hash=bytes(leaf.hash).hex(),
                    )
                    for leaf in leaves
                ],
            )
            for c, leaves in await store.chain.page(after_seq, limit)
        ]
        return CheckpointPage(items=items, next_after_seq=items[-1].seq if items else after_seq)

    @get(
        "/public-key",
        summary="The key checkpoints are signed with",
        responses=problems(),
        opt=access("auditor", "admin"),
        description=(
            "The Ed25519 public key (PEM) that signs the event chain's checkpoints; "
            "`russian-poker audit verify-chain --public-key` checks them with it."
        ),
        operation_id="getCheckpointPublicKey",
    )
    async def public_key(self, checkpoint_key: CheckpointKey) -> PublicKey:
        key = checkpoint_key
        return PublicKey(
            algorithm="Ed25519",
            key_id=key_id(key),
            public_key=raw_public(key).hex(),
            pem=public_pem(key),
        )
