"""The audit trail as stored (``audit_rounds``, ``audit_tables``), and what its readers look
up in the events: which rounds are settled, the owners of tables, the global order.

The projection (``projections.audit``) writes through an :class:`AuditStore` on its batch's
connection, inside the runner's transaction; the feed and a round's record read through
one on the pool.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Final, cast

import msgspec

from russian_poker.events.postgres.pool import Database, acquired
from russian_poker.events.postgres.store import read_all
from russian_poker.events.postgres.tables import Owner, owner_of, owners_of
from russian_poker.events.records import Position, RecordedEvent
from russian_poker.events.ruleset import Game
from russian_poker.events.streams import TABLE_PREFIX
from russian_poker.projections.audit import AuditRow, TableRules
from russian_poker.projections.game_record import GameRecord

__all__ = ["AuditStore"]

_json: Final = msgspec.json.Encoder()

_LOAD_ROUNDS: Final = """
SELECT table_id, round, game, ruleset_fingerprint, commitment, seed, opened_at, settled_at,
       opened_position, settled_position, players, record::text AS record
FROM audit_rounds
WHERE (table_id, round) IN (SELECT * FROM unnest($1::text[], $2::int[]))
"""
_SAVE_ROUND: Final = """
INSERT INTO audit_rounds (table_id, round, game, ruleset_fingerprint, commitment, seed,
                          opened_at, settled_at, opened_position, settled_position, players,
                          record)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::jsonb)
ON CONFLICT (table_id, round) DO UPDATE SET
    seed = excluded.seed, settled_at = excluded.settled_at,
    settled_position = excluded.settled_position, players = excluded.players,
    record = excluded.record
"""
_SAVE_TABLE: Final = """
INSERT INTO audit_tables (table_id, game, ruleset_fingerprint) VALUES ($1, $2, $3)
ON CONFLICT (table_id) DO UPDATE SET
    game = excluded.game, ruleset_fingerprint = excluded.ruleset_fingerprint
"""
_LOAD_TABLES: Final = (
    "SELECT table_id, game, ruleset_fingerprint FROM audit_tables WHERE table_id = ANY($1)"
)
# Saving a round that has a row already keeps the row's fingerprint: a ruleset change sets
# the rows of the table's rounds still open, except those the batch settled before it.
_RULESET_CHANGED: Final = """
UPDATE audit_rounds SET game = $2, ruleset_fingerprint = $3
WHERE table_id = $1 AND settled_at IS NULL AND NOT (round = ANY($4::int[]))
"""
_BALANCES: Final = (
    "SELECT global_position, balance_after FROM ledger WHERE global_position = ANY($1::bigint[])"
)
# Only if the ledger lacks a row (it is written with every wallet event, so: never).
_BALANCE_FROM_EVENTS: Final = """
SELECT coalesce(sum(CASE WHEN event_type IN ('FundsDeposited', 'WalletCredited')
                         THEN (data->>'amount')::bigint
                         WHEN event_type IN ('FundsWithdrawn', 'WalletDebited')
                         THEN -(data->>'amount')::bigint ELSE 0 END), 0)
FROM events WHERE stream_id = $1 AND stream_version <= $2
"""
_ONE_ROUND: Final = """
SELECT table_id, round, game, ruleset_fingerprint, commitment, seed, opened_at, settled_at,
       opened_position, settled_position, players, record::text AS record
FROM audit_rounds WHERE table_id = $1 AND round = $2
"""
_SETTLED: Final = """
SELECT substr(stream_id, length($3) + 1) AS table_id, (data->>'round')::int AS round
FROM events
WHERE event_type = 'RoundSettled'
  AND (stream_id, (data->>'round')::int) IN (SELECT * FROM unnest($1::text[], $2::int[]))
