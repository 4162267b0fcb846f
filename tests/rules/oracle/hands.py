"""Cards, hands and combinations, from the text of docs/rules.md §1-§3 (independent of the engine).

A hand is compared by ``Hand`` (category, then the card-by-card key of §2); a set of cards
holds ``Combination``s (a category and its *defining cards*, §3), and ``bet_multiple`` is
what the Bet pays per unit when the hand beats a qualifying dealer.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Final

__all__ = [
    "CATEGORIES",
    "DECK",
    "Combination",
    "Hand",
    "bet_multiple",
    "best_hand",
    "combinations_in",
    "five_card_hand",
    "level",
    "paid_combinations",
    "qualifies",
    "rank",
    "suit",
    "valid_pair",
]

RANKS: Final = "23456789TJQKA"
SUITS: Final = "shdc"
DECK: Final[tuple[str, ...]] = tuple(r + s for r in RANKS for s in SUITS)

# §2, low to high.
CATEGORIES: Final = (
    "no_game",
    "ak",
    "pair",
    "two_pair",
    "three_of_a_kind",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
    "royal_flush",
)
_FIVE_CARD_KINDS: Final = frozenset(
    {"straight", "flush", "full_house", "straight_flush", "royal_flush"}
)
_STRAIGHT_KINDS: Final = frozenset({"straight", "straight_flush", "royal_flush"})
ACE, KING = 14, 13


def rank(card: str) -> int:
    """2..14: the ace is high (§1)."""
    return RANKS.index(card[0]) + 2


def suit(card: str) -> str:
    return card[1]


def level(category: str) -> int:
    return CATEGORIES.index(category)


@dataclass(frozen=True, order=True)
class Hand:
    """Ordered as §2 orders hands: the category first, then ``key`` card by card."""

    level: int
    key: tuple[int, ...]

    @property
    def category(self) -> str:
        return CATEGORIES[self.level]


def _straight_top(ranks: Sequence[int]) -> int | None:
    """The straight's highest card, A-2-3-4-5 counting 5 high; no wrap (§1)."""
    distinct = sorted(set(ranks))
    if len(distinct) != 5:
        return None
    if distinct[-1] - distinct[0] == 4:
        return distinct[-1]
    if distinct == [2, 3, 4, 5, ACE]:
        return 5
    return None


