"""With the ``oasis`` preset and no draws the game is Caribbean Stud, and the simulator
reproduces its exact house edges within its 95% confidence interval.

The exact figures come from ``python -m russian_poker.service.tools.simulation.exact``: a complete
enumeration of all 2,598,960 × 1,533,939 = 3,986,646,103,440 (player, dealer) deals. Its total
losses are exactly one fifth of those Wizard of Odds publishes for Caribbean Stud (their count
also chooses which dealer card is the upcard, 19,933,230,517,200 deals): raise always
3,310,360,338,060 (16.607%), AK or better 1,132,600,203,540 (5.682%), pair or better
1,090,272,101,460 (5.470%).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Final

import pytest

from russian_poker.events.paytables import DEFAULT_BET_PAYTABLE
from russian_poker.service.rules.presets import make_ruleset
from russian_poker.service.tools.simulation.runner import Plan, simulate
from russian_poker.service.tools.simulation.stats import summarise

DEALS: Final = 2_598_960 * 1_533_939
WIZARD_DEALS: Final = 19_933_230_517_200
LOSS: Final = {  # in antes, over DEALS
    "raise-all": 662_072_067_612,
    "ak-or-better": 226_520_040_708,
    "pair-or-better": 218_054_420_292,
}
WIZARD_LOSS: Final = {
    "raise-all": 3_310_360_338_060,
    "ak-or-better": 1_132_600_203_540,
    "pair-or-better": 1_090_272_101_460,
}
PLAY_RATE: Final = {  # hands played: all; AK or better; pair or better (of 2,598,960)
    "raise-all": Fraction(1),
    "ak-or-better": Fraction(2_598_960 - 1_135_260, 2_598_960),
    "pair-or-better": Fraction(2_598_960 - 1_302_540, 2_598_960),
}
ROUNDS: Final = 1 << 23


def test_the_oasis_preset_without_draws_is_caribbean_stud() -> None:
    rules = make_ruleset("oasis")
    assert rules.ante_pays_on_win and not rules.double_combination
    assert not rules.dealer_draw and not rules.buy_sixth_card
    assert rules.bet_paytable == DEFAULT_BET_PAYTABLE  # 1,1,2,3,4,5,7,20,50,100
    assert WIZARD_DEALS == 5 * DEALS
    for strategy, loss in LOSS.items():
        assert 5 * loss == WIZARD_LOSS[strategy]


@pytest.mark.slow
@pytest.mark.parametrize("strategy", list(LOSS))
def test_simulated_house_edge_matches_the_exact_one(strategy: str) -> None:
    rules = make_ruleset("oasis")
    plan = Plan(rules=rules, strategy=strategy, rounds=ROUNDS, seed=5224, bonus=0, workers=2)
    summary = summarise(simulate(plan), ante=rules.ante_min, bonus=0)
    exact_edge = Fraction(LOSS[strategy], DEALS)
    low, high = summary["house_edge_ci95"]
    assert low <= exact_edge <= high, (float(exact_edge), low, high)
    # The element of risk divides by the exact average wager, 1 + 2 × the play rate.
    exact_risk = exact_edge / (1 + 2 * PLAY_RATE[strategy])
    low, high = summary["element_of_risk_ci95"]
    assert low <= exact_risk <= high, (float(exact_risk), low, high)
    low, high = summary["house_edge_ci95"]
    assert high - low < 0.011  # about ±0.2 to ±0.26 points: a test with teeth
