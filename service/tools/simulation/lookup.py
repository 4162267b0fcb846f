"""Table-driven hand evaluation for the simulator: the core's strengths, looked up in bulk.

The core's ``evaluate`` is exact but costs microseconds of Python per hand; a simulation
needs hundreds of millions of hands. A hand's strength depends only on its rank multiset
plus which ranks (if any) share a suit with four others, so:

* every card gets an integer *code*: a rank key in the low bits and a one in its suit's
  4-bit counter above them. The sum of a hand's codes names its rank multiset (the rank
  keys were chosen so that no two multisets of 5, resp. 6, ranks have the same sum: a
  perfect hash, 361K and 1.2M entries) and counts each suit;
* adding 3 to every suit counter carries into its top bit exactly when a suit holds five
  or more cards, so one add and one mask find the (rare) flush-capable hands;
* those are looked up by the 13-bit mask of their suited ranks instead.

The tables hold the core's own ``Hand.strength`` values, filled by calling the core's
``evaluate`` on one representative hand per class. So a looked-up strength is not merely
ordered like the core's: it *is* the core's, and ``strength >> 20`` is its ``Category``.
``tests/simulation/test_lookup.py`` checks that on every five-card hand and on a large
sample of six-card hands.

Cards here are small integers: the index into ``FULL_DECK`` (``13 * suit + rank``, suits
``shdc``, rank 0 = deuce).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations, combinations_with_replacement
from typing import Final

import numpy as np
import numpy.typing as npt

from russian_poker.service.rules.cards import FULL_DECK
from russian_poker.service.rules.hands import Category, evaluate

__all__ = [
    "AK_MIN",
    "CARD_INDEX",
    "CATEGORY_SHIFT",
    "CODE5",
    "CODE6",
    "FLUSH",
    "PLAIN5",
    "PLAIN6",
    "RANK_KEYS_5",
    "RANK_KEYS_6",
    "STRENGTH5",
    "Cards",
    "IntArray",
    "best_index5",
    "card_ints",
    "card_texts",
    "categories",
    "flush_mask",
    "indexes5",
    "rank_multisets",
    "representative",
    "strength",
    "strength5",
    "strength6",
    "strengths",
    "strengths5",
    "strengths6",
]

IntArray = npt.NDArray[np.int64]
Cards = npt.NDArray[np.integer]
"""An ``(N, 5)`` or ``(N, 6)`` array of card ints (any integer dtype)."""

CATEGORY_SHIFT: Final = 20
"""``strength >> CATEGORY_SHIFT`` is the ``Category``: the core packs five 4-bit ranks below it."""
AK_MIN: Final = int(Category.AK) << CATEGORY_SHIFT
"""The weakest strength that qualifies a dealer (docs/rules.md §2: AK or better)."""

RANK_KEYS_5: Final = (0, 1, 5, 22, 94, 312, 992, 2422, 5624, 12522, 19998, 43258, 79415)
"""Greedy smallest keys whose sums over any 5 ranks (each at most 4 times) all differ."""
RANK_KEYS_6: Final = (0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345, 1479181)
"""Keys whose sums over any 7 ranks differ (the well-known 7-card keys), hence over any 6:
two 6-multisets with one sum would stay equal after adding a rank both can take."""

_SUIT_SHIFT: Final = 24
_RANK_MASK: Final = (1 << _SUIT_SHIFT) - 1
_FIVE_PROBE: Final = 0x3333
"""Added to the four 4-bit suit counters: a counter of 5 or 6 reaches its top bit."""
_FIVE_BITS: Final = 0x8888

CARD_INDEX: Final[dict[str, int]] = {card: i for i, card in enumerate(FULL_DECK)}


def card_ints(cards: Sequence[str]) -> tuple[int, ...]:
    """Card texts (``"As"``) as card ints."""
    return tuple(CARD_INDEX[c] for c in cards)


def card_texts(cards: Sequence[int]) -> tuple[str, ...]:
    """Card ints as the core's card texts."""
    return tuple(FULL_DECK[int(c)] for c in cards)


