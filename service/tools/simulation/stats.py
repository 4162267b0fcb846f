"""Tallies of simulated rounds (exact integers) and the statistics derived from them.

Workers return a :class:`Tally` per chunk of rounds; tallies add up exactly (Python ints),
so the result does not depend on how many processes played or in which order chunks came
back. Floats appear only in :func:`summarise`.

Definitions (per simulated box, one box per round):

* house edge: the player's expected loss per initial ante, ``-E[net] / ante``;
* element of risk: the expected loss per unit of everything wagered on the main game
  (ante, Bet, insurance and draw fees), ``-E[net] / E[wagered]``;
* RTP: ``1 - element of risk`` (returned / wagered);
* standard deviation: of the net result per round, in antes;
* 95% confidence intervals: ±1.96 standard errors (the ratio estimates by the delta method).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from russian_poker.events.paytables import CATEGORY_LABELS
from russian_poker.service.tools.simulation.engine import OUTCOMES, RoundResult

__all__ = ["DRAWS", "Tally", "summarise", "tally_arrays", "tally_results"]

Z95: Final = 1.959963984540054
DRAWS: Final = (
    "none",
    "exchange_1",
    "exchange_2",
    "exchange_3",
    "exchange_4",
    "exchange_5",
    "sixth",
)


def _zeros(n: int) -> list[int]:
    return [0] * n


@dataclass
class Tally:
    """Exact sums over rounds; money in minor units."""

    rounds: int = 0
    net: int = 0
    net_sq: int = 0
    wagered: int = 0
    wagered_sq: int = 0
    net_wagered: int = 0
    bonus_net: int = 0
    bonus_net_sq: int = 0
    capped: int = 0
    insured: int = 0
    insurance: int = 0
    dealer_draws: int = 0
    outcomes: list[int] = field(default_factory=lambda: _zeros(len(OUTCOMES)))
    categories: list[int] = field(default_factory=lambda: _zeros(len(CATEGORY_LABELS)))
    dealer_categories: list[int] = field(default_factory=lambda: _zeros(len(CATEGORY_LABELS)))
    draws: list[int] = field(default_factory=lambda: _zeros(len(DRAWS)))

    def add(self, other: Tally) -> None:
        for name in (
            "rounds",
            "net",
            "net_sq",
            "wagered",
            "wagered_sq",
            "net_wagered",
            "bonus_net",
            "bonus_net_sq",
            "capped",
            "insured",
            "insurance",
            "dealer_draws",
        ):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for name in ("outcomes", "categories", "dealer_categories", "draws"):
            mine: list[int] = getattr(self, name)
            for i, count in enumerate(getattr(other, name)):
                mine[i] += count


def _sum(values: npt.NDArray[np.int64]) -> int:
    return int(values.sum(dtype=np.int64))


def _counts(values: npt.NDArray[np.int64], size: int) -> list[int]:
    return [int(c) for c in np.bincount(values, minlength=size)[:size]]


def tally_arrays(
    net: npt.NDArray[np.int64],
    wagered: npt.NDArray[np.int64],
    outcome: npt.NDArray[np.int64],
    category: npt.NDArray[np.int64],
    dealer_category: npt.NDArray[np.int64],
    bonus_net: npt.NDArray[np.int64],
    capped: npt.NDArray[np.int64],
    *,
    drew: npt.NDArray[np.int64] | None = None,
    insurance: npt.NDArray[np.int64] | None = None,
    dealer_draw: npt.NDArray[np.int64] | None = None,
) -> Tally:
    """The tally of per-round result arrays (int64 sums: a chunk is far too small to
    overflow them; chunks are added as Python ints)."""
    rounds = len(net)
    tally = Tally(
        rounds=rounds,
        net=_sum(net),
        net_sq=_sum(net * net),
        wagered=_sum(wagered),
        wagered_sq=_sum(wagered * wagered),
        net_wagered=_sum(net * wagered),
        bonus_net=_sum(bonus_net),
        bonus_net_sq=_sum(bonus_net * bonus_net),
        capped=_sum(capped),
        outcomes=_counts(outcome, len(OUTCOMES)),
        categories=_counts(category, len(CATEGORY_LABELS)),
        dealer_categories=_counts(dealer_category, len(CATEGORY_LABELS)),
    )
    if drew is not None:
        tally.draws = _counts(drew, len(DRAWS))
    else:
        tally.draws[0] = rounds
    if insurance is not None:
        tally.insured = int(np.count_nonzero(insurance))
        tally.insurance = _sum(insurance)
    if dealer_draw is not None:
        tally.dealer_draws = int(np.count_nonzero(dealer_draw))
    return tally


def tally_results(results: Sequence[RoundResult]) -> Tally:
    """The tally of rounds played one at a time."""
    if not results:
        return Tally()
    columns = np.array(results, dtype=np.int64).T
    (net, wagered, outcome, category, dealer, drew, insurance, asked, bonus, capped) = columns
    return tally_arrays(
        net,
        wagered,
        outcome,
        category,
        dealer,
        bonus,
        capped,
        drew=drew,
        insurance=insurance,
        dealer_draw=asked,
    )


def _interval(centre: float, error: float) -> list[float]:
    return [centre - Z95 * error, centre + Z95 * error]


def summarise(tally: Tally, *, ante: int, bonus: int) -> dict[str, Any]:
    """The report's statistics: house edge, element of risk, RTP, standard deviation,
    frequencies and 95% confidence intervals."""
    n = tally.rounds
    if n == 0:
        raise ValueError("no rounds played")
    mean = tally.net / n
    variance = max(tally.net_sq / n - mean * mean, 0.0)
    sd = math.sqrt(variance)
    edge = -mean / ante
    edge_error = sd / ante / math.sqrt(n)
    mean_wager = tally.wagered / n
    risk = -mean / mean_wager
    # Delta method for the ratio -E[net]/E[wagered]: the spread of net + risk * wagered.
    residual = (
        tally.net_sq + 2 * risk * tally.net_wagered + risk * risk * tally.wagered_sq
    ) / n - (mean + risk * mean_wager) ** 2
    risk_error = math.sqrt(max(residual, 0.0) / n) / mean_wager
    risk_interval = _interval(risk, risk_error)
    result: dict[str, Any] = {
        "rounds": n,
        "ante": ante,
        "house_edge": edge,
        "house_edge_ci95": _interval(edge, edge_error),
        "element_of_risk": risk,
        "element_of_risk_ci95": risk_interval,
        "rtp": 1 - risk,
        "rtp_ci95": [1 - risk_interval[1], 1 - risk_interval[0]],
        "std_dev": sd / ante,
        "average_wager": mean_wager / ante,
        "net": tally.net,
        "wagered": tally.wagered,
        "capped": tally.capped,
        "outcomes": {name: c / n for name, c in zip(OUTCOMES, tally.outcomes, strict=True)},
        "final_hands": {
            label: c / n for label, c in zip(CATEGORY_LABELS, tally.categories, strict=True)
        },
        "dealer_hands": {
            label: c / n for label, c in zip(CATEGORY_LABELS, tally.dealer_categories, strict=True)
        },
        "draws": {name: c / n for name, c in zip(DRAWS, tally.draws, strict=True)},
        "insured": tally.insured / n,
        "dealer_draws": tally.dealer_draws / n,
    }
    if bonus:
        bonus_mean = tally.bonus_net / n
        bonus_sd = math.sqrt(max(tally.bonus_net_sq / n - bonus_mean**2, 0.0))
        bonus_edge = -bonus_mean / bonus
        bonus_interval = _interval(bonus_edge, bonus_sd / bonus / math.sqrt(n))
        result["bonus"] = {
            "stake": bonus,
            "house_edge": bonus_edge,
            "house_edge_ci95": bonus_interval,
            "rtp": 1 - bonus_edge,
            "rtp_ci95": [1 - bonus_interval[1], 1 - bonus_interval[0]],
            "std_dev": bonus_sd / bonus,
        }
    return result
