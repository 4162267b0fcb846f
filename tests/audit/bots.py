"""Bot players: many random rounds through the real command path, for the audit tests.

Each bot reads the table's full state (it only looks at its own boxes' cards) and picks a
random legal move: antes with or without a bonus, dark boxes, cancels, repeats, draws,
insurance, folds, dealer draws, and now and then a time-out, a player leaving or the
operator closing and reopening the table. A refused move (a race with another player, a
limit) is simply dropped; the rules, not the bots, decide what is legal.
"""

from __future__ import annotations

import asyncio
import random
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import asyncpg
import msgspec

from russian_poker.events.commands import (
    SYSTEM,
    Actor,
    BettingTimeUp,
    BuyCard,
    CancelBets,
    ChangeRuleset,
    CloseTable,
    Command,
    CompleteAbandonedRound,
    Deal,
    DecisionTimeUp,
    DeclineDealerExchange,
    Exchange,
    Fold,
    Insure,
    LeaveTable,
    OpenTable,
    PlaceAnte,
    Play,
    ReopenTable,
    RepeatBets,
    RequestDealerExchange,
    SitDown,
)
from russian_poker.events.postgres import tables
from russian_poker.service.application.commands import CommandService
from russian_poker.service.application.transfers import TransferService
from russian_poker.service.rules.errors import RuleViolation
from russian_poker.service.rules.payouts import insurance_range
from russian_poker.service.rules.presets import make_ruleset
from russian_poker.service.rules.state import Box, Table

__all__ = ["OPERATOR", "TablePlan", "default_plans", "fund_players", "play_tables"]

OPERATOR = Actor(role="operator", id="operator")
START_BALANCE = 100_000_000


@dataclass(frozen=True)
class TablePlan:
    table_id: str
    preset: str
    players: tuple[str, ...]
    overrides: dict[str, Any] = field(default_factory=dict)


def default_plans(count: int, prefix: str = "t") -> list[TablePlan]:
    """``count`` tables over every preset and some unusual overrides; players are shared
    between neighbouring tables, so one wallet is debited by two tables at once."""
    variants: list[tuple[str, dict[str, Any]]] = [
        ("russian", {}),
        ("russian-online", {}),
        ("oasis", {"draw_fee_antes": [1, 2, 2, 2, 2]}),
        ("russian", {"max_payout": 2_000, "dealer_redraw_limit": 0}),
        (
            "russian",
            {
                "insurance_max": "half_payout",
                "insurance_returned_after_dealer_draw": True,
                "discards_return_to_deck": False,
            },
        ),
        ("oasis", {"max_exchange_cards": 2, "insurance_min_hand": "pair"}),
    ]
    plans = []
    for i in range(count):
        preset, overrides = variants[i % len(variants)]
        players = (f"{prefix}p{i}a", f"{prefix}p{i}b", f"{prefix}p{(i + 1) % count}c")
        plans.append(TablePlan(f"{prefix}{i}", preset, players, overrides))
    return plans


async def fund_players(wallets: TransferService, plans: Sequence[TablePlan]) -> None:
    names = sorted({p for plan in plans for p in plan.players})
    for name in names:
        await wallets.open(name, "EUR", actor=OPERATOR)
        await wallets.transfer(name, "deposit", f"start-{name}", START_BALANCE, actor=OPERATOR)


def _paytable_change(state: Table) -> ChangeRuleset:
    """The operator prices a straight one more (or, on a later change, one less) between
    rounds: replay, the audit trail and the rebuilds must follow the change."""
    paytable = dict(state.rules.bet_paytable)
    paytable["straight"] += 1 if state.ruleset_version % 2 else -1
    ruleset = msgspec.structs.replace(state.rules, bet_paytable=paytable)
    return ChangeRuleset(ruleset=ruleset, reason=f"bots: version {state.ruleset_version + 1}")