def rank_multisets(size: int) -> Iterator[tuple[int, ...]]:
    """Every multiset of ``size`` rank indices (0..12) one deck can deal, sorted."""
    for ranks in combinations_with_replacement(range(13), size):
        if all(ranks[i] != ranks[i + 4] for i in range(size - 4)):
            yield ranks


def representative(ranks: Sequence[int]) -> tuple[int, ...]:
    """Cards of these (sorted) ranks with suits rotated so that no suit holds five."""
    cards: list[int] = []
    distinct = sorted(set(ranks))
    for i, rank in enumerate(distinct):
        for copy in range(ranks.count(rank)):
            cards.append(13 * ((i + copy) % 4) + rank)
    return tuple(cards)


def _core_strength(cards: Sequence[int]) -> int:
    hand = evaluate(card_texts(cards))
    if int(hand.category) != hand.strength >> CATEGORY_SHIFT:
        raise RuntimeError("the core's strength layout changed; update CATEGORY_SHIFT")
    return hand.strength


def _plain_table(keys: Sequence[int], size: int) -> npt.NDArray[np.int32]:
    """Strength by rank-key sum, for hands with no five cards of a suit."""
    table = np.zeros(4 * keys[-1] + (size - 4) * keys[-2] + 1, dtype=np.int32)
    seen: set[int] = set()
    for ranks in rank_multisets(size):
        key = sum(keys[r] for r in ranks)
        if key in seen:
            raise RuntimeError(f"rank keys collide for {size} cards")  # a typo in the keys
        seen.add(key)
        table[key] = _core_strength(representative(ranks))
    return table


def _flush_table() -> npt.NDArray[np.int32]:
    """The best all-suited five of the ranks in a 13-bit mask of 5 or 6 ranks."""
    table = np.zeros(1 << 13, dtype=np.int32)
    for size in (5, 6):
        for ranks in combinations(range(13), size):
            mask = sum(1 << r for r in ranks)
            table[mask] = max(_core_strength(five) for five in combinations(ranks, 5))
    return table


