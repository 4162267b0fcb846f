"""The statistical tests of the report, computed from a :class:`~service.tools.rng.tally.Tally`.

Each test compares the counts with their exact distribution under a perfect shuffle (every
one of the 52! orders equally likely, shuffles independent). Counts over many decks are sums
of independent per-deck vectors, so by the central limit theorem a Pearson statistic tends
to Σ λᵢ χ²₁ where the λᵢ are the eigenvalues of the per-deck covariance scaled by the expected
counts. Cells of one deck are not independent (a deck is a permutation), so the textbook
degrees of freedom would be wrong: the covariances are derived exactly here (and checked by
enumerating every permutation of a small deck in the tests):

* positions: card c at position p. Covariance (1/(n-1)) Π⊗Π with Π = I - J/n: the
  Pearson statistic is (n/(n-1)) χ²₍ₙ₋₁₎².
* adjacent pairs: card a immediately followed by b (a ≠ b). Eigenvalues (n+1)/(n-1) (1275
  for n = 52), 1 (1274), 1/(n-1) (102); the statistic's tail is Welch–Satterthwaite's scaled
  χ² (same mean and variance): the weights are so close that it is accurate far into the tail.

Tests whose cells are exactly multinomial (one observation per deck) use the plain χ². The
gap test's per-deck histogram has no simple covariance, so its statistic is Mahalanobis' with
the covariance estimated from the decks themselves (χ² with cells - 1 df).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Final

import msgspec
import numpy as np
import numpy.typing as npt
from scipy import stats as sps

from russian_poker.service.tools.rng.generate import CARDS, DEALT
from russian_poker.service.tools.rng.tally import GAP_CELLS, SUIT, Tally

__all__ = [
    "Statistic",
    "Tests",
    "eulerian_probabilities",
    "gap_probabilities",
    "mixture_sf",
    "pair_covariance",
    "pearson_eigenvalues",
    "position_covariance",
    "run_tests",
]

Floats = npt.NDArray[np.float64]
_MIN_EXPECTED: Final = 5.0  # pool cells of the runs test until each expects at least this


class Statistic(msgspec.Struct, frozen=True, kw_only=True):
    """One test: its statistic, degrees of freedom (None for a z test) and p-value."""

    family: str
    name: str
    test: str
    statistic: float
    df: float | None
    p_value: float


class Tests(msgspec.Struct, frozen=True, kw_only=True):
    """The primary statistics and the per-line p-values behind the 'worst' ones and the plots."""

    statistics: tuple[Statistic, ...]
    # each (card, position) cell, two-sided normal approximation of its binomial: for the plot
    # only (a KS test of them would reject for their discreteness and their dependence)
    cell_p_values: tuple[float, ...]
    line_p_values: dict[str, tuple[float, ...]]  # per position, card, pair row, exchange test


# ---------------------------------------------------------------- exact null distributions


def position_covariance(n: int) -> Floats:
    """Covariance of one deck's n × n (card, position) indicator matrix, flattened."""
    projector = np.eye(n) - np.full((n, n), 1.0 / n)
    return np.asarray(np.kron(projector, projector) / (n - 1), dtype=np.float64)


def pair_covariance(n: int) -> Floats:
    """Covariance of one deck's counts of 'a immediately followed by b' over a ≠ b (row-major).

    E[X_ab X_cd] is 1/n for the same pair; 0 if they share a first card, a second card, or are
    each other's reverse (a card has one successor); 1/(n(n-1)) otherwise (a chain c→a→b, or
    two disjoint pairs: (n-2)(n-3) ordered places of 1/(n(n-1)(n-2)(n-3)) each)."""
    cells = [(a, b) for a in range(n) for b in range(n) if a != b]
    first = np.array([a for a, _ in cells])[:, None]
    second = np.array([b for _, b in cells])[:, None]
    a, b, c, d = first, second, first.T, second.T
    same = (a == c) & (b == d)
    excluded = (a == c) | (b == d) | ((a == d) & (b == c))
    moment = np.where(same, 1.0 / n, np.where(excluded, 0.0, 1.0 / (n * (n - 1))))
    return np.asarray(moment - 1.0 / n**2, dtype=np.float64)