def five_card_hand(cards: Sequence[str]) -> Hand:
    """The combination of exactly five cards and its comparison key (§2)."""
    assert len(cards) == 5 and len(set(cards)) == 5, cards
    ranks = sorted((rank(c) for c in cards), reverse=True)
    # Ranks grouped by how often they occur, most frequent first, then the higher rank:
    # exactly the "pair rank, then kickers" order of §2.
    groups = sorted(Counter(ranks).items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    shape = [count for _, count in groups]
    grouped = tuple(r for r, _ in groups)
    flush = len({suit(c) for c in cards}) == 1
    top = _straight_top(ranks)
    if top is not None and flush:
        return Hand(level("royal_flush" if top == ACE else "straight_flush"), (top,))
    if shape == [4, 1]:
        return Hand(level("four_of_a_kind"), grouped)
    if shape == [3, 2]:
        return Hand(level("full_house"), grouped)
    if flush:
        return Hand(level("flush"), tuple(ranks))
    if top is not None:
        return Hand(level("straight"), (top,))
    if shape == [3, 1, 1]:
        return Hand(level("three_of_a_kind"), grouped)
    if shape == [2, 2, 1]:
        return Hand(level("two_pair"), grouped)
    if shape == [2, 1, 1, 1]:
        return Hand(level("pair"), grouped)
    if ACE in ranks and KING in ranks:
        return Hand(level("ak"), tuple(ranks))
    return Hand(level("no_game"), tuple(ranks))


def best_hand(cards: Sequence[str]) -> Hand:
    """With six cards the hand is the best five of the six (§2)."""
    return max(five_card_hand(five) for five in combinations(cards, 5))


def qualifies(dealer: Sequence[str]) -> bool:
    """The dealer has a game with AK or better (§2)."""
    return best_hand(dealer).level >= level("ak")


@dataclass(frozen=True)
class Combination:
    """A combination a hand holds: its category and its defining cards (§3)."""

    category: str
    cards: frozenset[str]

    def __str__(self) -> str:
        return f"{self.category}({' '.join(sorted(self.cards))})"


def combinations_in(cards: Sequence[str]) -> list[Combination]:
    """Every combination the cards hold, each with its defining cards (§3): AK → the ace and
    the king; pair, trips, quads → the cards of that rank; two pair → the four cards; the
    five-card kinds (straight, flush, full house, straight flush, royal) → all five."""
    found: list[Combination] = []
    by_rank: dict[int, list[str]] = {}
    for card in cards:
        by_rank.setdefault(rank(card), []).append(card)
    for kind, size in (("pair", 2), ("three_of_a_kind", 3), ("four_of_a_kind", 4)):
        for same in by_rank.values():
            found += [Combination(kind, frozenset(c)) for c in combinations(same, size)]
    pairs = [c for c in found if c.category == "pair"]
    for a, b in combinations(pairs, 2):
        if rank(next(iter(a.cards))) != rank(next(iter(b.cards))):
            found.append(Combination("two_pair", a.cards | b.cards))
    for ace in by_rank.get(ACE, []):
        found += [Combination("ak", frozenset({ace, king})) for king in by_rank.get(KING, [])]
    for five in combinations(cards, 5):
        kind = five_card_hand(five).category
        if kind in _FIVE_CARD_KINDS:
            found.append(Combination(kind, frozenset(five)))
    return found


def valid_pair(
    first: Combination, second: Combination, *, straight_pair_counts_as_two_straights: bool
) -> bool:
    """§3: the second is no higher than the first and its defining cards include at least
    one card not among the first one's. A six-card straight with a paired card
    (``Kh Qs Jd Tc 9h 9s``) holds two straights of the same ranks; unless
    ``straight_pair_counts_as_two_straights`` they count once (paid as straight + pair)."""
    if level(second.category) > level(first.category) or not second.cards - first.cards:
        return False
    same_ranks = sorted(map(rank, first.cards)) == sorted(map(rank, second.cards))
    both_straights = first.category in _STRAIGHT_KINDS and second.category in _STRAIGHT_KINDS
    return not (both_straights and same_ranks and not straight_pair_counts_as_two_straights)


def paid_combinations(
    cards: Sequence[str],
    paytable: Mapping[str, int],
    *,
    double_combination: bool,
    straight_pair_counts_as_two_straights: bool,
) -> tuple[Combination, ...]:
    """What the Bet is paid for when this hand beats a qualifying dealer (§3, §5.6): the
    hand's best combination, and with ``double_combination`` the valid pair (first of the
    hand's best kind) that pays most; a hand with no valid second one is paid for its best
    combination alone."""
    best = best_hand(cards)
    if best.category == "no_game":
        return ()
    held = combinations_in(cards)
    firsts = [c for c in held if c.category == best.category]
    assert firsts, (cards, best)
    chosen: tuple[Combination, ...] = (firsts[0],)
    if not double_combination:
        return chosen
    for first in firsts:
        for second in held:
            if valid_pair(
                first,
                second,
                straight_pair_counts_as_two_straights=straight_pair_counts_as_two_straights,
            ) and _pays((first, second), paytable) > _pays(chosen, paytable):
                chosen = (first, second)
    return chosen


def _pays(paid: Iterable[Combination], paytable: Mapping[str, int]) -> int:
    return sum(paytable[c.category] for c in paid)


def bet_multiple(
    cards: Sequence[str],
    paytable: Mapping[str, int],
    *,
    double_combination: bool,
    straight_pair_counts_as_two_straights: bool,
) -> int:
    """The Bet's "N to 1" for this hand: the sum over the paid combinations (§3, §6)."""
    paid = paid_combinations(
        cards,
        paytable,
        double_combination=double_combination,
        straight_pair_counts_as_two_straights=straight_pair_counts_as_two_straights,
    )
    return _pays(paid, paytable)
