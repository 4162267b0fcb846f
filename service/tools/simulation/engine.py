"""One round, one box against the dealer, by the production rules, without events.

This is the general fast path: any ruleset, any strategy (draws, the sixth card, insurance,
the dealer draw). It replays exactly what ``decide``/``evolve`` do to the deck and the
money — the deal order, discards going back into the deck before the replacements are
drawn, the dealer-draw redraws, ``max_payout`` — but on card ints and table look-ups
instead of events and immutable states, about two orders of magnitude faster.
``tests/simulation/test_equivalence.py`` plays the same decks through both, round by round.

Where the rules draw randomness after the deal (the places discards go back), the engine
asks a :class:`Reinserter`: the simulator's draws uniform positions, the equivalence test's
uses the core's own ``Deck.reinsert`` on the round's seed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple, Protocol

from russian_poker.service.tools.simulation import lookup
from russian_poker.service.tools.simulation.actions import (
    EXCHANGE,
    FOLD,
    PLAY,
    SIXTH,
    Action,
    Strategy,
)
from russian_poker.service.tools.simulation.game import Game

__all__ = [
    "OUTCOMES",
    "Reinserter",
    "RoundResult",
    "UniformReinserter",
    "play_round",
]

OUTCOMES: Final = ("folded", "won", "tied", "lost", "dealer_no_game")
_FOLDED, _WON, _TIED, _LOST, _NO_GAME = range(5)
_RANK: Final = [c % 13 for c in range(52)]


class Reinserter(Protocol):
    def reinsert(self, undealt: list[int], discards: Sequence[int]) -> None:
        """Put each discard back into ``undealt`` (top first) at a random place, in order."""


class UniformReinserter:
    """Uniform positions from a stream of uniform floats in [0, 1) (one per discard).

    ``int(u * n)`` is uniform on ``range(n)`` up to the 2**-53 granularity of ``u``.
    """

    def __init__(self, uniforms: Sequence[float]) -> None:
        self._uniforms = uniforms
        self._next = 0

    def reinsert(self, undealt: list[int], discards: Sequence[int]) -> None:
        for card in discards:
            u = self._uniforms[self._next]
            self._next += 1
            undealt.insert(int(u * (len(undealt) + 1)), card)


class RoundResult(NamedTuple):
    """One box's round; money in minor units."""

    net: int
    """Main wager: returned + won - staked (ante, Bet, insurance, draw fee)."""
    wagered: int
    """Everything staked on the main wager: ante + Bet + insurance + draw fee."""
    outcome: int
    """Index into :data:`OUTCOMES`."""
    category: int
    """The box's final hand category."""
    dealer_category: int
    """The dealer's final hand category."""
    drew: int
    """0: no draw, 1..5: cards exchanged, 6: sixth card bought."""
    insurance: int
    dealer_draw: bool
    bonus_net: int
    capped: int


def _replace_discards(cards: list[int], discards: Sequence[int], received: Sequence[int]) -> None:
    # As ``evolve`` does: the replacements fill the discarded slots in the hand's order.
    replacements = iter(received)
    for i, card in enumerate(cards):
        if card in discards:
            cards[i] = next(replacements)


def _dealer_draw(dealer: list[int], undealt: list[int], game: Game) -> int:
    """Replace the dealer's highest card, redrawing free while the new card has the same
    rank and the dealer still has no game (``dealer_redraw_limit``); the new strength."""
    limit = game.rules.dealer_redraw_limit
    replaced = max(dealer, key=_RANK.__getitem__)
    redraws = 0
    while True:
        card = undealt.pop(0)
        dealer[dealer.index(replaced)] = card
        value = lookup.strength(dealer)
        if _RANK[card] != _RANK[replaced] or value >= lookup.AK_MIN:
            return value
        if limit is not None and redraws >= limit:
            return value
        replaced, redraws = card, redraws + 1