def pearson_eigenvalues(kind: str, n: int) -> list[tuple[float, int]]:
    """The nonzero eigenvalues (value, multiplicity) of the per-deck covariance times n: the
    weights of the Pearson statistic's limit Σ λᵢ χ²₁ when each cell expects N/n.

    Closed forms of the matrices above (the tests compare them with numpy's eigenvalues)."""
    if kind == "positions":
        return [(n / (n - 1), (n - 1) ** 2)]
    half = (n - 1) * (n - 2) // 2
    return [((n + 1) / (n - 1), half), (1.0, half - 1), (1 / (n - 1), 2 * (n - 1))]


def _weights(kind: str, n: int) -> tuple[float, float]:
    """Σλ and Σλ² of the Pearson statistic's limit."""
    eigen = pearson_eigenvalues(kind, n)
    return sum(v * m for v, m in eigen), sum(v * v * m for v, m in eigen)


def mixture_sf(x: float, total: float, squares: float) -> tuple[float, float]:
    """P(Σ λᵢ χ²₁ > x) by Welch–Satterthwaite (Σλ = ``total``, Σλ² = ``squares``), and its df."""
    scale = squares / total
    df = total * total / squares
    return float(sps.chi2.sf(x / scale, df)), df


def eulerian_probabilities(n: int) -> list[float]:
    """P(a random permutation of n has r ascending runs), r = 1..n (Eulerian numbers / n!)."""
    row = [1]
    for m in range(2, n + 1):
        row = [
            (k + 1) * (row[k] if k < len(row) else 0) + (m - k) * (row[k - 1] if k > 0 else 0)
            for k in range(m)
        ]
    return [float(Fraction(a, math.factorial(n))) for a in row]


def gap_probabilities() -> Floats:
    """P(the next card of the same suit lies d places later), d = 1..24 and ≥ 25 pooled.

    A suit's 13 positions are a uniform 13-subset of 52, so the cards strictly between two
    consecutive ones number m with probability C(51 - m, 12) / C(52, 13)."""
    total = math.comb(CARDS, SUIT)
    exact = [Fraction(math.comb(CARDS - 1 - m, SUIT - 1), total) for m in range(CARDS - SUIT + 1)]
    cells = [*exact[: GAP_CELLS - 1], sum(exact[GAP_CELLS - 1 :], Fraction(0))]
    return np.array([float(p) for p in cells])


# ---------------------------------------------------------------- the tests


def _chi2(observed: Floats, expected: Floats) -> float:
    return float(((observed - expected) ** 2 / expected).sum())


def _worst(family: str, name: str, test: str, p_values: Sequence[float]) -> Statistic:
    """The smallest of several p-values, Bonferroni-adjusted (valid whatever their dependence)."""
    smallest = min(p_values)
    return Statistic(
        family=family,
        name=name,
        test=test,
        statistic=smallest,
        df=None,
        p_value=min(1.0, smallest * len(p_values)),
    )


def _ks(family: str, name: str, p_values: Sequence[float]) -> Statistic:
    result = sps.kstest(np.asarray(p_values), "uniform")
    return Statistic(
        family=family,
        name=name,
        test="Kolmogorov–Smirnov vs uniform",
        statistic=float(result.statistic),
        df=float(len(p_values)),
        p_value=float(result.pvalue),
    )