_CODE5_LIST: Final = [RANK_KEYS_5[c % 13] | 1 << (_SUIT_SHIFT + 4 * (c // 13)) for c in range(52)]
_CODE6_LIST: Final = [RANK_KEYS_6[c % 13] | 1 << (_SUIT_SHIFT + 4 * (c // 13)) for c in range(52)]
_BIT_LIST: Final = [1 << (c % 13) for c in range(52)]
CODE5: Final = np.array(_CODE5_LIST, dtype=np.int64)
CODE6: Final = np.array(_CODE6_LIST, dtype=np.int64)
BIT: Final = np.array(_BIT_LIST, dtype=np.int32)
PLAIN5: Final = _plain_table(RANK_KEYS_5, 5)
PLAIN6: Final = _plain_table(RANK_KEYS_6, 6)
FLUSH: Final = _flush_table()
STRENGTH5: Final = np.concatenate([PLAIN5, FLUSH])
"""Strength by :func:`best_index5`: rank-key sums first, then ``len(PLAIN5) + flush mask``."""
_PLAIN5_LIST: Final[list[int]] = PLAIN5.tolist()
_PLAIN6_LIST: Final[list[int]] = PLAIN6.tolist()
_FLUSH_LIST: Final[list[int]] = FLUSH.tolist()
_FLUSH_BASE: Final = len(PLAIN5)


# --- one hand at a time (the per-round engine) ---------------------------------------------


def strength5(a: int, b: int, c: int, d: int, e: int) -> int:
    """The core's strength of five card ints."""
    code = _CODE5_LIST
    total = code[a] + code[b] + code[c] + code[d] + code[e]
    if ((total >> _SUIT_SHIFT) + _FIVE_PROBE) & _FIVE_BITS:
        bit = _BIT_LIST
        return _FLUSH_LIST[bit[a] | bit[b] | bit[c] | bit[d] | bit[e]]
    return _PLAIN5_LIST[total & _RANK_MASK]


def flush_mask(cards: Sequence[int]) -> int:
    """The rank mask of the suit holding five or more of ``cards``, else 0."""
    counts = [0, 0, 0, 0]
    for card in cards:
        counts[card // 13] += 1
    for suit, count in enumerate(counts):
        if count >= 5:
            return sum(_BIT_LIST[c] for c in cards if c // 13 == suit)
    return 0


def strength6(cards: Sequence[int]) -> int:
    """The core's strength of six card ints: the best five."""
    code = _CODE6_LIST
    total = 0
    for card in cards:
        total += code[card]
    best = _PLAIN6_LIST[total & _RANK_MASK]
    if ((total >> _SUIT_SHIFT) + _FIVE_PROBE) & _FIVE_BITS:
        best = max(best, _FLUSH_LIST[flush_mask(cards)])
    return int(best)


def strength(cards: Sequence[int]) -> int:
    """The core's strength of 5 or 6 card ints."""
    if len(cards) == 5:
        a, b, c, d, e = cards
        return strength5(a, b, c, d, e)
    return strength6(cards)


def best_index5(cards: Sequence[int]) -> int:
    """Index into :data:`STRENGTH5` (and the payout tables built alike) of five card ints."""
    code = _CODE5_LIST
    total = sum(code[c] for c in cards)
    if ((total >> _SUIT_SHIFT) + _FIVE_PROBE) & _FIVE_BITS:
        return _FLUSH_BASE + sum(_BIT_LIST[c] for c in cards)
    return int(total & _RANK_MASK)


# --- whole batches (the vectorised engine, the benchmarks) ----------------------------------


def indexes5(c0: Cards, c1: Cards, c2: Cards, c3: Cards, c4: Cards) -> IntArray:
    """:func:`best_index5` of many hands given as five card columns."""
    total = CODE5[c0] + CODE5[c1] + CODE5[c2] + CODE5[c3] + CODE5[c4]
    index = total & _RANK_MASK
    flush = np.flatnonzero(((total >> _SUIT_SHIFT) + _FIVE_PROBE) & _FIVE_BITS)
    if flush.size:
        mask = BIT[c0[flush]] | BIT[c1[flush]] | BIT[c2[flush]] | BIT[c3[flush]] | BIT[c4[flush]]
        index[flush] = _FLUSH_BASE + mask
    return index


def strengths5(cards: Cards) -> npt.NDArray[np.int32]:
    """Strengths of an ``(N, 5)`` array of card ints."""
    columns = np.ascontiguousarray(cards.T)
    found: npt.NDArray[np.int32] = STRENGTH5[indexes5(*columns)]
    return found


def strengths6(cards: Cards) -> npt.NDArray[np.int32]:
    """Strengths (best five of six) of an ``(N, 6)`` array of card ints."""
    total = CODE6[cards[:, 0]]
    for i in range(1, 6):
        total = total + CODE6[cards[:, i]]
    best: npt.NDArray[np.int32] = PLAIN6[total & _RANK_MASK]
    probe = ((total >> _SUIT_SHIFT) + _FIVE_PROBE) & _FIVE_BITS
    rows = np.flatnonzero(probe)
    if rows.size:
        # The suit whose counter carried: its probe bit sits at 4 * suit + 3.
        suit = np.log2(probe[rows]).astype(np.int64) // 4
        held = cards[rows].astype(np.int64)
        suited = np.where(held // 13 == suit[:, None], BIT[held], 0)
        mask = np.bitwise_or.reduce(suited, axis=1)
        best[rows] = np.maximum(best[rows], FLUSH[mask])
    return best


def strengths(cards: Cards) -> npt.NDArray[np.int32]:
    """Strengths of an ``(N, 5)`` or ``(N, 6)`` array of card ints."""
    if cards.ndim != 2 or cards.shape[1] not in (5, 6):
        raise ValueError(f"expected an (N, 5) or (N, 6) array, got shape {cards.shape}")
    return strengths5(cards) if cards.shape[1] == 5 else strengths6(cards)


def categories(values: npt.NDArray[np.integer]) -> npt.NDArray[np.int64]:
    """The ``Category`` values of many strengths."""
    return values.astype(np.int64) >> CATEGORY_SHIFT
