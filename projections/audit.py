"""The audit trail: the regulator's record of every round, as a catch-up projection.

One ``audit_rounds`` row per (table, round): game, ruleset fingerprint (ruleset and
paytable version), commitment, the seed once revealed, opening and settlement time, the
players, and a ``record`` with every command in order (actor, request id, time), each box's
wagers, cards, choices and results, the dealer's cards, and each wallet's debits, credits and
balance before and after the round. A seamless player's money (``seamless-<id>`` streams)
counts like an internal wallet's, but has no balance here: the operator holds it. Fed by
:class:`projections.runner.ProjectionRunner`, which hands it the trail's store
(``events.postgres.audit``) on its batch's connection; read through
:mod:`projections.audit_feed`, which hides the secrets of unsettled rounds.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Annotated, Any, Final, NamedTuple, Protocol, cast

import msgspec

from russian_poker.events.codec import EventType, decode_event
from russian_poker.events.game import RoundOpened, RoundSettled, RulesetChanged, TableOpened
from russian_poker.events.records import RecordedEvent
from russian_poker.events.ruleset import Game
from russian_poker.events.streams import (
    MONEY_PREFIXES,
    SEAMLESS_PREFIX,
    TABLE_PREFIX,
    WALLET_PREFIX,
)
from russian_poker.events.wallet import WalletCredited, WalletDebited
from russian_poker.projections.game_record import (
    Anomaly,
    CommandEntry,
    GameRecord,
    fold_money,
    fold_table_event,
)
from russian_poker.projections.redaction import round_of

if TYPE_CHECKING:
    from russian_poker.events.postgres.projections import ReadModels

__all__ = ["AuditProjection", "AuditRow", "AuditRows", "TableRules", "fold_rounds", "meta_of"]


class TableRules(NamedTuple):
    """What the trail keeps of a table between rounds: the rules it plays by."""

    game: Game
    ruleset_fingerprint: str


class AuditRow(msgspec.Struct, kw_only=True):
    """A round's regulator record: one row of ``audit_rounds``, its columns in the table's
    order (the projection changes it while it folds a batch). Until the round is settled
    its seed and every hidden card read ``??`` to anyone but the store."""

    table_id: Annotated[str, msgspec.Meta(description="The table.")]
    round: Annotated[int, msgspec.Meta(description="The round's number at that table.")]
    game: Annotated[Game, msgspec.Meta(description="`russian` or `oasis`.")]
    ruleset_fingerprint: Annotated[
        str, msgspec.Meta(description="The ruleset (and paytables) the round was played under.")
    ]
    commitment: Annotated[
        str, msgspec.Meta(description="SHA-256 of the round's seed, published before any bet.")
    ]
    seed: Annotated[
        str | None, msgspec.Meta(description="The seed in hex once revealed; null before.")
    ]
    opened_at: Annotated[datetime, msgspec.Meta(description="When the round opened.")]
    settled_at: Annotated[
        datetime | None, msgspec.Meta(description="When it was settled; null before.")
    ]
    opened_position: Annotated[
        int, msgspec.Meta(description="Global position of the round's first event.")
    ]
    settled_position: Annotated[
        int | None, msgspec.Meta(description="Global position of its settlement; null before.")
    ]
    players: Annotated[list[str], msgspec.Meta(description="Its players, in the order they bet.")]
    record: Annotated[
        GameRecord, msgspec.Meta(description="Every command, box, card and movement of money.")
    ]


class _Round:
    """One round's row while a batch is applied."""

    def __init__(self, row: AuditRow) -> None:
        self.row = row
        self.record = row.record
        self.commands: set[str] = {c.command_id for c in self.record.commands}

    def note_command(self, record: RecordedEvent, meta: dict[str, Any]) -> None:
        command_id = meta.get("command_id")
        if not isinstance(command_id, str) or command_id in self.commands:
            return
        self.commands.add(command_id)
        command, actor, request_id = (meta.get(k) for k in ("command", "actor", "request_id"))
        self.record.commands.append(
            CommandEntry(
                command_id=command_id,
                command=command if isinstance(command, dict) else None,
                actor=actor if isinstance(actor, dict) else None,
                request_id=request_id if isinstance(request_id, str) else None,
                at=record.recorded_at.isoformat(),
                position=record.global_position,
            )
        )


