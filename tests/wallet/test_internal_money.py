"""A property of the internal wallet's money, on the real ledger: over any sequence of
bets, wins, rollbacks (of known and unknown bets), late bets and repeats, the balance is the
initial one minus the bets applied plus the wins and the refunds of applied bets; it is never
below zero, and nothing is applied twice."""

from __future__ import annotations

import asyncio
import uuid
from dataclasses import dataclass, field
from typing import TypeAlias

import asyncpg
import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from russian_poker.service.wallet.internal import InternalWallet
from russian_poker.service.wallet.protocol import Answer, BetCall, RollbackCall, WinCall
from tests.wallet.calls import (
    OPERATOR,
    balance_call,
    bet_call,
    fund_internal,
    rollback_call,
    win_call,
)

Pool: TypeAlias = "asyncpg.Pool[asyncpg.Record]"
START = 100

_steps = st.lists(
    st.one_of(
        st.tuples(st.just("bet"), st.integers(1, 60)),
        st.tuples(st.just("win"), st.integers(0, 40)),
        st.tuples(st.just("rollback"), st.integers(0, 1_000)),
        st.tuples(st.just("rollback_unknown"), st.just(0)),
        st.tuples(st.just("late_bet"), st.integers(0, 1_000)),
        st.tuples(st.just("repeat"), st.integers(0, 1_000)),
    ),
    min_size=1,
    max_size=30,
)


@dataclass
class _Model:
    """What the wallet must have done, worked out without asking it."""

    balance: int = START
    bets: dict[str, tuple[BetCall, bool]] = field(default_factory=dict)  # id → (call, applied)
    refunded: set[str] = field(default_factory=set)
    tombstoned: list[BetCall] = field(default_factory=list)
    sent: list[tuple[BetCall | WinCall | RollbackCall, Answer]] = field(default_factory=list)
    debited: int = 0
    credited: int = 0
    moves: int = 0


async def _send(wallet: InternalWallet, call: BetCall | WinCall | RollbackCall) -> Answer:
    if isinstance(call, BetCall):
        return await wallet.bet(call)
    if isinstance(call, WinCall):
        return await wallet.win(call)
    return await wallet.rollback(call)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=_steps)
async def test_money_adds_up_over_any_sequence_of_calls(
    pool: Pool, steps: list[tuple[str, int]]
) -> None:
    player = f"h-{uuid.uuid4().hex[:12]}"
    wallet_id = await fund_internal(pool, player, START)
    wallet = InternalWallet(pool, OPERATOR)
    model = _Model()
    for kind, n in steps:
        if kind == "bet":
            call = bet_call(player, n)
            answer = await wallet.bet(call)
            applied = model.balance >= n
            assert answer.status == ("ok" if applied else "insufficient_funds")
            model.bets[call.transaction_id] = (call, applied)
            if applied:
                model.balance -= n
                model.debited += n
                model.moves += 1
            model.sent.append((call, answer))
        elif kind == "win":
            win = win_call(player, n)
            answer = await wallet.win(win)
            assert answer.status == "ok"
            model.balance += n
            model.credited += n
            model.moves += 1 if n else 0
            model.sent.append((win, answer))
        elif kind == "rollback" and model.bets:
            bet, applied = list(model.bets.values())[n % len(model.bets)]
            rollback = rollback_call(bet)
            answer = await wallet.rollback(rollback)
            if not applied:
                assert answer.status == "transaction_not_found"
            else:
                assert answer.status == "ok"
                if bet.transaction_id not in model.refunded:
                    model.refunded.add(bet.transaction_id)
                    model.balance += bet.amount
                    model.credited += bet.amount
                    model.moves += 1
            model.sent.append((rollback, answer))
        elif kind in ("rollback", "rollback_unknown"):
            never_sent = bet_call(player, 5)
            rollback = rollback_call(never_sent)
            answer = await wallet.rollback(rollback)
            assert answer.status == "transaction_not_found"
            model.tombstoned.append(never_sent)
            model.sent.append((rollback, answer))
        elif kind == "late_bet" and model.tombstoned:
            late = model.tombstoned[n % len(model.tombstoned)]
            answer = await wallet.bet(late)
            assert answer.status == "transaction_rolled_back"
        elif kind == "repeat" and model.sent:
            original, first = model.sent[n % len(model.sent)]
            again = msgspec.structs.replace(original, request_id=uuid.uuid4().hex)
            # Two at once: a repeat racing another repeat still applies nothing.
            repeats = await asyncio.gather(_send(wallet, again), _send(wallet, again))
            if isinstance(original, BetCall) and original.transaction_id in model.refunded:
                # Sent again after its rollback: refused, not debited again.
                assert {r.status for r in repeats} == {"transaction_rolled_back"}
            else:
                assert all(r == first for r in repeats), (first, repeats)
        balance = (await wallet.balance(balance_call(player))).balance
        assert balance == model.balance
        assert balance is not None and balance >= 0

    debited = sum(bet.amount for bet, ok in model.bets.values() if ok)
    assert debited == model.debited
    assert model.balance == START - debited + model.credited
    async with pool.acquire() as conn:
        rows = await conn.fetch(
            "SELECT event_type, amount FROM ledger WHERE wallet_id = $1 AND transfer_id IS NULL",
            wallet_id,
        )
        stored = await conn.fetchval("SELECT balance FROM wallets WHERE wallet_id = $1", wallet_id)
    assert len(rows) == model.moves
    assert -sum(r["amount"] for r in rows if r["event_type"] == "WalletDebited") == debited
    assert sum(r["amount"] for r in rows if r["event_type"] == "WalletCredited") == model.credited
    assert stored == model.balance
