"""The command path decides on what its process last committed: a stale guess must never
cost a wrong answer or a unit of money, only a second attempt.

Two ``CommandService`` instances on one database stand for two service instances: each has
its own cache, and each moves tables and wallets behind the other's back.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Sequence
from typing import Any, NamedTuple

import asyncpg
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from prometheus_client import REGISTRY

from russian_poker.events.commands import Actor, CancelBets, OpenTable, PlaceAnte, SitDown
from russian_poker.events.postgres import tables
from russian_poker.events.postgres.reconcile import ReconcileStore
from russian_poker.events.postgres.store import stream_version
from russian_poker.service.application.cache import CommittedCache
from russian_poker.service.application.commands import CommandService
from russian_poker.service.application.transfers import TransferService
from russian_poker.service.audit.reconcile import reconcile
from russian_poker.service.bootstrap import command_service, transfer_service
from russian_poker.service.rules.errors import RuleViolation
from russian_poker.service.rules.presets import make_ruleset
from russian_poker.service.settings import ConfigurationError, load_settings
from tests.audit.bots import OPERATOR, START_BALANCE, default_plans, fund_players, play_tables
from tests.service.conftest import truncate_everything

ALICE = Actor(role="player", id="alice")
BOB = Actor(role="player", id="bob")


@pytest.fixture
async def other(db: asyncpg.Pool[asyncpg.Record]) -> AsyncIterator[CommandService]:
    """A second instance's handler on the same database."""
    handler = command_service(db)
    yield handler
    await handler.close()


def loads(why: str) -> float:
    """``russian_poker_table_loads_total{why=…}`` so far (the registry is per process)."""
    return REGISTRY.get_sample_value("russian_poker_table_loads_total", {"why": why}) or 0.0


class TwoInstances(NamedTuple):
    handler: CommandService
    other: CommandService
    wallets: TransferService
    db: asyncpg.Pool[asyncpg.Record]


@pytest.fixture
def two(
    handler: CommandService,
    other: CommandService,
    wallet_handler: TransferService,
    db: asyncpg.Pool[asyncpg.Record],
) -> TwoInstances:
    """Two instances' handlers, the operator's wallet handler and the database."""
    return TwoInstances(handler, other, wallet_handler, db)


async def balance(db: asyncpg.Pool[asyncpg.Record], wallet: str) -> int:
    value: int = await db.fetchval("SELECT balance FROM wallets WHERE wallet_id = $1", wallet)
    return value


async def setup(
    handler: CommandService,
    wallets: TransferService,
    funds: dict[str, int],
    table_ids: Sequence[str],
) -> None:
    for name, amount in funds.items():
        await wallets.open(name, "EUR", actor=OPERATOR)
        await wallets.transfer(name, "deposit", f"seed-{name}", amount, actor=OPERATOR)
    for table_id in table_ids:
        await handler.execute(table_id, OpenTable(ruleset=make_ruleset("russian")), OPERATOR)


async def test_a_deposit_made_elsewhere_is_seen_before_refusing(
    handler: CommandService, wallet_handler: TransferService, db: asyncpg.Pool[asyncpg.Record]
) -> None:
    await setup(handler, wallet_handler, {"alice": 100}, ["t1"])
    await handler.execute("t1", SitDown(), ALICE)  # caches alice's wallet at 100
    await wallet_handler.transfer("alice", "deposit", "top-up", 1_000, actor=OPERATOR)
    # The cached balance cannot pay 200; the wallet can.
    confirmed = loads("refusal")
    await handler.execute("t1", PlaceAnte(box=1, ante=100, bonus=100), ALICE, command_id="k")
    assert loads("refusal") == confirmed + 1
    assert await balance(db, "alice") == 900
    stored = await db.fetchval("SELECT result FROM commands WHERE command_id = 'k'")
    assert "refused" not in stored


async def test_a_box_taken_through_another_instance_is_refused_not_double_sold(
    two: TwoInstances,
) -> None:
    handler, other, wallet_handler, db = two
    await setup(handler, wallet_handler, {"alice": 1_000, "bob": 1_000}, ["t1"])
    await handler.execute("t1", SitDown(), ALICE)
    await other.execute("t1", SitDown(), BOB)
    await other.execute("t1", PlaceAnte(box=1, ante=100), BOB)
    # `handler` last saw box 1 free: its guess accepts, the append finds the table moved on,
    # and the fresh decision refuses.
    stale = loads("stale")
    with pytest.raises(RuleViolation) as refused:
        await handler.execute("t1", PlaceAnte(box=1, ante=300), ALICE)
    assert refused.value.code == "box_taken"
    assert loads("stale") == stale + 1
    assert await balance(db, "alice") == 1_000
    assert await balance(db, "bob") == 900
    state, _ = await tables.load(db, "t1")
    assert state.round is not None
    assert [(b.number, b.player) for b in state.round.boxes] == [(1, "bob")]


async def test_a_debit_checked_against_a_stale_balance_is_checked_again(
    two: TwoInstances,
) -> None:
    handler, other, wallet_handler, db = two
    await setup(handler, wallet_handler, {"alice": 1_000}, ["t1", "t2"])
    await handler.execute("t1", SitDown(), ALICE)  # `handler` holds alice at 1,000
    await other.execute("t2", SitDown(), ALICE)
    await other.execute("t2", PlaceAnte(box=1, ante=900), ALICE)
    with pytest.raises(RuleViolation) as refused:
        await handler.execute("t1", PlaceAnte(box=1, ante=200), ALICE)
    assert refused.value.code == "insufficient_funds"
    assert await balance(db, "alice") == 100
    # And the guess was corrected: what the wallet can pay is accepted at once.
    await handler.execute("t1", PlaceAnte(box=1, ante=100), ALICE)
    assert await balance(db, "alice") == 0


