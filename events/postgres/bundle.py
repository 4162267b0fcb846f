"""What an audit bundle reads (``service.audit.bundle``): the rounds settled in a window, the
streams they involve, each stream's events with their chain hashes, the checkpoints, and
the read models shipped with them (round records, ledger rows, availability log, and how far
the catch-up ones had folded the events), all from one snapshot so the files agree."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Sequence
from datetime import datetime
from typing import Any, Final

from russian_poker.events.postgres.audit import AuditStore
from russian_poker.events.postgres.chain import (
    CHAINED_FIELDS,
    ChainedEvent,
    LeafRow,
    StoredCheckpoint,
)
from russian_poker.events.postgres.pool import Database, acquired
from russian_poker.events.postgres.replay import ReplayStore
from russian_poker.events.records import Position
from russian_poker.events.streams import SEAMLESS_PREFIX, WALLET_PREFIX
from russian_poker.projections.audit import AuditRow
from russian_poker.projections.availability import AvailabilityChange, LogEntry, change_of
from russian_poker.projections.books import OperatorCall
from russian_poker.projections.wallets import LedgerRow

__all__ = ["BundleSnapshot", "BundleStore"]

# The money streams the commands of these tables wrote to, spelled as the partial index
# events_money_command_id_idx (migration 0014) spells its predicate.
_MONEY_STREAMS: Final = f"""
SELECT DISTINCT m.stream_id FROM events AS m
WHERE m.metadata->>'command_id' IN (
        SELECT t.metadata->>'command_id' FROM events AS t WHERE t.stream_id = ANY($1::text[]))
  AND (starts_with(m.stream_id, '{WALLET_PREFIX}') OR starts_with(m.stream_id, '{SEAMLESS_PREFIX}'))
ORDER BY 1
"""
_STREAM: Final = f"""
SELECT {CHAINED_FIELDS} FROM events WHERE stream_id = $1 ORDER BY stream_version
"""
_LEDGER: Final = """
SELECT global_position, wallet_id, event_type, amount, reason, table_id, round, box,
       transfer_id, balance_after, recorded_at
FROM ledger WHERE wallet_id = $1 ORDER BY global_position
"""
_AVAILABILITY: Final = """
SELECT global_position, table_id, operator_id, shared, kind, actor_role, actor_id, reason,
       ruleset_version, ruleset::text AS ruleset, command_id, recorded_at
FROM availability_log WHERE table_id = ANY($1::text[]) ORDER BY global_position
"""
_FOLDED: Final = "SELECT tx_id, global_position FROM projection_checkpoints WHERE name = $1"
_CHECKPOINTS: Final = """
SELECT seq, created_at, upto_tx_id::text::numeric AS upto_tx_id, upto_position, prev_digest,
       leaf_count, merkle_root, digest, key_id, signature
FROM chain_checkpoints ORDER BY seq
"""
_LEAVES: Final = """
SELECT seq, stream_id, stream_version, hash FROM chain_checkpoint_leaves
ORDER BY seq, stream_id COLLATE "C"
"""
_CALLS: Final = """
SELECT operator_id, seq, transaction_id, kind, reason, amount, currency, player_id, session_id,
       table_id, round, box, round_closed, reference_transaction_id, reference_transaction_ids,
       status, answer_status, operator_transaction_id, attempts, created_at, updated_at
FROM wallet_transactions
WHERE (table_id, round) IN (SELECT * FROM unnest($1::text[], $2::int[]))
ORDER BY seq
"""
_PREFETCH: Final = 2000


class BundleSnapshot:
    """Reads inside one REPEATABLE READ, read-only transaction."""

    def __init__(self, conn: Any) -> None:
        self._conn = conn

    async def settled_rounds(
        self, start: datetime | None, end: datetime | None
    ) -> list[tuple[str, int]]:
        """Every round (table id, number) settled in ``[start, end)``, by table and number."""
        return sorted(await ReplayStore(self._conn).settled_rounds(start, end))

    async def money_streams(self, table_streams: Sequence[str]) -> list[str]:
        """The wallet and seamless streams the commands at these tables wrote to."""
        rows = await self._conn.fetch(_MONEY_STREAMS, list(table_streams))
        return [row["stream_id"] for row in rows]

    async def stream(self, stream_id: str) -> AsyncIterator[ChainedEvent]:
        """The stream's events in version order, a few thousand rows at a time."""
        async for row in self._conn.cursor(_STREAM, stream_id, prefetch=_PREFETCH):
            yield ChainedEvent(*row.values())

    async def round_records(self, table_id: str, numbers: Sequence[int]) -> list[AuditRow]:
        """The audit trail's records of these rounds of one table that it has settled."""
        rows = await AuditStore(self._conn).rounds([(table_id, n) for n in numbers])
        return sorted((r for r in rows if r.settled_at is not None), key=lambda r: r.round)

    async def ledger(self, wallet_id: str) -> AsyncIterator[LedgerRow]:
        """An internal wallet's ledger, oldest first."""
        async for row in self._conn.cursor(_LEDGER, wallet_id, prefetch=_PREFETCH):
            yield LedgerRow(*row.values())

    async def availability(self, table_ids: Sequence[str]) -> list[AvailabilityChange]:
        """The availability log of these tables, oldest first."""
        rows = await self._conn.fetch(_AVAILABILITY, list(table_ids))
        return [change_of(LogEntry(**dict(row))) for row in rows]

    async def folded(self, name: str) -> Position:
        """How far the catch-up read model ``name`` has folded the events."""
        row = await self._conn.fetchrow(_FOLDED, name)
        if row is None:
            return Position.start()
        return Position(tx_id=int(row["tx_id"]), global_position=row["global_position"])

    async def operator_calls(self, rounds: Sequence[tuple[str, int]]) -> list[OperatorCall]:
        """Every call to a seamless operator's wallet made or owed for these rounds."""
        rows = await self._conn.fetch(_CALLS, [t for t, _ in rounds], [n for _, n in rounds])
        calls = []
        for row in rows:
            values = dict(row)
            number = values.pop("round")
            refs = values.pop("reference_transaction_ids")
            calls.append(
                OperatorCall(
                    **values,
                    round_id=f"{values['table_id']}:{number}",
                    reference_transaction_ids=list(refs) if refs is not None else None,
                )
            )
        return calls

    async def checkpoints(self) -> list[tuple[StoredCheckpoint, list[LeafRow]]]:
        """Every checkpoint, in order, each with its leaves in the tree's order (two
        queries, however many checkpoints)."""
        leaves: dict[int, list[LeafRow]] = {}
        for leaf in await self._conn.fetch(_LEAVES):
            leaves.setdefault(leaf["seq"], []).append(
                LeafRow(leaf["stream_id"], leaf["stream_version"], leaf["hash"])
            )
        found = []
        for row in await self._conn.fetch(_CHECKPOINTS):
            values = dict(row)
            values["upto_tx_id"] = int(values["upto_tx_id"])
            found.append((StoredCheckpoint(**values), leaves.get(row["seq"], [])))
        return found


class BundleStore:
    """The bundle's reads on ``db``."""

    def __init__(self, db: Database) -> None:
        self._db = db

    @contextlib.asynccontextmanager
    async def snapshot(self) -> AsyncIterator[BundleSnapshot]:
        async with (
            acquired(self._db) as conn,
            conn.transaction(isolation="repeatable_read", readonly=True),
        ):
            yield BundleSnapshot(conn)
