"""The simulator's evaluator gives the core's own answers: on every five-card hand and on a
million random six-card hands, the looked-up strength equals ``evaluate(...).strength``
(so every comparison, tie and category is the same), for the batch and one-hand paths.

The core evaluates ~3.6 million hands here, split over two processes.
"""

from __future__ import annotations

import multiprocessing
from itertools import chain, combinations
from typing import Final

import numpy as np
import numpy.typing as npt
import pytest

from russian_poker.service.rules.cards import FULL_DECK
from russian_poker.service.rules.hands import evaluate
from russian_poker.service.tools.simulation import lookup

FIVE_CARD_HANDS: Final = 2_598_960
SIX_CARD_SAMPLE: Final = 1_000_000
WORKERS: Final = 2


def _core(hands: npt.NDArray[np.int8]) -> tuple[list[int], list[int]]:
    """The core's strengths and categories of card-int hands (runs in a worker)."""
    strengths: list[int] = []
    categories: list[int] = []
    texts = FULL_DECK
    for hand in hands.tolist():
        result = evaluate([texts[c] for c in hand])
        strengths.append(result.strength)
        categories.append(int(result.category))
    return strengths, categories


def _core_in_parallel(hands: npt.NDArray[np.int8]) -> tuple[npt.NDArray[np.int64], ...]:
    parts = np.array_split(hands, 8 * WORKERS)
    context = multiprocessing.get_context("fork")
    with context.Pool(WORKERS) as pool:
        results = pool.map(_core, parts)
    strengths = np.fromiter(chain.from_iterable(r[0] for r in results), dtype=np.int64)
    categories = np.fromiter(chain.from_iterable(r[1] for r in results), dtype=np.int64)
    return strengths, categories


def _check(hands: npt.NDArray[np.int8]) -> None:
    strengths, categories = _core_in_parallel(hands)
    fast = lookup.strengths(hands)
    mismatched = np.flatnonzero(fast != strengths)
    assert mismatched.size == 0, [lookup.card_texts(hands[i]) for i in mismatched[:5]]
    assert np.array_equal(lookup.categories(fast), categories)
    # The one-hand path, on a slice.
    for hand, expected in zip(
        hands[:: len(hands) // 20_000].tolist(), fast[:: len(hands) // 20_000], strict=True
    ):
        assert lookup.strength(hand) == expected


@pytest.mark.slow
def test_every_five_card_hand() -> None:
    hands = np.fromiter(
        chain.from_iterable(combinations(range(52), 5)), dtype=np.int8, count=5 * FIVE_CARD_HANDS
    ).reshape(-1, 5)
    assert len(hands) == FIVE_CARD_HANDS
    _check(hands)
    # Exactly the 7,462 distinct poker hand values, in the core's order.
    assert len(np.unique(lookup.strengths(hands))) == 7_462


@pytest.mark.slow
def test_a_million_six_card_hands() -> None:
    rng = np.random.default_rng(20260601)
    hands = rng.permuted(np.tile(np.arange(52, dtype=np.int8), (SIX_CARD_SAMPLE, 1)), axis=1)
    hands = np.ascontiguousarray(hands[:, :6])
    flush_capable = sum(
        np.count_nonzero((hands // 13 == suit).sum(axis=1) >= 5) for suit in range(4)
    )
    assert flush_capable > 8_000  # the sample does exercise the flush path (~1%)
    _check(hands)


def test_every_six_card_flush_class() -> None:
    # Five or six spades with any sixth card: every suited-rank mask the flush table holds.
    spades = range(13)
    hands = [
        [*five, sixth]
        for five in combinations(spades, 5)
        for sixth in range(52)
        if sixth not in five
    ]
    array = np.array(hands, dtype=np.int8)
    expected = [evaluate(lookup.card_texts(h)).strength for h in hands[::7]]
    assert lookup.strengths(array)[::7].tolist() == expected
