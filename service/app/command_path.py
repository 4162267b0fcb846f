"""The command route's fast path: a well-formed command is read without Litestar's parameters.

``POST /v1/tables/{table_id}/commands`` is most of the service's traffic. Litestar reads its
arguments through the route's signature on every request: a dependency resolved for the
caller, each header extracted into a dict, the body decoded, then the whole kwargs dict
validated by a generated signature model. That machinery is a fixed cost per request
however simple the command is.

The route keeps its signature (it is what the OpenAPI document and every refusal of a bad
request come from) and gains a ``before_request`` hook that reads the same arguments
straight from the scope. Whenever a request is anything but plainly well formed (a header
given twice, a body that does not decode or validate, an over-long key) the hook steps aside
and Litestar reads the request as before, so malformed requests are refused exactly as they
always were, with the same status, problem type and validation messages. The caller was
authenticated and its access checked by the app's guard before either (service.app.policy).
"""

from __future__ import annotations

from typing import Any, Final, NamedTuple, get_args

from litestar import Request

from russian_poker.events.commands import PlayerCommand
from russian_poker.service.app.auth import Principal, principal_in
from russian_poker.service.app.bodies import STRICT_BODY

__all__ = ["KEY_MAX_LENGTH", "WellFormed", "well_formed"]

KEY_MAX_LENGTH: Final = 200
"""The longest ``Idempotency-Key`` the route's signature accepts."""

_IDEMPOTENCY_KEY: Final = b"idempotency-key"
_IF_MATCH: Final = b"if-match"
_WANTED: Final = frozenset((_IDEMPOTENCY_KEY, _IF_MATCH))


_COMMANDS: Final = get_args(PlayerCommand)


class WellFormed(NamedTuple):
    """The route's arguments, as its signature would have given them."""

    table_id: str
    data: PlayerCommand
    principal: Principal
    idempotency_key: str | None
    if_match: str | None


async def well_formed(request: Request[Any, Any, Any]) -> WellFormed | None:
    """The command's arguments, or ``None`` for Litestar to read (and refuse) the request.
    The body checks (``service.app.bodies``) have run before."""
    scope = request.scope
    found: dict[bytes, str] = {}
    for name, value in scope["headers"]:
        if name in _WANTED:
            if name in found:
                return None  # a repeated header: Litestar's own reading decides
            found[name] = value.decode("latin-1")
    key = found.get(_IDEMPOTENCY_KEY)
    if key is not None and len(key) > KEY_MAX_LENGTH:
        return None
    # Decoded strictly by the app's body check, which ran first (service.app.bodies).
    data = scope["state"].get(STRICT_BODY)
    if not isinstance(data, _COMMANDS):
        return None  # Litestar's reading refuses it as it always has
    table_id: str = scope["path_params"]["table_id"]
    return WellFormed(table_id, data, principal_in(request), key, found.get(_IF_MATCH))
