"""Who is calling: bearer JWTs the service signs, and operators' own API keys.

Two kinds of bearer credential reach the API (docs/security.md):
- **JWTs signed by the service** (HS256, key id ``kid``): a launched session's player token
  (``POST /v1/sessions``), and staff tokens minted by ``russian-poker token`` on the
  service's host. The secret never leaves the host.
- **Operators' API keys** (``rpk_…``, ``service.application.credentials``): an admin creates
  them per operator and role; the operator's platform sends one as its bearer token.

A JWT is validated strictly: the algorithm is pinned (``alg=none`` and algorithm confusion
are refused), its ``kid`` names one of the service's keys, ``iss`` and ``aud`` are the
service's, ``exp``/``iat``/``nbf`` are JSON numbers, and a player's subject belongs to the
operator the token names. In production a player token must carry a launched session.
Anything else is a 401 that echoes nothing of the token.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any, Final

import jwt
import msgspec
from litestar.connection import ASGIConnection
from litestar.exceptions import NotAuthorizedException

from russian_poker.service.app.state import config, services
from russian_poker.service.application.credentials import KEY_PREFIX
from russian_poker.service.tenancy import DEFAULT_OPERATOR, operator_of, valid_player_id
from russian_poker.service.tokens import ALGORITHM, AUDIENCE, ISSUER, Role, key_id, mint_token

__all__ = [
    "AUDIENCE",
    "ISSUER",
    "Principal",
    "Role",
    "TokenVerifier",
    "authenticate",
    "bearer_of",
    "decode_token",
    "key_id",
    "keyring",
    "mint_token",
    "principal_in",
    "rate_limit_key",
]

_NUMERIC_CLAIMS: Final = ("exp", "iat", "nbf")
_AUTH_KEY: Final = "auth"
"""Where the verified principal lives in the request's scope (Litestar's ``auth``)."""


class Principal(msgspec.Struct, frozen=True, kw_only=True):
    role: Role
    subject: str
    """The game's player id for players (``operator:player``, bare for the default
    operator); a name (or ``key:<key id>``) for staff."""
    operator: str = DEFAULT_OPERATOR
    """The operator the token acts for; an admin's acts for every operator."""
    session_id: str | None = None
    """The launched session a player's token belongs to (none for development tokens)."""
    currency: str | None = None
    """The session's currency."""

    @property
    def tenant(self) -> str | None:
        """The operator whose data this caller reaches; ``None`` for every operator's: an
        admin, or an auditor of the game itself (a token minted without an operator)."""
        if self.role == "admin" or (self.role == "auditor" and self.operator == DEFAULT_OPERATOR):
            return None
        return self.operator


def keyring(secret: str, previous: tuple[str, ...] = ()) -> dict[str, str]:
    """The keys a token may be signed with, by ``kid``: the current secret (which signs every
    new token) and, while a rotation overlaps, the previous ones."""
    return {key_id(s): s for s in (*previous, secret)}


class TokenVerifier:
    """Verifies the service's JWTs against its keyring.

    Tokens already verified are kept until their ``exp``: the same bytes verify the same way
    under the same keys until then, so a player's every request does not pay for the HMAC
    and the claim checks again. Only valid tokens are kept; a refused one is checked anew."""

    _MAX: Final = 10_000

    def __init__(self, keys: Mapping[str, str], *, production: bool = False) -> None:
        self._keys = dict(keys)
        self._production = production
        self._verified: dict[str, tuple[Principal, float]] = {}

    def verify(self, token: str) -> Principal:
        """The principal of a service-signed JWT, or a 401."""
        known = self._verified.get(token)
        if known is not None and time.time() < known[1]:
            return known[0]
        principal, expires = decode_token(self._keys, token, production=self._production)
        if len(self._verified) >= self._MAX:
            self._verified.clear()
        self._verified[token] = (principal, expires)
        return principal


