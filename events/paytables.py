"""The hands the paytables name, and the paytables a ruleset starts from.

Categories in order of rank (``no_game`` lowest); the bonus's thresholds add ``three_aces``
between trips and a straight. A paytable maps a category to what it pays per unit staked.
"""

from __future__ import annotations

from typing import Final, Literal

__all__ = [
    "BONUS_THRESHOLDS",
    "CATEGORY_LABELS",
    "DEFAULT_BET_PAYTABLE",
    "DEFAULT_BONUS_PAYTABLE",
    "BonusThreshold",
    "CategoryLabel",
]

CategoryLabel = Literal[
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
]
CATEGORY_LABELS: Final[tuple[CategoryLabel, ...]] = (
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

BonusThreshold = Literal[
    "pair",
    "two_pair",
    "three_of_a_kind",
    "three_aces",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
    "royal_flush",
]
"""The lowest first-five-card hand the bonus pays: a category, or ``three_aces`` (seed 003:
three aces or better, i.e. trips of aces or any higher category)."""
BONUS_THRESHOLDS: Final[tuple[BonusThreshold, ...]] = (
    "pair",
    "two_pair",
    "three_of_a_kind",
    "three_aces",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
    "royal_flush",
)

DEFAULT_BET_PAYTABLE: Final[dict[CategoryLabel, int]] = {
    "ak": 1,
    "pair": 1,
    "two_pair": 2,
    "three_of_a_kind": 3,
    "straight": 4,
    "flush": 5,
    "full_house": 7,
    "four_of_a_kind": 20,
    "straight_flush": 50,
    "royal_flush": 100,
}
DEFAULT_BONUS_PAYTABLE: Final[dict[CategoryLabel, int]] = {
    "three_of_a_kind": 5,
    "straight": 40,
    "flush": 50,
    "full_house": 70,
    "four_of_a_kind": 200,
    "straight_flush": 500,
    "royal_flush": 1000,
}
