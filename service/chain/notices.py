"""Checkpoints published outside the database: each signed checkpoint is posted to every
seamless operator (docs/integration.md, "Checkpoint notifications"), which keeps it. An
insider who later deletes or rewrites the store's checkpoints cannot recall those copies,
and ``verify-chain --trusted-checkpoint`` checks the store against one of them."""

from __future__ import annotations

import uuid
from typing import Annotated, Final

import msgspec

from russian_poker.events.postgres.notices import QueuedCheckpoint
from russian_poker.service.chain.views import CheckpointSummary, checkpoint_summary

__all__ = ["CHECKPOINT_DECLINED", "CHECKPOINT_PATH", "CheckpointNotice", "checkpoint_notice_of"]

CHECKPOINT_PATH: Final = "notifications/checkpoint"
"""Where it goes: ``POST {the operator's wallet url}/notifications/checkpoint``."""

CHECKPOINT_DECLINED: Final = frozenset({404, 405, 501})
"""A wallet without the endpoint: that checkpoint is not sent to it again (its auditors
keep the checkpoints from ``GET /v1/audit/checkpoints`` instead)."""


class CheckpointNotice(msgspec.Struct, frozen=True, kw_only=True):
    """The body of ``POST {url}/notifications/checkpoint``, signed like every wallet call
    (``X-Signature``). Any 2xx acknowledges it; until then it is sent again with backoff.
    Checkpoints arrive one at a time, in sequence."""

    notification_id: Annotated[
        str,
        msgspec.Meta(
            description=(
                "The idempotency key, `checkpoint-<seq>-<first 16 hex digits of the digest>`:"
                " the same on every re-send, never reused. Record it once; answer a repeat"
                " with 2xx again."
            )
        ),
    ]
    request_id: Annotated[str, msgspec.Meta(description="New for every attempt, for tracing only.")]
    operator_id: Annotated[str, msgspec.Meta(description="The operator notified.")]
    checkpoint: Annotated[
        CheckpointSummary,
        msgspec.Meta(
            description=(
                "The checkpoint as signed: keep `seq` and `digest` (an auditor passes them to"
                " `verify-chain --trusted-checkpoint SEQ:DIGEST`)."
            )
        ),
    ]


def checkpoint_notice_of(row: QueuedCheckpoint) -> CheckpointNotice | str:
    """The wire body of a queued checkpoint notification, or why there is none: the
    checkpoint is gone from the store (deleted after it was made)."""
    if row.checkpoint is None:
        return f"checkpoint {row.notification_id} is no longer in the store"
    summary = checkpoint_summary(row.checkpoint)
    return CheckpointNotice(
        notification_id=f"checkpoint-{summary.seq}-{summary.digest[:16]}",
        request_id=uuid.uuid4().hex,
        operator_id=row.operator_id,
        checkpoint=summary,
    )
