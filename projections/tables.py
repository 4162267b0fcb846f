"""The table-state read model: each table's folded aggregate, kept in the command's own
transaction so the next read (and the next command) sees it.

It doubles as the command path's snapshot. If it is behind its stream (or was dropped) the
missing events are folded in on load, so it can never serve a stale table to a command.
"""

from __future__ import annotations

from typing import Any, Final

import msgspec

from events.codec import decode_event
from events.store import read_stream
from events.streams import table_stream
from service.rules.evolve import fold
from service.rules.state import Table

__all__ = [
    "KEPT_CHECKPOINTS",
    "checkpoint",
    "decode_state",
    "encode_state",
    "load",
    "load_at_or_before",
    "save",
]

KEPT_CHECKPOINTS: Final = 20
"""Round-start states kept per table for catching up live clients."""

_encoder: Final = msgspec.json.Encoder()
_decoder: Final = msgspec.json.Decoder(Table)

_SAVE: Final = """
INSERT INTO table_states (table_id, version, name, game, status, currency, state)
VALUES ($1, $2, $3, $4, $5, $6, $7)
ON CONFLICT (table_id) DO UPDATE SET
    version = excluded.version, name = excluded.name, game = excluded.game,
    status = excluded.status, currency = excluded.currency, state = excluded.state,
    updated_at = now()
WHERE table_states.version < excluded.version
"""


def encode_state(state: Table) -> bytes:
    return _encoder.encode(state)


def decode_state(data: bytes) -> Table:
    return _decoder.decode(data)


async def load(conn: Any, table_id: str) -> tuple[Table, int]:
    """The table's current state and stream version (``Table()``, 0 if it does not exist)."""
    row = await conn.fetchrow(
        "SELECT version, state FROM table_states WHERE table_id = $1", table_id
    )
    state, version = (decode_state(row["state"]), row["version"]) if row else (Table(), 0)
    tail = await read_stream(conn, table_stream(table_id), from_version=version + 1)
    if tail:
        state = fold(state, (decode_event(e.event_type, e.schema_version, e.data) for e in tail))
        version = tail[-1].stream_version
    return state, version


async def save(conn: Any, state: Table, version: int) -> None:
    rules = state.rules
    await conn.execute(
        _SAVE,
        state.table_id,
        version,
        state.name,
        rules.game,
        state.status,
        rules.currency,
        encode_state(state),
    )


_CHECKPOINT: Final = """
INSERT INTO table_checkpoints (table_id, version, state) VALUES ($1, $2, $3)
ON CONFLICT DO NOTHING
"""
_PRUNE: Final = """
DELETE FROM table_checkpoints WHERE table_id = $1 AND version < (
    SELECT min(version) FROM (
        SELECT version FROM table_checkpoints WHERE table_id = $1
        ORDER BY version DESC LIMIT $2
    ) AS kept
)
"""


async def checkpoint(conn: Any, state: Table, version: int) -> None:
    """Keep the state as a round opens, and only the last few of them."""
    await conn.execute(_CHECKPOINT, state.table_id, version, encode_state(state))
    await conn.execute(_PRUNE, state.table_id, KEPT_CHECKPOINTS)


async def load_at_or_before(conn: Any, table_id: str, version: int) -> tuple[Table, int] | None:
    """The newest kept round-start state at or before ``version``."""
    row = await conn.fetchrow(
        "SELECT version, state FROM table_checkpoints WHERE table_id = $1 AND version <= $2"
        " ORDER BY version DESC LIMIT 1",
        table_id,
        version,
    )
    return (decode_state(row["state"]), row["version"]) if row else None
