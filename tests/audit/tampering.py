"""Tampering with the record for one test only: a connection whose writes are undone, and
an audit bundle re-signed after an edit."""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

__all__ = ["resign_bundle", "rolled_back"]


def resign_bundle(root: Path, key: Ed25519PrivateKey) -> None:
    """What an exporter holding ``key`` could do after editing a bundle's file: list every
    file's new digest and sign the manifest again."""
    manifest = json.loads((root / "manifest.json").read_bytes())
    for name in manifest["files"]:
        manifest["files"][name] = hashlib.sha256((root / name).read_bytes()).hexdigest()
    body = json.dumps(manifest).encode()
    (root / "manifest.json").write_bytes(body)
    (root / "manifest.sig").write_text(key.sign(body).hex())


@contextlib.asynccontextmanager
async def rolled_back(
    pool: asyncpg.Pool[asyncpg.Record],
) -> AsyncIterator[asyncpg.pool.PoolConnectionProxy[asyncpg.Record]]:
    """A connection inside a transaction that is rolled back afterwards, so that what a test
    forged is gone before the next one reads the record."""
    async with pool.acquire() as conn:
        transaction = conn.transaction()
        await transaction.start()
        try:
            yield conn
        finally:
            await transaction.rollback()