def decode_token(
    keys: Mapping[str, str], token: str, *, production: bool = False
) -> tuple[Principal, float]:
    """The principal of a service-signed JWT and when it expires, or a 401."""
    try:
        header = jwt.get_unverified_header(token)
        kid = header.get("kid")
        secret = keys.get(kid) if isinstance(kid, str) else None
        if secret is None:
            raise NotAuthorizedException("the token is not valid")
        claims = jwt.decode(
            token,
            secret,
            algorithms=[ALGORITHM],
            audience=AUDIENCE,
            issuer=ISSUER,
            options={"require": ["exp", "iat", "iss", "aud", "sub", "role"]},
        )
    except jwt.ExpiredSignatureError:
        raise NotAuthorizedException("the token has expired") from None
    except jwt.PyJWTError:
        raise NotAuthorizedException("the token is not valid") from None
    return _principal(claims, production=production), float(claims["exp"])


def _principal(claims: dict[str, Any], *, production: bool) -> Principal:
    # PyJWT reads a time claim with int(), so "9999999999" as text would pass: JSON numbers
    # only (RFC 7519's NumericDate).
    for name in _NUMERIC_CLAIMS:
        value = claims.get(name)
        if name in claims and (isinstance(value, bool) or not isinstance(value, int | float)):
            raise NotAuthorizedException("the token's claims are not valid")
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
    if principal.role == "player":
        player = operator_of(principal.subject)
        if player.operator_id != principal.operator or not valid_player_id(player.player_id):
            # A subject of another operator's (``beta:bob`` in an acme token) names no one.
            raise NotAuthorizedException("the token's claims are not valid")
        if production and principal.session_id is None:
            raise NotAuthorizedException(
                "a player's token comes from a launched session (POST /v1/sessions)"
            )
    return principal


def bearer_of(authorization: str) -> str:
    """The token of an ``Authorization: Bearer …`` header's value, or a 401."""
    if not authorization.strip():
        raise NotAuthorizedException(
            "a bearer token is required: send the header `Authorization: Bearer <token>`"
        )
    scheme, _, token = authorization.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer":
        # The scheme only: what follows it may be a secret.
        raise NotAuthorizedException(
            "the Authorization header must read `Bearer <token>`: the word `Bearer`, a space, "
            "then the token"
        )
    if not token:
        raise NotAuthorizedException("the Authorization header has `Bearer` but no token after it")
    return token


async def authenticate(connection: ASGIConnection[Any, Any, Any, Any]) -> Principal:
    """The verified caller of a request (401 otherwise), kept in its scope for the rest of
    the request: the access policy's guard authenticates once, everything after reads it."""
    found = connection.scope.get(_AUTH_KEY)
    if isinstance(found, Principal):
        return found
    token = bearer_of(connection.headers.get("authorization", ""))
    state = connection.app.state
    if token.startswith(KEY_PREFIX):
        credential = await services(state).credentials.verify(token)
        if credential is None:
            raise NotAuthorizedException("the API key is not valid, or revoked or expired")
        principal = Principal(
            role=credential.role,
            subject=f"key:{credential.key_id}",
            operator=credential.operator_id,
        )
    else:
        principal = config(state).tokens.verify(token)
    connection.scope[_AUTH_KEY] = principal
    return principal


def principal_in(connection: ASGIConnection[Any, Any, Any, Any]) -> Principal:
    """The principal the guard verified for this request."""
    principal = connection.scope.get(_AUTH_KEY)
    assert isinstance(principal, Principal), "the access guard authenticates every API route"
    return principal


def rate_limit_key(connection: ASGIConnection[Any, Any, Any, Any]) -> str:
    """Who a request counts against: the verified player (or staff member), else the address.

    Only a verified credential names a caller, so forged subjects cannot spread one client's
    requests over many budgets: a JWT is checked here (cached), an API key only if this
    process verified it before (else its first request counts against the address)."""
    try:
        token = bearer_of(connection.headers.get("authorization", ""))
        state = connection.app.state
        if token.startswith(KEY_PREFIX):
            known = services(state).credentials.known(token)
            if known is None:
                raise NotAuthorizedException("not verified yet")
            return f"key:{known.key_id}"
        principal = config(state).tokens.verify(token)
    except NotAuthorizedException:
        client = connection.client
        return f"address:{client.host if client else 'unknown'}"
    return f"{principal.role}:{principal.operator}:{principal.subject}"
