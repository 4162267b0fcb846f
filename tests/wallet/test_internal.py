"""The internal adapter's edges, on the real PostgreSQL ledger: concurrency, tombstones,
refunds, refusals and tenancy — what the shared scenarios do not reach."""

from __future__ import annotations

import asyncio
from typing import TypeAlias

import asyncpg
import msgspec
import pytest

from russian_poker.events.commands import Actor
from russian_poker.events.postgres.store import read_stream
from russian_poker.events.streams import wallet_stream
from russian_poker.service.handling import WalletHandler
from russian_poker.service.wallet.internal import InternalWallet
from russian_poker.service.wallet.protocol import Answer
from tests.wallet.calls import (
    OPERATOR,
    balance_call,
    bet_call,
    fund_internal,
    rollback_call,
    tx,
    win_call,
)

Pool: TypeAlias = "asyncpg.Pool[asyncpg.Record]"


@pytest.fixture
def wallet(pool: Pool) -> InternalWallet:
    return InternalWallet(pool, OPERATOR)


async def _balance(wallet: InternalWallet, player: str = "alice") -> int | None:
    return (await wallet.balance(balance_call(player))).balance


async def _deposit(pool: Pool, wallet_id: str, amount: int) -> None:
    actor = Actor(role="operator", id=OPERATOR)
    await WalletHandler(pool).transfer(wallet_id, "deposit", tx(), amount, actor=actor)


async def _moves(pool: Pool, wallet_id: str) -> list[tuple[str, int]]:
    async with pool.acquire() as conn:
        rows = await conn.fetch(
            "SELECT event_type, amount FROM ledger WHERE wallet_id = $1 ORDER BY global_position",
            wallet_id,
        )
    return [(row["event_type"], row["amount"]) for row in rows]


async def test_ten_concurrent_repeats_of_one_bet_apply_once(
    pool: Pool, wallet: InternalWallet
) -> None:
    wallet_id = await fund_internal(pool, "alice", 1_000)
    bet = bet_call("alice", 30)
    answers = await asyncio.gather(
        *(wallet.bet(msgspec.structs.replace(bet, request_id=str(n))) for n in range(10))
    )
    assert {a.status for a in answers} == {"ok"}
    assert len(set(answers)) == 1
    assert answers[0].balance == 970
    assert await _balance(wallet) == 970
    assert await _moves(pool, wallet_id) == [("FundsDeposited", 1_000), ("WalletDebited", -30)]


async def test_concurrent_different_bets_all_land_or_are_refused_never_overdrawn(
    pool: Pool, wallet: InternalWallet
) -> None:
    await fund_internal(pool, "alice", 100)
    answers = await asyncio.gather(*(wallet.bet(bet_call("alice", 30)) for _ in range(6)))
    statuses = sorted(a.status for a in answers)
    assert statuses == ["insufficient_funds"] * 3 + ["ok"] * 3
    assert await _balance(wallet) == 10


async def test_the_debit_names_reason_table_round_and_box(
    pool: Pool, wallet: InternalWallet
) -> None:
    wallet_id = await fund_internal(pool, "alice", 100)
    await wallet.bet(bet_call("alice", 5, round_id="t9:42", reason="insurance"))
    async with pool.acquire() as conn:
        row = await conn.fetchrow(
            "SELECT reason, table_id, round, box, balance_after FROM ledger"
            " WHERE wallet_id = $1 AND event_type = 'WalletDebited'",
            wallet_id,
        )
    assert row is not None
    assert dict(row) == {
        "reason": "insurance",
        "table_id": "t9",
        "round": 42,
        "box": 2,
        "balance_after": 95,
    }


async def test_a_bet_and_its_rollback_racing_end_with_the_balance_restored(
    pool: Pool, wallet: InternalWallet
) -> None:
    await fund_internal(pool, "alice", 1_000)
    outcomes = set()
    for _ in range(12):
        bet = bet_call("alice", 10)
        placed, undone = await asyncio.gather(wallet.bet(bet), wallet.rollback(rollback_call(bet)))
        outcomes.add((placed.status, undone.status))
        assert await _balance(wallet) == 1_000
    # Whichever came first, the pair is one of the two consistent endings.
    assert outcomes <= {("ok", "ok"), ("transaction_rolled_back", "transaction_not_found")}


async def test_a_bet_is_refunded_once_whatever_the_rollbacks_naming_it(
    pool: Pool, wallet: InternalWallet
) -> None:
    wallet_id = await fund_internal(pool, "alice", 100)
    bet = bet_call("alice", 40)
    await wallet.bet(bet)
    first = await wallet.rollback(rollback_call(bet))
    second = await wallet.rollback(rollback_call(bet))
    concurrent = await asyncio.gather(*(wallet.rollback(rollback_call(bet)) for _ in range(5)))
    assert first.status == second.status == "ok"
    assert (await wallet.bet(bet)).status == "transaction_rolled_back"
    assert {a.status for a in concurrent} == {"ok"}
    assert await _balance(wallet) == 100
    assert [m for m in await _moves(pool, wallet_id) if m[0] == "WalletCredited"] == [
        ("WalletCredited", 40)
    ]


