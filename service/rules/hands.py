"""Poker hand evaluation for docs/rules.md §1-2: categories, the best five of five or six cards,
and a single integer strength that orders any two hands.

Why a lookup table: a hand's category and tie-break order depend only on the multiset of
its ranks plus one bit (all one suit or not). There are only 6,175 rank multisets of five
cards, so both answers are computed once at import time, and evaluating a hand is a few
dictionary look-ups. That keeps simulations (millions of hands) and the exhaustive test
cheap while the classification logic itself stays plain, readable code.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Sequence
from enum import IntEnum
from itertools import combinations_with_replacement
from operator import itemgetter
from typing import Final, NamedTuple, cast

import msgspec

from russian_poker.events.paytables import CategoryLabel
from russian_poker.service.rules.cards import FULL_DECK, RANKS, SUITS, Card

__all__ = ["Category", "Hand", "evaluate", "qualifies"]


class Category(IntEnum):
    """Hand categories, low to high (docs/rules.md §2); the integer value is the comparison
    order."""

    NO_GAME = 0
    AK = 1
    PAIR = 2
    TWO_PAIR = 3
    THREE_OF_A_KIND = 4
    STRAIGHT = 5
    FLUSH = 6
    FULL_HOUSE = 7
    FOUR_OF_A_KIND = 8
    STRAIGHT_FLUSH = 9
    ROYAL_FLUSH = 10

    @property
    def label(self) -> CategoryLabel:
        """The snake_case name used in paytables, rulesets, events and the API."""
        return cast(CategoryLabel, self.name.lower())

    @classmethod
    def from_label(cls, label: str) -> Category:
        """Parse a label as written in configuration, so a typo fails loudly and helpfully."""
        for category in cls:
            if category.label == label:
                return category
        allowed = ", ".join(c.label for c in cls)
        raise ValueError(f"unknown hand category {label!r}; allowed: {allowed}")


class Hand(msgspec.Struct, frozen=True, kw_only=True):
    """An evaluated hand: what it is, which five cards make it, and how strong it is.

    ``strength`` alone decides showdowns (higher wins, equal pushes), so callers never
    re-implement kicker rules; it packs the category and five comparison ranks (4 bits
    each) into one int, and only its order is meant to be relied on. ``cards`` is ordered
    defining cards first (rank descending), then kickers descending, with the ace last in
    the A-5 straight, ready for display.
    """

    category: Category
    cards: tuple[Card, ...]
    strength: int


def qualifies(hand: Hand) -> bool:
    """Whether a dealer hand "has a game" (docs/rules.md §2: AK or better)."""
    return hand.category >= Category.AK


# --- tables -------------------------------------------------------------------------------

_ACE: Final = 14
_KING: Final = 13
_WHEEL: Final = (14, 5, 4, 3, 2)
_RANK_BITS: Final = 4
"""Bits per rank in the packed strength; ranks are 1..14 (1 = the ace of the wheel)."""

_RANK_VALUE: Final = {r: i + 2 for i, r in enumerate(RANKS)}
_SUIT_INDEX: Final = {s: i for i, s in enumerate(SUITS)}

_COUNT_BITS: Final = 3
"""Each rank's count (at most 4) gets three bits of the multiset key, so keys never collide."""
_CARD_KEY: Final[dict[Card, int]] = {
    card: 1 << (_COUNT_BITS * (_RANK_VALUE[card[0]] - 2)) for card in FULL_DECK
}
_CANONICAL_ORDER: Final[dict[Card, int]] = {
    card: -_RANK_VALUE[card[0]] * len(SUITS) + _SUIT_INDEX[card[1]] for card in FULL_DECK
}
"""Sort key putting cards rank descending, then in ``shdc`` suit order."""


class _Entry(NamedTuple):
    """What a rank multiset evaluates to, for one flush state."""

    category: Category
    strength: int
    arrange: Callable[[Sequence[Card]], tuple[Card, ...]]
    """Reorders the five cards from canonical order (rank desc, then suit) into display
    order; being a precomputed ``itemgetter``, it avoids a per-hand sort."""


