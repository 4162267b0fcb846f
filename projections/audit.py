"""The audit trail: the regulator's record of every round, as a catch-up projection.

One ``audit_rounds`` row per (table, round): game, ruleset fingerprint (ruleset and
paytable version), commitment, the seed once revealed, opening and settlement time, the
players, and a ``record`` with every command in order (actor, request id, time), each box's
wagers, cards, choices and results, the dealer's cards, and each wallet's debits, credits and
balance before and after the round. A seamless player's money (``seamless-<id>`` streams)
counts like an internal wallet's, but has no balance here: the operator holds it. Fed by
:class:`projections.runner.ProjectionRunner`; read through :func:`round_record` and
:func:`audit_feed`, which hide the secrets of unsettled rounds.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Annotated, Any, Final

import msgspec

from russian_poker.events.codec import decode_event
from russian_poker.events.game import (
    AntePlaced,
    BetsCancelled,
    BonusSettled,
    BoxFolded,
    BoxPlayed,
    BoxSettled,
    CardsDealt,
    CardsExchanged,
    DealerCardReplaced,
    DealerExchangeDeclined,
    DealerExchangeRequested,
    DealerRevealed,
    RoundAbandoned,
    RoundOpened,
    RoundSettled,
    RulesetChanged,
    SixthCardBought,
    TableOpened,
)
from russian_poker.events.postgres.store import AnyConnection, RecordedEvent, read_all
from russian_poker.events.postgres.tables import Owner, owner_of, owners_of
from russian_poker.events.records import Position
from russian_poker.events.streams import (
    MONEY_PREFIXES,
    SEAMLESS_PREFIX,
    TABLE_PREFIX,
    WALLET_PREFIX,
)
from russian_poker.events.wallet import WalletCredited, WalletDebited
from russian_poker.projections.redaction import (
    redact_command,
    redact_event,
    redact_record,
    round_of,
)
from russian_poker.service.rules.tenancy import operator_of

__all__ = [
    "AuditPage",
    "AuditProjection",
    "FeedItem",
    "audit_feed",
    "round_record",
]

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
SELECT *, record::text AS record_text FROM audit_rounds WHERE table_id = $1 AND round = $2
"""
_SETTLED: Final = """
SELECT substr(stream_id, length($3) + 1) AS table_id, (data->>'round')::int AS round
FROM events
WHERE event_type = 'RoundSettled'
  AND (stream_id, (data->>'round')::int) IN (SELECT * FROM unnest($1::text[], $2::int[]))
"""


class _Round:
    """One round's row while a batch is applied."""

    def __init__(self, row: dict[str, Any]) -> None:
        self.row = row
        self.record: dict[str, Any] = row["record"]
        self.commands: set[str] = {c["command_id"] for c in self.record["commands"]}

    def placement(self, box: int) -> dict[str, Any]:
        """The box's current bet this round (a cancelled box may be bet again)."""
        for placed in reversed(self.record["boxes"]):
            if placed["box"] == box and not placed["cancelled"]:
                return placed  # type: ignore[no-any-return]
        raise LookupError(f"box {box} has no bet in round {self.row['round']}")

    def note_command(self, record: RecordedEvent, meta: dict[str, Any]) -> None:
        command_id = meta.get("command_id")
        if not isinstance(command_id, str) or command_id in self.commands:
            return
        self.commands.add(command_id)
        self.record["commands"].append(
            {
                "command_id": command_id,
                "command": meta.get("command"),
                "actor": meta.get("actor"),
                "request_id": meta.get("request_id"),
                "at": record.recorded_at.isoformat(),
                "position": record.global_position,
            }
        )


def _new_record() -> dict[str, Any]:
    return {
        "commands": [],
        "boxes": [],
        "dealer": {"dealt": [], "cards": [], "replaced": [], "hand": None, "qualifies": None},
        "wallets": {},
        "totals": {"staked": 0, "paid": 0, "house": 0},
    }


def _placement(event: AntePlaced) -> dict[str, Any]:
    return {
        "box": event.box,
        "player": event.player,
        "ante": event.ante,
        "bonus": event.bonus,
        "dark": event.dark,
        "bet": event.bet,
        "client_seed": event.client_seed,
        "insurance": 0,
        "fees": 0,
        "cancelled": False,
        "decision": "play" if event.dark else None,
        "dealer_draw": None,
        "dealt": [],
        "drawn": [],
        "discarded": [],
        "cards": [],
        "bonus_result": None,
        "settlement": None,
    }


