"""The run is reproducible across worker counts, and the verdict follows the documented rule."""

from __future__ import annotations

import dataclasses

import numpy as np

from russian_poker.service.tools.rng.report import decide
from russian_poker.service.tools.rng.run import run
from russian_poker.service.tools.rng.stats import Statistic
from russian_poker.service.tools.rng.stats import Tests as Results


def test_a_seeded_run_does_not_depend_on_the_number_of_workers() -> None:
    one = run(25_000, label="workers", workers=1)
    two = run(25_000, label="workers", workers=2)
    for field in dataclasses.fields(one):
        a, b = getattr(one, field.name), getattr(two, field.name)
        assert np.array_equal(a, b) if isinstance(a, np.ndarray) else a == b, field.name
    assert one.shuffles == 25_000


def test_fresh_seeds_give_fresh_decks() -> None:
    assert not np.array_equal(
        run(2000, label=None, workers=1).positions, run(2000, label=None, workers=1).positions
    )


def statistic(family: str, p: float) -> Statistic:
    return Statistic(
        family=family, name=f"{family} {p}", test="t", statistic=0.0, df=None, p_value=p
    )


def results_of(*stats: Statistic) -> Results:
    return Results(statistics=stats, cell_p_values=(), line_p_values={})


def test_a_statistic_fails_below_alpha_over_m_and_fails_its_family() -> None:
    # m = 4: the threshold is 0.0025, so 0.003 passes though it is below 0.01
    verdict = decide(
        results_of(
            statistic("a", 0.003), statistic("a", 0.5), statistic("b", 0.9), statistic("c", 1.0)
        )
    )
    assert verdict.passed and verdict.threshold == 0.0025
    verdict = decide(
        results_of(
            statistic("a", 0.002), statistic("a", 0.5), statistic("b", 0.9), statistic("c", 1.0)
        )
    )
    assert not verdict.passed
    assert verdict.families == {"a": False, "b": True, "c": True}
    assert verdict.failed == (True, False, False, False)
