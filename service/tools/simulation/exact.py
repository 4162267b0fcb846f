"""Exact figures of play-or-fold strategies, by complete enumeration (no sampling).

For every one of the C(52,5) player hands P and every one of the C(47,5) dealer hands D
disjoint from it (3,986,646,103,440 deals), the result of a strategy that plays P or
folds depends only on whether the dealer qualifies and how the strengths compare. So per
P we need three counts over disjoint D: dealer without a game, qualifying and weaker,
equal. Counting hands *disjoint* from P is inclusion–exclusion over the subsets S of P:

    #{D ∩ P = ∅ : s(D) < t} = Σ_{S ⊆ P} (-1)^|S| · #{D ⊇ S : s(D) < t}

and ``#{D ⊇ S : s(D) < t}`` at ``t = s(P)`` is a rank inside the group of hands containing
S, read off one sort of all (S, hand ⊇ S) pairs per |S|. The whole computation takes a
minute or two and a few GB of memory; it is run by hand::

    python -m russian_poker.service.tools.simulation.exact [PRESET ...]

and reproduces the totals Wizard of Odds publishes for Caribbean Stud (raise always:
16.607%, pair or better: 5.470%, AK or better: 5.682%, over 19,933,230,517,200 = 5 × our
deals, their count including which dealer card is the upcard).
"""

from __future__ import annotations

import sys
from fractions import Fraction
from itertools import combinations
from math import comb
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from russian_poker.service.rules.hands import Category
from russian_poker.service.rules.presets import make_ruleset
from russian_poker.service.tools.simulation import lookup
from russian_poker.service.tools.simulation.game import compile_game

__all__ = ["DealerCounts", "all_hands", "bonus_figures", "dealer_counts", "exact_figures", "main"]

HANDS: Final = comb(52, 5)
DEALS_PER_HAND: Final = comb(47, 5)
_RANK_BITS: Final = 13  # 7,462 distinct strengths fit in 13 bits

Counts = npt.NDArray[np.int64]


class DealerCounts:
    """Per player hand (in ``combinations(range(52), 5)`` order): how many disjoint dealer
    hands have no game, qualify and are weaker, and are equal (and qualify)."""

    def __init__(self, hands: npt.NDArray[np.int8], strengths: npt.NDArray[np.int32]) -> None:
        self.hands = hands
        self.strengths = strengths
        self.no_game, self.weaker, self.equal = _count(hands, strengths)
        self.stronger = DEALS_PER_HAND - self.no_game - self.weaker - self.equal


def _subset_ids(hands: npt.NDArray[np.int8], picks: tuple[int, ...]) -> Counts:
    """The colex index of each hand's subset at positions ``picks`` (cards ascending)."""
    ids = np.zeros(len(hands), dtype=np.int64)
    for i, position in enumerate(picks):
        cards = hands[:, position].astype(np.int64)
        binomial = np.array([comb(c, i + 1) for c in range(52)], dtype=np.int64)
        ids += binomial[cards]
    return ids


def _ranks_within_subsets(
    subset: Counts, dense: Counts, qualifying_rank: int
) -> tuple[Counts, Counts, Counts]:
    """For pairs (S, hand ⊇ S) given as parallel arrays: how many hands containing the same
    S rank strictly below, at most equal, and below qualifying."""
    keys = (subset << _RANK_BITS) | dense
    order = np.argsort(keys, kind="stable")
    ordered = keys[order]
    del keys
    n = len(ordered)
    positions = np.arange(n, dtype=np.int64)
    new_group = np.empty(n, dtype=bool)
    new_group[0] = True
    np.not_equal(ordered[1:] >> _RANK_BITS, ordered[:-1] >> _RANK_BITS, out=new_group[1:])
    new_run = np.empty(n, dtype=bool)
    new_run[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=new_run[1:])
    group_start = np.maximum.accumulate(np.where(new_group, positions, 0))
    run_start = np.maximum.accumulate(np.where(new_run, positions, 0))
    # A run ends where the next one starts.
    starts = np.flatnonzero(new_run)
    lengths = np.diff(np.append(starts, n))
    run_end = np.repeat(starts + lengths, lengths)
    starts_of_groups = np.flatnonzero(new_group)
    no_game = np.add.reduceat(
        ((ordered & ((1 << _RANK_BITS) - 1)) < qualifying_rank).astype(np.int64), starts_of_groups
    )
    group_sizes = np.diff(np.append(starts_of_groups, n))
    no_game_each = np.repeat(no_game, group_sizes)
    results = []
    for values in (run_start - group_start, run_end - group_start, no_game_each):
        back = np.empty(n, dtype=np.int64)
        back[order] = values
        results.append(back)
    return results[0], results[1], results[2]


def _count(
    hands: npt.NDArray[np.int8], strengths: npt.NDArray[np.int32]
) -> tuple[Counts, Counts, Counts]:
    values, inverse = np.unique(strengths, return_inverse=True)
    dense = inverse.astype(np.int64)
    qualifying_rank = int(np.searchsorted(values, lookup.AK_MIN))
    n = len(hands)
    below = np.zeros(n, dtype=np.int64)  # Σ± #{D ⊇ S : rank(D) < rank(P)}
    at_most = np.zeros(n, dtype=np.int64)  # Σ± #{D ⊇ S : rank(D) <= rank(P)}
    no_game = np.zeros(n, dtype=np.int64)  # Σ± #{D ⊇ S : D has no game}
    for size in range(6):
        sign = -1 if size % 2 else 1
        patterns = list(combinations(range(5), size))
        # Every (S, hand ⊇ S) pair of this size: all hands holding S sit in one group.
        subset = np.concatenate([_subset_ids(hands, picks) for picks in patterns])
        ranks = np.tile(dense, len(patterns))
        less, upto, none = _ranks_within_subsets(subset, ranks, qualifying_rank)
        del subset, ranks
        below += sign * less.reshape(len(patterns), n).sum(axis=0)
        at_most += sign * upto.reshape(len(patterns), n).sum(axis=0)
        no_game += sign * none.reshape(len(patterns), n).sum(axis=0)
    qualifying = strengths >= lookup.AK_MIN
    weaker = np.where(qualifying, below - no_game, 0)
    equal = np.where(qualifying, at_most - below, 0)
    return no_game, weaker, equal