class AuditProjection:
    """Builds ``audit_rounds`` from the events; stateless between batches."""

    name: Final = "audit"
    keys: Final = {"audit_rounds": ("table_id", "round"), "audit_tables": ("table_id",)}
    """The read model's tables and their primary keys (what a rebuild compares)."""

    async def reset(self, conn: AnyConnection) -> None:
        """Forget everything (the runner's checkpoint is reset by the caller)."""
        await conn.execute("DELETE FROM audit_rounds")
        await conn.execute("DELETE FROM audit_tables")

    async def apply(self, conn: AnyConnection, events: Sequence[RecordedEvent]) -> None:
        """Fold one batch of events, in the store's global order, into the rows."""
        batch = _Batch(conn)
        await batch.prepare(events)
        for record in events:
            await batch.apply(record)
        await batch.save()


class _Batch:
    def __init__(self, conn: AnyConnection) -> None:
        self.conn = conn
        self.tables: dict[str, tuple[str, str]] = {}
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
            rows = await self.conn.fetch(_LOAD_TABLES, list(table_ids))
            self.tables = {r["table_id"]: (r["game"], r["ruleset_fingerprint"]) for r in rows}
        if keys:
            ordered = sorted(keys)
            rows = await self.conn.fetch(
                _LOAD_ROUNDS, [k[0] for k in ordered], [k[1] for k in ordered]
            )
            for row in rows:
                loaded = dict(row)
                loaded["record"] = msgspec.json.decode(row["record"])
                self.rounds[(row["table_id"], row["round"])] = _Round(loaded)
        if wallet_positions:
            rows = await self.conn.fetch(_BALANCES, wallet_positions)
            self.balances = {r["global_position"]: r["balance_after"] for r in rows}

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
            self.tables[table_id] = (event.ruleset.game, event.ruleset.fingerprint)
            self.dirty_tables.add(table_id)
            return
        if isinstance(event, RulesetChanged):
            await self._ruleset_changed(table_id, event)
            return
        if isinstance(event, RoundOpened):
            game, fingerprint = self.tables.get(table_id, ("", ""))
            current = _Round(
                {
                    "table_id": table_id,
                    "round": event.round,
                    "game": game,
                    "ruleset_fingerprint": fingerprint,
                    "commitment": event.commitment,
                    "seed": None,
                    "opened_at": record.recorded_at,
                    "settled_at": None,
                    "opened_position": record.global_position,
                    "settled_position": None,
                    "players": [],
                    "record": _new_record(),
                }
            )
            self.rounds[(table_id, event.round)] = current
            current.note_command(record, _meta(record))
            return
        number = getattr(event, "round", None)
        found = self.rounds.get((table_id, number)) if isinstance(number, int) else None
        if found is None:
            return  # seating and table lifecycle: not part of any round
        found.note_command(record, _meta(record))
        try:
            _apply_table_event(found, event, record.recorded_at, record.global_position)
        except LookupError as problem:
            # An event about a box with no bet: the store holds something the rules never
            # write. Record it for the regulator rather than stall the whole trail on it.
            found.record.setdefault("anomalies", []).append(
                {
                    "position": record.global_position,
                    "event_type": record.event_type,
                    "problem": str(problem),
                }
            )

    async def _ruleset_changed(self, table_id: str, event: RulesetChanged) -> None:
        """The table plays by a new ruleset from now on, the round taking bets included: it
        has no bet (the rules change only between rounds), so it is played by the new one."""
        rules = (event.ruleset.game, event.ruleset.fingerprint)
        self.tables[table_id] = rules
        self.dirty_tables.add(table_id)
        settled = []
        for (t, number), found in self.rounds.items():
            if t != table_id:
                continue
            if found.row["settled_at"] is None:
                found.row["game"], found.row["ruleset_fingerprint"] = rules
            else:
                settled.append(number)  # settled in this batch, before the change
        # Saving a round that has a row already keeps the row's fingerprint, so the row is
        # set here; a round settled earlier in this batch may still look open in its row.
        await self.conn.execute(
            "UPDATE audit_rounds SET game = $2, ruleset_fingerprint = $3"
            " WHERE table_id = $1 AND settled_at IS NULL AND NOT (round = ANY($4::int[]))",
            table_id,
            *rules,
            settled,
        )

    async def _money(self, record: RecordedEvent, event: WalletDebited | WalletCredited) -> None:
        current = self.rounds.get((event.table_id, event.round))
        if current is None:
            return
        current.note_command(record, _meta(record))
        signed = event.amount if isinstance(event, WalletCredited) else -event.amount
        # A seamless player's balance is the operator's: the game never learns it, and a
        # sum of the game's own movements would pass for one. Before and after stay null.
        seamless = record.stream_id.startswith(SEAMLESS_PREFIX)
        after: int | None = None
        if not seamless:
            after = self.balances.get(record.global_position)
            if after is None:
                after = await self.conn.fetchval(
                    _BALANCE_FROM_EVENTS, record.stream_id, record.stream_version
                )
        wallets = current.record["wallets"]
        # A wallet's events may be read out of stream order (transactions of two tables),
        # so the first and last movement are chosen by stream version, not by arrival.
        moves = wallets.setdefault(
            event.wallet_id,
            {
                "before": None,
                "after": None,
                "debited": 0,
                "credited": 0,
                "first_version": None,
                "last_version": None,
                # Only a seamless player's entry says so: internal ones read as they always did.
                **({"seamless": True} if seamless else {}),
            },
        )
        version = record.stream_version
        if moves["first_version"] is None or version < moves["first_version"]:
            moves["first_version"] = version
            moves["before"] = None if after is None else after - signed
        if moves["last_version"] is None or version > moves["last_version"]:
            moves["last_version"], moves["after"] = version, after
        totals = current.record["totals"]
        if signed > 0:
            moves["credited"] += signed
            totals["paid"] += signed
        else:
            moves["debited"] -= signed
            totals["staked"] -= signed
        totals["house"] = totals["staked"] - totals["paid"]

    async def save(self) -> None:
        if self.dirty_tables:
            await self.conn.executemany(
                _SAVE_TABLE, [(t, *self.tables[t]) for t in sorted(self.dirty_tables)]
            )
        if self.rounds:
            await self.conn.executemany(
                _SAVE_ROUND,
                [
                    (
                        r.row["table_id"],
                        r.row["round"],
                        r.row["game"],
                        r.row["ruleset_fingerprint"],
                        r.row["commitment"],
                        r.row["seed"],
                        r.row["opened_at"],
                        r.row["settled_at"],
                        r.row["opened_position"],
                        r.row["settled_position"],
                        list(dict.fromkeys(p["player"] for p in r.record["boxes"])),
                        _json.encode(r.record).decode(),
                    )
                    for _, r in sorted(self.rounds.items())
                ],
            )


