"""A property of seamless money under faults, through HTTP against the reference wallet (a
separate process): over any sequence of commands of one or two players at a table — antes
with and without a bonus, cancels, deals, and the decisions the view offers — with any
wallet fault switched on before any command (slow past the time-out, a 500, a connection
dropped before or after the call was applied, an answer held back past the time-out after
it, a duplicated delivery, a wrongly signed or stale answer; on a bet, a win or a
rollback), once the rounds are played out and the outbox delivered, for every player:

* the operator's balance moved by exactly the game's net: its committed bets and its wins,
  and the sum of the ``result.net`` of the player's settled boxes as the views showed them;
* the operator applied nothing twice, and no bet reached it again once rolled back;
* nothing is left queued, pending or given up on;
* every round in which the player had a committed bet was closed by exactly one call.

One casino and one wallet serve every example; each example has its own operator,
players and table.
"""

from __future__ import annotations

import itertools
import random
from typing import Any, Final, NamedTuple

import httpx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from russian_poker.service.rules.cards import FULL_DECK
from russian_poker.service.tools.reference_wallet.faults import FAULT_MODES
from tests.operators import module_fixtures
from tests.operators.casino import Casino, Player
from tests.operators.faults_helpers import (
    START,
    assert_ledgers_agree,
    assert_no_bet_after_its_rollback,
    closing_calls,
    deliveries_of,
    fresh_id,
    new_operator,
    new_player,
    quiet,
    table_state,
)
from tests.wallet.reference import ReferenceWallet

TIMEOUT_MS: Final = 300
SLOW_MS: Final = 700
MODES: Final = tuple(mode for mode in FAULT_MODES if mode != "down")
"""Every fault of one call (``down`` stops the whole wallet: test_operator_down's)."""
DECISIONS: Final = ("Play", "Fold", "Exchange", "RequestDealerExchange", "DeclineDealerExchange")
"""The decisions the random steps take when the view offers them."""
FINISHING: Final = ("Play", "DeclineDealerExchange", "Fold")
"""What playing a round out chooses, in this order of preference."""


class Fault(NamedTuple):
    mode: str
    call: str


class Step(NamedTuple):
    who: int
    action: str
    pick: int
    fault: Fault | None


_faults = st.none() | st.builds(
    Fault, st.sampled_from(MODES), st.sampled_from(["bet", "win", "rollback"])
)
_step = st.builds(
    Step,
    st.integers(0, 1),
    st.sampled_from(["ante", "ante_bonus", "cancel", "deal", "decide", "decide"]),
    st.integers(0, 7),
    _faults,
)
_rounds = st.lists(st.lists(_step, min_size=1, max_size=8), min_size=1, max_size=3)
"""Rounds of random steps; each is played out after its steps (its faults still on)."""


# One casino and one wallet for the whole module (pytest finds fixtures by module name).
shared_casino = module_fixtures.shared_casino
shared_wallet = module_fixtures.shared_wallet