def _ordered_ranks(ranks: Sequence[int]) -> list[int]:
    """Ranks in comparison order: bigger groups first, then higher rank (docs/rules.md §2)."""
    return sorted(ranks, key=lambda r: (ranks.count(r), r), reverse=True)


def _straight_ranks(distinct: Collection[int]) -> tuple[int, ...] | None:
    """The straight's ranks high to low (wheel: 5..1), or None if the ranks are no straight."""
    top = sorted(distinct, reverse=True)
    if len(top) != 5:
        return None
    if tuple(top) == _WHEEL:
        return (5, 4, 3, 2, 1)
    if top[0] - top[4] == 4:
        return tuple(top)
    return None


def _group_category(ranks: Sequence[int]) -> Category:
    """Category of a hand with a repeated rank, read off its group sizes."""
    shape = sorted((ranks.count(r) for r in set(ranks)), reverse=True)
    return {
        (4, 1): Category.FOUR_OF_A_KIND,
        (3, 2): Category.FULL_HOUSE,
        (3, 1, 1): Category.THREE_OF_A_KIND,
        (2, 2, 1): Category.TWO_PAIR,
        (2, 1, 1, 1): Category.PAIR,
    }[tuple(shape)]


def _classify(ranks: Sequence[int], flush: bool) -> tuple[Category, tuple[int, ...]]:
    """Category and comparison ranks of five cards; the single source of the hand rules."""
    straight = _straight_ranks(set(ranks))
    if straight is not None and flush:
        royal = straight[0] == _ACE
        return (Category.ROYAL_FLUSH if royal else Category.STRAIGHT_FLUSH), straight
    ordered = tuple(_ordered_ranks(ranks))
    if len(set(ranks)) < 5:
        return _group_category(ranks), ordered
    if flush:
        return Category.FLUSH, ordered
    if straight is not None:
        return Category.STRAIGHT, straight
    if _ACE in ranks and _KING in ranks:
        return Category.AK, ordered
    return Category.NO_GAME, ordered


def _entry(ranks: Sequence[int], flush: bool) -> _Entry:
    """Pack a classification into a table entry (strength = category, then five ranks)."""
    category, compare = _classify(ranks, flush)
    strength = int(category)
    for rank in compare:
        strength = (strength << _RANK_BITS) | rank
    display = [_ACE if r == 1 else r for r in compare]
    canonical = sorted(ranks, reverse=True)
    # Equal ranks are adjacent in both orders, so a stable sort of canonical slots by their
    # rank's first display slot keeps suits in canonical order within each rank.
    permutation = sorted(range(5), key=lambda slot: display.index(canonical[slot]))
    return _Entry(category, strength, itemgetter(*permutation))


def _multiset(ranks: Sequence[int]) -> int:
    """Key of a rank multiset: the count of rank r sits in bits 3(r-2)..3(r-2)+2."""
    return sum(1 << (_COUNT_BITS * (r - 2)) for r in ranks)


def _rank_multisets(size: int) -> Iterator[tuple[int, ...]]:
    """Every multiset of ``size`` ranks a single deck can deal (no rank more than 4 times)."""
    for ranks in combinations_with_replacement(range(2, 15), size):
        # Sorted, so a rank held five times would show as equal ranks four places apart.
        if all(ranks[i] != ranks[i + 4] for i in range(size - 4)):
            yield ranks


def _build_five_tables() -> tuple[dict[int, _Entry], dict[int, _Entry]]:
    """Evaluate every five-card rank multiset once: (offsuit table, flush table)."""
    plain: dict[int, _Entry] = {}
    flush: dict[int, _Entry] = {}
    for ranks in _rank_multisets(5):
        key = _multiset(ranks)
        plain[key] = _entry(ranks, flush=False)
        if len(set(ranks)) == 5:
            flush[key] = _entry(ranks, flush=True)
    return plain, flush


