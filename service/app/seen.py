"""What a caller sees of a table: its viewer, its view, and who it acts as.

Shared by the routes that answer with a table (the lobby's tables, commands, the live
stream, wallets' seats): a player without a seat watches as an observer, and an admin acts
on a table as its operator does.
"""

from __future__ import annotations

from litestar.exceptions import NotFoundException

from russian_poker.events.commands import Actor
from russian_poker.events.postgres.tables import TableStore
from russian_poker.projections.views import TableView, Viewer, table_view
from russian_poker.service.app.auth import Principal
from russian_poker.service.app.problems import problem
from russian_poker.service.live import Timers
from russian_poker.service.rules.state import Table

__all__ = ["actor_of", "load_view", "seen_by", "table_version", "viewer_of"]


def viewer_of(principal: Principal) -> Viewer:
    if principal.role == "player":
        return Viewer(role="player", player_id=principal.subject)
    return Viewer(role="operator" if principal.role == "operator" else "auditor")


def actor_of(principal: Principal) -> Actor:
    # An admin acts on tables as their operator does (a shared table has no other); the
    # metadata says it was an admin (the availability log shows it).
    role = "operator" if principal.role == "admin" else principal.role
    return Actor(role=role, id=principal.subject, admin=principal.role == "admin")


def seen_by(state: Table, version: int, viewer: Viewer, timers: Timers | None = None) -> TableView:
    """A player without a seat at this table watches it as an observer. Deadlines from
    ``timers`` (the table's timer rows); without them, null."""
    if viewer.role == "player" and state.seat_of(viewer.player_id or "") is None:
        viewer = Viewer(role="observer", player_id=viewer.player_id)
    return table_view(state, version, viewer, timers)


async def load_view(
    tables: TableStore, table_id: str, viewer: Viewer, *, deadlines: bool = True
) -> TableView:
    """The table in ``viewer``'s view, with its deadlines unless told not to. Whether the
    caller may see the table is the route's policy's to say (service.app.policy)."""
    seen = await tables.seen(table_id, deadlines=deadlines)
    if seen.version == 0:
        raise NotFoundException(f"no table {table_id!r}")
    return seen_by(seen.state, seen.version, viewer, seen.timers)


def table_version(header: str | None) -> int | None:
    """A table version from ``If-Match`` or ``Last-Event-ID`` (``"12"``, ``W/"12"`` or ``12``)."""
    if header is None:
        return None
    text = header.strip().removeprefix("W/").strip('"')
    if not text.isdigit():
        raise problem("invalid_if_match", 400, 'If-Match: the table\'s version number, e.g. "12"')
    return int(text)
