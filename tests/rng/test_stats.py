"""The exact null distributions behind the report, checked by enumerating small decks."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy import stats as sps

from russian_poker.service.tools.rng.generate import exchange
from russian_poker.service.tools.rng.stats import (
    eulerian_probabilities,
    gap_probabilities,
    mixture_sf,
    pair_covariance,
    pearson_eigenvalues,
    position_covariance,
)

N = 6  # 720 permutations: every formula below is checked exactly


def all_permutations() -> np.ndarray:
    return np.array(list(itertools.permutations(range(N))))


def test_position_covariance_is_the_permutation_matrix_s() -> None:
    perms = all_permutations()
    indicator = (perms[:, :, None] == np.arange(N)).transpose(0, 2, 1)  # [perm, card, position]
    flat = indicator.reshape(len(perms), -1).astype(float)
    empirical = np.cov(flat, rowvar=False, bias=True)
    assert np.allclose(empirical, position_covariance(N))


def test_pair_covariance_is_the_adjacent_pairs() -> None:
    perms = all_permutations()
    cells = [(a, b) for a in range(N) for b in range(N) if a != b]
    counts = np.zeros((len(perms), len(cells)))
    for i, (a, b) in enumerate(cells):
        counts[:, i] = ((perms[:, :-1] == a) & (perms[:, 1:] == b)).sum(axis=1)
    assert np.allclose(np.cov(counts, rowvar=False, bias=True), pair_covariance(N))


@pytest.mark.parametrize("n", [5, 6, 9, 13])
@pytest.mark.parametrize("kind", ["positions", "pairs"])
def test_the_closed_form_eigenvalues_are_numpy_s(kind: str, n: int) -> None:
    covariance = position_covariance(n) if kind == "positions" else pair_covariance(n)
    eigen = np.sort(np.linalg.eigvalsh(covariance * n))
    eigen = eigen[eigen > 1e-9]
    expected = np.sort(np.concatenate([[v] * m for v, m in pearson_eigenvalues(kind, n)]))
    assert np.allclose(eigen, expected)


def test_eulerian_probabilities_are_the_runs_of_every_permutation() -> None:
    perms = all_permutations()
    runs = 1 + (perms[:, 1:] < perms[:, :-1]).sum(axis=1)
    observed = np.bincount(runs, minlength=N + 1)[1:] / len(perms)
    assert np.allclose(eulerian_probabilities(N), observed)
    assert math.isclose(sum(eulerian_probabilities(52)), 1.0)


def test_gap_probabilities_sum_to_one_and_start_at_a_quarter() -> None:
    p = gap_probabilities()
    assert math.isclose(p.sum(), 1.0) and math.isclose(p[0], 13 / 52)  # C(51,12) / C(52,13)


def test_gap_probabilities_match_sampled_decks() -> None:
    rng = np.random.default_rng(5)
    where = np.argsort(rng.random((20_000, 52)), axis=1)
    spacing = np.diff(np.sort(where.reshape(-1, 4, 13), axis=2), axis=2).ravel()
    observed = np.bincount(np.minimum(spacing, 25) - 1, minlength=25) / spacing.size
    assert np.abs(observed - gap_probabilities()).max() < 0.004


@pytest.mark.parametrize("weights", [(1.0, 53 / 51, 1 / 51), (52 / 51,)])
def test_mixture_tail_matches_monte_carlo(weights: tuple[float, ...]) -> None:
    dfs = (1274, 1275, 102)[: len(weights)] if len(weights) == 3 else (2601,)
    total = sum(w * d for w, d in zip(weights, dfs, strict=True))
    squares = sum(w * w * d for w, d in zip(weights, dfs, strict=True))
    rng = np.random.default_rng(9)
    sample = sum(w * rng.chisquare(d, 200_000) for w, d in zip(weights, dfs, strict=True))
    for q in (0.5, 0.9, 0.99, 0.999):
        x = float(np.quantile(sample, q))
        p, _ = mixture_sf(x, total, squares)
        assert abs(p - (1 - q)) < 0.15 * (1 - q) + 2e-4
    assert sps.chi2.sf(0, 1) == 1.0


def test_a_reinsertion_word_in_the_tail_is_flagged() -> None:
    perms = np.tile(np.arange(52, dtype=np.int8), (3, 1))
    words = np.zeros((3, 56), dtype=np.uint32)
    limit = (1 << 32) - (1 << 32) % 44  # the second discard goes back into 43 cards: 44 places
    words[:, 52] = limit
    _, positions, rejected = exchange(perms, words, np.array([1, 2, 5]))
    assert rejected.tolist() == [False, True, True]  # one discard does not read that word
    assert positions[0].tolist() == [0, -1, -1, -1, -1]
