"""The property behind the money port: one sequence of commands gives the same game and the
same money whichever mode the operator runs. Two operators, one of each mode, each with the
same players holding the same balance, play the same steps at a table of their own dealt
the same decks; after every step both answer alike (status, problem, the table as each
player sees it), and after the rounds are played out each player's balance moved by the
same net in both, which is the sum of the nets their settled boxes showed."""

from __future__ import annotations

import itertools
import json
import random
from typing import Any, Final, NamedTuple

import httpx
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from russian_poker.service.rules.cards import FULL_DECK
from tests.money.books import Book
from tests.operators.casino import Casino, Player
from tests.operators.faults_helpers import fresh_id
from tests.wallet.reference import ReferenceWallet

START: Final = 2_000
"""Small enough that some bets are refused for want of money."""
DECISIONS: Final = ("Play", "Fold", "BuyCard", "Exchange", "RequestDealerExchange")


class Step(NamedTuple):
    who: int
    action: str
    pick: int


_step = st.builds(
    Step,
    st.integers(0, 1),
    st.sampled_from(["ante", "ante_bonus", "cancel", "deal", "decide", "decide", "decide"]),
    st.integers(0, 7),
)
_rounds = st.lists(st.lists(_step, min_size=1, max_size=10), min_size=1, max_size=3)


class Side:
    """One mode's operator, table and players."""

    def __init__(self, book: Book, table_id: str, players: list[Player]) -> None:
        self.book = book
        self.table_id = table_id
        self.players = players
        self.keys = itertools.count()

    def masked(self, value: Any) -> Any:
        """``value`` with this side's operator id replaced and each round's own randomness
        (its seed, and the commitment to it) left out, to compare with the other side's."""
        return _unseeded(json.loads(json.dumps(value).replace(self.book.operator_id, "OPERATOR")))

    async def seen(self, who: int) -> Any:
        view = await self.book.casino.view(self.table_id, self.players[who])
        view.pop("deadlines", None)
        return self.masked(view)

    async def send(self, who: int, command: dict[str, Any]) -> tuple[int, Any]:
        fields = {k: v for k, v in command.items() if k != "type"}
        response: httpx.Response = await self.book.casino.post(
            self.players[who], self.table_id, command["type"], key=f"s{next(self.keys)}", **fields
        )
        body = response.json()
        if response.status_code == 200:
            body = body["table"]
            body.pop("deadlines", None)
        else:
            body = body["code"]
        return response.status_code, self.masked(body)


_SEEDED: Final = frozenset(("commitment", "seed", "server_seed"))


def _unseeded(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _unseeded(v) for k, v in value.items() if k not in _SEEDED}
    if isinstance(value, list):
        return [_unseeded(v) for v in value]
    return value


def _command(view: dict[str, Any], step: Step, me: str) -> dict[str, Any] | None:
    """The step's command as player ``me``'s view allows it (None: nothing to do)."""
    round_ = view["round"]
    if round_ is None:
        return None
    mine = [b for b in round_["boxes"] if b["yours"]]
    betting = round_["phase"] == "betting"
    if step.action in ("ante", "ante_bonus"):
        if not betting or not view["free_boxes"]:
            return None
        command: dict[str, Any] = {
            "type": "PlaceAnte",
            "box": view["free_boxes"][step.pick % len(view["free_boxes"])],
            "ante": (100, 300, 500)[step.pick % 3],
        }
        if step.action == "ante_bonus":
            command["bonus"] = 100
        return command
    if step.action == "cancel":
        if not betting or not mine:
            return None
        return {"type": "CancelBets", "box": mine[step.pick % len(mine)]["box"]}
    if step.action == "deal":
        return {"type": "Deal"} if betting and mine and me not in round_["ready"] else None
    return _decision(mine, step.pick, DECISIONS)


def _decision(
    boxes: list[dict[str, Any]], pick: int, allowed: tuple[str, ...]
) -> dict[str, Any] | None:
    """A decision for the first box with one to take: the ``pick``-th ``allowed`` offered."""
    for box in boxes:
        options = [a for a in allowed if a in box["actions"]]
        if options:
            action = options[pick % len(options)]
            command: dict[str, Any] = {"type": action, "box": box["box"]}
            if action == "Exchange":
                command["cards"] = box["cards"][: 1 + pick % 2]
            return command
    return None


def _differences(first: Any, second: Any, path: str = "") -> list[str]:
    """Where two JSON values differ, as paths (for a failure's message)."""
    if isinstance(first, dict) and isinstance(second, dict):
        return [
            found
            for key in sorted(first.keys() | second.keys())
            for found in _differences(first.get(key), second.get(key), f"{path}.{key}")
        ]
    if (
        isinstance(first, list | tuple)
        and isinstance(second, list | tuple)
        and len(first) == len(second)
    ):
        return [
            found
            for i, (a, b) in enumerate(zip(first, second, strict=True))
            for found in _differences(a, b, f"{path}[{i}]")
        ]
    return [] if first == second else [f"{path}: {first!r} != {second!r}"]


