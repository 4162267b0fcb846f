"""Who may call each route, and whose objects it reaches: one declared policy per route.

Every route handler carries an :class:`Access` in its ``opt`` (``opt=access(...)``), and one
app-wide guard (:func:`enforce`) applies it before anything else of the route runs:
1. a public route lets everyone through; any other authenticates the caller (401);
2. the caller's role must be one the route names (403), and a route about the whole service
   (``unbound_only``) takes only callers bound to no operator: admins and the game's own
   auditors (403);
3. the object the path names must be the caller's tenant's (404, as if it did not exist, so
   one tenant never learns what another has):
   - ``table``: the table's operator is the caller's, or the table is shared; ``runs``
     adds that only the table's own operator (or an admin) runs it, an admin alone a
     shared one;
   - ``operator``: the operator is the caller's;
   - ``player`` and ``wallet``: a player the caller's own (a player role: itself).
   Routes that list things (``listing``) or act in the caller's own namespace (``own``)
   scope their queries by :attr:`Principal.tenant` themselves; ``service`` routes return
   nothing of any tenant's.

The app refuses to start when a route has no policy (:func:`check_policies`), and the
matrix test (tests/security/test_policy_matrix.py) calls every route of the route table as
every role, on its own tenant's objects and on another's.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Final, Literal

import msgspec
from cachetools import LRUCache
from litestar import Litestar
from litestar.connection import ASGIConnection
from litestar.exceptions import NotFoundException, PermissionDeniedException
from litestar.handlers import BaseRouteHandler

from russian_poker.events.postgres.tables import Owner, TableStore
from russian_poker.service.app.auth import Principal, Role, authenticate
from russian_poker.service.app.state import services
from russian_poker.service.tenancy import game_player_id, operator_of, valid_player_id

__all__ = [
    "ACCESS_KEY",
    "PUBLIC",
    "Access",
    "Scope",
    "TableOwners",
    "access",
    "check_policies",
    "enforce",
    "policy_of",
    "wallet_of",
]

ACCESS_KEY: Final = "access"

Scope = Literal["service", "own", "listing", "table", "operator", "player", "wallet"]


class Access(msgspec.Struct, frozen=True, kw_only=True):
    """A route's policy: who may call it, and how the objects it reaches are scoped."""

    roles: frozenset[Role] = frozenset()
    """The roles that may call the route; none: a public route (no token needed)."""
    scope: Scope = "service"
    unbound_only: bool = False
    """Only callers bound to no operator (admins, the game's auditors): whole-service data."""
    runs: bool = False
    """With ``scope="table"``: the caller runs the table (its own operator, an admin)."""

    @property
    def public(self) -> bool:
        return not self.roles


PUBLIC: Final = Access()


def access(
    *roles: Role, scope: Scope = "service", unbound_only: bool = False, runs: bool = False
) -> dict[str, Any]:
    """A route's ``opt`` declaring its policy: ``@get(..., opt=access("operator"))``."""
    if not roles:
        return {ACCESS_KEY: PUBLIC}
    return {
        ACCESS_KEY: Access(
            roles=frozenset(roles), scope=scope, unbound_only=unbound_only, runs=runs
        )
    }


def policy_of(handler: BaseRouteHandler) -> Access | None:
    found = handler.opt.get(ACCESS_KEY)
    return found if isinstance(found, Access) else None


def check_policies(app: Litestar) -> None:
    """Refuse an app with a route that declares no policy: access is never a default."""
    missing = sorted(
        f"{method} {route.path}"
        for route in app.routes
        for handler in getattr(route, "route_handlers", ())
        if policy_of(handler) is None
        for method in sorted(getattr(handler, "http_methods", ()) or {"WS"})
        if method not in ("HEAD", "OPTIONS")
    )
    if missing:
        raise RuntimeError(f"routes without an access policy: {', '.join(missing)}")


