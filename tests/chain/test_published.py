"""Checkpoints published outside the database: every signed checkpoint goes to each seamless
operator's wallet (the reference wallet, a real process), signed like every call, in
sequence, sent again until taken, kept there once. An insider who then deletes every
checkpoint from the store is caught by `verify-chain` given the copy the operator kept."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
from click.testing import CliRunner, Result
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from russian_poker.events.postgres.chain import ChainStore
from russian_poker.service.chain.checkpoints import make_checkpoint
from russian_poker.service.chain.keys import key_id, private_key_for
from russian_poker.service.cli import main
from tests.chain.conftest import below_horizon
from tests.operators.casino import ADMIN, Casino
from tests.operators.harness import register
from tests.processes import eventually
from tests.rules.scenario import deck_for
from tests.wallet.reference import ReferenceWallet

DECK = list(deck_for(["5h 6c 7d 8s 9h"], "Ah Kc 9d 7s 4c"))


async def kept(wallet: ReferenceWallet) -> list[dict[str, Any]]:
    """The checkpoint notifications the operator's wallet recorded, oldest first."""
    async with httpx.AsyncClient(base_url=wallet.base, timeout=10) as client:
        r = await client.get("/_admin/checkpoints")
    assert r.status_code == 200, r.text
    return [row["notice"] for row in r.json()]


async def arrived(wallet: ReferenceWallet, count: int) -> list[dict[str, Any]]:
    async def enough() -> bool:
        return len(await kept(wallet)) >= count

    await eventually(enough, timeout=30, message=f"{count} checkpoints at the wallet")
    return await kept(wallet)


async def checkpoint(casino: Casino, key: Ed25519PrivateKey) -> int:
    """A new checkpoint over what was appended since the last one; its seq."""
    await below_horizon(casino.pool)
    made = await make_checkpoint(ChainStore(casino.pool), key, allow_empty=True)
    assert made is not None
    return made.seq


async def _cli(database_url: str, key_file: Path, *args: str) -> Result:
    env = {"DATABASE_URL": database_url, "RUSSIAN_POKER_CHECKPOINT_KEY": str(key_file)}
    return await asyncio.to_thread(CliRunner(env=env).invoke, main, ["audit", *args])


async def test_every_checkpoint_reaches_the_operators_and_outlives_the_store(
    casino: Casino, reference_wallet: ReferenceWallet, database_url: str, tmp_path: Path
) -> None:
    key_file = tmp_path / "checkpoint-key.pem"
    key = private_key_for(key_file, create=True)
    await casino.register("acme", reference_wallet)
    await casino.register("house")  # an internal wallet: nowhere to be called
    # A seamless wallet without the endpoint (404): declined once, never queued behind.
    bare = {
        "mode": "seamless",
        "url": f"{reference_wallet.base}/elsewhere",
        "secret": reference_wallet.secret,
        "timeout_ms": 1000,
    }
    await register(casino.client, ADMIN, "bare", bare, ["EUR"])
    await casino.open_table("acme.acme-1", "russian", DECK, operator_id="acme")

    # The first is refused twice (500), then taken: sent again, recorded once, and the
    # second waits behind it, so the operator's copy is an unbroken chain.
    await reference_wallet.fault("error_500", calls=["checkpoint"], times=2)
    first = await checkpoint(casino, key)
    await casino.open_table("acme.acme-2", "russian", DECK, operator_id="acme")
    second = await checkpoint(casino, key)
    one, two = (await arrived(reference_wallet, 2))[-2:]
    assert (one["checkpoint"]["seq"], two["checkpoint"]["seq"]) == (first, second)
    assert two["checkpoint"]["prev_digest"] == one["checkpoint"]["digest"]
    assert one["operator_id"] == "acme"
    assert one["notification_id"] == f"checkpoint-{first}-{one['checkpoint']['digest'][:16]}"
    stored = await casino.pool.fetchrow(
        "SELECT digest, signature, key_id FROM chain_checkpoints WHERE seq = $1", first
    )
    assert one["checkpoint"]["digest"] == bytes(stored["digest"]).hex()
    assert one["checkpoint"]["key_id"] == key_id(key.public_key()) == stored["key_id"]
    key.public_key().verify(
        bytes.fromhex(one["checkpoint"]["signature"]), bytes.fromhex(one["checkpoint"]["digest"])
    )

    async def notifications() -> list[tuple[Any, ...]]:
        rows = await casino.pool.fetch(
            "SELECT operator_id, seq, state, attempts, http_status FROM checkpoint_notifications"
            " WHERE seq IN ($1, $2) ORDER BY operator_id, seq",
            first,
            second,
        )
        return [tuple(r) for r in rows]

    async def settled() -> bool:
        return all(state != "queued" for _, _, state, _, _ in await notifications())

    await eventually(settled, timeout=30, message="every checkpoint notification settled")
    assert await notifications() == [
        ("acme", first, "delivered", 3, 200),
        ("acme", second, "delivered", 1, 200),
        ("bare", first, "declined", 1, 404),
        ("bare", second, "declined", 1, 404),
    ]  # nothing owed to the internal-wallet operator

    # An insider deletes every checkpoint: the store's chain alone still verifies, but the
    # copy the operator kept says one is gone.
    await casino.pool.execute("DELETE FROM chain_checkpoint_leaves")
    await casino.pool.execute("DELETE FROM chain_checkpoints")
    alone = await _cli(database_url, key_file, "verify-chain")
    assert alone.exit_code == 0, alone.output
    trusted = f"{two['checkpoint']['seq']}:{two['checkpoint']['digest']}"
    caught = await _cli(database_url, key_file, "verify-chain", "--trusted-checkpoint", trusted)
    assert caught.exit_code == 1
    assert caught.output.startswith(f"deleted: checkpoint {second}: the auditor kept it")