class _Game:
    """One example's table, its players, and what their views showed of settled rounds."""

    def __init__(
        self,
        casino: Casino,
        wallet: ReferenceWallet,
        table_id: str,
        players: list[Player],
        rng: random.Random,
    ) -> None:
        self.casino = casino
        self.wallet = wallet
        self.table_id = table_id
        self.players = players
        self.rng = rng
        self.settled: dict[int, dict[int, tuple[str, int]]] = {}
        """round → box → (player, net), from the views of settled rounds."""
        self.stacked: set[int] = set()
        self.duplicated_bets = 0
        self._keys = itertools.count()

    # -- commands ----------------------------------------------------------------------

    def command_for(
        self, view: dict[str, Any], player: Player, step: Step
    ) -> dict[str, Any] | None:
        """The step's command as the player's view allows it now (None: nothing to do)."""
        round_ = view["round"]
        if round_ is None:
            return None
        mine = [b for b in round_["boxes"] if b["player"] == player.game_id]
        betting = round_["phase"] == "betting"
        if step.action in ("ante", "ante_bonus"):
            light = [b for b in mine if not b["dark"]]
            if not betting or not view["free_boxes"] or len(light) >= 2:
                return None
            command: dict[str, Any] = {
                "type": "PlaceAnte",
                "box": view["free_boxes"][step.pick % len(view["free_boxes"])],
                "ante": (100, 200)[step.pick % 2],
            }
            if step.action == "ante_bonus":
                command["bonus"] = 100
            return command
        if step.action == "cancel":
            if not betting or not mine:
                return None
            return {"type": "CancelBets", "box": mine[step.pick % len(mine)]["box"]}
        if step.action == "deal":
            if not betting or not mine or player.game_id in round_["ready"]:
                return None
            return {"type": "Deal"}
        return _decision(mine, step.pick, DECISIONS)

    async def send(self, player: Player, command: dict[str, Any]) -> httpx.Response:
        if command["type"] == "Deal":
            await self._stack(player)
        fields = {k: v for k, v in command.items() if k != "type"}
        response = await self.casino.post(
            player, self.table_id, command["type"], key=f"s{next(self._keys)}", **fields
        )
        if response.status_code == 200:
            await self._harvest(response.json()["table"])
        return response

    async def step(self, step: Step) -> None:
        player = self.players[step.who % len(self.players)]
        if step.fault is not None:
            await self.wallet.fault(
                step.fault.mode,
                calls=[step.fault.call],
                **(
                    {"delay_ms": SLOW_MS}
                    if step.fault.mode in ("slow", "stall_after_apply")
                    else {}
                ),
            )
            if step.fault == Fault("duplicate", "bet"):
                self.duplicated_bets += 1
        view = await self.casino.view(self.table_id, player)
        command = self.command_for(view, player, step)
        if command is None:
            return
        if command["type"] == "Deal":
            await self._stack(player)
            view = await self.casino.view(self.table_id, player)
        response = await self.send(player, command)
        if response.status_code == 200:
            return
        # Refused, or the wallet's answer unknown: the table is as it was.
        assert response.status_code in (403, 409, 422, 503), response.text
        if response.status_code == 503:
            assert response.json()["type"] == "/problems/wallet_unavailable", response.text
            assert "Retry-After" in response.headers
        after = await self.casino.view(self.table_id, player)
        assert table_state(after) == table_state(view), command

    async def _stack(self, player: Player) -> None:
        """The round about to be dealt gets a deck of the example's own (reproducible)."""
        view = await self.casino.view(self.table_id, player)
        number = view["round"]["number"]
        if number in self.stacked:
            return
        deck = list(FULL_DECK)
        self.rng.shuffle(deck)
        await self.casino.next_deck(self.table_id, deck)
        self.stacked.add(number)

    async def _harvest(self, table: dict[str, Any]) -> None:
        previous = table["previous_round"]
        if previous is None or previous["number"] in self.settled:
            return
        # Each player's own view of the settled round: its boxes' results.
        results: dict[int, tuple[str, int]] = {}
        for player in self.players:
            view = await self.casino.view(self.table_id, player)
            assert view["previous_round"]["number"] == previous["number"]
            for box in view["previous_round"]["boxes"]:
                if box["player"] == player.game_id:
                    assert box["settled"] and box["result"] is not None, box
                    results[box["box"]] = (player.game_id, box["result"]["net"])
        self.settled[previous["number"]] = results

    # -- playing the rounds out ----------------------------------------------------------

    async def play_out(self) -> None:
        """Play the current round to its settlement if anyone has money in it (a bet
        placed and cancelled still opened the player's round at the operator: it is
        closed when the round settles). A fault still on fails a command once: it is sent
        again (each fault hits one call)."""
        for _ in range(60):
            moved = False
            for player in self.players:
                view = await self.casino.view(self.table_id, player)
                round_ = view["round"]
                mine = [b for b in round_["boxes"] if b["player"] == player.game_id]
                command: dict[str, Any] | None = None
                if round_["phase"] == "betting":
                    if mine and player.game_id not in round_["ready"]:
                        command = {"type": "Deal"}
                    elif not view["boxes_in_play"] and await self._owes_round(
                        player, round_["number"]
                    ):
                        command = {"type": "PlaceAnte", "box": view["free_boxes"][0], "ante": 100}
                else:
                    command = _decision(mine, 0, FINISHING)
                if command is None:
                    continue
                moved = True
                response = await self.send(player, command)
                assert response.status_code in (200, 503), response.text
            if not moved:
                return
        raise AssertionError("the round did not settle")

    async def _owes_round(self, player: Player, round_number: int) -> bool:
        """Whether the player has a committed bet in this round (one cancelled, then)."""
        found = await self.casino.pool.fetchval(
            "SELECT EXISTS (SELECT FROM wallet_transactions WHERE kind = 'bet'"
            " AND status = 'committed' AND operator_id = $1 AND player_id = $2"
            " AND table_id = $3 AND round = $4)",
            player.operator_id,
            player.player_id,
            self.table_id,
            round_number,
        )
        return bool(found)


