"""The simulator's randomness and arithmetic: uniform deals, uniform reinsertion, exact
tallies that add up the same in any order, and the statistics derived from them."""

from __future__ import annotations

import numpy as np

from russian_poker.service.tools.simulation.engine import UniformReinserter
from russian_poker.service.tools.simulation.stats import Tally, summarise, tally_arrays
from russian_poker.service.tools.simulation.vector import deal


def test_deals_are_ten_distinct_uniform_cards() -> None:
    rounds = 200_000
    top = deal(np.random.default_rng(3), rounds).astype(np.int64)
    assert top.shape == (10, rounds)
    # No card twice in a round.
    masks = np.bitwise_or.reduce(np.left_shift(1, top), axis=0)
    assert np.all(np.bitwise_count(masks) == 10)
    # Each position is uniform over the 52 cards (each count within 5 sigma).
    expected = rounds / 52
    sigma = np.sqrt(expected * (1 - 1 / 52))
    for row in top:
        counts = np.bincount(row, minlength=52)
        assert np.all(np.abs(counts - expected) < 5 * sigma)


def test_reinsertion_positions_are_uniform() -> None:
    rng = np.random.default_rng(4)
    counts = np.zeros(43, dtype=np.int64)
    for u in rng.random(86_000).tolist():
        undealt = list(range(42))
        UniformReinserter([u]).reinsert(undealt, [99])
        counts[undealt.index(99)] += 1
    assert np.all(np.abs(counts - 2_000) < 5 * np.sqrt(2_000))


def test_tallies_add_exactly_and_statistics_follow_the_definitions() -> None:
    net = np.array([-100, -100, 300, 0, 100, -300], dtype=np.int64)
    wagered = np.array([100, 100, 300, 300, 300, 300], dtype=np.int64)
    zeros = np.zeros(6, dtype=np.int64)
    outcome = np.array([0, 0, 1, 2, 4, 3], dtype=np.int64)
    whole = tally_arrays(net, wagered, outcome, zeros, zeros, zeros, zeros)
    halves = Tally()
    for part in (slice(3, 6), slice(0, 3)):
        halves.add(
            tally_arrays(*(a[part] for a in (net, wagered, outcome, zeros, zeros, zeros, zeros)))
        )
    assert halves == whole
    summary = summarise(whole, ante=100, bonus=0)
    assert summary["house_edge"] == -(net.sum() / 6) / 100
    assert summary["element_of_risk"] == -net.sum() / wagered.sum()
    assert summary["rtp"] == 1 - summary["element_of_risk"]
    assert np.isclose(summary["std_dev"], net.std() / 100)
    low, high = summary["house_edge_ci95"]
    assert np.isclose(high - low, 2 * 1.959963984540054 * net.std() / 100 / np.sqrt(6))
    assert summary["outcomes"] == {
        "folded": 2 / 6,
        "won": 1 / 6,
        "tied": 1 / 6,
        "lost": 1 / 6,
        "dealer_no_game": 1 / 6,
    }
