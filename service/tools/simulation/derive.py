"""How the ``basic`` strategy was derived: simulated EV comparisons on identical decks.

Each round is dealt once and then played once per candidate decision (the same deck and
the same reinsertion draws each time, "common random numbers"), every later decision
left to the basic strategy. Rounds are grouped by a class of the situation; per class the
report gives each candidate's mean result in antes with its standard error, and the
difference to the first candidate, which is far more precise than the means because the
rounds are shared. Run by hand::

    python -m russian_poker.service.tools.simulation.derive \
        first|after|dealer-draw PRESET [ROUNDS] [SEED]

* ``first``: the decision on the first five cards (fold, play, insure, exchange, sixth);
* ``after``: play or fold after a draw, by the hand drawn;
* ``dealer-draw``: ask for the dealer draw or take the ante win, by the box's hand.
"""

from __future__ import annotations

import math
import sys
from collections import defaultdict
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Final

import numpy as np

from russian_poker.service.rules.hands import Category
from russian_poker.service.rules.presets import make_ruleset
from russian_poker.service.tools.simulation import lookup
from russian_poker.service.tools.simulation.actions import (
    FOLD,
    SIXTH,
    Action,
    Strategy,
    exchange,
    play,
)
from russian_poker.service.tools.simulation.basic import BasicStrategy
from russian_poker.service.tools.simulation.engine import UniformReinserter, play_round
from russian_poker.service.tools.simulation.features import (
    ACE,
    KING,
    flush_draw,
    groups,
    rank,
    straight_draw,
)
from russian_poker.service.tools.simulation.game import Game, compile_game
from russian_poker.service.tools.simulation.runner import default_workers

__all__ = ["Candidates", "main", "run"]

Candidates = Callable[[Sequence[int], int, int, Game], tuple[str, dict[str, Action]] | None]
"""A situation's class and the decisions to compare in it (None: not studied)."""
Sums = dict[str, dict[str, float]]
"""Per class: ``n``, ``s:<candidate>`` sums and ``p:<a>|<b>`` sums of products."""

_CHUNK: Final = 2_000
_NAMES: Final = {c: c.label for c in Category}


def _keep(cards: Sequence[int], kept: Sequence[int]) -> Action:
    return exchange([c for c in cards if c not in kept])


def first_candidates(
    cards: Sequence[int], value: int, upcard: int, game: Game
) -> tuple[str, dict[str, Action]] | None:
    """Classes of first five cards, and the decisions worth comparing in each."""
    rules = game.rules
    category = Category(value >> lookup.CATEGORY_SHIFT)
    options: dict[str, Action] = {"fold": Action(FOLD), "play": play()}
    if rules.buy_sixth_card:
        options["sixth"] = Action(SIXTH)
    held = groups(cards)
    top_rank = held[0][1]
    k = rules.max_exchange_cards
    label: str
    if category >= Category.STRAIGHT:
        label = category.label
    elif category == Category.THREE_OF_A_KIND:
        label = "trips"
        if k >= 2:
            options["keep trips"] = _keep(cards, [c for c in cards if rank(c) == top_rank])
    elif category == Category.TWO_PAIR:
        label = "two pair"
        if k >= 1:
            options["keep two pair"] = _keep(cards, [c for c in cards if rank(c) != held[2][1]])
    elif category == Category.PAIR:
        label = f"pair {'23456789TJQKA'[top_rank]}"
        pair = [c for c in cards if rank(c) == top_rank]
        if k >= 3:
            options["keep pair"] = _keep(cards, pair)
        kicker = max((c for c in cards if c not in pair), key=rank)
        options["keep pair+kicker"] = _keep(cards, [*pair, kicker])
        options["draw lowest"] = exchange([min((c for c in cards if c not in pair), key=rank)])
    else:
        draw = flush_draw(cards) or straight_draw(cards)
        ranks = {rank(c) for c in cards}
        ak = ACE in ranks and KING in ranks
        if draw is not None:
            kind = "flush" if draw.outs == 9 else ("open straight" if draw.outs == 8 else "gutshot")
            label = f"{kind} draw{' +AK' if ak else ''}"
            if k >= 1:
                options["draw 1"] = exchange([draw.discard])
        elif ak:
            label = "AK"
        else:
            high = max(ranks)
            label = "high " + "23456789TJQKA"[high]
        if ak and category == Category.AK:
            options["draw lowest"] = exchange([min(cards, key=rank)])
        if ak and k >= 3:
            options["keep AK"] = _keep(
                cards, [next(c for c in cards if rank(c) == r) for r in (ACE, KING)]
            )
        if k >= 5 and not ak:
            options["draw 5"] = exchange(list(cards))
        if ak and category == Category.AK:
            label += " (upcard A/K)" if rank(upcard) >= KING else ""
    options = {
        name: action
        for name, action in options.items()
        if len(action.discards) <= k and (action.kind != SIXTH or rules.buy_sixth_card)
    }
    allowed = game.insurance_range(cards, value)
    if allowed is not None:
        options["insure max"] = play(allowed[1])
        options["insure ante"] = play(allowed[0])
        label += " (upcard A/K)" if rank(upcard) >= KING else " (upcard low)"
    return label, options