def _build_six_table(plain: dict[int, _Entry]) -> dict[int, tuple[str, _Entry]]:
    """For six cards with no five of a suit: which rank to leave out, and the result.

    Without a possible flush the best five depends on ranks alone, so the six-card search
    is done here once per rank multiset (18,395 of them) instead of on every hand.
    """
    single = {r: _multiset((r,)) for r in range(2, 15)}
    six: dict[int, tuple[str, _Entry]] = {}
    for ranks in _rank_multisets(6):
        key = _multiset(ranks)
        # Different ranks left out leave different multisets, so the maximum is unique.
        rank = max(set(ranks), key=lambda r: plain[key - single[r]].strength)
        six[key] = (RANKS[rank - 2], plain[key - single[rank]])
    return six


_PLAIN, _FLUSH = _build_five_tables()
_PLAIN_SIX: Final = _build_six_table(_PLAIN)


# --- evaluation -----------------------------------------------------------------------------

_CARD_SET: Final = frozenset(FULL_DECK)
_canonical_key: Final = _CANONICAL_ORDER.__getitem__
_multiset_key: Final = _CARD_KEY.__getitem__


def _checked(cards: Sequence[Card]) -> tuple[Card, ...]:
    """Validate 5 or 6 distinct known cards and return them in canonical order."""
    if len(cards) not in (5, 6):
        raise ValueError(f"a hand has 5 or 6 cards, got {len(cards)}")
    if not _CARD_SET.issuperset(cards):
        unknown = " ".join(repr(c) for c in cards if c not in _CARD_SET)
        raise ValueError(f"not a card: {unknown}")
    if len(set(cards)) != len(cards):
        raise ValueError(f"card repeated in {' '.join(cards)}")
    return tuple(sorted(cards, key=_canonical_key))


def _lookup(five: Sequence[Card]) -> _Entry:
    """Table entry of exactly five valid, distinct cards."""
    key = sum(map(_multiset_key, five))
    suit = five[0][1]
    if five[1][1] == suit and five[2][1] == suit and five[3][1] == suit and five[4][1] == suit:
        return _FLUSH[key]
    return _PLAIN[key]


def _without(cards: tuple[Card, ...], index: int) -> tuple[Card, ...]:
    """The cards with the one at ``index`` left out."""
    return cards[:index] + cards[index + 1 :]


def _best_flush_candidate(
    six: tuple[Card, ...], flush_suit: str
) -> tuple[tuple[Card, ...], _Entry]:
    """The strongest five of six canonically ordered cards, five or six of them suited.

    A five is a flush when the card left out is the odd suit, or when all six are suited.
    Leaving out the lowest card is tried first and max() keeps the first of equals, so
    among equally strong fives the one keeping the higher cards wins and the result does
    not depend on the caller's card order.
    """
    total = sum(map(_multiset_key, six))
    all_suited = all(card[1] == flush_suit for card in six)

    def entry_without(skip: int) -> _Entry:
        left_out = six[skip]
        table = _FLUSH if all_suited or left_out[1] != flush_suit else _PLAIN
        return table[total - _CARD_KEY[left_out]]

    best_skip = max(range(5, -1, -1), key=lambda skip: entry_without(skip).strength)
    return _without(six, best_skip), entry_without(best_skip)


def _best_five(six: tuple[Card, ...]) -> tuple[tuple[Card, ...], _Entry]:
    """The strongest five of six canonically ordered cards.

    A flush needs five of one suit, and such a suit is the first or second card's. Without
    one, the precomputed rank table names the rank to leave out; its last (canonically
    lowest) card goes, matching the tie-break of the full search used for flush candidates.
    """
    suits = [card[1] for card in six]
    for suit in suits[:2]:
        if suits.count(suit) >= 5:
            return _best_flush_candidate(six, suit)
    letter, entry = _PLAIN_SIX[sum(map(_multiset_key, six))]
    ranks = "".join(card[0] for card in six)
    return _without(six, ranks.rindex(letter)), entry


def evaluate(cards: Sequence[Card]) -> Hand:
    """Evaluate 5 cards, or the best five of 6 (docs/rules.md §2); raise ValueError on bad input."""
    ordered = _checked(cards)
    if len(ordered) == 6:
        five, entry = _best_five(ordered)
    else:
        five, entry = ordered, _lookup(ordered)
    return Hand(category=entry.category, cards=entry.arrange(five), strength=entry.strength)
