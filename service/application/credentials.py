"""Operators' own credentials: API keys an admin creates, that rotate with overlap and revoke.

An operator's platform authenticates with a key of its own, never with a secret it shares
with the service or with other operators: whoever holds one operator's key acts for that
operator in that role and nothing else. A key reads ``rpk_<key id>_<secret>``: the key id
(12 hex digits) names it in lists, logs and rate limits; the secret (32 random bytes,
base64url) is shown once, at creation, and kept only as its SHA-256 — a hash that cannot be
reversed, and enough for 256 random bits, which no dictionary or slow hash would protect
better. Several live keys per operator let one be rotated without a gap: create the next,
switch the platform to it, watch the old one's ``last_used_at`` stop, revoke it.

A verified key is remembered by this process for :data:`REMEMBERED_S` seconds, so an
operator's calls do not each cost a look-up; a revocation is therefore in force at once on
the instance that made it and within that time on every other.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import time
from datetime import datetime
from typing import Annotated, Final, Literal, Protocol

import msgspec

__all__ = [
    "KEY_PREFIX",
    "REMEMBERED_S",
    "Credential",
    "CredentialRole",
    "CredentialStore",
    "Credentials",
]

KEY_PREFIX: Final = "rpk_"
REMEMBERED_S: Final = 5.0
_KEY: Final = re.compile(r"^rpk_([0-9a-f]{12})_([A-Za-z0-9_-]{43})\Z")
_USED_EVERY_S: Final = 60.0
"""``last_used_at`` is written at most this often per key: a write per call would cost
every operator request a row update."""

CredentialRole = Literal["operator", "auditor"]


class Credential(msgspec.Struct, frozen=True, kw_only=True):
    """An operator's API key as the API shows it: never its secret."""

    key_id: Annotated[
        str, msgspec.Meta(description="The key's id: the 12 hex digits after `rpk_`.")
    ]
    operator_id: Annotated[str, msgspec.Meta(description="The operator the key acts for.")]
    role: Annotated[
        CredentialRole,
        msgspec.Meta(
            description="`operator` (runs the operator's tables, sessions, wallets) or"
            " `auditor` (reads the operator's audit trail and reports)."
        ),
    ]
    label: Annotated[str, msgspec.Meta(description="What the key is for, as its creator said.")]
    created_at: Annotated[datetime, msgspec.Meta(description="When it was created.")]
    created_by: Annotated[str, msgspec.Meta(description="Who created it (the admin's name).")]
    expires_at: Annotated[
        datetime | None, msgspec.Meta(description="When it stops working by itself; null: never.")
    ]
    revoked_at: Annotated[
        datetime | None, msgspec.Meta(description="When it was revoked; null: it was not.")
    ]
    last_used_at: Annotated[
        datetime | None,
        msgspec.Meta(description="About when it was last used (kept to the minute); null: never."),
    ]


def _digest(secret: str) -> bytes:
    return hashlib.sha256(secret.encode()).digest()


class CredentialStore(Protocol):
    """The keys as stored (``events.postgres.credentials``)."""

    async def insert(
        self,
        *,
        key_id: str,
        operator_id: str,
        role: CredentialRole,
        label: str,
        secret_hash: bytes,
        created_by: str,
        expires_at: datetime | None,
    ) -> Credential: ...
    async def of(self, operator_id: str) -> list[Credential]: ...
    async def revoke(self, operator_id: str, key_id: str) -> Credential | None: ...
    async def live(self, key_id: str) -> tuple[Credential, bytes] | None: ...
    async def used(self, key_id: str) -> None: ...


class Credentials:
    """The operators' API keys."""

    def __init__(self, store: CredentialStore) -> None:
        self._store = store
        self._verified: dict[str, tuple[Credential, float]] = {}
        self._used: dict[str, float] = {}

    async def issue(
        self,
        operator_id: str,
        role: CredentialRole,
        label: str,
        *,
        created_by: str,
        expires_at: datetime | None = None,
    ) -> tuple[Credential, str]:
        """A new key: its record and the key itself (shown this once)."""
        key_id = secrets.token_hex(6)
        secret = secrets.token_urlsafe(32)
        credential = await self._store.insert(
            key_id=key_id,
            operator_id=operator_id,
            role=role,
            label=label,
            secret_hash=_digest(secret),
            created_by=created_by,
            expires_at=expires_at,
        )
        return credential, f"{KEY_PREFIX}{key_id}_{secret}"

    async def of(self, operator_id: str) -> list[Credential]:
        """The operator's keys, oldest first, revoked ones included."""
        return await self._store.of(operator_id)

    async def revoke(self, operator_id: str, key_id: str) -> Credential | None:
        """Revoke the key (once: revoking again keeps the first time); None if the operator
        has no such key."""
        revoked = await self._store.revoke(operator_id, key_id)
        self._verified = {k: v for k, v in self._verified.items() if v[0].key_id != key_id}
        return revoked

    def known(self, token: str) -> Credential | None:
        """The key's record if this process verified it within :data:`REMEMBERED_S`."""
        found = self._verified.get(token)
        if found is None or time.monotonic() >= found[1]:
            return None
        return found[0]

    async def verify(self, token: str) -> Credential | None:
        """The live key ``token`` is, or ``None`` (malformed, unknown, wrong secret, revoked
        or expired: the caller learns nothing of which)."""
        known = self.known(token)
        if known is not None:
            return known
        matched = _KEY.match(token)
        if matched is None:
            return None
        key_id, secret = matched.groups()
        found = await self._store.live(key_id)
        if found is None or not hmac.compare_digest(found[1], _digest(secret)):
            return None
        credential = found[0]
        now = time.monotonic()
        if len(self._verified) > 10_000:
            self._verified.clear()
        self._verified[token] = (credential, now + REMEMBERED_S)
        if now - self._used.get(key_id, -_USED_EVERY_S) >= _USED_EVERY_S:
            self._used[key_id] = now
            await self._store.used(key_id)
        return credential
