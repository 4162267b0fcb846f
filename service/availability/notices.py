"""Table-status notifications to the operator, queued by the command that closes or
reopens a table (docs/integration.md, "Table-status notifications").

The notification is a row of ``table_notifications`` written by the command's own statement
(``events.writes.TableNotice``), so it exists exactly when the event does; its id is the
event's id, the operator's idempotency key. An operator is notified when it has a wallet
URL and secret registered (a seamless operator): an internal-wallet operator has nowhere
to be called and reads the availability log instead. A shared table notifies every such
operator, since players of each may sit there.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from datetime import UTC
from typing import TYPE_CHECKING, Annotated, Final, Literal

import msgspec

from russian_poker.events.codec import Event
from russian_poker.events.commands import Actor, Command
from russian_poker.events.game import TableClosed, TableReopened
from russian_poker.events.writes import TableNotice
from russian_poker.service.rules.state import Table

if TYPE_CHECKING:
    from russian_poker.events.postgres.notices import QueuedNotice

__all__ = [
    "NOTICE_PATH",
    "NoticeActor",
    "TableStatusNotice",
    "actor_role",
    "notice_of",
    "table_notices",
]

NOTICE_PATH: Final = "notifications/table-status"
"""Where the notification goes: ``POST {the operator's wallet url}/notifications/table-status``."""

TableStatus = Literal["closed", "open"]


class NoticeActor(msgspec.Struct, frozen=True, kw_only=True):
    """Who changed the table's status."""

    role: Annotated[
        str,
        msgspec.Meta(
            description=(
                "`operator` (the operator's staff), `admin` (the game's staff, acting for the"
                " operator) or `system`."
            )
        ),
    ]
    id: Annotated[str, msgspec.Meta(description="The staff member's name in their token.")]


class TableStatusNotice(msgspec.Struct, frozen=True, kw_only=True):
    """The body of ``POST {url}/notifications/table-status``, signed like every wallet call
    (``X-Signature``, docs/wallet-protocol.md §4). Any 2xx answer acknowledges it; until then it is
    sent again with backoff."""

    notification_id: Annotated[
        str,
        msgspec.Meta(
            description=(
                "The idempotency key: the same on every re-send of this notification, never"
                " reused. Record it once; answer a repeat with 2xx again."
            )
        ),
    ]
    request_id: Annotated[str, msgspec.Meta(description="New for every attempt, for tracing only.")]
    operator_id: Annotated[str, msgspec.Meta(description="The operator notified.")]
    table_id: Annotated[str, msgspec.Meta(description="The table whose status changed.")]
    status: Annotated[
        TableStatus,
        msgspec.Meta(
            description=(
                "`closed`: the table is disabled (no more rounds; bets of a round not yet"
                " dealt were refunded); `open`: it was reopened."
            )
        ),
    ]
    reason: Annotated[
        str | None, msgspec.Meta(description="Why, as the one who acted gave it (1-500 chars).")
    ]
    actor: Annotated[NoticeActor, msgspec.Meta(description="Who changed the status.")]
    time: Annotated[
        str,
        msgspec.Meta(
            description="When the change was recorded: UTC, ISO 8601 (`2026-12-01T14:05:09Z`)."
        ),
    ]


def actor_role(actor: Actor) -> str:
    """The role to show for ``actor``: an admin acting as the table's operator is `admin`."""
    return "admin" if actor.admin else actor.role


def table_notices(
    state: Table,
    batches: Sequence[tuple[Command, Actor, str, list[Event]]],
    event_id: Callable[[str, int], uuid.UUID],
) -> tuple[TableNotice, ...]:
    """A notification for each ``TableClosed`` / ``TableReopened`` in ``batches`` (their ids
    by ``event_id(command_id, index)``, as the append numbers them)."""
    return tuple(
        TableNotice(
            event_id=event_id(command_id, index),
            table_id=state.table_id,
            status="closed" if isinstance(event, TableClosed) else "open",
            reason=event.reason,
            actor_role=actor_role(actor),
            actor_id=actor.id,
            operator_id=state.operator_id,
            shared=state.shared,
        )
        for _, actor, command_id, events in batches
        for index, event in enumerate(events)
        if isinstance(event, TableClosed | TableReopened)
    )


def notice_of(row: QueuedNotice) -> TableStatusNotice:
    """The wire body of a queued notification (a new ``request_id`` for this attempt)."""
    return TableStatusNotice(
        notification_id=row.notification_id,
        request_id=uuid.uuid4().hex,
        operator_id=row.operator_id,
        table_id=row.table_id,
        status=row.status,
        reason=row.reason,
        actor=NoticeActor(role=row.actor_role, id=row.actor_id),
        time=row.occurred_at.astimezone(UTC)
        .isoformat(timespec="milliseconds")
        .replace("+00:00", "Z"),
    )