class _TableBots:
    """Plays one table until ``rounds`` rounds have been settled."""

    def __init__(
        self,
        handler: CommandService,
        pool: asyncpg.Pool[asyncpg.Record],
        plan: TablePlan,
        seed: int,
    ) -> None:
        self.handler = handler
        self.pool = pool
        self.plan = plan
        self.rng = random.Random(seed)
        self.players = [Actor(role="player", id=p) for p in plan.players]
        self.commands = 0

    async def send(self, command: Command, actor: Actor) -> bool:
        self.commands += 1
        request_id = f"req-{uuid.uuid4().hex[:8]}" if self.rng.random() < 0.8 else None
        try:
            await self.handler.execute(self.plan.table_id, command, actor, request_id=request_id)
        except RuleViolation:
            return False
        return True

    async def state(self) -> Table:
        async with self.pool.acquire() as conn:
            state, _ = await tables.load(conn, self.plan.table_id)
        return state

    async def play(self, rounds: int) -> int:
        rules = make_ruleset(self.plan.preset, self.plan.overrides)
        await self.send(OpenTable(ruleset=rules, name=self.plan.table_id), OPERATOR)
        for actor in self.players:
            await self.send(SitDown(), actor)
        state = await self.state()
        for _ in range(rounds):
            assert state.round is not None and state.round.phase == "betting"
            number = state.round.number
            await self.one_round(state)
            state = await self.state()
            if state.status == "closed":
                await self.send(ReopenTable(), OPERATOR)
                state = await self.state()
            if state.between_rounds and self.rng.random() < 0.03:
                await self.send(_paytable_change(state), OPERATOR)
                state = await self.state()
            assert state.round is not None and state.round.number > number, "round stuck"
        return rounds

    async def one_round(self, state: Table) -> None:
        rng = self.rng
        assert state.round is not None
        taken = {b.number for b in state.round.boxes}
        betting: set[str] = set()
        for actor in rng.sample(self.players, len(self.players)):
            if state.seat_of(actor.id) is None:
                await self.send(SitDown(), actor)
            elif await self.bet(state, actor, taken):
                betting.add(actor.id)
                if rng.random() < 0.02:
                    await self.send(LeaveTable(), actor)
                    betting.discard(actor.id)
        if rng.random() < 0.02:
            await self.send(CloseTable(), OPERATOR)
            return
        state = await self.state()
        assert state.round is not None
        if not state.round.boxes:
            seated = next((a for a in self.players if state.seat_of(a.id) is not None), None)
            if seated is None:
                seated = self.players[0]
                await self.send(SitDown(), seated)
            await self.send(PlaceAnte(box=1, ante=state.rules.ante_min), seated)
            state = await self.state()
            assert state.round is not None
        current = state.round
        assert current is not None
        if rng.random() < 0.4:
            await self.send(BettingTimeUp(round=current.number), SYSTEM)
        else:
            for player in current.players():
                await self.send(Deal(), Actor(role="player", id=player))
        await self.decide_until_settled(current.number)

    async def bet(self, state: Table, actor: Actor, taken: set[int]) -> bool:
        """Place this player's bets for the round; whether any was sent."""
        rng = self.rng
        rules = state.rules
        roll = rng.random()
        if roll < 0.3:
            return False
        previous = state.last_bets.get(actor.id, ())
        if roll < 0.55 and previous and not taken & {b.box for b in previous}:
            taken.update(b.box for b in previous)
            return await self.send(RepeatBets(), actor)
        light = 0
        placed = []
        for _ in range(rng.choice((1, 1, 2))):
            free = [n for n in range(1, rules.boxes + 1) if n not in taken]
            if not free:
                break
            dark = light >= rules.light_boxes_per_player or rng.random() < 0.25
            light += not dark
            ante = rng.randrange(rules.ante_min, 5 * rules.ante_min + 1, 10)
            bonus = 0
            if rules.bonus_enabled and rng.random() < 0.35:
                bonus = rng.randrange(rules.bonus_min, rules.bonus_limit + 1, 10)
            box = rng.choice(free)
            if await self.send(PlaceAnte(box=box, ante=ante, bonus=bonus, dark=dark), actor):
                taken.add(box)
                placed.append(box)
        target = rng.choice([None, placed[0]]) if placed else None
        if placed and rng.random() < 0.06 and await self.send(CancelBets(box=target), actor):
            cancelled = set(placed) if target is None else {target}
            taken.difference_update(cancelled)
            placed = [b for b in placed if b not in cancelled]
        return bool(placed)

    async def decide_until_settled(self, number: int) -> None:
        for _ in range(200):
            state = await self.state()
            current = state.round
            if current is None or current.number != number or current.phase == "settled":
                return
            moves: list[tuple[Command, Actor]] = []
            if current.phase != "betting" and self.rng.random() < 0.01:
                # Everyone walks away and a day passes: the interrupted-round timer fires.
                abandoned = CompleteAbandonedRound(round=number, activity=current.activity)
                await self.send(abandoned, SYSTEM)
                continue
            if current.phase == "decisions":
                for box in current.awaiting_decision():
                    moves.append(self.decision(state, box))
            elif current.phase == "dealer_draw":
                for box in current.awaiting_dealer_draw():
                    moves.append(self.dealer_draw(number, box))
            elif current.phase == "betting":
                # Someone's Deal was refused in a race: the clock deals.
                moves.append((BettingTimeUp(round=number), SYSTEM))
            await asyncio.gather(*(self.send(c, a) for c, a in moves))
        raise AssertionError(f"round {number} of {self.plan.table_id} never settled")

    def decision(self, state: Table, box: Box) -> tuple[Command, Actor]:
        rng = self.rng
        rules = state.rules
        assert state.round is not None
        actor = Actor(role="player", id=box.player)
        if not box.drew and rng.random() < 0.3:
            if rules.buy_sixth_card and (rules.max_exchange_cards == 0 or rng.random() < 0.5):
                return BuyCard(box=box.number), actor
            if rules.max_exchange_cards:
                count = rng.randint(1, rules.max_exchange_cards)
                cards = rng.sample(list(box.cards), count)
                return Exchange(box=box.number, cards=cards), actor
        roll = rng.random()
        allowed = insurance_range(box, rules)
        if allowed is not None and roll < 0.6:
            return Insure(box=box.number, amount=rng.randint(*allowed)), actor
        if roll < 0.12:
            return Fold(box=box.number), actor
        if roll < 0.16:
            return DecisionTimeUp(
                round=state.round.number, box=box.number, phase="decision"
            ), SYSTEM
        return Play(box=box.number), actor

    def dealer_draw(self, number: int, box: Box) -> tuple[Command, Actor]:
        actor = Actor(role="player", id=box.player)
        roll = self.rng.random()
        if roll < 0.5:
            return RequestDealerExchange(box=box.number), actor
        if roll < 0.9:
            return DeclineDealerExchange(box=box.number), actor
        return DecisionTimeUp(round=number, box=box.number, phase="dealer_draw"), SYSTEM


