"""The simple strategies, and the registry of every strategy by name.

``raise-all``, ``ak-or-better`` and ``pair-or-better`` play (place the Bet) with a hand of
at least that strength and fold otherwise; they never draw, never insure and always take
the ante win when the dealer has no game. ``basic`` (``service.tools.simulation.basic``) uses
everything a ruleset offers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from russian_poker.service.rules.hands import Category
from russian_poker.service.tools.simulation import lookup
from russian_poker.service.tools.simulation.actions import FOLD, Action, Strategy, play
from russian_poker.service.tools.simulation.game import Game

__all__ = ["STRATEGIES", "Threshold", "make_strategy"]

_FOLD: Final = Action(FOLD)
_PLAY: Final = play()


class Threshold:
    """Play with ``category`` or better, else fold; nothing else."""

    def __init__(self, name: str, category: Category) -> None:
        self.name = name
        self._threshold = int(category) << lookup.CATEGORY_SHIFT

    @property
    def threshold(self) -> int | None:
        return self._threshold

    def decide(self, cards: Sequence[int], value: int, upcard: int, game: Game) -> Action:
        return _PLAY if value >= self._threshold else _FOLD

    def after_draw(self, cards: Sequence[int], value: int, upcard: int, game: Game) -> Action:
        return self.decide(cards, value, upcard, game)

    def dealer_draw(
        self, cards: Sequence[int], value: int, dealer: Sequence[int], game: Game
    ) -> bool:
        return False


def _basic(name: str) -> Strategy:
    from russian_poker.service.tools.simulation.basic import BasicStrategy

    return BasicStrategy(name)


STRATEGIES: Final[dict[str, Callable[[str], Strategy]]] = {
    "raise-all": lambda name: Threshold(name, Category.NO_GAME),
    "ak-or-better": lambda name: Threshold(name, Category.AK),
    "pair-or-better": lambda name: Threshold(name, Category.PAIR),
    "basic": _basic,
}


def make_strategy(name: str) -> Strategy:
    """The strategy called ``name`` (one of :data:`STRATEGIES`)."""
    factory = STRATEGIES.get(name)
    if factory is None:
        raise ValueError(f"unknown strategy {name!r}; choose one of {', '.join(STRATEGIES)}")
    return factory(name)
