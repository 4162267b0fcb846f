"""The table-state read model's rules: how a table's state is encoded, and when the command
that left it writes the snapshot (the storage adapter, ``events.postgres.tables``, keeps the
row: each table's summary, current after every command, and the snapshot of its folded
aggregate).

The snapshot is written at round boundaries only (a round opened, no round in play, a round
settled), and at least once every :data:`SNAPSHOT_EVERY` versions: between them every load
folds the stream's tail after it, read in the load's own query, so a reader never sees a
stale table. The command path decides on what its process committed last
(``service.application.cache``) and loads only on a miss. Writing the 6 KB state on every
command cost more than a third of a command's WAL (docs/benchmarks.md, "Smaller writes").
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

import msgspec

from russian_poker.events.codec import decode_event
from russian_poker.service.rules.evolve import fold
from russian_poker.service.rules.state import Table

__all__ = [
    "SNAPSHOT_EVERY",
    "decode_state",
    "encode_state",
    "fold_tail",
    "snapshots",
]

SNAPSHOT_EVERY: Final = 64
"""A snapshot at least every this many versions (a version crossing a multiple of it), so a
round that goes on and on (bets placed and cancelled) never leaves a long tail to fold."""

_CROSSING: Final = 4
"""A command of up to this many table events that crosses a multiple of
:data:`SNAPSHOT_EVERY` lands within this many versions after it (bigger commands open or
settle rounds, which snapshot anyway)."""

_encoder: Final = msgspec.json.Encoder()
_decoder: Final = msgspec.json.Decoder(Table)


def encode_state(state: Table) -> bytes:
    return _encoder.encode(state)


def decode_state(data: bytes) -> Table:
    return _decoder.decode(data)


def fold_tail(
    state: Table, version: int, tail: Iterable[tuple[int, str, int, bytes]]
) -> tuple[Table, int]:
    """``state`` at ``version`` with the stream's later events (stream version, type, schema
    version, data) folded in."""
    for stream_version, name, schema, data in tail:
        state = fold(state, [decode_event(name, schema, data)])
        version = stream_version
    return state, version


def snapshots(state: Table, version: int, *, checkpoint: bool = False) -> bool:
    """Whether the command that left ``state`` at ``version`` writes the snapshot: at a
    round boundary, or when ``version`` crossed a multiple of :data:`SNAPSHOT_EVERY`."""
    current = state.round
    return (
        checkpoint
        or current is None
        or current.phase == "settled"
        or version % SNAPSHOT_EVERY < _CROSSING
    )
