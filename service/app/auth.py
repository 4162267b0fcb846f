"""Bearer JWTs carrying a role and, for players, a player id.

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
from litestar.exceptions import NotAuthorizedException, PermissionDeniedException

__all__ = ["Principal", "Role", "mint_token", "principal_from", "rate_limit_key", "require"]

Role = Literal["player", "operator", "auditor"]
_ALGORITHM = "HS256"


class Principal(msgspec.Struct, frozen=True, kw_only=True):
    role: Role
    subject: str
    """The player id for players; a name for operators and auditors."""


def mint_token(secret: str, role: Role, subject: str, ttl_s: int = 3600) -> str:
    now = int(time.time())
    claims = {"sub": subject, "role": role, "iat": now, "exp": now + ttl_s}
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
        principal = msgspec.convert({"role": claims["role"], "subject": claims["sub"]}, Principal)
    except msgspec.ValidationError:
        raise NotAuthorizedException("the token's claims are not valid") from None
    if len(_VERIFIED) >= _VERIFIED_MAX:
        _VERIFIED.clear()
    _VERIFIED[(secret, token)] = (principal, float(claims["exp"]))
    return principal


def principal_from(connection: ASGIConnection[Any, Any, Any, Any]) -> Principal:
    header = connection.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token:
        raise NotAuthorizedException("a bearer token is required")
    secret: str = connection.app.state.settings.jwt_secret
    return decode_token(secret, token.strip())


def require(principal: Principal, *roles: Role) -> Principal:
    if principal.role not in roles:
        raise PermissionDeniedException(f"this needs the {' or '.join(roles)} role")
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
    return f"{principal.role}:{principal.subject}"
