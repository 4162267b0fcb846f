"""Real rounds played by bots (every command path: tables, wallets, timers, the outbox's
streams) chain cleanly, with checkpoints made while they play; the background
checkpointer makes one at a time; the Merkle tree is RFC 6962's."""

from __future__ import annotations

import asyncio
import hashlib
from typing import TYPE_CHECKING, TypeAlias

import asyncpg
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from hypothesis import given
from hypothesis import strategies as st

from russian_poker.events.postgres.chain import ChainStore
from russian_poker.service.bootstrap import command_service, transfer_service
from russian_poker.service.chain.background import Checkpointer
from russian_poker.service.chain.merkle import audit_path, leaf_bytes, merkle_root, root_from_path
from tests.audit.bots import default_plans, fund_players, play_tables
from tests.chain.conftest import below_horizon, checkpoint, fill, verify

if TYPE_CHECKING:
    Pool: TypeAlias = asyncpg.Pool[asyncpg.Record]


async def test_played_rounds_verify_with_checkpoints_taken_meanwhile(
    pool: Pool, key: Ed25519PrivateKey
) -> None:
    plans = default_plans(4, prefix="chain")
    await fund_players(transfer_service(pool), plans)
    playing = asyncio.create_task(play_tables(command_service(pool), pool, plans, 15))
    made = 0
    while not playing.done():
        await checkpoint(pool, key, settle=False)
        made += 1
        await asyncio.sleep(0.05)
    rounds, _ = await playing
    last = await checkpoint(pool, key)
    assert rounds == 60
    report = await verify(pool, key)
    assert report.findings == [], report.findings[:3]
    assert report.checkpoints == made + 1 and report.events > 1000
    # Every stream's head is signed for once everything is below the last horizon.
    assert report.uncovered == 0
    heads = await pool.fetchval("SELECT count(*) FROM streams")
    signed = await pool.fetchval(
        "SELECT count(DISTINCT stream_id) FROM chain_checkpoint_leaves WHERE seq <= $1", last.seq
    )
    assert signed == heads


async def test_leaves_are_only_the_streams_changed(pool: Pool, key: Ed25519PrivateKey) -> None:
    await fill(pool, ["a", "b", "c"], 3)
    first = await checkpoint(pool, key)
    await fill(pool, ["d"], 2)
    second = await checkpoint(pool, key)
    empty = await checkpoint(pool, key)
    assert (first.leaf_count, second.leaf_count, empty.leaf_count) == (3, 1, 0)
    assert second.prev_digest == first.digest and empty.prev_digest == second.digest
    leaves = await pool.fetch(
        "SELECT stream_id, stream_version FROM chain_checkpoint_leaves WHERE seq = $1", second.seq
    )
    assert [(r["stream_id"], r["stream_version"]) for r in leaves] == [("d", 2)]


async def test_background_checkpointers_make_one_checkpoint_at_a_time(
    pool: Pool, key: Ed25519PrivateKey
) -> None:
    await fill(pool, ["a", "b"], 4)
    await below_horizon(pool)
    instances = [Checkpointer(ChainStore(pool), key, every_s=3600) for _ in range(4)]
    made = await asyncio.gather(*(c.tick() for c in instances))
    assert sum(m is not None for m in made) >= 1
    assert await pool.fetchval("SELECT count(*) FROM chain_checkpoints") == sum(
        m is not None for m in made
    )
    # Nothing changed since: no more checkpoints.
    assert [await c.tick() for c in instances] == [None] * 4
    assert (await verify(pool, key)).findings == []


def _mth(leaves: list[bytes]) -> bytes:
    """RFC 6962 §2.1, recursively, as written there."""
    if not leaves:
        return hashlib.sha256(b"").digest()
    if len(leaves) == 1:
        return hashlib.sha256(b"\x00" + leaves[0]).digest()
    k = 1
    while k * 2 < len(leaves):
        k *= 2
    return hashlib.sha256(b"\x01" + _mth(leaves[:k]) + _mth(leaves[k:])).digest()


@given(st.lists(st.binary(max_size=40), max_size=70), st.data())
def test_the_merkle_root_is_rfc_6962s(leaves: list[bytes], data: st.DataObject) -> None:
    root = merkle_root(leaves)
    assert root == _mth(leaves)
    if leaves:
        index = data.draw(st.integers(0, len(leaves) - 1))
        path = audit_path(leaves, index)
        assert root_from_path(leaves[index], index, len(leaves), path) == root


def test_a_leaf_is_stream_version_and_hash() -> None:
    assert leaf_bytes("t-1", 2, b"\xaa" * 32) == b"t-1\x00" + bytes(7) + b"\x02" + b"\xaa" * 32
