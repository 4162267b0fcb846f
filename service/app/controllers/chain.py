"""The event chain's signed checkpoints for auditors, who keep them elsewhere: a copy the
database's insiders cannot reach is what makes a deleted or rewritten history visible."""

from __future__ import annotations

from typing import Annotated

import msgspec
from litestar import Controller, get
from litestar.params import QueryParameter

from russian_poker.projections.paging import read_serial, serial_cursor
from russian_poker.service.app.dependencies import CheckpointKey, Store
from russian_poker.service.app.params import PageCursor
from russian_poker.service.app.policy import access
from russian_poker.service.app.responses import problems
from russian_poker.service.chain.keys import key_id, public_pem, raw_public
from russian_poker.service.chain.views import CheckpointView, checkpoint_view

__all__ = ["ChainController", "CheckpointPage", "PublicKey"]


class CheckpointPage(msgspec.Struct, frozen=True, kw_only=True):
    """A page of checkpoints, oldest first."""

    items: Annotated[list[CheckpointView], msgspec.Meta(description="Checkpoints in order.")]
    next_cursor: Annotated[
        str,
        msgspec.Meta(
            description=(
                "Pass back as `cursor` for the next page. Never null: the checkpoints are a"
                " tail to follow, and this equals the `cursor` given when none is newer."
            )
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
        responses=problems(422),
        opt=access("auditor", "admin", unbound_only=True),
        operation_id="listCheckpoints",
    )
    async def checkpoints(
        self,
        store: Store,
        cursor: PageCursor = None,
        limit: Annotated[
            int, QueryParameter(ge=1, le=100, description="Checkpoints per page, 1..100.")
        ] = 20,
    ) -> CheckpointPage:
        after_seq = read_serial(cursor) or 0
        items = [
            checkpoint_view(c, leaves) for c, leaves in await store.chain.page(after_seq, limit)
        ]
        return CheckpointPage(
            items=items, next_cursor=serial_cursor(items[-1].seq if items else after_seq)
        )

    @get(
        "/public-key",
        summary="The key checkpoints are signed with",
        responses=problems(),
        # Not a secret: an operator's staff check round inclusion proofs with it too.
        opt=access("operator", "auditor", "admin"),
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
