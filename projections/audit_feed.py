"""The audit trail as auditors read it: a round's record (``audit_rounds``) and the feed of
every event in the store's global order, both with the secrets of unsettled rounds hidden,
and for an operator's auditor only its own part. Read through the trail's store
(``events.postgres.audit``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Final, cast

import msgspec

from russian_poker.events.codec import EventType
from russian_poker.events.commands import Actor
from russian_poker.events.postgres.audit import AuditStore
from russian_poker.events.postgres.tables import Owner
from russian_poker.events.records import Position, RecordedEvent
from russian_poker.events.streams import (
    MONEY_PREFIXES,
    SEAMLESS_PREFIX,
    TABLE_PREFIX,
    WALLET_PREFIX,
)
from russian_poker.projections.audit import AuditRow, meta_of
from russian_poker.projections.game_record import GameRecord
from russian_poker.projections.paging import InvalidCursor
from russian_poker.projections.redaction import (
    redact_command,
    redact_event,
    redact_record,
    round_of,
)
from russian_poker.projections.shown import ShownEvent
from russian_poker.service.rules.tenancy import operator_of

__all__ = ["AuditPage", "FeedItem", "audit_feed", "round_record"]


async def round_record(
    trail: AuditStore, table_id: str, number: int, *, tenant: str | None = None
) -> AuditRow | None:
    """One round's audit row, its secrets hidden unless it is settled; for a ``tenant`` (an
    operator's auditor) at another's table, only its own players' part."""
    row = await trail.round(table_id, number)
    if row is None:
        return None
    result = {
        "players": row.players,
        "record": redact_record(msgspec.to_builtins(row.record), revealed=row.seed is not None),
    }
    if tenant is not None:
        owner = await trail.owner(table_id)
        if owner is None or owner.shared or owner.operator_id != tenant:
            _keep_players_of(result, tenant)
    return msgspec.structs.replace(
        row, players=result["players"], record=msgspec.convert(result["record"], GameRecord)
    )


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
                "The event's place in the feed, a cursor: pass it as `cursor` to read on from here."
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
        EventType,
        msgspec.Meta(description="The event's type (`AntePlaced`, `WalletDebited`, ...)."),
    ]
    data: Annotated[
        ShownEvent,
        msgspec.Meta(
            description=(
                "The event's fields, tagged on `type` (the event's type); secrets of unsettled"
                " rounds hidden: a hidden card reads `??`, the seed is null, the deck empty."
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
        Actor | None,
        msgspec.Meta(description="Who sent the command; null if none."),
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
                "Pass back as `cursor` for the next page. Never null: the feed is a tail to"
                " follow, and this equals the `cursor` given when nothing new is visible."
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
        raise InvalidCursor(
            f"not a cursor of this list: {cursor[:40]!r}; pass back a `next_cursor` exactly"
        ) from None


_SCANNED_PER_ITEM: Final = 10
"""A tenant's page reads at most this many events per item it may hold, then ends there."""


async def _tenants_events(
    trail: AuditStore, start: Position, limit: int, tenant: str
) -> tuple[list[RecordedEvent], Position]:
    """Up to ``limit`` events of ``tenant``'s part after ``start``: its own tables' events
    and its players' money events; and the position read up to (the next page's start)."""
    kept: list[RecordedEvent] = []
    position = start
    budget = _SCANNED_PER_ITEM * limit
    while len(kept) < limit and budget > 0:
        asked = min(1000, budget)
        batch = await trail.read_all(position, limit=asked)
        tables = {
            e.stream_id.removeprefix(TABLE_PREFIX)
            for e in batch
            if e.stream_id.startswith(TABLE_PREFIX)
        }
        owners = await trail.owners(sorted(tables))
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
    trail: AuditStore,
    after: str | None = None,
    limit: int = 100,
    *,
    tenant: str | None = None,
) -> AuditPage:
    """Every event in commit-safe global order, a page at a time, redacted; for a ``tenant``
    (an operator's auditor) only its part (:func:`_tenants_events`).

    The cursor is the ``(tx_id, global_position)`` pair of the last item, not the position
    alone: positions become visible out of order (see ``events.postgres.store.read_all``), and a
    cursor of positions alone would skip events. Whether a round is settled is looked up in
    the events themselves, so the feed never depends on the audit projection having caught
    up; a round settled after a page was read shows its cards when that page is read again.
    """
    if not 1 <= limit <= 1000:
        raise ValueError("limit must be 1..1000")
    start = _parse_cursor(after)
    if tenant is None:
        events = await trail.read_all(start, limit=limit)
        read_to = events[-1].position if events else start
    else:
        events, read_to = await _tenants_events(trail, start, limit, tenant)
    decoded = [(e, msgspec.json.decode(e.data), meta_of(e)) for e in events]
    keys = {k for e, data, _ in decoded if (k := round_of(e.stream_id, data)) is not None}
    settled = await trail.settled(sorted(keys))
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
                event_type=cast("EventType", event.event_type),
                # Shown as stored (a dict), which the union's schema describes.
                data=cast("Any", redact_event(event.event_type, data, revealed=revealed)),
                command_id=meta.get("command_id"),
                command=redact_command(meta.get("command"), revealed=revealed),
                actor=cast("Any", meta.get("actor")),
                request_id=meta.get("request_id"),
                recorded_at=event.recorded_at,
            )
        )
    return AuditPage(items=items, next_cursor=_cursor(read_to))
