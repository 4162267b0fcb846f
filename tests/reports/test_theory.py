"""The theoretical figures beside the actual RTP: the presets' published ones still match a
fresh simulation of the same ruleset, and any other ruleset is simulated once and cached."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from russian_poker.service.reports.theory import PRESET_MAIN, SIMULATION_SEED, TheoryCache, compute
from russian_poker.service.rules.presets import make_ruleset
from russian_poker.service.tools.simulation.runner import Plan, simulate
from russian_poker.service.tools.simulation.stats import summarise


@pytest.mark.parametrize("preset", sorted(PRESET_MAIN))
def test_the_published_preset_figures_match_the_presets_as_they_are(preset: str) -> None:
    """If a preset's payouts change, its published figure is stale: this catches a change
    of more than a few tenths of a percent (the figure is then rerun and republished)."""
    rules = make_ruleset(preset)
    summary = summarise(
        simulate(Plan(rules=rules, strategy="basic", rounds=40_000, seed=SIMULATION_SEED)),
        ante=rules.ante_min,
        bonus=0,
    )
    low, high = summary["rtp_ci95"]
    error = (high - low) / 2 / 1.96
    assert abs(summary["rtp"] - PRESET_MAIN[preset].rtp) < 3.3 * error  # 99.9 %
    found = compute(rules)
    assert found.main_source == "docs/game-math.md" and found.main_rtp == PRESET_MAIN[preset].rtp


async def test_another_ruleset_is_simulated_once_and_kept() -> None:
    rules = make_ruleset("oasis", {"max_exchange_cards": 0})
    cache = TheoryCache(ThreadPoolExecutor(max_workers=1), rounds=4_096)
    try:
        assert cache.known(rules.fingerprint) is None
        found = await cache.get(rules)
        assert found.main_source == "simulated" and found.main_rounds == 4_096
        assert found.main_ci95[0] < found.main_rtp < found.main_ci95[1]
        # Caribbean Stud, played by the AK rules: about 97.4 % (docs/game-math.md).
        assert 0.9 < found.main_rtp < 1.05
        assert found.bonus_rtp is not None
        assert cache.known(rules.fingerprint) is found
        assert await cache.get(rules) is found
    finally:
        cache.close()
