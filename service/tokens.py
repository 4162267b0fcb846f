"""Minting the service's bearer JWTs (HS256, ``kid``, ``iss``, ``aud``, numeric times).

Apart from the app (``service.app.auth`` verifies what this signs) so that
``russian-poker token`` mints a token without loading the web framework, the database
driver or the app: a shell script calls it once per token.
"""

from __future__ import annotations

import hashlib
import time
from typing import Any, Final, Literal

import jwt

from russian_poker.service.tenancy import DEFAULT_OPERATOR

__all__ = ["ALGORITHM", "AUDIENCE", "ISSUER", "Role", "key_id", "mint_token"]

Role = Literal["player", "operator", "auditor", "admin"]
ALGORITHM: Final = "HS256"
ISSUER: Final = "russian-poker"
AUDIENCE: Final = "russian-poker-api"


def key_id(secret: str) -> str:
    """The ``kid`` of tokens signed with ``secret``: names the key without revealing it."""
    return "k" + hashlib.sha256(b"russian-poker jwt key:" + secret.encode()).hexdigest()[:15]


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
    claims: dict[str, Any] = {
        "iss": ISSUER,
        "aud": AUDIENCE,
        "sub": subject,
        "role": role,
        "iat": now,
        "nbf": now,
        "exp": now + ttl_s,
    }
    if operator != DEFAULT_OPERATOR:
        claims["op"] = operator
    if session_id is not None:
        claims["sid"] = session_id
    if currency is not None:
        claims["cur"] = currency
    return jwt.encode(claims, secret, algorithm=ALGORITHM, headers={"kid": key_id(secret)})