def all_hands() -> npt.NDArray[np.int8]:
    """Every five-card hand, cards ascending, in ``combinations(range(52), 5)`` order."""
    from itertools import chain

    flat = np.fromiter(chain.from_iterable(combinations(range(52), 5)), dtype=np.int8)
    return flat.reshape(-1, 5)


def dealer_counts() -> DealerCounts:
    hands = all_hands()
    return DealerCounts(hands, lookup.strengths(hands))


def _sum(values: npt.NDArray[np.int64]) -> int:
    return int(values.sum(dtype=np.int64))


def exact_figures(counts: DealerCounts, preset: str, threshold: int) -> dict[str, Any]:
    """House edge, element of risk, RTP and standard deviation (per ante) of playing every
    hand of at least ``threshold`` strength on ``preset``, never drawing or insuring and
    taking the ante win when the dealer has no game; exact fractions and floats."""
    game = compile_game(make_ruleset(preset))
    ante = game.ante
    columns = [counts.hands[:, i].astype(np.intp) for i in range(5)]
    multiple = game.multipliers5[lookup.indexes5(*columns)]
    ante_win = ante if game.rules.ante_pays_on_win else 0
    played = counts.strengths >= threshold
    folded = HANDS - int(np.count_nonzero(played))
    no_game = _sum(counts.no_game[played])
    stronger = _sum(counts.stronger[played])
    deals = HANDS * DEALS_PER_HAND
    no_game_win = game.cap(ante)
    net = no_game * no_game_win - 3 * ante * stronger - folded * DEALS_PER_HAND * ante
    net_sq = no_game * no_game_win**2 + 9 * ante**2 * stronger + folded * DEALS_PER_HAND * ante**2
    # Winning deals, grouped by what they pay (a handful of distinct multiples).
    for value in np.unique(multiple[played]):
        weaker = _sum(counts.weaker[played & (multiple == value)])
        paid = game.cap(2 * ante * int(value) + ante_win)
        net += weaker * paid
        net_sq += weaker * paid**2
    wagered = (HANDS - folded) * DEALS_PER_HAND * 3 * ante + folded * DEALS_PER_HAND * ante
    edge = Fraction(-net, deals * ante)
    risk = Fraction(-net, wagered)
    mean = Fraction(net, deals)
    variance = Fraction(net_sq, deals) - mean * mean
    return {
        "deals": deals,
        "total_loss_antes": Fraction(-net, ante),
        "house_edge": edge,
        "element_of_risk": risk,
        "rtp": 1 - risk,
        "std_dev": float(variance) ** 0.5 / ante,
        "play_rate": Fraction(HANDS - folded, HANDS),
    }


def bonus_figures(preset: str) -> dict[str, Any]:
    """The bonus bet's exact return on the first five cards (no strategy involved)."""
    game = compile_game(make_ruleset(preset))
    hands = all_hands()
    values = lookup.strengths(hands)
    multiples = np.array([game.bonus_multiple(int(v)) for v in np.unique(values)])
    per_hand = multiples[np.searchsorted(np.unique(values), values)]
    stake = game.bonus
    won = np.array([game.cap(stake * int(m)) for m in range(int(per_hand.max()) + 1)])
    net = np.where(per_hand > 0, won[per_hand], -stake)
    total = _sum(net)
    edge = Fraction(-total, HANDS * stake)
    mean = Fraction(total, HANDS)
    variance = Fraction(_sum(net * net), HANDS) - mean * mean
    return {
        "house_edge": edge,
        "rtp": 1 - edge,
        "hit_rate": Fraction(int(np.count_nonzero(per_hand)), HANDS),
        "std_dev": float(variance) ** 0.5 / stake,
    }


THRESHOLDS: Final = {
    "raise-all": 0,
    "ak-or-better": int(Category.AK) << lookup.CATEGORY_SHIFT,
    "pair-or-better": int(Category.PAIR) << lookup.CATEGORY_SHIFT,
}


def main(argv: list[str] | None = None) -> None:
    """Print the exact figures of the simple strategies for each preset named."""
    presets = (argv if argv is not None else sys.argv[1:]) or ["oasis", "russian", "russian-online"]
    counts = dealer_counts()
    for preset in presets:
        for name, threshold in THRESHOLDS.items():
            figures = exact_figures(counts, preset, threshold)
            print(
                f"{preset:<15} {name:<15} house edge {float(figures['house_edge']):.6%}  "
                f"element of risk {float(figures['element_of_risk']):.6%}  "
                f"RTP {float(figures['rtp']):.6%}  std dev {figures['std_dev']:.6f}  "
                f"total loss {figures['total_loss_antes']} antes over {figures['deals']:,} deals"
            )
        bonus = bonus_figures(preset)
        print(
            f"{preset:<15} {'bonus':<15} house edge {float(bonus['house_edge']):.6%}  "
            f"RTP {float(bonus['rtp']):.6%}  hit rate {float(bonus['hit_rate']):.6%}  "
            f"std dev {bonus['std_dev']:.6f}"
        )


if __name__ == "__main__":
    main()
