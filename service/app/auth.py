"""Bearer JWTs carrying a role, an operator and, for players, a player id.

A player's token is a launched session's (``sid``, bound to its operator, player and
currency) or a development token minted by ``russian-poker token``. Tokens without an
operator claim belong to the default operator, so single-tenant use is unchanged.

HS256 only: the algorithm is pinned on decode, so ``alg=none`` and algorithm-confusion
tokens are refused along with forged, wrong-secret and expired ones (401). A valid token of
the wrong role is a 403.
"""

from __future__ import annotations

import time
from typing import Any, Literal

import jwt
import msgspec
from litestar import Request
from litestar.connection import ASGIConnection
from litestar.exceptions import (
    NotAuthorizedException,
    NotFoundException,
    PermissionDeniedException,
)

from service.tenancy import DEFAULT_OPERATOR

__all__ = [
    "Principal",
    "Role",
    "mint_token",
    "principal_from",
    "principal_of",
    "rate_limit_key",
    "require",
    "require_operator",
]

Role = Literal["player", "operator", "auditor", "admin"]
_ALGORITHM = "HS256"


class Principal(msgspec.Struct, frozen=True, kw_only=True):
    role: Role
    subject: str
    """The game's player id for players (``operator:player``, bare for the default
    operator); a name for staff."""
    operator: str = DEFAULT_OPERATOR
    """The operator the token acts for; an admin's acts for every operator."""
    session_id: str | None = None
    """The launched session a player's token belongs to (none for development tokens)."""
    currency: str | None = None
    """The session's currency."""


def mint_token(
    secret: str,
    role: Role,
    subject: str,
    ttl_s: int = 3600,
    *,
    operator: str = DEFAULT_OPERATOR,
    session_id: str | None = None,
    currency: str | None = None,
) -> str:
    now = int(time.time())
    claims: dict[str, Any] = {"sub": subject, "role": role, "iat": now, "exp": now + ttl_s}
    if operator != DEFAULT_OPERATOR:
        claims["op"] = operator
    if session_id is not None:
        claims["sid"] = session_id
    if currency is not None:
        claims["cur"] = currency
    return jwt.encode(claims, secret, algorithm=_ALGORITHM)


_VERIFIED: dict[tuple[str, str], tuple[Principal, float]] = {}
"""Tokens already verified in this process, until their ``exp``: the same bytes under the same
secret verify the same way until then, so a player's every request does not pay for the
HMAC and the claim checks again. Only valid tokens are kept; a refused one is checked anew."""
_VERIFIED_MAX = 10_000


def decode_token(secret: str, token: str) -> Principal:
    known = _VERIFIED.get((secret, token))
    if known is not None and time.time() < known[1]:
        return known[0]
    try:
        claims = jwt.decode(
            token, secret, algorithms=[_ALGORITHM], options={"require": ["exp", "sub", "role"]}
        )
    except jwt.ExpiredSignatureError:
        raise NotAuthorizedException("the token has expired") from None
    except jwt.PyJWTError:
        raise NotAuthorizedException("the token is not valid") from None
    try:
        principal = msgspec.convert(
            {
                "role": claims["role"],
                "subject": claims["sub"],
                "operator": claims.get("op", DEFAULT_OPERATOR),
                "session_id": claims.get("sid"),
                "currency": claims.get("cur"),
            },
            Principal,
        )
    except msgspec.ValidationError:
        raise NotAuthorizedException("the token's claims are not valid") from None
    if len(_VERIFIED) >= _VERIFIED_MAX:
        _VERIFIED.clear()
    _VERIFIED[(secret, token)] = (principal, float(claims["exp"]))
    return principal


def principal_from(connection: ASGIConnection[Any, Any, Any, Any]) -> Principal:
    secret: str = connection.app.state.settings.jwt_secret
    return principal_of(connection.headers.get("authorization", ""), secret)


def principal_of(authorization: str, secret: str) -> Principal:
    """The principal of an ``Authorization`` header's value (401 unless a valid bearer token)."""
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token:
        raise NotAuthorizedException("a bearer token is required")
    return decode_token(secret, token.strip())


def require(principal: Principal, *roles: Role) -> Principal:
    if principal.role not in roles:
        raise PermissionDeniedException(f"this needs the {' or '.join(roles)} role")
    return principal


def require_operator(principal: Principal, operator_id: str, *roles: Role) -> Principal:
    """An admin, or one of ``roles`` acting for ``operator_id``: an operator's token never
    reaches another operator's data (answered 404, so ids of others are not confirmed)."""
    if principal.role == "admin":
        return principal
    require(principal, *roles)
    if principal.operator != operator_id:
        raise NotFoundException(f"no operator {operator_id!r}")
    return principal


def rate_limit_key(request: Request[Any, Any, Any]) -> str:
    """Who a request counts against: the verified player (or staff member), else the address.

    Only a verified token names a player, so forged subjects cannot spread one client's
    requests over many budgets.
    """
    try:
        principal = principal_from(request)
    except NotAuthorizedException:
        client = request.client
        return f"address:{client.host if client else 'unknown'}"
    return f"{principal.role}:{principal.operator}:{principal.subject}"