async def play_tables(
    handler: CommandService,
    pool: asyncpg.Pool[asyncpg.Record],
    plans: Sequence[TablePlan],
    rounds: int,
    *,
    seed: int = 1,
) -> tuple[int, int]:
    """Play ``rounds`` rounds on every table at once; ``(rounds settled, commands sent)``."""
    bots = [_TableBots(handler, pool, plan, seed * 1000 + i) for i, plan in enumerate(plans)]
    played = await asyncio.gather(*(b.play(rounds) for b in bots))
    return sum(played), sum(b.commands for b in bots)


async def leave_rounds_open(
    handler: CommandService, pool: asyncpg.Pool[asyncpg.Record], plans: Sequence[TablePlan]
) -> list[tuple[str, int]]:
    """On every table, deal a round and draw on it, then stop: rounds whose secrets (seed,
    hidden cards, the exchanged cards a command names) must not leak. Returns them."""
    left = []
    for plan in plans:
        bots = _TableBots(handler, pool, plan, 0)
        state = await bots.state()
        assert state.round is not None and state.round.phase == "betting"
        seated = [a for a in bots.players if state.seat_of(a.id) is not None]
        if not seated:
            seated = [bots.players[0]]
            await bots.send(SitDown(), seated[0])
        actor = seated[0]
        free = next(n for n in range(1, state.rules.boxes + 1) if state.round.box(n) is None)
        assert await bots.send(PlaceAnte(box=free, ante=state.rules.ante_min), actor)
        assert await bots.send(Deal(), actor)
        state = await bots.state()
        assert state.round is not None
        box = state.round.box(free)
        assert box is not None and state.round.phase == "decisions"
        if state.rules.max_exchange_cards:
            assert await bots.send(Exchange(box=free, cards=[box.cards[0]]), actor)
        else:
            assert await bots.send(BuyCard(box=free), actor)
        left.append((plan.table_id, state.round.number))
    return left
