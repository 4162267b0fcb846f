"""Operators' API keys as stored (``operator_credentials``): a SHA-256 of each secret, never
the secret."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Final

from russian_poker.service.application.credentials import Credential, CredentialRole

__all__ = ["CredentialStore"]

_COLUMNS: Final = (
    "key_id, operator_id, role, label, created_at, created_by, expires_at, revoked_at, last_used_at"
)


def _credential(row: Any) -> Credential:
    return Credential(**{k: row[k] for k in _COLUMNS.replace(" ", "").split(",")})


class CredentialStore:
    """The keys on a pool."""

    def __init__(self, pool: Any) -> None:
        self._pool = pool

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
    ) -> Credential:
        row = await self._pool.fetchrow(
            f"""
            INSERT INTO operator_credentials (key_id, operator_id, role, label, secret_hash,
                                              created_by, expires_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING {_COLUMNS}
            """,
            key_id,
            operator_id,
            role,
            label,
            secret_hash,
            created_by,
            expires_at,
        )
        return _credential(row)

    async def of(self, operator_id: str) -> list[Credential]:
        rows = await self._pool.fetch(
            f"SELECT {_COLUMNS} FROM operator_credentials WHERE operator_id = $1"
            " ORDER BY created_at, key_id",
            operator_id,
        )
        return [_credential(row) for row in rows]

    async def revoke(self, operator_id: str, key_id: str) -> Credential | None:
        row = await self._pool.fetchrow(
            f"""
            UPDATE operator_credentials SET revoked_at = coalesce(revoked_at, now())
            WHERE operator_id = $1 AND key_id = $2 RETURNING {_COLUMNS}
            """,
            operator_id,
            key_id,
        )
        return _credential(row) if row else None

    async def live(self, key_id: str) -> tuple[Credential, bytes] | None:
        """A key neither revoked nor expired, with the hash of its secret."""
        row = await self._pool.fetchrow(
            f"""
            SELECT {_COLUMNS}, secret_hash FROM operator_credentials
            WHERE key_id = $1 AND revoked_at IS NULL
              AND (expires_at IS NULL OR expires_at > now())
            """,
            key_id,
        )
        return (_credential(row), bytes(row["secret_hash"])) if row else None

    async def used(self, key_id: str) -> None:
        await self._pool.execute(
            "UPDATE operator_credentials SET last_used_at = now() WHERE key_id = $1", key_id
        )
