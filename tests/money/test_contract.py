"""The money contract of the command path: the same commands move the same money, at the
same moments, whether the operator keeps its players' money in the game's wallets
(internal) or in its own wallet (seamless, here the reference wallet in a process of its
own). Every test runs once per mode (the ``book`` fixture)."""

from __future__ import annotations

from typing import Final

from tests.money.books import Book
from tests.operators.play import DEALER, JACKS, TRIPS, settled_box
from tests.rules.scenario import deck_for

START: Final = 10_000
ONE_BOX: Final = list(deck_for([TRIPS], DEALER))
TWO_BOXES: Final = list(deck_for([TRIPS, JACKS], DEALER))


async def test_each_stake_is_taken_when_placed_and_the_settlement_pays_the_net(
    book: Book,
) -> None:
    player, table = await book.player(START), await book.table(ONE_BOX)
    casino = book.casino
    await casino.send(player, table, "SitDown")
    await casino.send(player, table, "PlaceAnte", box=1, ante=100)
    assert await book.balance(player) == START - 100
    await casino.send(player, table, "Deal")
    assert await book.balance(player) == START - 100  # dealing moves no money
    box = settled_box(await casino.send(player, table, "Play", box=1))
    assert box["result"]["net"] > 0  # trips against a qualifying dealer
    assert await book.balance(player) == START + box["result"]["net"]


async def test_cancelled_bets_come_back_whole(book: Book) -> None:
    player, table = await book.player(START), await book.table(ONE_BOX)
    casino = book.casino
    await casino.send(player, table, "SitDown")
    await casino.send(player, table, "PlaceAnte", box=1, ante=100, bonus=100)
    assert await book.balance(player) == START - 200
    await casino.send(player, table, "CancelBets", box=1)
    assert await book.balance(player) == START


async def test_a_fold_loses_the_ante_and_nothing_more(book: Book) -> None:
    player, table = await book.player(START), await book.table(ONE_BOX)
    casino = book.casino
    await casino.send(player, table, "SitDown")
    await casino.send(player, table, "PlaceAnte", box=1, ante=100)
    await casino.send(player, table, "Deal")
    box = settled_box(await casino.send(player, table, "Fold", box=1))
    assert box["result"]["net"] == -100
    assert await book.balance(player) == START - 100


async def test_a_stake_beyond_the_balance_is_refused_and_changes_nothing(book: Book) -> None:
    player, table = await book.player(250), await book.table(ONE_BOX)
    casino = book.casino
    await casino.send(player, table, "SitDown")
    await casino.send(player, table, "PlaceAnte", box=1, ante=100)
    await casino.send(player, table, "Deal")
    before = await casino.view(table, player)
    refused = await casino.post(player, table, "Play", box=1)  # the Bet is 200; 150 is left
    assert refused.status_code == 409, refused.text
    assert refused.json()["code"] == "insufficient_funds"
    assert await casino.view(table, player) == before
    assert await book.balance(player) == 150
    box = settled_box(await casino.send(player, table, "Fold", box=1))
    assert await book.balance(player) == 250 + box["result"]["net"] == 150


async def test_a_retried_command_moves_money_once(book: Book) -> None:
    player, table = await book.player(START), await book.table(ONE_BOX)
    casino = book.casino
    await casino.send(player, table, "SitDown")
    first = await casino.post(player, table, "PlaceAnte", key="ante-once", box=1, ante=100)
    again = await casino.post(player, table, "PlaceAnte", key="ante-once", box=1, ante=100)
    assert first.status_code == again.status_code == 200, again.text
    assert again.json()["duplicate"] is True
    assert await book.balance(player) == START - 100


async def test_each_box_is_staked_and_settled_on_its_own(book: Book) -> None:
    player, table = await book.player(START), await book.table(TWO_BOXES)
    casino = book.casino
    await casino.send(player, table, "SitDown")
    await casino.send(player, table, "PlaceAnte", box=1, ante=100)
    await casino.send(player, table, "PlaceAnte", box=2, ante=200)
    assert await book.balance(player) == START - 300
    await casino.send(player, table, "Deal")
    # The higher box decides first: box 2 holds the trips, box 1 the jacks.
    await casino.send(player, table, "Play", box=2)
    settled = await casino.send(player, table, "Fold", box=1)
    boxes = {b["box"]: b["result"]["net"] for b in settled["previous_round"]["boxes"]}
    assert boxes[1] == -100 and boxes[2] > 0
    assert await book.balance(player) == START + boxes[1] + boxes[2]
