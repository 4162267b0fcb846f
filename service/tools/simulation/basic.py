"""The ``basic`` strategy: a short rule list per game that uses every option a ruleset
offers. Each rule was chosen by simulated EV comparisons on identical decks
(``service.tools.simulation.derive``); the tables and the commands are in docs/game-math.md.

Russian Poker (``game: russian``), first five cards:

1. straight, flush, full house... : buy a sixth card (a second combination is likely),
   except a full house or better, which just plays;
2. three of a kind: exchange the two other cards;
3. two pair, and a pair of sixes or better: play;
4. a pair of deuces to fives: exchange the three other cards;
5. four to a flush, four to an open straight, or an inside straight draw holding A and K:
   buy a sixth card;
6. A and K with no pair or draw: exchange the three other cards;
7. anything else: fold.

Oasis Poker (``game: oasis``; Caribbean Stud plus one exchange):

1. a pair or better: play;
2. four to a flush or to an open straight, or an inside straight draw holding A and K:
   exchange the odd card;
3. A and K: play when Caribbean Stud's rules of thumb say so, else fold;
4. anything else: fold.

Both: after a draw, play a pair or better (Oasis: and AK by the rules of thumb), else fold; never
insure (insurance pays even money on the dealer having no game, which is less likely than
not in every situation measured); ask for the dealer draw when the hand pays 4 to 1 or
more, else take the ante win. A rule whose option the ruleset lacks falls back to the next
best: a sixth card to exchanging the odd card, an exchange of more cards than allowed to
playing (pairs, trips) or the rules of thumb (AK).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from russian_poker.service.rules.hands import Category
from russian_poker.service.tools.simulation import lookup
from russian_poker.service.tools.simulation.actions import FOLD, SIXTH, Action, exchange, play
from russian_poker.service.tools.simulation.features import (
    ACE,
    JACK,
    KING,
    QUEEN,
    Draw,
    flush_draw,
    groups,
    high_ranks,
    rank,
    straight_draw,
)
from russian_poker.service.tools.simulation.game import Game

__all__ = ["BasicStrategy", "ak_worth_playing"]

_FOLD: Final = Action(FOLD)
_PLAY: Final = play()
_SIXTH: Final = Action(SIXTH)
_LOW_PAIR: Final = 3
"""Rank index of the highest pair (a five) that Russian Poker exchanges around."""
_DEALER_DRAW_PAYS: Final = 4
"""Ask for the dealer draw with a hand paying this much (N to 1) or more."""


def ak_worth_playing(cards: Sequence[int], upcard: int) -> bool:
    """Caribbean Stud's three rules of thumb for AK (Wizard of Odds): play when the upcard
    is a 2..Q matching one of the cards; or the upcard is an A or K and a Q or J is held;
    or a Q is held and the upcard, matching nothing, ranks below the fourth-highest card."""
    up = rank(upcard)
    ranks = high_ranks(cards)
    if up < KING and up in ranks:
        return True
    if up >= KING:
        return QUEEN in ranks or JACK in ranks
    return QUEEN in ranks and up < ranks[3]


def _keep(cards: Sequence[int], kept: Sequence[int]) -> Action:
    return exchange([c for c in cards if c not in kept])


def _draw(draw: Draw, game: Game) -> Action | None:
    """Draw to four to a flush or straight: a sixth card if sold, else exchange the odd one."""
    if game.rules.buy_sixth_card:
        return _SIXTH
    if game.rules.max_exchange_cards >= 1:
        return exchange([draw.discard])
    return None


def _worth_drawing(cards: Sequence[int], ak: bool) -> Draw | None:
    draw = flush_draw(cards) or straight_draw(cards)
    if draw is not None and (draw.outs >= 8 or ak):
        return draw
    return None


class BasicStrategy:
    """The rules above; see the module docstring."""

    def __init__(self, name: str = "basic") -> None:
        self.name = name

    @property
    def threshold(self) -> int | None:
        return None

    def decide(self, cards: Sequence[int], value: int, upcard: int, game: Game) -> Action:
        category = value >> lookup.CATEGORY_SHIFT
        if game.rules.game == "oasis":
            return self._oasis(cards, category, upcard, game)
        return self._russian(cards, category, upcard, game)

    def _russian(self, cards: Sequence[int], category: int, upcard: int, game: Game) -> Action:
        rules = game.rules
        exchangeable = rules.max_exchange_cards
        if category >= Category.FULL_HOUSE:
            return _PLAY
        if category >= Category.STRAIGHT:
            return _SIXTH if rules.buy_sixth_card else _PLAY
        held = groups(cards)
        if category == Category.THREE_OF_A_KIND:
            trips = [c for c in cards if rank(c) == held[0][1]]
            return _keep(cards, trips) if exchangeable >= 2 else _PLAY
        if category == Category.TWO_PAIR:
            return _PLAY
        if category == Category.PAIR:
            pair_rank = held[0][1]
            if pair_rank <= _LOW_PAIR and exchangeable >= 3:
                return _keep(cards, [c for c in cards if rank(c) == pair_rank])
            return _PLAY
        ak = category == Category.AK
        draw = _worth_drawing(cards, ak)
        if draw is not None:
            action = _draw(draw, game)
            if action is not None:
                return action
        if ak:
            if exchangeable >= 3:
                ace = next(c for c in cards if rank(c) == ACE)
                king = next(c for c in cards if rank(c) == KING)
                return _keep(cards, [ace, king])
            return _PLAY if ak_worth_playing(cards, upcard) else _FOLD
        return _FOLD

    def _oasis(self, cards: Sequence[int], category: int, upcard: int, game: Game) -> Action:
        if category >= Category.PAIR:
            return _PLAY
        ak = category == Category.AK
        draw = _worth_drawing(cards, ak)
        if draw is not None and game.rules.max_exchange_cards >= 1:
            return exchange([draw.discard])
        if ak and ak_worth_playing(cards, upcard):
            return _PLAY
        return _FOLD

    def after_draw(self, cards: Sequence[int], value: int, upcard: int, game: Game) -> Action:
        category = value >> lookup.CATEGORY_SHIFT
        if category >= Category.PAIR:
            return _PLAY
        oasis = game.rules.game == "oasis"
        if (
            oasis
            and category == Category.AK
            and len(cards) == 5
            and ak_worth_playing(cards, upcard)
        ):
            return _PLAY
        return _FOLD

    def dealer_draw(
        self, cards: Sequence[int], value: int, dealer: Sequence[int], game: Game
    ) -> bool:
        return game.multiplier(cards) >= _DEALER_DRAW_PAYS
