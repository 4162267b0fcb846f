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

__all__ = ["decode_state", "encode_state", "load", "save"]

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
