"""What a simulated player can do, and the interface every strategy implements.

A strategy sees what a real player at the table sees: its own cards, the dealer's upcard
and, when the dealer has no game and offers a draw, the dealer's revealed hand. Cards are
card ints (``lookup``); ``value`` is the core's strength of the current hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple, Protocol

from russian_poker.service.tools.simulation.game import Game

__all__ = ["EXCHANGE", "FOLD", "PLAY", "SIXTH", "Action", "Strategy", "exchange", "play"]

FOLD: Final = 0
PLAY: Final = 1
EXCHANGE: Final = 2
SIXTH: Final = 3


class Action(NamedTuple):
    """One decision: fold, play (with an insurance amount, 0 for none), exchange the
    ``discards`` (card ints, in the order they go back into the deck) or buy a sixth card."""

    kind: int
    insurance: int = 0
    discards: tuple[int, ...] = ()


def play(insurance: int = 0) -> Action:
    return Action(PLAY, insurance)


def exchange(discards: Sequence[int]) -> Action:
    return Action(EXCHANGE, 0, tuple(discards))


class Strategy(Protocol):
    """How a box plays. ``decide`` may return any action the ruleset allows; after a draw,
    ``after_draw`` may only fold or play."""

    name: str

    @property
    def threshold(self) -> int | None:
        """For a strategy that only plays or folds (no draw, no insurance, never a dealer
        draw): the lowest strength it plays. The vectorised engine runs exactly those."""

    def decide(self, cards: Sequence[int], value: int, upcard: int, game: Game) -> Action: ...

    def after_draw(self, cards: Sequence[int], value: int, upcard: int, game: Game) -> Action: ...

    def dealer_draw(
        self, cards: Sequence[int], value: int, dealer: Sequence[int], game: Game
    ) -> bool:
        """Whether to ask for the dealer draw instead of taking the ante win."""
