"""The table-state read model: each table's folded aggregate, written by the command's own
append statement so the next read (and the next command) sees it.

It doubles as the command path's snapshot. If it is behind its stream (or was dropped) the
missing events are folded in on load, so it can never serve a stale table to a command.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, NamedTuple

import msgspec

from events.codec import decode_event
from events.store import SideWrites, read_stream
from events.streams import table_stream
from projections import wallets
from service.rules.evolve import fold
from service.rules.state import Table

__all__ = [
    "KEPT_CHECKPOINTS",
    "ForCommand",
    "decode_state",
    "encode_state",
    "load",
    "load_at_or_before",
    "load_for_command",
    "save",
]

KEPT_CHECKPOINTS: Final = 20
"""Round-start states kept per table for catching up live clients."""

_encoder: Final = msgspec.json.Encoder()
_decoder: Final = msgspec.json.Decoder(Table)


def encode_state(state: Table) -> bytes:
    return _encoder.encode(state)


def decode_state(data: bytes) -> Table:
    return _decoder.decode(data)


# The row and its stream's version in one round trip: the tail is read only when the row
# is behind the stream (or missing), which the command path, writing both in one
# transaction, never leaves it.
_LOAD: Final = """
SELECT t.version, t.state, s.version AS stream_version
FROM (SELECT) AS one
LEFT JOIN table_states t ON t.table_id = $1
LEFT JOIN streams s ON s.stream_id = $2
"""


async def load(conn: Any, table_id: str) -> tuple[Table, int]:
    """The table's current state and stream version (``Table()``, 0 if it does not exist)."""
    row = await conn.fetchrow(_LOAD, table_id, table_stream(table_id))
    return await _current(conn, table_id, row)


_LOAD_FOR_COMMAND: Final = f"""
SELECT t.version, t.state, s.version AS stream_version,
       (SELECT coalesce(c.result, 'null')::text FROM commands c WHERE c.command_id = $3)
           AS recorded,
       {wallets.LOAD_AS_JSON.format(wallet_ids="$4::text[]")} AS wallets
FROM (SELECT) AS one
LEFT JOIN table_states t ON t.table_id = $1
LEFT JOIN streams s ON s.stream_id = $2
"""


class ForCommand(NamedTuple):
    """What the command path reads before it decides, in one round trip."""

    recorded: bytes | None
    """The result stored with the command id if that command was already recorded (as
    ``events.store.lookup_command`` gives it; the table is then not decoded)."""
    state: Table
    version: int
    wallets: dict[str, wallets.HeldWallet]
    """Those of the wallets asked for that exist, as ``projections.wallets.load`` gives them."""


async def load_for_command(
    conn: Any, table_id: str, command_id: str, wallet_ids: Sequence[str] = ()
) -> ForCommand:
    """For the command path, in one round trip: whether the command was already recorded,
    the table as :func:`load` gives it, and the named wallets (e.g. the acting player's)."""
    row = await conn.fetchrow(
        _LOAD_FOR_COMMAND, table_id, table_stream(table_id), command_id, list(wallet_ids)
    )
    held = wallets.from_json(row["wallets"])
    if row["recorded"] is not None:
        return ForCommand(row["recorded"].encode(), Table(), 0, held)
    state, version = await _current(conn, table_id, row)
    return ForCommand(None, state, version, held)


async def _current(conn: Any, table_id: str, row: Any) -> tuple[Table, int]:
    """The stored state of ``row``, with any events of the stream it is missing folded in."""
    stored = row["version"] is not None
    state, version = (decode_state(row["state"]), row["version"]) if stored else (Table(), 0)
    if (row["stream_version"] or 0) > version:
        tail = await read_stream(conn, table_stream(table_id), from_version=version + 1)
        if tail:
            events = (decode_event(e.event_type, e.schema_version, e.data) for e in tail)
            state = fold(state, events)
            version = tail[-1].stream_version
    return state, version


def save(writes: SideWrites, state: Table, version: int, *, checkpoint: bool = False) -> None:
    """Store the state at ``version`` in the command's append statement. With
    ``checkpoint`` (a round opened) also keep it as a round-start state, and only the last
    :data:`KEPT_CHECKPOINTS` of them."""
    rules = state.rules
    table, at, encoded = (
        writes.param(state.table_id),
        writes.param(version),
        writes.param(encode_state(state)),
    )
    writes.add(
        "saved_state",
        f"""
        INSERT INTO table_states (table_id, version, name, game, status, currency, state)
        SELECT {table}, {at}, {writes.param(state.name)}, {writes.param(rules.game)},
               {writes.param(state.status)}, {writes.param(rules.currency)}, {encoded}
        WHERE EXISTS (SELECT FROM appended)
        ON CONFLICT (table_id) DO UPDATE SET
            version = excluded.version, name = excluded.name, game = excluded.game,
            status = excluded.status, currency = excluded.currency, state = excluded.state,
            updated_at = now()
        WHERE table_states.version < excluded.version
        """,
    )
    if not checkpoint:
        return
    writes.add(
        "added_checkpoint",
        f"""
        INSERT INTO table_checkpoints (table_id, version, state)
        SELECT {table}, {at}, {encoded} WHERE EXISTS (SELECT FROM appended)
        ON CONFLICT DO NOTHING
        RETURNING version
        """,
    )
    # The new row is not in the statement's snapshot: keep one old row fewer if it was added.
    writes.add(
        "pruned_checkpoints",
        f"""
        DELETE FROM table_checkpoints WHERE table_id = {table} AND version < (
            SELECT min(version) FROM (
                SELECT version FROM table_checkpoints WHERE table_id = {table}
                ORDER BY version DESC
                LIMIT {writes.param(KEPT_CHECKPOINTS)} - (SELECT count(*) FROM added_checkpoint)
            ) AS kept
        )
        """,
    )


async def load_at_or_before(conn: Any, table_id: str, version: int) -> tuple[Table, int] | None:
    """The newest kept round-start state at or before ``version``."""
    row = await conn.fetchrow(
        "SELECT version, state FROM table_checkpoints WHERE table_id = $1 AND version <= $2"
        " ORDER BY version DESC LIMIT 1",
        table_id,
        version,
    )
    return (decode_state(row["state"]), row["version"]) if row else None
