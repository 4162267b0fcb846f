"""What replay reads (``service.audit.replay`` re-runs the rules): which rounds are settled,
a table's events, and the money events each recorded command wrote."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Final, NamedTuple

from russian_poker.events.postgres.money_streams import opened_wallets
from russian_poker.events.postgres.pool import Database, acquired
from russian_poker.events.postgres.store import read_stream, recorded_from_row
from russian_poker.events.records import RecordedEvent
from russian_poker.events.streams import SEAMLESS_PREFIX, TABLE_PREFIX, WALLET_PREFIX

__all__ = ["CommandMoney", "ReplayStore", "RoundFound"]

_COMMAND_CHUNK: Final = 5000
"""Command ids per query (one array parameter)."""

_SETTLED: Final = """
SELECT substr(stream_id, length($1) + 1) AS table_id, (data->>'round')::int AS round
FROM events
WHERE event_type = 'RoundSettled'
  AND ($2::timestamptz IS NULL OR recorded_at >= $2)
  AND ($3::timestamptz IS NULL OR recorded_at < $3)
"""
_IN_PLAY: Final = """
SELECT count(*) FROM events AS o
WHERE o.event_type = 'RoundOpened'
  AND ($1::timestamptz IS NULL OR o.recorded_at >= $1)
  AND ($2::timestamptz IS NULL OR o.recorded_at < $2)
  AND NOT EXISTS (SELECT 1 FROM events AS s WHERE s.event_type = 'RoundSettled'
                  AND s.stream_id = o.stream_id AND s.data->'round' = o.data->'round')
"""
_ONE_ROUND: Final = """
SELECT EXISTS (SELECT 1 FROM events WHERE event_type = 'RoundOpened'
               AND stream_id = $1 AND (data->>'round')::int = $2) AS opened,
       EXISTS (SELECT 1 FROM events WHERE event_type = 'RoundSettled'
               AND stream_id = $1 AND (data->>'round')::int = $2) AS settled
"""
# Both kinds of money stream: which one an event should be in is checked afterwards. In
# global order, so a wallet's events keep the command's order even if one was moved to a
# stream of the other kind. The prefixes are spelled as the predicate of the partial index
# events_money_command_id_idx (migration 0014) spells them, so the planner uses it.
_WALLET_EVENTS: Final = f"""
SELECT global_position, tx_id, stream_id, stream_version, event_id, event_type, schema_version,
       data::text AS data, metadata::text AS metadata, recorded_at,
       metadata->>'command_id' AS command_id
FROM events
WHERE metadata->>'command_id' = ANY($1::text[])
  AND (starts_with(stream_id, '{WALLET_PREFIX}') OR starts_with(stream_id, '{SEAMLESS_PREFIX}'))
ORDER BY global_position
"""


class RoundFound(NamedTuple):
    """Whether a table recorded a round's opening and its settlement."""

    opened: bool
    settled: bool


class CommandMoney(NamedTuple):
    """A money event (of either kind of money stream) and the command that wrote it."""

    command_id: str
    event: RecordedEvent


class ReplayStore:
    """Replay's reads on ``db``."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def settled_rounds(
        self, start: datetime | None, end: datetime | None
    ) -> list[tuple[str, int]]:
        """Every round (table id, number) settled in ``[start, end)``."""
        rows = await self._db.fetch(_SETTLED, TABLE_PREFIX, start, end)
        return [(row["table_id"], row["round"]) for row in rows]

    async def in_play(self, start: datetime | None, end: datetime | None) -> int:
        """Rounds opened in ``[start, end)`` that are not settled."""
        count: int = await self._db.fetchval(_IN_PLAY, start, end)
        return count

    async def round(self, stream_id: str, number: int) -> RoundFound:
        row = await self._db.fetchrow(_ONE_ROUND, stream_id, number)
        assert row is not None  # one row of two EXISTS, always
        return RoundFound(row["opened"], row["settled"])

    async def read_stream(self, stream_id: str) -> list[RecordedEvent]:
        async with acquired(self._db) as conn:
            return await read_stream(conn, stream_id)

    async def money_of(self, command_ids: Sequence[str]) -> list[CommandMoney]:
        """The money events the commands ``command_ids`` wrote, in global order per chunk of
        commands."""
        found: list[CommandMoney] = []
        for offset in range(0, len(command_ids), _COMMAND_CHUNK):
            chunk = list(command_ids[offset : offset + _COMMAND_CHUNK])
            for row in await self._db.fetch(_WALLET_EVENTS, chunk):
                found.append(CommandMoney(row["command_id"], recorded_from_row(row)))
        return found

    async def opened_wallets(self, wallet_ids: Iterable[str]) -> set[str]:
        return await opened_wallets(self._db, wallet_ids)
