"""A settled round's inclusion in a signed checkpoint, as a proof a browser (or anyone)
checks without trusting the server: the round's events with every input of their hashes,
the stream's later events up to the checkpoint's leaf, the leaf's Merkle audit path, and
the checkpoint. Recomputing each hash from its inputs and linking them to the leaf, the
leaf to the root, and the root (in the digest) to the signature shows the events are the
ones the key signed (docs/audit.md, "The event hash", "Checkpoints")."""

from __future__ import annotations

from typing import Annotated, cast

import msgspec

from russian_poker.events.codec import EventType
from russian_poker.events.postgres.chain import ChainStore
from russian_poker.events.streams import table_stream
from russian_poker.service.chain.hashing import micros
from russian_poker.service.chain.merkle import audit_path, leaf_bytes
from russian_poker.service.chain.views import CheckpointSummary, checkpoint_summary

__all__ = ["LinkedEventView", "RoundInclusion", "round_inclusion"]


class LinkedEventView(msgspec.Struct, frozen=True, kw_only=True):
    """An event with every input of its hash."""

    stream_id: Annotated[str, msgspec.Meta(description="The table's stream, `table-<id>`.")]
    stream_version: Annotated[int, msgspec.Meta(description="The event's version in it.")]
    event_id: Annotated[str, msgspec.Meta(description="The event's UUID, canonical text.")]
    event_type: Annotated[EventType, msgspec.Meta(description="The event's type.")]
    schema_version: Annotated[int, msgspec.Meta(description="The version of its shape.")]
    data: Annotated[str, msgspec.Meta(description="The stored `jsonb`'s canonical text.")]
    metadata: Annotated[str, msgspec.Meta(description="The stored `jsonb`'s canonical text.")]
    recorded_at_us: Annotated[
        str, msgspec.Meta(description="Microseconds since the Unix epoch, decimal.")
    ]
    prev_hash: Annotated[str, msgspec.Meta(description="The previous event's hash, hex.")]
    hash: Annotated[str, msgspec.Meta(description="This event's hash, hex.")]


class RoundInclusion(msgspec.Struct, frozen=True, kw_only=True):
    """What shows a settled round's events are in a signed checkpoint."""

    table_id: Annotated[str, msgspec.Meta(description="The table.")]
    round: Annotated[int, msgspec.Meta(description="The round's number at that table.")]
    first_version: Annotated[
        int, msgspec.Meta(description="The stream version of the round's first event.")
    ]
    last_version: Annotated[
        int, msgspec.Meta(description="The stream version of its last (its settlement).")
    ]
    events: Annotated[
        list[LinkedEventView],
        msgspec.Meta(
            description=(
                "The table's events from `first_version` up to the checkpoint's leaf (to"
                " `last_version` while no checkpoint covers the round), in order: each one's"
                " `prev_hash` is the hash of the one before."
            )
        ),
    ]
    leaf_index: Annotated[
        int | None,
        msgspec.Meta(description="The leaf's index in the tree, from 0; null without one."),
    ]
    audit_path: Annotated[
        list[str],
        msgspec.Meta(description="RFC 6962 audit path of the leaf, hex, innermost first."),
    ]
    checkpoint: Annotated[
        CheckpointSummary | None,
        msgspec.Meta(
            description=(
                "The first checkpoint that covers the round; null until one does (one is"
                " made every `RUSSIAN_POKER_CHECKPOINT_EVERY_S` seconds while play goes on)."
            )
        ),
    ]


async def round_inclusion(store: ChainStore, table_id: str, number: int) -> RoundInclusion | None:
    """The proof (its checkpoint null while none covers the round), or ``None`` when the
    round is not settled."""
    stream_id = table_stream(table_id)
    found = await store.inclusion(stream_id, number)
    if found is None:
        return None
    leaves = [leaf_bytes(x.stream_id, x.stream_version, bytes(x.hash)) for x in found.leaves]
    index = next((i for i, x in enumerate(found.leaves) if x.stream_id == stream_id), None)
    return RoundInclusion(
        table_id=table_id,
        round=number,
        first_version=found.first,
        last_version=found.last,
        events=[
            LinkedEventView(
                stream_id=e.stream_id,
                stream_version=e.stream_version,
                event_id=str(e.event_id),
                event_type=cast("EventType", e.event_type),
                schema_version=e.schema_version,
                data=e.data,
                metadata=e.metadata,
                recorded_at_us=str(micros(e.recorded_at)),
                prev_hash=bytes(e.prev_hash).hex(),
                hash=bytes(e.hash).hex(),
            )
            for e in found.events
        ],
        leaf_index=index,
        audit_path=[] if index is None else [step.hex() for step in audit_path(leaves, index)],
        checkpoint=None if found.checkpoint is None else checkpoint_summary(found.checkpoint),
    )
