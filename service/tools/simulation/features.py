"""What a player looks at in a five-card hand: groups, draws, high cards.

Pure helpers on card ints (``lookup``: rank = card % 13 with 0 = deuce, suit = card // 13)
for the basic strategy and its derivation.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations
from typing import Final, NamedTuple

__all__ = [
    "ACE",
    "JACK",
    "KING",
    "QUEEN",
    "Draw",
    "flush_draw",
    "groups",
    "high_ranks",
    "lowest",
    "rank",
    "straight_draw",
]

JACK: Final = 9
QUEEN: Final = 10
KING: Final = 11
ACE: Final = 12
_WHEEL: Final = frozenset({ACE, 0, 1, 2, 3})


def rank(card: int) -> int:
    return card % 13


def groups(cards: Sequence[int]) -> list[tuple[int, int]]:
    """``(count, rank)`` of each rank held, largest group first, then highest rank."""
    counts = Counter(rank(c) for c in cards)
    return sorted(((n, r) for r, n in counts.items()), reverse=True)


def high_ranks(cards: Sequence[int]) -> list[int]:
    """The ranks held, highest first (with repeats)."""
    return sorted((rank(c) for c in cards), reverse=True)


def lowest(cards: Sequence[int], keep: Sequence[int] = ()) -> int:
    """The lowest card not in ``keep`` (ties: the first)."""
    return min((c for c in cards if c not in keep), key=rank)


class Draw(NamedTuple):
    """A four-card draw to a straight or a flush: the card to throw, and how many ranks
    (or suited cards) complete it."""

    discard: int
    outs: int


def flush_draw(cards: Sequence[int]) -> Draw | None:
    """Four cards of one suit in five: throw the fifth (9 outs)."""
    suits = Counter(c // 13 for c in cards)
    suit, count = suits.most_common(1)[0]
    if count != 4 or len(cards) != 5:
        return None
    odd = next(c for c in cards if c // 13 != suit)
    return Draw(odd, 9)


def straight_draw(cards: Sequence[int]) -> Draw | None:
    """Four ranks of a straight in five distinct-ranked cards: open-ended (8 outs) beats
    inside (4 outs); the card that is not part of it goes."""
    mask = 0
    for card in cards:
        mask |= 1 << (card % 13)
    found = _STRAIGHT_DRAWS.get(mask)
    if found is None:
        return None
    odd, outs = found
    return Draw(next(c for c in cards if c % 13 == odd), outs)


def _straight_outs(four: set[int]) -> int:
    """Outs (cards) that make a straight with these four distinct ranks."""
    completing = 0
    for extra in range(13):
        if extra in four:
            continue
        five = four | {extra}
        top, bottom = max(five), min(five)
        if top - bottom == 4 or five == _WHEEL:
            completing += 1
    return 4 * completing


def _straight_draws() -> dict[int, tuple[int, int]]:
    """For every set of five distinct ranks (as a 13-bit mask) holding a straight draw:
    the rank to throw and the outs, the most outs first, then the lowest rank thrown."""
    draws: dict[int, tuple[int, int]] = {}
    for ranks in combinations(range(13), 5):
        best: tuple[int, int] | None = None
        for odd in ranks:
            outs = _straight_outs(set(ranks) - {odd})
            if outs and (best is None or outs > best[1]):
                best = (odd, outs)
        if best is not None:
            draws[sum(1 << r for r in ranks)] = best
    return draws


_STRAIGHT_DRAWS: Final = _straight_draws()
