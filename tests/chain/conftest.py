"""Fixtures for the event chain tests: a signing key, appends, and the verifier's verdict."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Sequence

import asyncpg
import msgspec
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from russian_poker.events.postgres.chain import ChainStore
from russian_poker.events.postgres.store import NewEvent, StreamAppend, append
from russian_poker.service.chain.checkpoints import Checkpoint, make_checkpoint
from russian_poker.service.chain.findings import Finding
from russian_poker.service.chain.verify import ChainReport, verify_chain

# The operators' side of published checkpoints (test_published): the casino harness and the
# reference wallet, as fixtures.
from tests.operators.conftest import casino  # noqa: F401
from tests.wallet.conftest import reference_wallet, reference_wallet_factory  # noqa: F401

_BELOW = """
SELECT coalesce(max(tx_id), '0'::xid8) < pg_snapshot_xmin(pg_current_snapshot()) FROM events
"""


@pytest.fixture
def key() -> Ed25519PrivateKey:
    return Ed25519PrivateKey.generate()


def event(n: int, **data: object) -> NewEvent:
    return NewEvent(
        event_id=uuid.uuid4(),
        event_type="Tested",
        schema_version=1,
        data=msgspec.json.encode({"n": n, **data}),
    )


async def fill(pool: asyncpg.Pool[asyncpg.Record], streams: Sequence[str], events: int) -> None:
    """``events`` events in each stream, two per append (one statement each)."""
    async with pool.acquire() as conn:
        for stream in streams:
            for first in range(0, events, 2):
                batch = [event(n) for n in range(first, min(first + 2, events))]
                await append(
                    conn,
                    [StreamAppend(stream_id=stream, expected_version=first, events=batch)],
                )


async def verify(
    pool: asyncpg.Pool[asyncpg.Record], key: Ed25519PrivateKey, **window: object
) -> ChainReport:
    async with pool.acquire() as conn:
        return await verify_chain(ChainStore(conn), [key.public_key()], **window)  # type: ignore[arg-type]


async def below_horizon(pool: asyncpg.Pool[asyncpg.Record], timeout: float = 60.0) -> None:
    """Wait until every event is below the horizon: a transaction still open anywhere on
    the server (other tests' too) holds it back, and a checkpoint covers only what is below."""
    deadline = time.monotonic() + timeout
    while not await pool.fetchval(_BELOW):
        assert time.monotonic() < deadline, "the horizon did not pass the events"
        await asyncio.sleep(0.05)


async def checkpoint(
    pool: asyncpg.Pool[asyncpg.Record], key: Ed25519PrivateKey, *, settle: bool = True
) -> Checkpoint:
    """A checkpoint now; with ``settle``, once every event so far is below the horizon."""
    if settle:
        await below_horizon(pool)
    async with pool.acquire() as conn:
        made = await make_checkpoint(ChainStore(conn), key, allow_empty=True)
    assert made is not None
    return made


def first(report: ChainReport) -> Finding:
    assert report.findings, "verify-chain found nothing"
    return report.findings[0]