class AuditRows(Protocol):
    """What the fold reads and writes of the trail: the store (``events.postgres.audit``)
    for the service, the events of an audit bundle in memory for its verifier."""

    async def tables(self, table_ids: Iterable[str]) -> dict[str, TableRules]: ...

    async def rounds(self, keys: Sequence[tuple[str, int]]) -> list[AuditRow]: ...

    async def balances_after(self, positions: Sequence[int]) -> dict[int, int]: ...

    async def balance_from_events(self, stream_id: str, version: int) -> int: ...

    async def ruleset_changed(
        self, table_id: str, rules: TableRules, settled: Sequence[int]
    ) -> None: ...

    async def save(
        self, tables: Sequence[tuple[str, TableRules]], rounds: Sequence[AuditRow]
    ) -> None: ...


async def fold_rounds(rows: AuditRows, events: Sequence[RecordedEvent]) -> None:
    """Fold one batch of events, in the store's global order, into ``rows``."""
    batch = _Batch(rows)
    await batch.prepare(events)
    for record in events:
        await batch.apply(record)
    await batch.save()


class AuditProjection:
    """Builds ``audit_rounds`` from the events; stateless between batches."""

    name: Final = "audit"
    keys: Final = {"audit_rounds": ("table_id", "round"), "audit_tables": ("table_id",)}
    """The read model's tables and their primary keys (what a rebuild compares)."""

    async def reset(self, models: ReadModels) -> None:
        """Forget everything (the runner's checkpoint is reset by the caller)."""
        await models.audit.reset()

    async def apply(self, models: ReadModels, events: Sequence[RecordedEvent]) -> None:
        """Fold one batch of events, in the store's global order, into the rows."""
        await fold_rounds(models.audit, events)