class _Forced:
    """The basic strategy with one decision taken from outside."""

    def __init__(
        self,
        base: BasicStrategy,
        first: Action | None = None,
        after: Action | None = None,
        ask: bool | None = None,
    ) -> None:
        self.name = "forced"
        self._base, self._first, self._after, self._ask = base, first, after, ask
        self.offered: tuple[int, int] | None = None
        """(category, Bet multiple) of the hand when the dealer draw was offered."""

    @property
    def threshold(self) -> int | None:
        return None

    def decide(self, cards: Sequence[int], value: int, upcard: int, game: Game) -> Action:
        if self._first is not None:
            return self._first
        return self._base.decide(cards, value, upcard, game)

    def after_draw(self, cards: Sequence[int], value: int, upcard: int, game: Game) -> Action:
        if self._after is not None:
            return self._after
        return self._base.after_draw(cards, value, upcard, game)

    def dealer_draw(
        self, cards: Sequence[int], value: int, dealer: Sequence[int], game: Game
    ) -> bool:
        self.offered = (value >> lookup.CATEGORY_SHIFT, game.multiplier(cards))
        if self._ask is not None:
            return self._ask
        return self._base.dealer_draw(cards, value, dealer, game)


def _add(sums: Sums, label: str, results: dict[str, int], ante: int) -> None:
    """Count the round, and sum each candidate's result and every pairwise product (so any
    two candidates' paired difference has a standard error)."""
    row = sums[label]
    row["n"] = row.get("n", 0.0) + 1
    values = {name: net / ante for name, net in results.items()}
    for a, x in values.items():
        row[f"s:{a}"] = row.get(f"s:{a}", 0.0) + x
        for b, y in values.items():
            row[f"p:{a}|{b}"] = row.get(f"p:{a}|{b}", 0.0) + x * y


def _chunk(mode: str, preset: str, seed: int, index: int) -> Sums:
    game = compile_game(make_ruleset(preset))
    basic = BasicStrategy()
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(index,)))
    decks = rng.permuted(np.tile(np.arange(52, dtype=np.int8), (_CHUNK, 1)), axis=1).tolist()
    uniforms = rng.random((_CHUNK, 5)).tolist()
    sums: Sums = defaultdict(dict)
    for deck, u in zip(decks, uniforms, strict=True):
        cards = [deck[0], deck[2], deck[4], deck[6], deck[8]]
        value = lookup.strength5(*cards)
        strategies: dict[str, Strategy]
        if mode == "first":
            found = first_candidates(cards, value, deck[9], game)
            if found is None:
                continue
            label, options = found
            strategies = {name: _Forced(basic, first=a) for name, a in options.items()}
        else:
            # Declining keeps the dealer's hand as revealed in the probe's result.
            decline = _Forced(basic, ask=False)
            probe = play_round(deck, decline, game, UniformReinserter(u))
            if mode == "after" and probe.drew:
                label = f"after draw: {_NAMES[Category(probe.category)]}"
                strategies = {
                    "fold": _Forced(basic, after=Action(FOLD)),
                    "play": _Forced(basic, after=play()),
                }
            elif mode == "dealer-draw" and decline.offered is not None:
                category, multiple = decline.offered
                label = f"dealer draw: {_NAMES[Category(category)]} pays {multiple}"
                strategies = {"decline": _Forced(basic, ask=False), "ask": _Forced(basic, ask=True)}
            else:
                continue
        results = {
            name: play_round(deck, s, game, UniformReinserter(u)).net
            for name, s in strategies.items()
        }
        _add(sums, label, results, game.ante)
    return dict(sums)


def run(mode: str, preset: str, rounds: int, seed: int) -> Sums:
    """The comparison sums over ``rounds`` rounds, on every core."""
    chunks = range(math.ceil(rounds / _CHUNK))
    total: Sums = defaultdict(dict)
    with ProcessPoolExecutor(default_workers()) as pool:
        futures = [pool.submit(_chunk, mode, preset, seed, i) for i in chunks]
        for future in futures:
            for label, row in future.result().items():
                for key, value in row.items():
                    total[label][key] = total[label].get(key, 0.0) + value
    return dict(total)


def _report(sums: Sums, rounds: int) -> list[str]:
    """Per class (most frequent first): its share of rounds, each candidate's mean result in
    antes, and the best minus the runner-up with its 95% interval (paired, same rounds)."""
    lines = []
    for label in sorted(sums, key=lambda k: -sums[k]["n"]):
        row = sums[label]
        n = row["n"]
        names = [key[2:] for key in row if key.startswith("s:")]
        means = {name: row[f"s:{name}"] / n for name in names}
        ranked = sorted(names, key=means.__getitem__, reverse=True)
        cells = "  ".join(f"{name} {means[name]:+.3f}" for name in names)
        best, second = ranked[0], ranked[1]
        diff = means[best] - means[second]
        square = (
            row[f"p:{best}|{best}"] - 2 * row[f"p:{best}|{second}"] + row[f"p:{second}|{second}"]
        ) / n
        error = 1.96 * math.sqrt(max(square - diff * diff, 0.0) / n)
        lines.append(
            f"{label:<30} {n / rounds:7.3%}  best: {best} by {diff:+.3f}±{error:.3f} "
            f"over {second}  |  {cells}"
        )
    return lines


def main(argv: list[str] | None = None) -> None:
    args = argv if argv is not None else sys.argv[1:]
    mode, preset = args[0], args[1]
    rounds = int(float(args[2])) if len(args) > 2 else 200_000
    seed = int(args[3]) if len(args) > 3 else 1
    for line in _report(run(mode, preset, rounds, seed), rounds):
        print(line)


if __name__ == "__main__":
    main()
