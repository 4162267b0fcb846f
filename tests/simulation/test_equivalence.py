"""The fast paths settle every round exactly as the production core does.

Each round is played twice on the same deck (``shuffled(seed)``): once through
``decide``/``evolve`` with real commands, once through the simulator — the per-round engine
(with the core's own ``Deck.reinsert`` for discards) and, for play-or-fold strategies, the
vectorised engine. Every field of the result must match: net and wagered money (integers),
outcome, final hand, dealer's final hand, draw, insurance, dealer draw, bonus, capped.

Besides the named strategies, an *exerciser* makes seeded random legal choices (any
exchange, the sixth card, any insurance amount, the dealer draw), so every path of the
engine is compared, also under unusual rules (payout cap, half-payout insurance, discards
set aside, a redraw limit, fee schedules, the three-aces bonus).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

from russian_poker.service.rules.presets import make_ruleset
from russian_poker.service.tools.simulation.actions import FOLD, SIXTH, Action, exchange, play
from russian_poker.service.tools.simulation.engine import play_round
from russian_poker.service.tools.simulation.game import Game, compile_game
from russian_poker.service.tools.simulation.strategies import STRATEGIES, make_strategy
from russian_poker.service.tools.simulation.vector import play_batch
from tests.simulation.core import CoreReinserter, CoreTable, deck_ints, seed_of

ROUNDS = 200
"""Per ruleset and strategy: 18 combinations, 3,600 rounds through the core."""


class Exerciser:
    """Random legal choices, seeded by the situation, so both paths choose alike."""

    name = "exerciser"
    threshold = None

    def _rng(self, *parts: object) -> random.Random:
        return random.Random(repr(parts))

    def decide(self, cards: Sequence[int], value: int, upcard: int, game: Game) -> Action:
        rng = self._rng(list(cards), upcard)
        rules = game.rules
        roll = rng.random()
        if roll < 0.35 and rules.max_exchange_cards:
            count = rng.randint(1, rules.max_exchange_cards)
            return exchange(rng.sample(list(cards), count))
        if roll < 0.5 and rules.buy_sixth_card:
            return Action(SIXTH)
        return self.after_draw(cards, value, upcard, game)

    def after_draw(self, cards: Sequence[int], value: int, upcard: int, game: Game) -> Action:
        rng = self._rng(list(cards), upcard, "after")
        allowed = game.insurance_range(cards, value)
        if allowed is not None and rng.random() < 0.7:
            return play(rng.randint(*allowed))
        return Action(FOLD) if rng.random() < 0.2 else play()

    def dealer_draw(
        self, cards: Sequence[int], value: int, dealer: Sequence[int], game: Game
    ) -> bool:
        return self._rng(list(cards), list(dealer)).random() < 0.6


RULESETS: dict[str, tuple[str, dict[str, Any]]] = {
    "russian": ("russian", {}),
    "russian-online": ("russian-online", {}),
    "oasis": ("oasis", {}),
    "capped": (
        "russian",
        {
            "max_payout": 700,
            "insurance_max": "half_payout",
            "insurance_min_hand": "pair",
            "dealer_redraw_limit": 0,
            "insurance_returned_after_dealer_draw": True,
        },
    ),
    "set-aside": (
        "russian",
        {"discards_return_to_deck": False, "draw_fee_antes": [1, 2, 2, 3, 0]},
    ),
    "oasis-draws": (
        "oasis",
        {"max_exchange_cards": 3, "draw_fee_antes": [1, 2, 3, 3, 3], "max_payout": 2_000},
    ),
}
CASES = [(r, s) for r in ("russian", "russian-online", "oasis") for s in STRATEGIES]
CASES += [(r, "exerciser") for r in RULESETS]


@pytest.mark.parametrize(("ruleset", "strategy_name"), CASES)
def test_fast_paths_match_the_core_round_by_round(ruleset: str, strategy_name: str) -> None:
    preset, overrides = RULESETS[ruleset]
    rules = make_ruleset(preset, overrides)
    game = compile_game(rules, ante=100, bonus=100)
    strategy = Exerciser() if strategy_name == "exerciser" else make_strategy(strategy_name)
    table = CoreTable(rules)
    seeds = [seed_of(f"{ruleset}/{strategy_name}", i) for i in range(ROUNDS)]
    decks = [deck_ints(seed) for seed in seeds]
    core = [table.play(seed, strategy, game) for seed in seeds]
    fast = [
        play_round(deck, strategy, game, CoreReinserter(seed))
        for deck, seed in zip(decks, seeds, strict=True)
    ]
    for i, (expected, got) in enumerate(zip(core, fast, strict=True)):
        assert got == expected, f"round {i}: {got} != core {expected}"
    if strategy.threshold is None:
        return
    batch = play_batch(np.array(decks, dtype=np.uint8)[:, :10].T, strategy.threshold, game)
    for field in batch._fields:
        expected_column = [getattr(result, field) for result in core]
        assert getattr(batch, field).tolist() == expected_column, field


def test_the_cases_cover_every_path() -> None:
    # The comparisons above only mean something if the rounds took every branch.
    rules = make_ruleset("russian")
    game = compile_game(rules)
    results = [
        play_round(
            deck_ints(seed_of("cover", i)), Exerciser(), game, CoreReinserter(seed_of("cover", i))
        )
        for i in range(ROUNDS)
    ]
    assert {r.outcome for r in results} >= {0, 1, 3, 4}
    assert {r.drew for r in results} >= {0, 1, 2, 3, 4, 5, 6}
    assert any(r.insurance for r in results)
    assert any(r.dealer_draw for r in results)
