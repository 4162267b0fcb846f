"""Auditors fetch the signed checkpoints and the public key, and can check both offline."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from litestar.testing import AsyncTestClient

from russian_poker.events.postgres.pool import create_pool
from russian_poker.service.app import create_app
from russian_poker.service.chain.checkpoints import checkpoint_digest
from russian_poker.service.chain.keys import private_key_for
from russian_poker.service.chain.merkle import leaf_bytes, merkle_root
from tests.api.conftest import bearer, fresh_settings
from tests.chain.conftest import checkpoint, fill

AUDITOR = bearer("auditor", "regulator")


@pytest.fixture
async def client(database_url: str, tmp_path: Path) -> AsyncIterator[AsyncTestClient[Any]]:
    settings = await fresh_settings(database_url, tmp_path, rate_limit=0, clock=False)
    async with AsyncTestClient(app=create_app(settings)) as test_client:
        yield test_client


async def test_checkpoints_page_and_verify_offline(
    client: AsyncTestClient[Any], database_url: str, tmp_path: Path
) -> None:
    # The app made (development) its key in the data directory: sign with the same one.
    key = private_key_for(tmp_path / "checkpoint-key.pem", create=False)
    pool = await create_pool(database_url)
    try:
        for n, stream in enumerate(("a", "b", "c")):
            await fill(pool, [stream, f"{stream}-2"], n + 2)
            await checkpoint(pool, key)
    finally:
        await pool.close()

    answer = await client.get("/v1/audit/checkpoints/public-key", headers=AUDITOR)
    assert answer.status_code == 200, answer.text
    published = answer.json()
    public = serialization.load_pem_public_key(published["pem"].encode())
    assert isinstance(public, Ed25519PublicKey)
    assert bytes.fromhex(published["public_key"]) == key.public_key().public_bytes_raw()

    first = (await client.get("/v1/audit/checkpoints?limit=2", headers=AUDITOR)).json()
    assert [c["seq"] for c in first["items"]] == [1, 2]
    rest = await client.get(
        "/v1/audit/checkpoints", params={"cursor": first["next_cursor"]}, headers=AUDITOR
    )
    items = first["items"] + rest.json()["items"]
    assert [c["seq"] for c in items] == [1, 2, 3]
    # A tail to follow: at its end the cursor stays where it is.
    end = await client.get(
        "/v1/audit/checkpoints", params={"cursor": rest.json()["next_cursor"]}, headers=AUDITOR
    )
    assert end.json() == {"items": [], "next_cursor": rest.json()["next_cursor"]}

    previous = bytes(32)
    for item in items:
        leaves = [
            leaf_bytes(x["stream_id"], x["stream_version"], bytes.fromhex(x["hash"]))
            for x in item["leaves"]
        ]
        assert merkle_root(leaves).hex() == item["merkle_root"]
        assert bytes.fromhex(item["prev_digest"]) == previous
        digest = checkpoint_digest(
            seq=item["seq"],
            created_at=datetime.fromisoformat(item["created_at"]),
            upto_tx_id=int(item["upto_tx_id"]),
            upto_position=item["upto_position"],
            prev_digest=previous,
            leaf_count=item["leaf_count"],
            merkle_root=bytes.fromhex(item["merkle_root"]),
            key_id=published["key_id"],
        )
        assert digest.hex() == item["digest"]
        public.verify(bytes.fromhex(item["signature"]), digest)  # raises if forged
        previous = digest
    assert [x["stream_id"] for x in items[1]["leaves"]] == ["b", "b-2"]


async def test_only_auditors_and_admins_see_checkpoints(client: AsyncTestClient[Any]) -> None:
    """The checkpoints are the auditors'; the public key is no secret, and an operator's
    staff check a round's inclusion proof with it (the back office does, in the browser)."""
    for role, checkpoints, key in (
        ("player", 403, 403),
        ("operator", 403, 200),
        ("auditor", 200, 200),
        ("admin", 200, 200),
    ):
        headers = bearer(role, "someone")
        for path, status in (
            ("/v1/audit/checkpoints", checkpoints),
            ("/v1/audit/checkpoints/public-key", key),
        ):
            assert (await client.get(path, headers=headers)).status_code == status, (role, path)
    for path in ("/v1/audit/checkpoints", "/v1/audit/checkpoints/public-key"):
        assert (await client.get(path)).status_code == 401, path