async def test_rollback_of_an_unknown_bet_is_final_and_blocks_the_late_bet(
    wallet: InternalWallet, pool: Pool
) -> None:
    await fund_internal(pool, "alice", 100)
    bet = bet_call("alice", 10)
    rollback = rollback_call(bet)
    first = await wallet.rollback(rollback)
    assert first == Answer(
        status="transaction_not_found", balance=100, message=f"no bet {bet.transaction_id} to undo"
    )
    assert await wallet.rollback(msgspec.structs.replace(rollback, request_id="again")) == first
    late = await wallet.bet(bet)
    assert late.status == "transaction_rolled_back"
    assert await wallet.bet(bet) == late
    assert await _balance(wallet) == 100
    # The tombstone's id is taken: a win reusing it is another payload.
    reused = await wallet.win(win_call("alice", 5, transaction_id=bet.transaction_id))
    assert reused.status == "duplicate_transaction"


async def test_rollback_of_a_refused_bet_moves_nothing(pool: Pool, wallet: InternalWallet) -> None:
    await fund_internal(pool, "alice", 10)
    bet = bet_call("alice", 11)
    assert (await wallet.bet(bet)).status == "insufficient_funds"
    undone = await wallet.rollback(rollback_call(bet))
    assert undone.status == "transaction_not_found"
    # The refusal is the bet's answer for good, even once the money is there.
    await _deposit(pool, f"{OPERATOR}:alice", 100)
    assert (await wallet.bet(bet)).status == "insufficient_funds"
    assert await _balance(wallet) == 110


async def test_same_transaction_id_with_another_payload_is_a_duplicate(
    pool: Pool, wallet: InternalWallet
) -> None:
    await fund_internal(pool, "alice", 100)
    bet = bet_call("alice", 10)
    await wallet.bet(bet)
    for other in (
        msgspec.structs.replace(bet, amount=11),
        msgspec.structs.replace(bet, box=3),
        msgspec.structs.replace(bet, round_closed=True),
    ):
        assert (await wallet.bet(other)).status == "duplicate_transaction"
    assert (await wallet.win(win_call("alice", 10, transaction_id=bet.transaction_id))).status == (
        "duplicate_transaction"
    )
    assert await _balance(wallet) == 90


async def test_wins_apply_once_and_a_win_of_zero_moves_nothing(
    pool: Pool, wallet: InternalWallet
) -> None:
    wallet_id = await fund_internal(pool, "alice", 100)
    win = win_call("alice", 25, references=("b1", "b2"))
    answers = await asyncio.gather(*(wallet.win(win) for _ in range(5)))
    assert len(set(answers)) == 1 and answers[0].balance == 125
    zero = win_call("alice", 0)
    assert (await wallet.win(zero)).status == "ok"
    assert (await wallet.win(zero)).balance == 125
    assert await _moves(pool, wallet_id) == [("FundsDeposited", 100), ("WalletCredited", 25)]


async def test_unknown_wallet_and_wrong_currency_are_refused(
    pool: Pool, wallet: InternalWallet
) -> None:
    await fund_internal(pool, "alice", 100)
    assert (await wallet.balance(balance_call("nobody"))).status == "invalid_session"
    assert (await wallet.bet(bet_call("nobody", 5))).status == "invalid_session"
    assert (await wallet.win(win_call("nobody", 5))).status == "invalid_session"
    assert (await wallet.balance(balance_call("alice", currency="USD"))).status == "wrong_currency"
    assert (await wallet.bet(bet_call("alice", 5, currency="USD"))).status == "wrong_currency"
    assert (await wallet.win(win_call("alice", 5, currency="USD"))).status == "wrong_currency"
    assert await _balance(wallet) == 100


async def test_a_refused_win_is_judged_again_when_sent_again(
    pool: Pool, wallet: InternalWallet
) -> None:
    win = win_call("bob", 7)
    assert (await wallet.win(win)).status == "invalid_session"
    # The outbox sends it again later; by then the wallet exists, and the win lands.
    await fund_internal(pool, "bob", 0)
    assert (await wallet.win(win)).status == "ok"
    assert await _balance(wallet, "bob") == 7


async def test_players_and_transaction_ids_are_per_operator(pool: Pool) -> None:
    await fund_internal(pool, "alice", 100, operator="acme")
    await fund_internal(pool, "alice", 50, operator="beta")
    acme, beta = InternalWallet(pool, "acme"), InternalWallet(pool, "beta")
    shared = tx()
    assert (await acme.bet(bet_call("alice", 10, transaction_id=shared))).balance == 90
    beta_bet = bet_call("alice", 20, transaction_id=shared, operator="beta")
    assert (await beta.bet(beta_bet)).balance == 30
    assert (await acme.balance(balance_call("alice"))).balance == 90
    with pytest.raises(ValueError, match="operator"):
        await acme.bet(beta_bet)


async def test_the_default_operator_uses_bare_wallet_ids(pool: Pool) -> None:
    await fund_internal(pool, "carol", 100, operator="default")
    wallet = InternalWallet(pool, "default")
    await wallet.bet(bet_call("carol", 10, operator="default"))
    async with pool.acquire() as conn:
        events = await read_stream(conn, wallet_stream("carol"))
    assert [e.event_type for e in events][-1] == "WalletDebited"


async def test_calls_the_protocol_does_not_allow_are_bugs_not_answers(
    wallet: InternalWallet,
) -> None:
    with pytest.raises(ValueError, match="debit reason"):
        await wallet.bet(bet_call("alice", 5, reason="win"))
    with pytest.raises(ValueError, match="round id"):
        await wallet.bet(bet_call("alice", 5, round_id="t1:x"))
    with pytest.raises(ValueError, match="at least 1"):
        await wallet.bet(bet_call("alice", 0))