def _positions(t: Tally) -> tuple[list[Statistic], list[float], dict[str, tuple[float, ...]]]:
    counts = t.positions.astype(np.float64)
    expected = t.shuffles / CARDS
    total, squares = _weights("positions", CARDS)
    p, df = mixture_sf(_chi2(counts, np.full_like(counts, expected)), total, squares)
    table = Statistic(
        family="positions",
        name="card × position table (52 × 52)",
        test="Pearson χ², permutation-corrected (× 51/52)",
        statistic=_chi2(counts, np.full_like(counts, expected)) * (CARDS - 1) / CARDS,
        df=df,
        p_value=p,
    )
    per_position = [
        float(sps.chi2.sf(_chi2(col, np.full(CARDS, expected)), CARDS - 1)) for col in counts.T
    ]
    per_card = [
        float(sps.chi2.sf(_chi2(row, np.full(CARDS, expected)), CARDS - 1)) for row in counts
    ]
    z2 = (counts - expected) ** 2 / (expected * (1 - 1 / CARDS))
    cells = [float(v) for v in sps.chi2.sf(z2, 1).ravel()]
    statistics = [
        table,
        _worst("positions", "worst position (52 tests)", "χ² 51 df, Bonferroni × 52", per_position),
        _worst("positions", "worst card (52 tests)", "χ² 51 df, Bonferroni × 52", per_card),
        _ks("positions", "per-position p-values", per_position),
        _ks("positions", "per-card p-values", per_card),
    ]
    return statistics, cells, {"position": tuple(per_position), "card": tuple(per_card)}


def _pairs(t: Tally) -> tuple[list[Statistic], dict[str, tuple[float, ...]]]:
    counts = t.pairs.astype(np.float64)
    off = ~np.eye(CARDS, dtype=np.bool_)
    expected = t.shuffles / CARDS
    statistic = _chi2(counts[off], np.full(off.sum(), expected))
    total, squares = _weights("pairs", CARDS)
    p, df = mixture_sf(statistic, total, squares)
    rows: list[float] = []
    for a in range(CARDS):
        successors = counts[a][off[a]]
        mean = successors.sum() / (CARDS - 1)
        rows.append(float(sps.chi2.sf(_chi2(successors, np.full(CARDS - 1, mean)), CARDS - 2)))
    statistics = [
        Statistic(
            family="pairs",
            name="a immediately followed by b (52 × 51)",
            test="Pearson χ², Welch–Satterthwaite",
            statistic=statistic,
            df=df,
            p_value=p,
        ),
        _worst("pairs", "worst predecessor (52 tests)", "χ² 50 df, Bonferroni × 52", rows),
        _ks("pairs", "per-predecessor p-values", rows),
    ]
    return statistics, {"pair_row": tuple(rows)}


def _runs(t: Tally) -> list[Statistic]:
    observed = t.runs[1:].astype(np.float64)
    expected = np.array(eulerian_probabilities(CARDS)) * t.shuffles
    # pool the thin tails into their neighbours until every cell expects enough
    lo, hi = 0, len(expected)
    while lo < hi - 3 and expected[lo] < _MIN_EXPECTED:  # keep at least two cells
        lo += 1
    while hi - 3 > lo and expected[hi - 1] < _MIN_EXPECTED:
        hi -= 1
    obs = np.concatenate(
        [[observed[: lo + 1].sum()], observed[lo + 1 : hi - 1], [observed[hi - 1 :].sum()]]
    )
    exp = np.concatenate(
        [[expected[: lo + 1].sum()], expected[lo + 1 : hi - 1], [expected[hi - 1 :].sum()]]
    )
    statistic = _chi2(obs, exp)
    df = len(obs) - 1
    return [
        Statistic(
            family="runs",
            name=f"ascending runs per deck ({lo + 1}..{hi} pooled at the ends)",
            test="χ² vs Eulerian numbers",
            statistic=statistic,
            df=float(df),
            p_value=float(sps.chi2.sf(statistic, df)),
        )
    ]


