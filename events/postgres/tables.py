"""The table states as stored: each table's row (summary, owner, snapshot), its round-start
checkpoints and its test-mode deck, read back as the aggregate's current state.

A load reads the snapshot and the events after it in one query and folds them
(``projections.tables.fold_tail``), so it never sees a stale table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, Final, NamedTuple

import msgspec

from russian_poker.events.postgres import wallets
from russian_poker.events.postgres.pool import acquired
from russian_poker.events.postgres.store import read_stream
from russian_poker.events.postgres.timers import of_table
from russian_poker.events.streams import table_stream
from russian_poker.projections.tables import decode_state, fold_tail
from russian_poker.projections.wallets import HeldWallet
from russian_poker.service.rules.state import Table

__all__ = [
    "ForCommand",
    "Owner",
    "Seen",
    "TableStore",
    "catch_up",
    "load",
    "load_at_or_before",
    "load_for_command",
    "owner_of",
    "owners_of",
    "store_test_deck",
    "test_deck",
    "visible_to",
]

_tail_decoder: Final = msgspec.json.Decoder(list[tuple[int, str, int, msgspec.Raw]])

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
    ``store.lookup_command`` gives it; the table is then not decoded)."""
    state: Table
    version: int
    wallets: dict[str, HeldWallet]
    """Those of the wallets asked for that exist, as :func:`wallets.load` gives them."""


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


def _current(row: Any) -> tuple[Table, int]:
    """The snapshot of ``row`` with the tail of its stream folded in."""
    stored = row["version"] is not None
    state, version = (decode_state(row["state"]), row["version"]) if stored else (Table(), 0)
    if row["tail"] is None:
        return state, version
    tail = _tail_decoder.decode(row["tail"])
    return fold_tail(state, version, ((v, n, s, bytes(d)) for v, n, s, d in tail))


async def catch_up(conn: Any, table_id: str, state: Table, version: int) -> tuple[Table, int]:
    """``state`` at ``version`` (a snapshot) with the stream's later events folded in."""
    tail = await read_stream(conn, table_stream(table_id), from_version=version + 1)
    return fold_tail(
        state, version, ((e.stream_version, e.event_type, e.schema_version, e.data) for e in tail)
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


async def test_deck(conn: Any, table_id: str) -> tuple[str, ...]:
    """Test mode: the deck set for the table's next round (used up when the round opens)."""
    deck = await conn.fetchval("SELECT deck FROM test_decks WHERE table_id = $1", table_id)
    return tuple(deck or ())


async def store_test_deck(conn: Any, table_id: str, cards: Sequence[str]) -> None:
    """Test mode: the deck of the table's next round to open."""
    await conn.execute(
        "INSERT INTO test_decks (table_id, deck) VALUES ($1, $2)"
        " ON CONFLICT (table_id) DO UPDATE SET deck = excluded.deck",
        table_id,
        list(cards),
    )


class Seen(NamedTuple):
    """A table as a view shows it: its state, its stream version (0: no such table) and,
    when asked for, its pending time-outs (key to due time) read right after the state."""

    state: Table
    version: int
    timers: Mapping[str, datetime] | None = None


class TableStore:
    """The tables as the edge reads them, on ``db`` (a pool, or one connection)."""

    def __init__(self, db: Any) -> None:
        self._db = db

    async def seen(self, table_id: str, *, deadlines: bool = False) -> Seen:
        """The table's current state; its timers too when ``deadlines`` (as fresh as the
        state or fresher: only the state's waits still pending show)."""
        async with acquired(self._db) as conn:
            state, version = await load(conn, table_id)
            timers = await of_table(conn, table_id) if deadlines and version else None
        return Seen(state, version, timers)

    async def lobby(self, tenant: str | None) -> list[Table]:
        """The current state of every table ``tenant`` sees (``None``: all), by id."""
        async with acquired(self._db) as conn:
            listed = await visible_to(conn, tenant)
            return [(await load(conn, table_id))[0] for table_id in listed]

    async def owner(self, table_id: str) -> Owner | None:
        async with acquired(self._db) as conn:
            return await owner_of(conn, table_id)

    async def owners(self, table_ids: Sequence[str]) -> dict[str, Owner]:
        async with acquired(self._db) as conn:
            return await owners_of(conn, table_ids)

    async def stack_next_round(self, table_id: str, cards: Sequence[str]) -> None:
        """Test mode: the deck of the table's next round to open."""
        async with acquired(self._db) as conn:
            await store_test_deck(conn, table_id, cards)