class TableOwners:
    """Whose each table is. Ownership is fixed when a table opens, so what was found is kept
    (a table that does not exist yet is looked up again)."""

    def __init__(self, tables: TableStore, size: int = 65_536) -> None:
        self._tables = tables
        self._known: LRUCache[str, Owner] = LRUCache(maxsize=size)

    async def of(self, table_id: str) -> Owner | None:
        found = self._known.get(table_id)
        if found is None:
            found = await self._tables.owner(table_id)
            if found is not None:
                self._known[table_id] = found
        return found


def sees(principal: Principal, owner: Owner) -> bool:
    """Whether the caller may see a table of ``owner``'s: its tenant's own, or shared."""
    tenant = principal.tenant
    return tenant is None or owner.shared or owner.operator_id == tenant


def wallet_of(principal: Principal, wallet_id: str) -> str:
    """The game's id of the wallet the caller names ``wallet_id``, if it may reach it (404
    otherwise). Operators and players name wallets by the operator's own player id; admins
    and auditors by the game's (``operator:player``)."""
    if principal.role in ("operator", "player"):
        if not valid_player_id(wallet_id):
            raise NotFoundException(f"no wallet {wallet_id!r}")
        game_id = game_player_id(principal.operator, wallet_id)
    else:
        game_id = wallet_id
    if principal.role == "player" and game_id != principal.subject:
        raise NotFoundException(f"no wallet {wallet_id!r}")
    tenant = principal.tenant
    if tenant is not None and operator_of(game_id).operator_id != tenant:
        raise NotFoundException(f"no wallet {wallet_id!r}")
    return game_id


def _player(principal: Principal, player_id: str) -> None:
    tenant = principal.tenant
    mine = player_id == principal.subject if principal.role == "player" else True
    if not mine or (tenant is not None and operator_of(player_id).operator_id != tenant):
        raise NotFoundException(f"no player {player_id!r}")


async def _table(
    connection: ASGIConnection[Any, Any, Any, Any], principal: Principal, rule: Access
) -> None:
    table_id = str(connection.path_params["table_id"])
    owners = services(connection.app.state).table_owners
    owner = await owners.of(table_id)
    if owner is None or not sees(principal, owner):
        raise NotFoundException(f"no table {table_id!r}")
    if rule.runs and principal.role != "admin":
        if owner.shared:
            raise PermissionDeniedException("a shared table is run by an admin")
        if owner.operator_id != principal.operator:
            raise NotFoundException(f"no table {table_id!r}")


def _roles(roles: Iterable[Role]) -> str:
    return " or ".join(sorted(roles))


async def enforce(
    connection: ASGIConnection[Any, Any, Any, Any], handler: BaseRouteHandler
) -> None:
    """The app's one guard: the route's policy, before the route sees the request."""
    rule = policy_of(handler)
    if rule is None:
        if getattr(handler, "http_methods", None) == {"OPTIONS"}:
            return  # Litestar's own answer to OPTIONS: the allowed methods, nothing else
        # check_policies refuses such an app at start; never open by default.
        raise PermissionDeniedException("this route has no access policy")
    if rule.public:
        return
    principal = await authenticate(connection)
    if principal.role not in rule.roles:
        raise PermissionDeniedException(f"this needs the {_roles(rule.roles)} role")
    if rule.unbound_only and principal.tenant is not None:
        raise PermissionDeniedException(
            "this covers every operator: it needs an admin, or an auditor of the game itself"
            " (a token bound to no operator)"
        )
    params: Mapping[str, Any] = connection.path_params
    match rule.scope:
        case "table":
            await _table(connection, principal, rule)
        case "operator":
            operator_id = str(params["operator_id"])
            if principal.tenant not in (None, operator_id):
                raise NotFoundException(f"no operator {operator_id!r}")
        case "player":
            _player(principal, str(params["player_id"]))
        case "wallet":
            wallet_of(principal, str(params["wallet_id"]))
        case _:
            pass
