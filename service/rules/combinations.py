"""The two-combination rule of docs/rules.md §3: what a winning Bet is paid for.

A Russian Poker hand that beats a qualifying dealer is paid for a combination of its best
kind plus, optionally, a second combination, no higher, that uses at least one card the
first does not. Rather than encode the casino folklore case by case (pair + AK, two
straights in six cards, ...), every combination the cards contain is enumerated as a card
subset and every admissible (first, second) pair is priced; the dearest pair wins. With at
most six cards that is a few dozen subsets, so the brute force is both cheap and obviously
faithful to the rule's wording.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from itertools import combinations
from typing import Final, NamedTuple

import msgspec

from russian_poker.service.rules.cards import SUITS, Card, rank_of
from russian_poker.service.rules.hands import Category, evaluate

__all__ = ["Combination", "bet_multiplier", "paid_combinations"]


class Combination(msgspec.Struct, frozen=True, kw_only=True):
    """One paid combination and its defining cards (no kickers), as shown to the player."""

    category: Category
    cards: tuple[Card, ...]


_FIVE_CARD_CATEGORIES: Final = frozenset(
    {
        Category.STRAIGHT,
        Category.FLUSH,
        Category.FULL_HOUSE,
        Category.STRAIGHT_FLUSH,
        Category.ROYAL_FLUSH,
    }
)
"""Categories whose defining cards are all five (docs/rules.md §3)."""

_STRAIGHT_TYPES: Final = frozenset(
    {Category.STRAIGHT, Category.STRAIGHT_FLUSH, Category.ROYAL_FLUSH}
)
_ACE: Final = 14
_KING: Final = 13
_RANK_BITS: Final = 4


class _Candidate(NamedTuple):
    """A combination found in the cards, with what the pairing search needs to know."""

    combination: Combination
    strength: int
    """Orders candidates of one category (higher is better); meaningless across sizes."""
    defining: frozenset[Card]


def _small_candidate(category: Category, cards: tuple[Card, ...]) -> _Candidate:
    """A 2-4 card combination; its strength packs the category and its ranks, high first."""
    strength = int(category)
    for card in cards:
        strength = (strength << _RANK_BITS) | rank_of(card)
    strength <<= _RANK_BITS * (5 - len(cards))
    return _Candidate(Combination(category=category, cards=cards), strength, frozenset(cards))


def _by_rank(cards: tuple[Card, ...]) -> dict[int, tuple[Card, ...]]:
    """The cards grouped by rank, keeping their order (so highest rank first)."""
    groups: dict[int, tuple[Card, ...]] = {}
    for card in cards:
        groups[rank_of(card)] = (*groups.get(rank_of(card), ()), card)
    return groups


def _of_a_kind(groups: Mapping[int, tuple[Card, ...]]) -> Iterator[_Candidate]:
    """Pairs, trips and quads: 2, 3 or 4 cards of one rank."""
    kinds = {2: Category.PAIR, 3: Category.THREE_OF_A_KIND, 4: Category.FOUR_OF_A_KIND}
    for group in groups.values():
        for size, category in kinds.items():
            for subset in combinations(group, size):
                yield _small_candidate(category, subset)


def _two_pairs(groups: Mapping[int, tuple[Card, ...]]) -> Iterator[_Candidate]:
    """Every pair of one rank with every pair of a lower rank."""
    paired = [group for group in groups.values() if len(group) >= 2]
    for high, low in combinations(paired, 2):
        for high_pair in combinations(high, 2):
            for low_pair in combinations(low, 2):
                yield _small_candidate(Category.TWO_PAIR, high_pair + low_pair)


def _aces_kings(groups: Mapping[int, tuple[Card, ...]]) -> Iterator[_Candidate]:
    """Every ace with every king: AK as a combination in its own right (docs/rules.md §3)."""
    for ace in groups.get(_ACE, ()):
        for king in groups.get(_KING, ()):
            yield _small_candidate(Category.AK, (ace, king))


def _five_card(cards: tuple[Card, ...]) -> Iterator[_Candidate]:
    """Straights, flushes, full houses and straight/royal flushes: a five judged whole."""
    for five in combinations(cards, 5):
        hand = evaluate(five)
        if hand.category in _FIVE_CARD_CATEGORIES:
            combination = Combination(category=hand.category, cards=hand.cards)
            yield _Candidate(combination, hand.strength, frozenset(five))


def _candidates(cards: tuple[Card, ...]) -> Iterator[_Candidate]:
    """Every combination the (canonically ordered) cards contain, as card subsets."""
    groups = _by_rank(cards)
    yield from _of_a_kind(groups)
    yield from _two_pairs(groups)
    yield from _aces_kings(groups)
    yield from _five_card(cards)


def _same_straight(first: _Candidate, second: _Candidate) -> bool:
    """Whether two straight-type combinations run over the same ranks (e.g. a paired end)."""
    kinds = {first.combination.category, second.combination.category}
    if not kinds <= _STRAIGHT_TYPES:
        return False
    ranks = sorted(rank_of(card) for card in first.combination.cards)
    return ranks == sorted(rank_of(card) for card in second.combination.cards)


def _admissible(first: _Candidate, second: _Candidate, *, straight_pair_ok: bool) -> bool:
    """docs/rules.md §3: no higher than the first, and at least one defining card of its own."""
    if second.combination.category > first.combination.category:
        return False
    if second.defining <= first.defining:
        return False
    return straight_pair_ok or not _same_straight(first, second)


def _pay(candidate: _Candidate | None, paytable: Mapping[Category, int]) -> int:
    """What one combination pays; a category the paytable does not list pays nothing."""
    return 0 if candidate is None else paytable.get(candidate.combination.category, 0)


def _pairings(
    firsts: Sequence[_Candidate], all_found: Sequence[_Candidate], *, straight_pair_ok: bool
) -> Iterable[tuple[_Candidate, _Candidate | None]]:
    """Each first alone (the fallback) and with every admissible second."""
    for first in firsts:
        yield first, None
        for second in all_found:
            if _admissible(first, second, straight_pair_ok=straight_pair_ok):
                yield first, second


def _canonical(cards: Sequence[Card]) -> tuple[Card, ...]:
    """Cards rank descending, then in ``shdc`` order, so ties resolve the same every time."""
    return tuple(sorted(cards, key=lambda card: (-rank_of(card), SUITS.index(card[1]))))


def paid_combinations(
    cards: Sequence[Card],
    *,
    paytable: Mapping[Category, int],
    double_combination: bool = True,
    straight_pair_counts_as_two_straights: bool = True,
) -> tuple[Combination, ...]:
    """The combinations a winning Bet on these 5 or 6 cards is paid for, best first.

    The first is of the hand's best category; with ``double_combination`` a second one
    may follow (docs/rules.md §3). Of all admissible pairs the one paying most is chosen; ties go
    to the higher second category, then the stronger first, then the stronger second, so
    the answer is deterministic. A no-game hand is paid for nothing: ``()``.
    """
    best_category = evaluate(cards).category
    if best_category == Category.NO_GAME:
        return ()
    found = list(_candidates(_canonical(cards)))
    firsts = [c for c in found if c.combination.category == best_category]
    if not double_combination:
        return (max(firsts, key=lambda c: c.strength).combination,)
    pairings = _pairings(firsts, found, straight_pair_ok=straight_pair_counts_as_two_straights)

    def preference(pairing: tuple[_Candidate, _Candidate | None]) -> tuple[int, ...]:
        first, second = pairing
        total = _pay(first, paytable) + _pay(second, paytable)
        if second is None:
            return (total, -1, first.strength, -1)
        return (total, second.combination.category, first.strength, second.strength)

    first, second = max(pairings, key=preference)
    if second is None:
        return (first.combination,)
    return (first.combination, second.combination)


def bet_multiplier(combos: Iterable[Combination], paytable: Mapping[Category, int]) -> int:
    """The Bet's total payout multiple ("N to 1"): the sum over the paid combinations."""
    return sum(paytable.get(combo.category, 0) for combo in combos)
