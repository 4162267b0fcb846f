"""The theoretical figures beside the actual RTP: the presets' published ones still match a
fresh simulation of the same ruleset, and any other ruleset is simulated once, offline, by
``russian-poker rtp-theory``, stored, and read by the server."""

from __future__ import annotations

from collections.abc import AsyncIterator

import asyncpg
import pytest

from russian_poker.events.postgres.pool import create_pool
from russian_poker.events.postgres.rtp import RtpStore
from russian_poker.service.reports.theory import (
    PRESET_MAIN,
    SIMULATION_SEED,
    TheoryCache,
    bonus_rtp,
    theory,
)
from russian_poker.service.rules.presets import make_ruleset
from russian_poker.service.tools.simulation.runner import Plan, simulate
from russian_poker.service.tools.simulation.stats import summarise
from russian_poker.service.tools.theory import simulate_missing
from tests.service.conftest import truncate_everything


@pytest.fixture
async def pool(database_url: str) -> AsyncIterator[asyncpg.Pool[asyncpg.Record]]:
    pool = await create_pool(database_url)
    await truncate_everything(pool)
    try:
        yield pool
    finally:
        await pool.close()


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
    found = theory(rules, None, bonus_rtp(rules))
    assert found.main_source == "docs/game-math.md" and found.main_rtp == PRESET_MAIN[preset].rtp


async def test_another_ruleset_is_simulated_once_and_kept(
    pool: asyncpg.Pool[asyncpg.Record],
) -> None:
    rules = make_ruleset("oasis", {"max_exchange_cards": 0})
    store, cache = RtpStore(pool), TheoryCache()
    # Until rtp-theory has run, the server knows the bonus and not the main figure, and
    # looks the main one up again next time.
    before = await cache.get(rules, store)
    assert before.main_rtp is None and before.main_source is None
    assert before.bonus_rtp == bonus_rtp(rules)
    assert await cache.get(rules, store) is not before
    async with pool.acquire() as conn:
        [stored] = await simulate_missing(conn, [rules, make_ruleset("oasis")], rounds=4_096)
        assert stored.fingerprint == rules.fingerprint  # the preset has its own figure
        assert await simulate_missing(conn, [rules], rounds=4_096) == []  # once
    found = await cache.get(rules, store)
    assert found.main_source == "simulated" and found.main_rounds == 4_096
    assert found.main_ci95 is not None and found.main_rtp is not None
    assert found.main_ci95[0] < found.main_rtp < found.main_ci95[1]
    # Caribbean Stud, played by the AK rules: about 97.4 % (docs/game-math.md).
    assert 0.9 < found.main_rtp < 1.05
    assert found.bonus_rtp is not None
    assert await cache.get(rules, store) is found  # complete: kept
