"""The table-state read model: each table's summary (name, game, status, currency), current
after every command, and a snapshot of its folded aggregate, written by the command's own
append statement.

The snapshot is written at round boundaries only (a round opened, no round in play, a round
settled), and at least once every :data:`SNAPSHOT_EVERY` versions: between them every load
folds the stream's tail after it, read in the load's own query, so a reader never sees a
stale table. The command path decides on what its process committed last
(``service.cache``) and loads only on a miss. Writing the 6 KB state on every command cost
more than a third of a command's WAL (docs/benchmarks.md, "Smaller writes").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, NamedTuple

import msgspec

from russian_poker.events.codec import decode_event
from russian_poker.events.postgres.store import SideWrites, read_stream
from russian_poker.events.streams import table_stream
from russian_poker.projections import wallets
from russian_poker.service.rules.evolve import fold
from russian_poker.service.rules.state import Table

__all__ = [
    "KEPT_CHECKPOINTS",
    "SNAPSHOT_EVERY",
    "ForCommand",
    "Owner",
    "catch_up",
    "decode_state",
    "encode_state",
    "load",
    "load_at_or_before",
    "load_for_command",
    "owner_of",
    "owners_of",
    "save",
    "snapshots",
    "visible_to",
]

KEPT_CHECKPOINTS: Final = 20
"""Round-start states kept per table for catching up live clients."""

SNAPSHOT_EVERY: Final = 64
"""A snapshot at least every this many versions (a version crossing a multiple of it), so a
round that goes on and on (bets placed and cancelled) never leaves a long tail to fold."""

_CROSSING: Final = 4
"""A command of up to this many table events that crosses a multiple of
:data:`SNAPSHOT_EVERY` lands within this many versions after it (bigger commands open or
settle rounds, which snapshot anyway)."""

_encoder: Final = msgspec.json.Encoder()
_decoder: Final = msgspec.json.Decoder(Table)
_tail_decoder: Final = msgspec.json.Decoder(list[tuple[int, str, int, msgspec.Raw]])


def encode_state(state: Table) -> bytes:
    return _encoder.encode(state)


def decode_state(data: bytes) -> Table:
    return _decoder.decode(data)


# The table's events after the snapshot (stream version, type, schema version, data), in
# the same statement as the row, so they agree with it; evaluated only when it is behind.
_TAIL: Final = """
CASE WHEN s.version > coalesce(t.version, 0) THEN (
    SELECT json_agg(json_build_array(e.stream_version, e.event_type, e.schema_version, e.data)
                    ORDER BY e.stream_version)::text
    FROM events e WHERE e.stream_id = $2 AND e.stream_version > coalesce(t.version, 0)
) END AS tail
"""

# The snapshot, its stream's version and the tail after it: one round trip.
_LOAD: Final = f"""
SELECT t.version, t.state, s.version AS stream_version, {_TAIL}
FROM (SELECT) AS one
LEFT JOIN table_states t ON t.table_id = $1
LEFT JOIN streams s ON s.stream_id = $2
"""


async def load(conn: Any, table_id: str) -> tuple[Table, int]:
    """The table's current state and stream version (``Table()``, 0 if it does not exist)."""
    row = await conn.fetchrow(_LOAD, table_id, table_stream(table_id))
    return _current(row)


_LOAD_FOR_COMMAND: Final = f"""
SELECT t.version, t.state, s.version AS stream_version, {_TAIL},
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
    state, version = _current(row)
    return ForCommand(None, state, version, held)


class Owner(NamedTuple):
    """Whose a table is: fixed when it opens."""

    operator_id: str
    shared: bool


async def owner_of(conn: Any, table_id: str) -> Owner | None:
    """The table's owner, or ``None`` if no such table was opened."""
    row = await conn.fetchrow(
        "SELECT operator_id, shared FROM table_states WHERE table_id = $1", table_id
    )
    return Owner(row["operator_id"], row["shared"]) if row else None


async def owners_of(conn: Any, table_ids: Sequence[str]) -> dict[str, Owner]:
    """The owners of those of ``table_ids`` that exist."""
    rows = await conn.fetch(
        "SELECT table_id, operator_id, shared FROM table_states WHERE table_id = ANY($1::text[])",
        list(table_ids),
    )
    return {row["table_id"]: Owner(row["operator_id"], row["shared"]) for row in rows}


async def visible_to(conn: Any, tenant: str | None) -> list[str]:
    """The ids of the tables a tenant sees (its own and the shared ones; ``None``: all)."""
    rows = await conn.fetch(
        "SELECT table_id FROM table_states"
        " WHERE $1::text IS NULL OR shared OR operator_id = $1 ORDER BY table_id",
        tenant,
    )
    return [row["table_id"] for row in rows]


def _current(row: Any) -> tuple[Table, int]:
    """The snapshot of ``row`` with the tail of its stream folded in."""
    stored = row["version"] is not None
    state, version = (decode_state(row["state"]), row["version"]) if stored else (Table(), 0)
    if row["tail"] is None:
        return state, version
    tail = _tail_decoder.decode(row["tail"])
    events = (decode_event(name, schema, bytes(data)) for _, name, schema, data in tail)
    return fold(state, events), tail[-1][0]


async def catch_up(conn: Any, table_id: str, state: Table, version: int) -> tuple[Table, int]:
    """``state`` at ``version`` (a snapshot) with the stream's later events folded in."""
    tail = await read_stream(conn, table_stream(table_id), from_version=version + 1)
    if not tail:
        return state, version
    events = (decode_event(e.event_type, e.schema_version, e.data) for e in tail)
    return fold(state, events), tail[-1].stream_version


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


def save(writes: SideWrites, state: Table, version: int, *, checkpoint: bool = False) -> None:
    """Keep the table's row in step, in the command's append statement: its summary always,
    the snapshot (``state`` at ``version``) only when :func:`snapshots` says. With
    ``checkpoint`` (a round opened) also keep it as a round-start state, and only the last
    :data:`KEPT_CHECKPOINTS` of them."""
    rules = state.rules
    table = writes.param(state.table_id)
    name, game, status, currency = (
        writes.param(state.name),
        writes.param(rules.game),
        writes.param(state.status),
        writes.param(rules.currency),
    )
    if not snapshots(state, version, checkpoint=checkpoint):
        # Only a command that changed the summary (a closing, a ruleset) writes; the others
        # find the row as it is and leave it unlocked and unwritten.
        writes.add(
            "saved_summary",
            f"""
            UPDATE table_states SET name = {name}, game = {game}, status = {status},
                currency = {currency}, updated_at = now()
            WHERE table_id = {table} AND EXISTS (SELECT FROM appended)
              AND (name, game, status, currency)
                  IS DISTINCT FROM ({name}::text, {game}::text, {status}::text, {currency}::text)
            """,
        )
        return
    at, encoded = writes.param(version), writes.param(encode_state(state))
    # Whose the table is never changes: written with the first row, never updated.
    owner, shared = writes.param(state.operator_id), writes.param(state.shared)
    writes.add(
        "saved_state",
        f"""
        INSERT INTO table_states (table_id, version, name, game, status, currency, state,
                                  operator_id, shared)
        SELECT {table}, {at}, {name}, {game}, {status}, {currency}, {encoded}, {owner}, {shared}
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