def _meta(record: RecordedEvent) -> dict[str, Any]:
    meta = msgspec.json.decode(record.metadata)
    return meta if isinstance(meta, dict) else {}


def _apply_table_event(current: _Round, event: Any, recorded_at: datetime, position: int) -> None:
    record = current.record
    dealer = record["dealer"]
    match event:
        case AntePlaced():
            record["boxes"].append(_placement(event))
        case BetsCancelled():
            current.placement(event.box)["cancelled"] = True
        case CardsDealt():
            for hand in event.hands:
                placed = current.placement(hand.box)
                placed["dealt"] = list(hand.cards)
                placed["cards"] = list(hand.cards)
            dealer["dealt"] = list(event.dealer_cards)
            dealer["cards"] = list(event.dealer_cards)
        case BonusSettled():
            current.placement(event.box)["bonus_result"] = {
                "hand": event.hand,
                "stake": event.stake,
                "won": event.won,
                "capped": event.capped,
            }
        case SixthCardBought():
            placed = current.placement(event.box)
            placed["drawn"].append(event.card)
            placed["cards"].append(event.card)
            placed["fees"] += event.fee
        case CardsExchanged():
            placed = current.placement(event.box)
            placed["discarded"].extend(event.discarded)
            placed["drawn"].extend(event.received)
            received = iter(event.received)
            placed["cards"] = [
                next(received) if c in event.discarded else c for c in placed["cards"]
            ]
            placed["fees"] += event.fee
        case BoxPlayed():
            placed = current.placement(event.box)
            placed.update(decision="play", bet=event.bet, insurance=event.insurance)
        case BoxFolded():
            placed = current.placement(event.box)
            placed["decision"] = "timed_out" if event.timed_out else "fold"
        case DealerRevealed():
            dealer.update(cards=list(event.cards), hand=event.hand, qualifies=event.qualifies)
        case DealerExchangeRequested():
            current.placement(event.box)["dealer_draw"] = "requested"
        case DealerExchangeDeclined():
            placed = current.placement(event.box)
            placed["dealer_draw"] = "timed_out" if event.timed_out else "declined"
        case DealerCardReplaced():
            dealer["replaced"].append(
                {"replaced": event.replaced, "card": event.card, "free": event.free}
            )
            dealer["cards"] = [event.card if c == event.replaced else c for c in dealer["cards"]]
        case BoxSettled():
            placed = current.placement(event.box)
            placed["cards"] = list(event.cards)
            placed["settlement"] = msgspec.to_builtins(event)
            placed["settlement"].pop("type", None)
        case RoundAbandoned():
            # Why the events after this one are the rules' defaults, not anyone's choices.
            record["abandoned"] = {
                "reason": event.reason,
                "after_s": event.after_s,
                "phase": event.phase,
                "at": recorded_at.isoformat(),
                "position": position,
            }
        case RoundSettled():
            current.row.update(
                seed=event.seed.hex(), settled_at=recorded_at, settled_position=position
            )


