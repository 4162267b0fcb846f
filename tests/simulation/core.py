"""Rounds played through the production core (``decide``/``evolve``), for comparison with
the simulator's fast paths.

A strategy's decisions become real commands; the round's money is read back from the
events (``BoxPlayed``, fees, ``BoxSettled``, ``BonusSettled``) into the simulator's
``RoundResult``. The matching fast-path inputs are the round's own deck
(``shuffled(seed)``) and a reinserter that is the core's ``Deck.reinsert`` on that seed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from russian_poker.events.codec import Event
from russian_poker.events.commands import (
    SYSTEM,
    Actor,
    BuyCard,
    Command,
    Deal,
    DeclineDealerExchange,
    Exchange,
    Fold,
    Insure,
    OpenRound,
    OpenTable,
    PlaceAnte,
    Play,
    RequestDealerExchange,
    SitDown,
)
from russian_poker.events.game import (
    BonusSettled,
    BoxPlayed,
    BoxSettled,
    CardsExchanged,
    SixthCardBought,
)
from russian_poker.events.paytables import CATEGORY_LABELS
from russian_poker.events.ruleset import Ruleset
from russian_poker.service.rules.decide import decide
from russian_poker.service.rules.deck import Deck, shuffled
from russian_poker.service.rules.evolve import fold
from russian_poker.service.rules.hands import evaluate
from russian_poker.service.rules.state import Table
from russian_poker.service.tools.simulation.actions import EXCHANGE, FOLD, SIXTH, Action, Strategy
from russian_poker.service.tools.simulation.engine import OUTCOMES, RoundResult
from russian_poker.service.tools.simulation.game import Game
from russian_poker.service.tools.simulation.lookup import CARD_INDEX, card_ints, card_texts

OPERATOR = Actor(role="operator", id="operator")
ANN = Actor(role="player", id="ann")


def seed_of(label: str, index: int) -> bytes:
    return hashlib.sha256(f"{label}/{index}".encode()).digest()


def deck_ints(seed: bytes) -> list[int]:
    """The round's deck, top first, as card ints."""
    return list(card_ints(shuffled(seed).cards))


class CoreReinserter:
    """Discards go back exactly where the core puts them: ``Deck.reinsert`` on the seed."""

    def __init__(self, seed: bytes) -> None:
        self.seed = seed
        self.cursor = shuffled(seed).cursor

    def reinsert(self, undealt: list[int], discards: Sequence[int]) -> None:
        deck = Deck(key=self.seed, cards=card_texts(undealt), cursor=self.cursor)
        deck = deck.reinsert(card_texts(discards))
        undealt[:] = card_ints(deck.cards)
        self.cursor = deck.cursor


class CoreTable:
    """One table, one player, one light box, played through ``decide``/``evolve``."""

    def __init__(self, rules: Ruleset) -> None:
        self.state = Table()
        self._run(OpenTable(ruleset=rules), OPERATOR, table_id="sim")
        self._run(SitDown(), ANN)

    def _run(self, command: Command, actor: Actor, table_id: str = "") -> list[Event]:
        events = decide(self.state, command, actor, table_id=table_id)
        self.state = fold(self.state, events)
        return events

    def _command(self, action: Action) -> Command:
        if action.kind == FOLD:
            return Fold(box=1)
        if action.kind == EXCHANGE:
            return Exchange(box=1, cards=list(card_texts(action.discards)))
        if action.kind == SIXTH:
            return BuyCard(box=1)
        if action.insurance:
            return Insure(box=1, amount=action.insurance)
        return Play(box=1)

    def _hand(self) -> tuple[list[int], int]:
        assert self.state.round is not None
        box = self.state.round.box(1)
        assert box is not None
        return list(card_ints(box.cards)), evaluate(box.cards).strength

    def play(self, seed: bytes, strategy: Strategy, game: Game) -> RoundResult:
        """One round on ``seed``'s deck, decided by ``strategy``."""
        events = self._run(OpenRound(seed=seed), SYSTEM)
        events += self._run(PlaceAnte(box=1, ante=game.ante, bonus=game.bonus), ANN)
        events += self._run(Deal(), ANN)
        current = self.state.round
        assert current is not None and current.phase == "decisions"
        upcard = CARD_INDEX[current.dealer[4]]
        cards, value = self._hand()
        action = strategy.decide(cards, value, upcard, game)
        events += self._run(self._command(action), ANN)
        if action.kind in (EXCHANGE, SIXTH):
            cards, value = self._hand()
            events += self._run(self._command(strategy.after_draw(cards, value, upcard, game)), ANN)
        current = self.state.round
        assert current is not None
        if current.phase == "dealer_draw":
            dealer = list(card_ints(current.dealer))
            ask = strategy.dealer_draw(cards, value, dealer, game)
            command = RequestDealerExchange(box=1) if ask else DeclineDealerExchange(box=1)
            events += self._run(command, ANN)
        current = self.state.round
        assert current is not None and current.phase == "settled"
        return _result(events, game, evaluate(current.dealer).category)


def _result(events: list[Event], game: Game, dealer_category: int) -> RoundResult:
    staked, drew, insurance = game.ante, 0, 0
    bonus_net = 0
    settled: BoxSettled | None = None
    for event in events:
        if isinstance(event, CardsExchanged):
            staked += event.fee
            drew = len(event.discarded)
        elif isinstance(event, SixthCardBought):
            staked += event.fee
            drew = 6
        elif isinstance(event, BoxPlayed):
            staked += event.bet + event.insurance
            insurance = event.insurance
        elif isinstance(event, BonusSettled):
            bonus_net = event.won if event.won else -event.stake
        elif isinstance(event, BoxSettled):
            settled = event
    assert settled is not None
    return RoundResult(
        net=settled.returned + settled.won - staked,
        wagered=staked,
        outcome=OUTCOMES.index(settled.outcome),
        category=CATEGORY_LABELS.index(settled.hand),
        dealer_category=dealer_category,
        drew=drew,
        insurance=insurance,
        dealer_draw=settled.dealer_draw,
        bonus_net=bonus_net,
        capped=settled.capped,
    )