def _decision(
    boxes: list[dict[str, Any]], pick: int, allowed: tuple[str, ...]
) -> dict[str, Any] | None:
    """A decision for the first of ``boxes`` that has one to take, among ``allowed`` (the
    ``pick``-th of those it offers; play-out picks 0, its most preferred)."""
    for box in boxes:
        options = [a for a in allowed if a in box["actions"]]
        if not options:
            continue
        action = options[pick % len(options)]
        command: dict[str, Any] = {"type": action, "box": box["box"]}
        if action == "Exchange":
            command["cards"] = box["cards"][: 1 + pick % 2]
        return command
    return None


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(players=st.integers(1, 2), rounds=_rounds, rng=st.randoms(use_true_random=False))
async def test_the_operator_moves_by_the_games_net_whatever_the_faults(
    shared_casino: Casino,
    shared_wallet: ReferenceWallet,
    players: int,
    rounds: list[list[Step]],
    rng: random.Random,
) -> None:
    casino, wallet = shared_casino, shared_wallet
    await quiet(casino, wallet)
    operator_id = await new_operator(casino, wallet, timeout_ms=TIMEOUT_MS)
    people = [await new_player(casino, wallet, operator_id) for _ in range(players)]
    table_id = f"{operator_id}.{fresh_id('t')}"
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    await casino.open_table(table_id, "russian", deck, operator_id=operator_id)
    for person in people:
        await casino.send(person, table_id, "SitDown")
    game = _Game(casino, wallet, table_id, people, rng)

    for steps in rounds:
        for step in steps:
            await game.step(step)
        await game.play_out()
    await wallet.clear_faults()
    await casino.delivered()

    bet_ids = []
    for person in people:
        net = await assert_ledgers_agree(casino, wallet, person)
        shown = sum(
            box_net
            for boxes in game.settled.values()
            for who, box_net in boxes.values()
            if who == person.game_id
        )
        assert net == shown, (net, shown, game.settled)
        assert await wallet.balance_of(person.player_id) == START + shown
        calls = await casino.calls(operator_id=operator_id, player_id=person.player_id)
        left = [c for c in calls if c["status"] in ("queued", "pending", "accepted", "manual")]
        assert not left, left
        assert set((await closing_calls(casino, person)).values()) <= {1}
        bet_ids += [c["transaction_id"] for c in calls if c["kind"] == "bet"]
    await assert_no_bet_after_its_rollback(wallet, bet_ids)
    arrivals = [tid for _, call, tid in await deliveries_of(wallet) if call == "bet"]
    twice = [tid for tid in set(bet_ids) if arrivals.count(tid) > 1]
    assert len(twice) <= game.duplicated_bets, twice  # only a duplicating proxy sends twice