async def round_record(
    conn: AnyConnection, table_id: str, number: int, *, tenant: str | None = None
) -> dict[str, Any] | None:
    """One round's audit row as a dict, its secrets hidden unless it is settled; for a
    ``tenant`` (an operator's auditor) at another's table, only its own players' part."""
    row = await conn.fetchrow(_ONE_ROUND, table_id, number)
    if row is None:
        return None
    result = {k: v for k, v in dict(row).items() if k not in ("record", "record_text")}
    record = msgspec.json.decode(row["record_text"])
    result["record"] = redact_record(record, revealed=row["seed"] is not None)
    if tenant is not None:
        owner = await owner_of(conn, table_id)
        if owner is None or owner.shared or owner.operator_id != tenant:
            _keep_players_of(result, tenant)
    return result


def _ours(player: Any, tenant: str) -> bool:
    return isinstance(player, str) and operator_of(player).operator_id == tenant


def _keep_players_of(result: dict[str, Any], tenant: str) -> None:
    """Leave in a round's row only what concerns ``tenant``'s players: their boxes, money
    and commands, and the commands of the table itself (opening, time-outs) that name no
    other player's box; the totals are those of what is left."""
    record = result["record"]
    record["boxes"] = [b for b in record["boxes"] if _ours(b.get("player"), tenant)]
    boxes = {b["box"] for b in record["boxes"]}
    record["wallets"] = {w: m for w, m in record["wallets"].items() if _ours(w, tenant)}

    def kept(entry: dict[str, Any]) -> bool:
        actor = entry.get("actor") or {}
        if actor.get("role") == "player":
            return _ours(actor.get("id"), tenant)
        box = (entry.get("command") or {}).get("box")
        return box is None or box in boxes

    record["commands"] = [c for c in record["commands"] if kept(c)]
    staked = sum(m["debited"] for m in record["wallets"].values())
    paid = sum(m["credited"] for m in record["wallets"].values())
    record["totals"] = {"staked": staked, "paid": paid, "house": staked - paid}
    result["players"] = [p for p in result.get("players") or [] if _ours(p, tenant)]


class FeedItem(msgspec.Struct, frozen=True, kw_only=True):
    """One event of the audit feed, with secrets of unsettled rounds hidden."""

    position: Annotated[
        str,
        msgspec.Meta(
            description=(
                "The event's cursor (`<transaction>-<global position>`); pass it as "
                "`after` to read on from here."
            )
        ),
    ]
    global_position: Annotated[
        int, msgspec.Meta(description="The event's global position in the event store.")
    ]
    stream_id: Annotated[
        str, msgspec.Meta(description="The stream the event belongs to (a table's or a wallet's).")
    ]
    stream_version: Annotated[
        int, msgspec.Meta(description="The event's version within its stream, from 1.")
    ]
    event_type: Annotated[
        str, msgspec.Meta(description="The event's type (`AntePlaced`, `WalletDebited`, ...).")
    ]
    data: Annotated[
        dict[str, Any],
        msgspec.Meta(
            description=(
                "The event's fields; secrets of unsettled rounds (seed, deck, hidden cards) hidden."
            )
        ),
    ]
    command_id: Annotated[
        str | None,
        msgspec.Meta(
            description=(
                "Id of the command that recorded the event; null for events not "
                "caused by a command."
            )
        ),
    ]
    command: Annotated[
        Any,
        msgspec.Meta(
            description="The command as sent (its JSON body, with its `type`); null if none."
        ),
    ]
    actor: Annotated[
        Any,
        msgspec.Meta(description='Who sent the command: `{"role": ..., "id": ...}`; null if none.'),
    ]
    request_id: Annotated[
        str | None,
        msgspec.Meta(
            description=(
                "The `X-Request-ID` of the HTTP request that sent the command; null if none."
            )
        ),
    ]
    recorded_at: Annotated[
        datetime, msgspec.Meta(description="When the event was recorded (ISO 8601).")
    ]


