"""A ruleset compiled for the simulator: stakes, payout tables and the money rules.

Every amount is an integer in minor units, computed exactly as ``service.rules.payouts``
does (``max_payout`` caps, ``half_payout`` insurance, ante 1:1 on a win, the dealer-draw
fee). What a winning Bet is paid comes from the core's own ``paid_for``: once per class
of five-card hands (a table aligned with ``lookup.STRENGTH5``) and, for six cards, once
per rank multiset and suited-rank mask, memoised.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations
from typing import Final

import numpy as np
import numpy.typing as npt

from russian_poker.events.paytables import CATEGORY_LABELS
from russian_poker.events.ruleset import Ruleset
from russian_poker.service.rules.combinations import bet_multiplier
from russian_poker.service.rules.hands import Category
from russian_poker.service.rules.payouts import bet_paytable, paid_for
from russian_poker.service.tools.simulation import lookup

__all__ = ["THREE_ACES_RANK", "TOP_RANK_SHIFT", "Game", "compile_game"]

THREE_ACES_RANK: Final = 14
TOP_RANK_SHIFT: Final = 16
"""The first comparison rank of a strength (the trips' rank for three of a kind)."""


@cache
def _multipliers5(
    paytable: tuple[tuple[str, int], ...], double: bool, straight_pair: bool
) -> npt.NDArray[np.int64]:
    """The Bet's multiple by five-card hand class, aligned with ``lookup.STRENGTH5``."""
    table = np.zeros(len(lookup.STRENGTH5), dtype=np.int64)
    prices = dict(paytable)
    if not double:
        # With one combination the Bet is paid for the hand's own category: that is what
        # ``paid_combinations`` returns then, and the equivalence tests hold it to that.
        by_category = np.array([prices.get(label, 0) for label in CATEGORY_LABELS])
        table[:] = by_category[lookup.STRENGTH5 >> lookup.CATEGORY_SHIFT]
        table[lookup.STRENGTH5 == 0] = 0
        return table
    rules = Ruleset(
        bet_paytable=prices,  # type: ignore[arg-type]
        double_combination=double,
        straight_pair_counts_as_two_straights=straight_pair,
    )
    pays = bet_paytable(rules)
    hands: list[tuple[int, ...]] = [lookup.representative(r) for r in lookup.rank_multisets(5)]
    hands += [tuple(ranks) for ranks in combinations(range(13), 5)]  # all spades: flushes
    for cards in hands:
        value = lookup.strength(cards)
        if value >= lookup.AK_MIN:
            paid = paid_for(lookup.card_texts(cards), rules)
            table[lookup.best_index5(cards)] = bet_multiplier(paid, pays)
    return table


@dataclass(frozen=True, eq=False)
class Game:
    """One ruleset, the ante and the bonus stake the simulated box plays with."""

    rules: Ruleset
    ante: int
    bonus: int
    multipliers5: npt.NDArray[np.int64]
    """The Bet's multiple (N to 1) by ``lookup.best_index5`` of a five-card hand."""
    bonus_multiples: tuple[int, ...]
    """The bonus multiple by category, 0 below ``bonus_min_hand``."""
    three_aces: bool
    fees: tuple[int, ...]
    """Draw fee in minor units for exchanging 1..5 cards."""
    sixth_fee: int
    insurance_floor: int | None
    """The lowest strength that may be insured, or None without insurance."""
    _six: dict[tuple[int, int], int] = field(default_factory=dict, init=False, repr=False)
    """Six-card multiples by (rank-key sum, suited-rank mask), filled as hands come up."""
    _five: list[int] = field(default_factory=list, init=False, repr=False)
    """``multipliers5`` as a list: indexing a list is faster than a numpy scalar."""

    def __post_init__(self) -> None:
        self._five.extend(self.multipliers5.tolist())

    # -- the Bet ---------------------------------------------------------------------------

    def multiplier(self, cards: Sequence[int]) -> int:
        """What a winning Bet on these 5 or 6 cards pays, N to 1 (``paid_for``)."""
        if len(cards) == 5:
            return self._five[lookup.best_index5(cards)]
        key = (sum(lookup.RANK_KEYS_6[c % 13] for c in cards), lookup.flush_mask(cards))
        found = self._six.get(key)
        if found is None:
            # Without five of a suit the paid combinations depend on the ranks alone; with
            # them, on the ranks and which ranks are suited. Either way ``key`` says it all.
            paid = paid_for(lookup.card_texts(cards), self.rules)
            found = self._six[key] = bet_multiplier(paid, bet_paytable(self.rules))
        return found

    def cap(self, won: int) -> int:
        """Winnings after ``max_payout``."""
        limit = self.rules.max_payout
        return won if limit is None or won <= limit else limit

    def insurance_range(self, cards: Sequence[int], value: int) -> tuple[int, int] | None:
        """The allowed insurance amounts, as ``payouts.insurance_range`` computes them."""
        if self.insurance_floor is None or value < self.insurance_floor:
            return None
        ceiling = self.cap(2 * self.ante * self.multiplier(cards))
        if self.rules.insurance_max == "half_payout":
            ceiling //= 2
        if ceiling < self.ante:
            return None
        return self.ante, ceiling

    # -- the bonus -------------------------------------------------------------------------

    def bonus_multiple(self, value: int) -> int:
        """The bonus multiple of a first-five strength."""
        category = value >> lookup.CATEGORY_SHIFT
        if (
            self.three_aces
            and category == Category.THREE_OF_A_KIND
            and (value >> TOP_RANK_SHIFT) & 0xF != THREE_ACES_RANK
        ):
            return 0
        return self.bonus_multiples[category]

    def bonus_net(self, value: int) -> int:
        """The bonus bet's result (won, or minus the stake) on a first-five strength."""
        if not self.bonus:
            return 0
        multiple = self.bonus_multiple(value)
        return self.cap(self.bonus * multiple) if multiple else -self.bonus


def compile_game(rules: Ruleset, *, ante: int | None = None, bonus: int | None = None) -> Game:
    """The ruleset ready to simulate; ``ante`` defaults to ``ante_min``, ``bonus`` (the
    bonus stake, 0 for none) to ``bonus_min`` when the table offers a bonus."""
    ante = rules.ante_min if ante is None else ante
    if bonus is None:
        bonus = rules.bonus_min if rules.bonus_enabled else 0
    if ante <= 0 or bonus < 0 or (bonus and not rules.bonus_enabled):
        raise ValueError("the ante must be positive and a bonus needs a table that offers one")
    floor = Category.from_label(rules.bonus_threshold_category)
    multiples = tuple(
        rules.bonus_paytable.get(label, 0) if Category.from_label(label) >= floor else 0
        for label in CATEGORY_LABELS
    )
    insurance = rules.insurance_min_hand
    return Game(
        rules=rules,
        ante=ante,
        bonus=bonus,
        multipliers5=_multipliers5(
            tuple(sorted(rules.bet_paytable.items())),
            rules.double_combination,
            rules.straight_pair_counts_as_two_straights,
        ),
        bonus_multiples=multiples,
        three_aces=rules.bonus_min_hand == "three_aces",
        fees=tuple(f * ante for f in rules.draw_fee_antes),
        sixth_fee=rules.sixth_card_fee_antes * ante,
        insurance_floor=(
            None
            if insurance is None
            else int(Category.from_label(insurance)) << lookup.CATEGORY_SHIFT
        ),
    )
