"""The command path against a real PostgreSQL: load → decide → append, all or nothing."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from russian_poker.events.commands import Actor, Deal, OpenTable, PlaceAnte, SitDown
from russian_poker.service.application.commands import CommandService
from russian_poker.service.application.results import VersionMismatch
from russian_poker.service.application.transfers import TransferMismatch, TransferService
from russian_poker.service.rules.errors import RuleViolation
from russian_poker.service.rules.presets import make_ruleset
from tests.rules.scenario import deck_for

OPERATOR = Actor(role="operator", id="op")
ALICE = Actor(role="player", id="alice")
BOB = Actor(role="player", id="bob")


async def balance(db: asyncpg.Pool[asyncpg.Record], wallet: str) -> int:
    value: int = await db.fetchval("SELECT balance FROM wallets WHERE wallet_id = $1", wallet)
    return value


async def open_table(
    handler: CommandService, db: asyncpg.Pool[asyncpg.Record], table_id: str = "t1"
) -> None:
    await handler.execute(table_id, OpenTable(ruleset=make_ruleset("russian")), OPERATOR)


async def fund(wallets: TransferService, name: str, amount: int) -> None:
    await wallets.open(name, "EUR", actor=OPERATOR)
    await wallets.transfer(name, "deposit", f"seed-{name}", amount, actor=OPERATOR)


async def test_a_round_moves_money_and_events_together(
    handler: CommandService, wallet_handler: TransferService, db: asyncpg.Pool[asyncpg.Record]
) -> None:
    await fund(wallet_handler, "alice", 10_000)
    await open_table(handler, db)
    await db.execute(
        "INSERT INTO test_decks (table_id, deck) VALUES ('t1', $1)",
        list(deck_for(["As Kd 8h 8c 9s"], "Ac Kc 2d 3h 5s")),
    )
    await handler.execute("t1", SitDown(), ALICE)
    # The deck is taken when the next round opens: after this round settles.
    await handler.execute("t1", PlaceAnte(box=1, ante=100), ALICE)
    assert await balance(db, "alice") == 9_900
    result = await handler.execute("t1", Deal(), ALICE)
    assert result.version > 0
    ledger = await db.fetch("SELECT amount, reason FROM ledger WHERE wallet_id = 'alice'")
    assert [r["reason"] for r in ledger] == [None, "ante"]


async def test_refused_command_writes_nothing(
    handler: CommandService, db: asyncpg.Pool[asyncpg.Record]
) -> None:
    await open_table(handler, db)
    before = await db.fetchval("SELECT count(*) FROM events")
    with pytest.raises(RuleViolation) as refused:
        await handler.execute("t1", PlaceAnte(box=1, ante=100), ALICE)
    assert refused.value.code == "not_seated"
    assert await db.fetchval("SELECT count(*) FROM events") == before


async def test_insufficient_funds_is_refused_whole(
    handler: CommandService, wallet_handler: TransferService, db: asyncpg.Pool[asyncpg.Record]
) -> None:
    await fund(wallet_handler, "alice", 150)
    await open_table(handler, db)
    await handler.execute("t1", SitDown(), ALICE)
    with pytest.raises(RuleViolation) as refused:
        await handler.execute("t1", PlaceAnte(box=1, ante=100, bonus=100), ALICE)
    assert refused.value.code == "insufficient_funds"
    assert await balance(db, "alice") == 150


async def test_same_command_id_appends_once(
    handler: CommandService, wallet_handler: TransferService, db: asyncpg.Pool[asyncpg.Record]
) -> None:
    await fund(wallet_handler, "alice", 100)
    await open_table(handler, db)
    first = await handler.execute("t1", SitDown(), ALICE, command_id="k1")
    again = await handler.execute("t1", SitDown(), ALICE, command_id="k1")
    assert again.duplicate and again.version == first.version
    assert await db.fetchval("SELECT count(*) FROM commands WHERE command_id = 'k1'") == 1


async def test_if_match_version_mismatch(
    handler: CommandService, db: asyncpg.Pool[asyncpg.Record]
) -> None:
    await open_table(handler, db)
    with pytest.raises(VersionMismatch):
        await handler.execute("t1", SitDown(), ALICE, expected_version=99)


async def test_concurrent_players_all_land(
    handler: CommandService, wallet_handler: TransferService, db: asyncpg.Pool[asyncpg.Record]
) -> None:
    players = [Actor(role="player", id=f"p{i}") for i in range(4)]
    for p in players:
        await fund(wallet_handler, p.id, 1_000)
    await open_table(handler, db)
    await asyncio.gather(*(handler.execute("t1", SitDown(), p) for p in players))
    await asyncio.gather(
        *(handler.execute("t1", PlaceAnte(box=i + 1, ante=100), p) for i, p in enumerate(players))
    )
    staked = await db.fetchval("SELECT -sum(amount) FROM ledger WHERE reason = 'ante'")
    assert staked == 400


async def test_transfer_is_idempotent_by_transfer_id(
    wallet_handler: TransferService, db: asyncpg.Pool[asyncpg.Record]
) -> None:
    await wallet_handler.open("w", "EUR", actor=OPERATOR)
    first = await wallet_handler.transfer("w", "deposit", "x1", 500, actor=OPERATOR)
    again = await wallet_handler.transfer("w", "deposit", "x1", 500, actor=OPERATOR)
    assert again.duplicate and again.balance == first.balance == 500
    with pytest.raises(TransferMismatch):
        await wallet_handler.transfer("w", "deposit", "x1", 501, actor=OPERATOR)
    assert await balance(db, "w") == 500


async def test_a_refused_command_is_refused_again_on_retry(
    handler: CommandService, wallet_handler: TransferService, db: asyncpg.Pool[asyncpg.Record]
) -> None:
    await fund(wallet_handler, "alice", 50)
    await open_table(handler, db)
    await handler.execute("t1", SitDown(), ALICE)
    with pytest.raises(RuleViolation) as first:
        await handler.execute("t1", PlaceAnte(box=1, ante=100), ALICE, command_id="k")
    assert first.value.code == "insufficient_funds"
    await wallet_handler.transfer("alice", "deposit", "more", 1_000, actor=OPERATOR)
    # Same key: the same answer, though the ante would now be affordable.
    with pytest.raises(RuleViolation) as again:
        await handler.execute("t1", PlaceAnte(box=1, ante=100), ALICE, command_id="k")
    assert again.value.code == "insufficient_funds"
    assert await balance(db, "alice") == 1_050
    placed = await handler.execute("t1", PlaceAnte(box=1, ante=100), ALICE, command_id="k2")
    assert not placed.duplicate and await balance(db, "alice") == 950