class AuditPage(msgspec.Struct, frozen=True, kw_only=True):
    """A page of the audit feed."""

    items: Annotated[
        list[FeedItem], msgspec.Meta(description="Events in store order, oldest first.")
    ]
    next_cursor: Annotated[
        str,
        msgspec.Meta(
            description=(
                "Pass as `after` for the next page; equals the input when nothing new is visible."
            )
        ),
    ]


def _cursor(position: Position) -> str:
    return f"{position.tx_id}-{position.global_position}"


def _parse_cursor(cursor: str | None) -> Position:
    if not cursor:
        return Position.start()
    tx_id, _, global_position = cursor.partition("-")
    try:
        return Position(tx_id=int(tx_id), global_position=int(global_position))
    except ValueError:
        raise ValueError(f"not an audit feed cursor: {cursor!r}") from None


_SCANNED_PER_ITEM: Final = 10
"""A tenant's page reads at most this many events per item it may hold, then ends there."""


async def _tenants_events(
    conn: AnyConnection, start: Position, limit: int, tenant: str
) -> tuple[list[RecordedEvent], Position]:
    """Up to ``limit`` events of ``tenant``'s part after ``start``: its own tables' events
    and its players' money events; and the position read up to (the next page's start)."""
    kept: list[RecordedEvent] = []
    position = start
    budget = _SCANNED_PER_ITEM * limit
    while len(kept) < limit and budget > 0:
        asked = min(1000, budget)
        batch = await read_all(conn, position, limit=asked)
        tables = {
            e.stream_id.removeprefix(TABLE_PREFIX)
            for e in batch
            if e.stream_id.startswith(TABLE_PREFIX)
        }
        owners = await owners_of(conn, sorted(tables))
        for event in batch:
            position = event.position
            budget -= 1
            if _belongs(event, tenant, owners):
                kept.append(event)
                if len(kept) == limit:
                    break
        if len(batch) < asked:
            break
    return kept, position


def _belongs(event: RecordedEvent, tenant: str, owners: dict[str, Owner]) -> bool:
    stream = event.stream_id
    if stream.startswith(MONEY_PREFIXES):
        player = stream.removeprefix(WALLET_PREFIX).removeprefix(SEAMLESS_PREFIX)
        return _ours(player, tenant)
    owner = owners.get(stream.removeprefix(TABLE_PREFIX))
    return owner is not None and not owner.shared and owner.operator_id == tenant


async def audit_feed(
    conn: AnyConnection,
    after: str | None = None,
    limit: int = 100,
    *,
    tenant: str | None = None,
) -> AuditPage:
    """Every event in commit-safe global order, a page at a time, redacted; for a ``tenant``
    (an operator's auditor) only its part (:func:`_tenants_events`).

    The cursor is the ``(tx_id, global_position)`` pair of the last item, not the position
    alone: positions become visible out of order (see ``events.store.read_all``), and a
    cursor of positions alone would skip events. Whether a round is settled is looked up in
    the events themselves, so the feed never depends on the audit projection having caught
    up; a round settled after a page was read shows its cards when that page is read again.
    """
    if not 1 <= limit <= 1000:
        raise ValueError("limit must be 1..1000")
    start = _parse_cursor(after)
    if tenant is None:
        events = await read_all(conn, start, limit=limit)
        read_to = events[-1].position if events else start
    else:
        events, read_to = await _tenants_events(conn, start, limit, tenant)
    decoded = [(e, msgspec.json.decode(e.data), _meta(e)) for e in events]
    keys = {k for e, data, _ in decoded if (k := round_of(e.stream_id, data)) is not None}
    settled: set[tuple[str, int]] = set()
    if keys:
        ordered = sorted(keys)
        rows = await conn.fetch(
            _SETTLED,
            [TABLE_PREFIX + k[0] for k in ordered],
            [k[1] for k in ordered],
            TABLE_PREFIX,
        )
        settled = {(r["table_id"], r["round"]) for r in rows}
    items = []
    for event, data, meta in decoded:
        key = round_of(event.stream_id, data)
        revealed = key is None or key in settled
        items.append(
            FeedItem(
                position=_cursor(event.position),
                global_position=event.global_position,
                stream_id=event.stream_id,
                stream_version=event.stream_version,
                event_type=event.event_type,
                data=redact_event(event.event_type, data, revealed=revealed),
                command_id=meta.get("command_id"),
                command=redact_command(meta.get("command"), revealed=revealed),
                actor=meta.get("actor"),
                request_id=meta.get("request_id"),
                recorded_at=event.recorded_at,
            )
        )
    return AuditPage(items=items, next_cursor=_cursor(read_to))