async def test_a_credit_to_a_wallet_moved_elsewhere_forgets_its_balance(
    two: TwoInstances,
) -> None:
    handler, other, wallet_handler, db = two
    await setup(handler, wallet_handler, {"alice": 1_000}, ["t1", "t2"])
    await handler.execute("t1", SitDown(), ALICE)
    await handler.execute("t1", PlaceAnte(box=1, ante=100), ALICE)  # held at 900
    await other.execute("t2", SitDown(), ALICE)
    await other.execute("t2", PlaceAnte(box=1, ante=800), ALICE)  # really 100
    # A credit is appended whatever the wallet's version: it cannot tell `handler` the
    # balance, which must not be guessed as 900 + 100.
    await handler.execute("t1", CancelBets(), ALICE)
    assert await balance(db, "alice") == 200
    with pytest.raises(RuleViolation) as refused:
        await handler.execute("t1", PlaceAnte(box=1, ante=500), ALICE)
    assert refused.value.code == "insufficient_funds"
    assert await balance(db, "alice") == 200


async def test_instances_taking_turns_agree_with_the_store(
    two: TwoInstances,
) -> None:
    handler, other, wallet_handler, db = two
    await setup(handler, wallet_handler, {"alice": 10_000, "bob": 10_000}, ["t1"])
    instances = [handler, other]
    await instances[0].execute("t1", SitDown(), ALICE)
    await instances[1].execute("t1", SitDown(), BOB)
    last = None
    for turn in range(6):
        one, two = instances[turn % 2], instances[(turn + 1) % 2]
        await one.execute("t1", PlaceAnte(box=1, ante=100), ALICE)
        await two.execute("t1", PlaceAnte(box=2, ante=200), BOB)
        await one.execute("t1", CancelBets(), BOB)
        last = await two.execute("t1", CancelBets(), ALICE)
    assert last is not None
    assert last.version == await stream_version(db, "table-t1")
    assert await balance(db, "alice") == await balance(db, "bob") == 10_000
    async with db.acquire() as conn:
        assert (await reconcile(ReconcileStore(conn))).mismatches == []


class _Instances:
    """Sends each command through one of several handlers, chosen at random: the same
    tables and wallets moved by every instance in turn."""

    def __init__(self, handlers: Sequence[CommandService], rng: random.Random) -> None:
        self._handlers = handlers
        self._rng = rng

    async def execute(self, *args: Any, **kwargs: Any) -> Any:
        return await self._rng.choice(self._handlers).execute(*args, **kwargs)


@settings(
    max_examples=4,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(seed=st.integers(0, 2**32 - 1))
async def test_random_rounds_across_instances_balance_to_the_unit(
    db: asyncpg.Pool[asyncpg.Record], seed: int
) -> None:
    await truncate_everything(db)
    plans = default_plans(3, prefix=f"c{seed % 1000}")
    await fund_players(transfer_service(db), plans)
    handlers = [command_service(db) for _ in range(3)]
    instances: Any = _Instances(handlers, random.Random(seed))
    settled, commands = await play_tables(instances, db, plans, 3, seed=seed)
    for handler in handlers:
        await handler.close()
    assert settled == 9 and commands > 0
    async with db.acquire() as conn:
        report = await reconcile(ReconcileStore(conn))
        assert report.mismatches == []
        assert await conn.fetchval("SELECT count(*) FROM wallets WHERE balance < 0") == 0
        players = sorted({p for plan in plans for p in plan.players})
        total = await conn.fetchval("SELECT sum(balance) FROM wallets")
        house = await conn.fetchval("SELECT coalesce(sum(staked - paid_back), 0) FROM rounds")
        on_the_felt = 0
        for plan in plans:
            state, _ = await tables.load(conn, plan.table_id)
            if state.round is not None and not all(b.settled for b in state.round.boxes):
                on_the_felt += sum(b.staked for b in state.round.boxes if not b.settled)
        assert total + house + on_the_felt == START_BALANCE * len(players)


async def test_without_a_cache_every_command_loads_and_lands(
    db: asyncpg.Pool[asyncpg.Record], wallet_handler: TransferService
) -> None:
    uncached = command_service(db, cache=CommittedCache(tables=0, wallets=0))
    try:
        await setup(uncached, wallet_handler, {"alice": 1_000}, ["t1"])
        loads = 0
        original = tables.load_for_command

        async def counted(*args: Any, **kwargs: Any) -> Any:
            nonlocal loads
            loads += 1
            return await original(*args, **kwargs)

        tables.load_for_command = counted  # type: ignore[assignment]
        try:
            await uncached.execute("t1", SitDown(), ALICE)
            await uncached.execute("t1", PlaceAnte(box=1, ante=100), ALICE)
            await uncached.execute("t1", CancelBets(), ALICE)
        finally:
            tables.load_for_command = original  # type: ignore[assignment]
        assert loads == 3
        assert await balance(db, "alice") == 1_000
    finally:
        await uncached.close()


def test_the_cache_size_is_a_setting() -> None:
    assert load_settings({"RUSSIAN_POKER_CACHED_TABLES": "0"}).cached_tables == 0
    assert load_settings({}).cached_tables == 4096
    with pytest.raises(ConfigurationError, match="RUSSIAN_POKER_CACHED_TABLES"):
        load_settings({"RUSSIAN_POKER_CACHED_TABLES": "-1"})