def _serial(t: Tally) -> list[Statistic]:
    n = t.shuffles
    s1, s2 = CARDS * (CARDS - 1) // 2, (CARDS - 1) * CARDS * (2 * CARDS - 1) // 6
    mean0 = Fraction(s1 * s1 - s2, CARDS)  # E Σ_p c_p c_(p+1) = 51 · E[XY], X ≠ Y
    mean = Fraction(t.serial_sum, n)
    variance = (Fraction(t.serial_squares, n) - mean * mean) * n / max(n - 1, 1)
    z_within = float((mean - mean0) / Fraction(math.sqrt(float(variance) / n)))
    variance_top = (CARDS * CARDS - 1) / 3  # of 2X - 51, X uniform on 0..51
    z_across = t.across_sum / (variance_top * math.sqrt(max(t.across_pairs, 1)))
    return [
        Statistic(
            family="serial",
            name="lag-1 within a deck: Σ card_p · card_(p+1)",
            test="z test vs exact mean",
            statistic=z_within,
            df=None,
            p_value=float(2 * sps.norm.sf(abs(z_within))),
        ),
        Statistic(
            family="serial",
            name="lag-1 across consecutive shuffles: top cards",
            test="z test of the autocorrelation",
            statistic=z_across,
            df=None,
            p_value=float(2 * sps.norm.sf(abs(z_across))),
        ),
    ]


def _gaps(t: Tally) -> list[Statistic]:
    n = t.shuffles
    spacings = (CARDS // SUIT) * (SUIT - 1)
    mean0 = gap_probabilities() * spacings
    mean = t.gaps / n
    covariance = t.gap_outer / n - np.outer(mean, mean)
    delta = (mean - mean0)[:-1]  # the cells sum to 48 in every deck: drop one
    inverse = np.linalg.pinv(covariance[:-1, :-1], hermitian=True)
    df = int(np.linalg.matrix_rank(covariance[:-1, :-1], hermitian=True))
    statistic = float(n * delta @ inverse @ delta)
    return [
        Statistic(
            family="gaps",
            name="distance to the next card of the same suit (1..24, ≥ 25)",
            test="Mahalanobis χ², covariance from the decks",
            statistic=statistic,
            df=float(df),
            p_value=float(sps.chi2.sf(statistic, df)),
        )
    ]


def _exchange(t: Tally) -> tuple[list[Statistic], dict[str, tuple[float, ...]]]:
    places: list[float] = []
    total, dfs = 0.0, 0
    for m, row in enumerate(t.reinserted):
        cells = CARDS - DEALT + m + 1
        observed = row[:cells].astype(np.float64)
        statistic = _chi2(observed, np.full(cells, observed.sum() / cells))
        total, dfs = total + statistic, dfs + cells - 1
        places.append(float(sps.chi2.sf(statistic, cells - 1)))
    received: list[float] = []
    for k in range(t.replacements.shape[0]):
        for slot in range(k + 1):
            observed = t.replacements[k, slot].astype(np.float64)
            expected = np.full(CARDS, observed.sum() / CARDS)
            received.append(float(sps.chi2.sf(_chi2(observed, expected), CARDS - 1)))
    statistics = [
        Statistic(
            family="exchange",
            name="reinsertion places, discards 1..5 (independent, summed)",
            test="χ² uniform over 43..47 places",
            statistic=total,
            df=float(dfs),
            p_value=float(sps.chi2.sf(total, dfs)),
        ),
        _worst("exchange", "worst reinsertion place test (5)", "χ², Bonferroni × 5", places),
        _worst(
            "exchange",
            "worst replacement card test (k = 1..5, each slot: 15)",
            "χ² 51 df, Bonferroni × 15",
            received,
        ),
    ]
    return statistics, {"reinsertion": tuple(places), "replacement": tuple(received)}


def run_tests(t: Tally) -> Tests:
    """Every test of the report on one tally."""
    positions, cells, lines = _positions(t)
    pairs, pair_lines = _pairs(t)
    exchange, exchange_lines = _exchange(t)
    statistics = [*positions, *pairs, *_runs(t), *_serial(t), *_gaps(t), *exchange]
    return Tests(
        statistics=tuple(statistics),
        cell_p_values=tuple(cells),
        line_p_values={**lines, **pair_lines, **exchange_lines},
    )
