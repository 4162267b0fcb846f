"""The wallet contract: the conformance scenarios (docs/wallet-protocol.md, "Conformance
kit") pass against the seamless adapter talking HTTP to the reference operator wallet, and
leave its balances as they found them. (The command path's two kinds of money, internal
and seamless, share their own contract suite: tests/money.)"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import pytest

from russian_poker.service.tools.conformance.raw import RawTransport
from russian_poker.service.tools.conformance.scenarios import SCENARIOS, run_scenarios
from russian_poker.service.wallet.port import WalletPort
from russian_poker.service.wallet.seamless import SeamlessWallet
from tests.wallet.calls import CURRENCY, OPERATOR

START = 1_000


@dataclass
class Subject:
    """An adapter with a funded player, and a way to read the balance behind its back."""

    port: WalletPort
    raw: RawTransport
    player: str
    ended_session: str | None
    held: Callable[[], Awaitable[int]]


@pytest.fixture
async def subject(reference_wallet: Any) -> AsyncIterator[Subject]:
    holder = reference_wallet
    player = f"p-{uuid.uuid4().hex[:10]}"
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
        yield Subject(seamless, raw, player, ended, held_by_operator)
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
    assert [r.name for r in results] == [name for name, _ in SCENARIOS]


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