FINISHING: Final = ("Play", "DeclineDealerExchange", "Fold")
"""What playing a round out tries, in this order (a Play refused for want of money folds)."""


class Game:
    """The same steps on both sides, in lockstep; what side one's players saw settle."""

    def __init__(self, sides: tuple[Side, Side], rng: random.Random) -> None:
        self.sides = sides
        self.rng = rng
        self.stacked: set[int] = set()
        self.settled: dict[int, dict[int, tuple[int, int]]] = {}
        """round → box → (player, net)."""

    async def both(self, who: int, command: dict[str, Any]) -> int:
        """Send ``command`` as player ``who`` on both sides; both must answer alike."""
        if command["type"] == "Deal":
            await self._stack(who)
        first, second = [await side.send(who, command) for side in self.sides]
        assert first == second, (command, _differences(first, second))
        status, table = first
        if status == 200:
            await self._harvest(table)
        return status

    async def step(self, step: Step) -> None:
        side = self.sides[0]
        who = step.who % len(side.players)
        view = await side.book.casino.view(side.table_id, side.players[who])
        command = _command(view, step, side.players[who].game_id)
        if command is not None:
            status = await self.both(who, command)
            assert status in (200, 409, 422), (command, status)
        seen = [await side.seen(who) for side in self.sides]
        assert seen[0] == seen[1], (step, _differences(*seen))

    async def play_out(self) -> None:
        """Every player's boxes decide (or deal) until the round settles or waits for bets."""
        side = self.sides[0]
        for _ in range(40):
            moved = False
            for who, player in enumerate(side.players):
                view = await side.book.casino.view(side.table_id, player)
                round_ = view["round"]
                mine = [b for b in round_["boxes"] if b["yours"]]
                if round_["phase"] == "betting":
                    if mine and player.game_id not in round_["ready"]:
                        moved = True
                        assert await self.both(who, {"type": "Deal"}) == 200
                    continue
                for choice in range(len(FINISHING)):
                    command = _decision(mine, 0, FINISHING[choice:])
                    if command is None:
                        break
                    moved = True
                    if await self.both(who, command) == 200:
                        break
            if not moved:
                return
        raise AssertionError("the round did not settle")

    async def _stack(self, who: int) -> None:
        """The round about to be dealt: the same shuffled deck on both sides."""
        side = self.sides[0]
        number = (await side.book.casino.view(side.table_id, side.players[who]))["round"]["number"]
        if number in self.stacked:
            return
        deck = list(FULL_DECK)
        self.rng.shuffle(deck)
        for each in self.sides:
            await each.book.casino.next_deck(each.table_id, deck)
        self.stacked.add(number)

    async def _harvest(self, table: dict[str, Any]) -> None:
        previous = table["previous_round"]
        if previous is None or previous["number"] in self.settled:
            return
        side = self.sides[0]
        results: dict[int, tuple[int, int]] = {}
        for who, player in enumerate(side.players):
            view = await side.book.casino.view(side.table_id, player)
            for box in view["previous_round"]["boxes"]:
                if box["yours"]:
                    results[box["box"]] = (who, box["result"]["net"])
        self.settled[previous["number"]] = results


async def _side(book: Book, player_ids: list[str], deck: list[str], name: str) -> Side:
    players = [await book.player(START, player_id) for player_id in player_ids]
    # Exchanged cards set aside, not shuffled back with the round's own seed: the decks
    # stacked on both sides then decide every card either side draws.
    table_id = await book.table(deck, name, discards_return_to_deck=False)
    for player in players:
        await book.casino.send(player, table_id, "SitDown")
    return Side(book, table_id, players)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(players=st.integers(1, 2), rounds=_rounds, rng=st.randoms(use_true_random=False))
async def test_the_same_commands_give_the_same_game_and_money_in_both_modes(
    shared_casino: Casino,
    shared_wallet: ReferenceWallet,
    players: int,
    rounds: list[list[Step]],
    rng: random.Random,
) -> None:
    internal = await Book.open(shared_casino, shared_wallet, "internal")
    seamless = await Book.open(shared_casino, shared_wallet, "seamless")
    player_ids = [fresh_id("p") for _ in range(players)]
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    name = fresh_id("t")
    sides = (
        await _side(internal, player_ids, deck, name),
        await _side(seamless, player_ids, deck, name),
    )
    game = Game(sides, rng)
    for steps in rounds:
        for step in steps:
            await game.step(step)
        await game.play_out()

    event(f"settled rounds: {len(game.settled)}")
    event(f"settled boxes: {sum(map(len, game.settled.values()))}")
    for who in range(players):
        shown = sum(
            net for boxes in game.settled.values() for owner, net in boxes.values() if owner == who
        )
        moved = [await side.book.balance(side.players[who]) - START for side in sides]
        in_play = await sides[0].seen(who)
        # A round still taking bets holds the stakes its boxes placed.
        held = sum(
            box["ante"] + (box["bonus"] or 0)
            for box in (in_play["round"] or {}).get("boxes", [])
            if box["yours"]
        )
        assert moved == [shown - held] * 2, (moved, shown, held, game.settled)