class _Batch:
    def __init__(self, rows: AuditRows) -> None:
        self.rows = rows
        self.tables: dict[str, TableRules] = {}
        self.rounds: dict[tuple[str, int], _Round] = {}
        self.dirty_tables: set[str] = set()
        self.balances: dict[int, int] = {}

    async def prepare(self, events: Sequence[RecordedEvent]) -> None:
        """Load, in three queries, every row and balance the batch will need."""
        keys: set[tuple[str, int]] = set()
        table_ids: set[str] = set()
        wallet_positions: list[int] = []
        for record in events:
            if record.stream_id.startswith(TABLE_PREFIX):
                table_ids.add(record.stream_id.removeprefix(TABLE_PREFIX))
            if record.event_type in ("WalletDebited", "WalletCredited") and (
                record.stream_id.startswith(WALLET_PREFIX)  # only internal ones have a balance
            ):
                wallet_positions.append(record.global_position)
            if record.event_type in ("TableOpened", "RoundOpened", "TableClosed"):
                continue
            data = msgspec.json.decode(record.data)
            key = round_of(record.stream_id, data) if isinstance(data, dict) else None
            if key is not None:
                keys.add(key)
        if table_ids:
            self.tables = await self.rows.tables(table_ids)
        if keys:
            for row in await self.rows.rounds(sorted(keys)):
                self.rounds[(row.table_id, row.round)] = _Round(row)
        if wallet_positions:
            self.balances = await self.rows.balances_after(wallet_positions)

    async def apply(self, record: RecordedEvent) -> None:
        if not record.stream_id.startswith((TABLE_PREFIX, *MONEY_PREFIXES)):
            return  # not a game stream: nothing the audit trail records
        event = decode_event(record.event_type, record.schema_version, record.data)
        if isinstance(event, WalletDebited | WalletCredited):
            await self._money(record, event)
            return
        if not record.stream_id.startswith(TABLE_PREFIX):
            return
        table_id = record.stream_id.removeprefix(TABLE_PREFIX)
        if isinstance(event, TableOpened):
            self.tables[table_id] = TableRules(event.ruleset.game, event.ruleset.fingerprint)
            self.dirty_tables.add(table_id)
            return
        if isinstance(event, RulesetChanged):
            await self._ruleset_changed(table_id, event)
            return
        if isinstance(event, RoundOpened):
            # A table always opens before its first round; "russian" stands in for a store
            # that lost the TableOpened (the regulator then sees the fingerprint is empty).
            game, fingerprint = self.tables.get(table_id, TableRules("russian", ""))
            current = _Round(
                AuditRow(
                    table_id=table_id,
                    round=event.round,
                    game=game,
                    ruleset_fingerprint=fingerprint,
                    commitment=event.commitment,
                    seed=None,
                    opened_at=record.recorded_at,
                    settled_at=None,
                    opened_position=record.global_position,
                    settled_position=None,
                    players=[],
                    record=GameRecord.opened(event),
                )
            )
            self.rounds[(table_id, event.round)] = current
            current.note_command(record, meta_of(record))
            return
        number = getattr(event, "round", None)
        found = self.rounds.get((table_id, number)) if isinstance(number, int) else None
        if found is None:
            return  # seating and table lifecycle: not part of any round
        found.note_command(record, meta_of(record))
        if isinstance(event, RoundSettled):
            found.row.seed = event.seed.hex()
            found.row.settled_at = record.recorded_at
            found.row.settled_position = record.global_position
            return
        try:
            fold_table_event(
                found.record, event, record.recorded_at.isoformat(), record.global_position
            )
        except LookupError as problem:
            # An event about a box with no bet: the store holds something the rules never
            # write. Record it for the regulator rather than stall the whole trail on it.
            found.record.anomalies.append(
                Anomaly(
                    position=record.global_position,
                    event_type=cast("EventType", record.event_type),
                    problem=f"{problem} in round {number}",
                )
            )

    async def _ruleset_changed(self, table_id: str, event: RulesetChanged) -> None:
        """The table plays by a new ruleset from now on, the round taking bets included: it
        has no bet (the rules change only between rounds), so it is played by the new one."""
        rules = TableRules(event.ruleset.game, event.ruleset.fingerprint)
        self.tables[table_id] = rules
        self.dirty_tables.add(table_id)
        settled = []
        for (t, number), found in self.rounds.items():
            if t != table_id:
                continue
            if found.row.settled_at is None:
                found.row.game, found.row.ruleset_fingerprint = rules
            else:
                settled.append(number)  # settled in this batch, before the change
        # Saving a round that has a row already keeps the row's fingerprint, so the row is
        # set here; a round settled earlier in this batch may still look open in its row.
        await self.rows.ruleset_changed(table_id, rules, settled)

    async def _money(self, record: RecordedEvent, event: WalletDebited | WalletCredited) -> None:
        current = self.rounds.get((event.table_id, event.round))
        if current is None:
            return
        current.note_command(record, meta_of(record))
        signed = event.amount if isinstance(event, WalletCredited) else -event.amount
        # A seamless player's balance is the operator's: the game never learns it, and a
        # sum of the game's own movements would pass for one. Before and after stay null.
        seamless = record.stream_id.startswith(SEAMLESS_PREFIX)
        after: int | None = None
        if not seamless:
            after = self.balances.get(record.global_position)
            if after is None:
                after = await self.rows.balance_from_events(record.stream_id, record.stream_version)
        fold_money(
            current.record,
            event.wallet_id,
            signed,
            version=record.stream_version,
            after=after,
            seamless=seamless,
        )

    async def save(self) -> None:
        rounds = [r.row for _, r in sorted(self.rounds.items())]
        for row in rounds:
            row.players = row.record.players()
        await self.rows.save([(t, self.tables[t]) for t in sorted(self.dirty_tables)], rounds)


def meta_of(record: RecordedEvent) -> dict[str, Any]:
    """The event's metadata (the command that recorded it), ``{}`` if it is not an object."""
    meta = msgspec.json.decode(record.metadata)
    return meta if isinstance(meta, dict) else {}
