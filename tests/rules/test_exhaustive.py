"""Exhaustive checks of the evaluator against known poker counts.

Every one of the C(52, 5) = 2,598,960 five-card hands is evaluated by the real
``evaluate``; nothing is hard-coded except the textbook distribution below.

Expected counts, with the no-pair hands split per docs/rules.md §2:

* A no-pair hand has five distinct ranks that are not a straight and suits that are not a
  flush: (C(13, 5) - 10) rank sets x (4^5 - 4) suit patterns = 1,277 x 1,020 = 1,302,540.
* AK among them: rank sets holding an ace and a king, i.e. A, K plus 3 of the other 11
  ranks, C(11, 3) = 165, minus the one straight A-K-Q-J-T (A-5 has no king) = 164 sets,
  x 1,020 suit patterns = 167,280.
* no game: 1,302,540 - 167,280 = 1,135,260.
* The dealer qualifies (AK or better) in 2,598,960 - 1,135,260 = 1,463,700 hands.

The strength is checked too: poker has exactly 7,462 distinct five-card hand values, and
splitting high-card hands into AK / no game or the royal flush off the straight flushes
creates no new values, so ``strength`` must take exactly 7,462 distinct values.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations, combinations_with_replacement

import pytest

from russian_poker.service.rules.cards import FULL_DECK, RANKS, SUITS
from russian_poker.service.rules.hands import Category, evaluate, qualifies

TOTAL_HANDS = 2_598_960
EXPECTED = {
    Category.ROYAL_FLUSH: 4,
    Category.STRAIGHT_FLUSH: 36,
    Category.FOUR_OF_A_KIND: 624,
    Category.FULL_HOUSE: 3_744,
    Category.FLUSH: 5_108,
    Category.STRAIGHT: 10_200,
    Category.THREE_OF_A_KIND: 54_912,
    Category.TWO_PAIR: 123_552,
    Category.PAIR: 1_098_240,
    Category.AK: 164 * 1_020,
    Category.NO_GAME: (1_277 - 164) * 1_020,
}
DEALER_QUALIFIES = 1_463_700
DISTINCT_HAND_VALUES = 7_462


@pytest.mark.slow
def test_every_five_card_hand() -> None:
    categories: Counter[Category] = Counter()
    strengths: set[int] = set()
    qualified = 0
    for cards in combinations(FULL_DECK, 5):
        hand = evaluate(cards)
        categories[hand.category] += 1
        strengths.add(hand.strength)
        qualified += qualifies(hand)
    assert sum(EXPECTED.values()) == TOTAL_HANDS
    assert dict(categories) == EXPECTED
    assert qualified == DEALER_QUALIFIES == TOTAL_HANDS - EXPECTED[Category.NO_GAME]
    assert len(strengths) == DISTINCT_HAND_VALUES


def _best_of_fives(six: list[str]) -> int:
    return max(evaluate(five).strength for five in combinations(six, 5))


def _unsuited_six(ranks: tuple[str, ...]) -> list[str]:
    """Six cards of these ranks, suits rotated per distinct rank so no suit holds five."""
    distinct = sorted(set(ranks))
    cards = []
    for i, rank in enumerate(distinct):
        for copy in range(ranks.count(rank)):
            cards.append(rank + SUITS[(i + copy) % len(SUITS)])
    return cards


def test_every_six_card_rank_multiset_without_a_flush() -> None:
    # Six-card hands that cannot hold a flush use a precomputed best-five-by-ranks table;
    # check that path for every rank multiset (18,395) against the best of the six fives.
    checked = 0
    for ranks in combinations_with_replacement(RANKS, 6):
        if max(Counter(ranks).values()) > 4:
            continue
        six = _unsuited_six(ranks)
        assert max(Counter(c[1] for c in six).values()) < 5
        result = evaluate(six)
        assert result.strength == _best_of_fives(six), six
        assert evaluate(result.cards).strength == result.strength
        checked += 1
    assert checked == 18_395


def test_every_six_card_hand_with_five_spades_or_more() -> None:
    # Every five spades plus any sixth card: the flush-candidate search path.
    spades = [c for c in FULL_DECK if c[1] == "s"]
    checked = 0
    for five in combinations(spades, 5):
        for sixth in FULL_DECK:
            if sixth in five:
                continue
            six = [*five, sixth]
            result = evaluate(six)
            assert result.strength == _best_of_fives(six), six
            assert evaluate(result.cards).strength == result.strength
            checked += 1
    assert checked == 1_287 * 47