def _checked(action: Action, game: Game, cards: Sequence[int], value: int) -> Action:
    """Refuse what the core would refuse, so a strategy bug cannot skew the figures."""
    rules = game.rules
    if action.kind == EXCHANGE:
        k = len(action.discards)
        if not 1 <= k <= rules.max_exchange_cards or not set(action.discards) <= set(cards):
            raise ValueError(f"exchange of {k} cards not allowed here: {action}")
    elif action.kind == SIXTH and not rules.buy_sixth_card:
        raise ValueError("this table sells no sixth card")
    elif action.insurance:
        allowed = game.insurance_range(cards, value)
        if allowed is None or not allowed[0] <= action.insurance <= allowed[1]:
            raise ValueError(f"insurance {action.insurance} not allowed here ({allowed})")
    return action


def play_round(
    deck: Sequence[int], strategy: Strategy, game: Game, reinserter: Reinserter
) -> RoundResult:
    """Play one round of one light box against the dealer on ``deck`` (top first)."""
    rules = game.rules
    ante = game.ante
    # The deal: one card at a time to the box, then the dealer; the dealer's fifth is up.
    cards = [deck[0], deck[2], deck[4], deck[6], deck[8]]
    dealer = [deck[1], deck[3], deck[5], deck[7], deck[9]]
    undealt = list(deck[10:])
    value = lookup.strength5(*cards)
    bonus_net = game.bonus_net(value)
    upcard = dealer[4]

    fee = drew = 0
    action = _checked(strategy.decide(cards, value, upcard, game), game, cards, value)
    if action.kind == EXCHANGE:
        discards = action.discards
        fee, drew = game.fees[len(discards) - 1], len(discards)
        if rules.discards_return_to_deck:
            reinserter.reinsert(undealt, discards)
        received = undealt[: len(discards)]
        del undealt[: len(discards)]
        _replace_discards(cards, discards, received)
    elif action.kind == SIXTH:
        fee, drew = game.sixth_fee, 6
        cards.append(undealt.pop(0))
    if drew:
        value = lookup.strength(cards)
        action = strategy.after_draw(cards, value, upcard, game)
        if action.kind not in (FOLD, PLAY):
            raise ValueError(f"after a draw a box may only play or fold, not {action}")
        action = _checked(action, game, cards, value)

    category = value >> lookup.CATEGORY_SHIFT
    dealer_value = lookup.strength5(*dealer)
    if action.kind == FOLD:
        # The dealer still reveals; a folded box loses its ante and any fee.
        staked = ante + fee
        return RoundResult(
            -staked,
            staked,
            _FOLDED,
            category,
            dealer_value >> lookup.CATEGORY_SHIFT,
            drew,
            0,
            False,
            bonus_net,
            0,
        )

    bet, insurance = 2 * ante, action.insurance
    staked = ante + bet + insurance + fee
    asked = False
    if dealer_value < lookup.AK_MIN and rules.dealer_draw:
        asked = strategy.dealer_draw(cards, value, dealer, game)
        if asked:
            dealer_value = _dealer_draw(dealer, undealt, game)

    # Settlement, as ``payouts.main_settlement``: an asking box paid its ante as the fee.
    stake_ante = 0 if asked else ante
    if dealer_value < lookup.AK_MIN:
        outcome, returned = _NO_GAME, stake_ante + bet + insurance
        won = stake_ante + insurance
    else:
        kept = insurance if asked and rules.insurance_returned_after_dealer_draw else 0
        if value > dealer_value:
            outcome, returned = _WON, stake_ante + bet + kept
            won = bet * game.multiplier(cards) + (stake_ante if rules.ante_pays_on_win else 0)
        elif value == dealer_value:
            outcome, returned, won = _TIED, stake_ante + bet + kept, 0
        else:
            outcome, returned, won = _LOST, kept, 0
    paid = game.cap(won)
    return RoundResult(
        returned + paid - staked,
        staked,
        outcome,
        category,
        dealer_value >> lookup.CATEGORY_SHIFT,
        drew,
        insurance,
        asked,
        bonus_net,
        won - paid,
    )
