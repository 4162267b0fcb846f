"""One wallet contract, both adapters: the conformance scenarios (WALLET-PROTOCOL §6) pass
against the internal ledger on PostgreSQL and against the seamless adapter talking HTTP to
the reference operator wallet — so the command path can rely on either alike."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import asyncpg
import pytest

from russian_poker.service.tools.conformance.raw import RawTransport
from russian_poker.service.tools.conformance.scenarios import SCENARIOS, run_scenarios
from russian_poker.service.wallet.internal import InternalWallet
from russian_poker.service.wallet.port import WalletPort
from russian_poker.service.wallet.seamless import SeamlessWallet
from tests.wallet.calls import CURRENCY, OPERATOR, fund_internal

START = 1_000
HTTP_ONLY = {name for name, _, needs_raw in SCENARIOS if needs_raw}


@dataclass
class Subject:
    """An adapter with a funded player, and a way to read the balance behind its back."""

    kind: str
    port: WalletPort
    raw: RawTransport | None
    player: str
    ended_session: str | None
    held: Callable[[], Awaitable[int]]


@pytest.fixture(params=["internal", "seamless"])
def backend(request: pytest.FixtureRequest) -> tuple[str, Any]:
    """What holds the money: the test database's pool, or the reference operator wallet."""
    if request.param == "internal":
        return "internal", request.getfixturevalue("pool")
    return "seamless", request.getfixturevalue("reference_wallet")


@pytest.fixture
async def subject(backend: tuple[str, Any]) -> AsyncIterator[Subject]:
    kind, holder = backend
    player = f"p-{uuid.uuid4().hex[:10]}"
    if kind == "internal":
        pool: asyncpg.Pool[asyncpg.Record] = holder
        wallet_id = await fund_internal(pool, player, START)

        async def held_internally() -> int:
            async with pool.acquire() as conn:
                balance: int = await conn.fetchval(
                    "SELECT balance FROM wallets WHERE wallet_id = $1", wallet_id
                )
            return balance

        yield Subject(kind, InternalWallet(pool, OPERATOR), None, player, None, held_internally)
        return
    await holder.set_player(player, CURRENCY, START)
    ended = f"ended-{uuid.uuid4().hex}"
    await holder.end_session(ended)
    # Generous time-outs: a loaded test machine must not turn into an unknown outcome.
    seamless = SeamlessWallet(holder.url, holder.secret, timeout_ms=10_000)
    raw = RawTransport(holder.url, holder.secret, timeout_ms=10_000)

    async def held_by_operator() -> int:
        balance: int = await holder.balance_of(player)
        return balance

    try:
        yield Subject(kind, seamless, raw, player, ended, held_by_operator)
    finally:
        await seamless.aclose()
        await raw.aclose()


async def _run(subject: Subject) -> list[Any]:
    return await run_scenarios(
        subject.port,
        operator_id=OPERATOR,
        player_id=subject.player,
        currency=CURRENCY,
        session_id=f"s-{uuid.uuid4().hex}",
        ended_session_id=subject.ended_session,
        raw=subject.raw,
    )


async def test_every_scenario_passes(subject: Subject) -> None:
    results = await _run(subject)
    assert [r.line() for r in results if r.failed] == []
    assert [r.name for r in results] == [name for name, _, _ in SCENARIOS]
    not_applicable = {r.name for r in results if not r.applicable}
    # Only the wire's own scenarios are skipped, and only where there is no wire.
    assert not_applicable == (HTTP_ONLY if subject.kind == "internal" else set())
    assert all(not r.passed for r in results if not r.applicable)


async def test_the_kit_leaves_the_balance_as_it_found_it(subject: Subject) -> None:
    await _run(subject)
    assert await subject.held() == START


async def test_the_kit_runs_again_on_the_same_player(subject: Subject) -> None:
    # Fresh transaction ids every run: a second run is not a repeat of the first.
    first, second = await _run(subject), await _run(subject)
    assert not any(r.failed for r in first + second)
    assert await subject.held() == START


async def test_a_player_too_poor_for_the_amount_fails_the_money_scenarios(
    subject: Subject,
) -> None:
    results = await run_scenarios(
        subject.port,
        operator_id=OPERATOR,
        player_id=subject.player,
        currency=CURRENCY,
        session_id="s1",
        ended_session_id=subject.ended_session,
        raw=subject.raw,
        amount=START,
    )
    failed = {r.name: r.detail for r in results if r.failed}
    assert "fund the player first" in failed["same transaction_id with another payload"]
    assert "balance" not in failed
    assert await subject.held() == START