"""


_record: Final = msgspec.json.Decoder(GameRecord)


def _row(row: Any) -> AuditRow:
    return AuditRow(
        table_id=row["table_id"],
        round=row["round"],
        game=row["game"],
        ruleset_fingerprint=row["ruleset_fingerprint"],
        commitment=row["commitment"],
        seed=row["seed"],
        opened_at=row["opened_at"],
        settled_at=row["settled_at"],
        opened_position=row["opened_position"],
        settled_position=row["settled_position"],
        players=list(row["players"]),
        record=_record.decode(row["record"]),
    )


class AuditStore:
    """The audit trail on ``db``."""

    def __init__(self, db: Database) -> None:
        self._db = db

    # -- the projection's writes (on its batch's connection) ------------------------------

    async def reset(self) -> None:
        """Forget every row."""
        await self._db.execute("DELETE FROM audit_rounds")
        await self._db.execute("DELETE FROM audit_tables")

    async def tables(self, table_ids: Iterable[str]) -> dict[str, TableRules]:
        rows = await self._db.fetch(_LOAD_TABLES, list(table_ids))
        return {
            r["table_id"]: TableRules(cast("Game", r["game"]), r["ruleset_fingerprint"])
            for r in rows
        }

    async def rounds(self, keys: Sequence[tuple[str, int]]) -> list[AuditRow]:
        """The rows of the rounds ``keys`` (table id, round) that have one."""
        rows = await self._db.fetch(_LOAD_ROUNDS, [k[0] for k in keys], [k[1] for k in keys])
        return [_row(r) for r in rows]

    async def balances_after(self, positions: Sequence[int]) -> dict[int, int]:
        """The ledger's balance after each internal wallet event at ``positions``."""
        rows = await self._db.fetch(_BALANCES, list(positions))
        return {r["global_position"]: r["balance_after"] for r in rows}

    async def balance_from_events(self, stream_id: str, version: int) -> int:
        """A wallet's balance after its event ``version``, summed from its events."""
        balance: int = await self._db.fetchval(_BALANCE_FROM_EVENTS, stream_id, version)
        return balance

    async def ruleset_changed(
        self, table_id: str, rules: TableRules, settled: Sequence[int]
    ) -> None:
        """The table's rounds still open in their rows, but for ``settled``, play by
        ``rules``."""
        await self._db.execute(_RULESET_CHANGED, table_id, *rules, list(settled))

    async def save(
        self, tables: Sequence[tuple[str, TableRules]], rounds: Sequence[AuditRow]
    ) -> None:
        if tables:
            await self._db.executemany(_SAVE_TABLE, [(t, *rules) for t, rules in tables])
        if rounds:
            await self._db.executemany(
                _SAVE_ROUND,
                [
                    (
                        r.table_id,
                        r.round,
                        r.game,
                        r.ruleset_fingerprint,
                        r.commitment,
                        r.seed,
                        r.opened_at,
                        r.settled_at,
                        r.opened_position,
                        r.settled_position,
                        r.players,
                        _json.encode(r.record).decode(),
                    )
                    for r in rounds
                ],
            )

    # -- the readers -----------------------------------------------------------------------

    async def round(self, table_id: str, number: int) -> AuditRow | None:
        row = await self._db.fetchrow(_ONE_ROUND, table_id, number)
        return _row(row) if row is not None else None

    async def settled(self, keys: Sequence[tuple[str, int]]) -> set[tuple[str, int]]:
        """Those of the rounds ``keys`` (table id, round) whose table recorded RoundSettled."""
        if not keys:
            return set()
        rows = await self._db.fetch(
            _SETTLED, [TABLE_PREFIX + k[0] for k in keys], [k[1] for k in keys], TABLE_PREFIX
        )
        return {(r["table_id"], r["round"]) for r in rows}

    async def read_all(self, after: Position, *, limit: int) -> list[RecordedEvent]:
        """The store's global order (``events.postgres.store.read_all``)."""
        async with acquired(self._db) as conn:
            return await read_all(conn, after, limit=limit)

    async def owner(self, table_id: str) -> Owner | None:
        return await owner_of(self._db, table_id)

    async def owners(self, table_ids: Sequence[str]) -> dict[str, Owner]:
        return await owners_of(self._db, table_ids)
