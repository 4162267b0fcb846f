"""The server's bonus figure (service/reports/theory.py: one hand of each of the 7,462 kinds,
weighed by how many hands are of that kind, no numpy) equals the enumeration of all
2,598,960 hands by the simulator's lookup tables, for the presets and for paytables, floors
and caps that are not theirs."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from russian_poker.events.ruleset import Ruleset
from russian_poker.service.reports.theory import HANDS, bonus_rtp, hand_kinds
from russian_poker.service.rules.presets import make_ruleset
from russian_poker.service.tools.simulation import lookup
from russian_poker.service.tools.simulation.exact import all_hands
from russian_poker.service.tools.simulation.game import compile_game


@pytest.fixture(scope="module")
def strengths() -> Any:
    return lookup.strengths(all_hands())


def enumerated(rules: Ruleset, strengths: Any) -> Fraction:
    """Every hand, settled by the simulator's compiled game (what the server used to run)."""
    game = compile_game(rules)
    distinct, where = np.unique(strengths, return_inverse=True)
    net = np.array([game.bonus_net(int(value)) for value in distinct], dtype=np.int64)
    total = int(net[where].sum(dtype=np.int64))
    return 1 + Fraction(total, HANDS * game.bonus)


def test_the_kinds_cover_every_hand_once() -> None:
    kinds = hand_kinds()
    assert len(kinds) == 7_462
    assert sum(weight for _, weight in kinds) == HANDS
    assert len({frozenset(cards) for cards, _ in kinds}) == len(kinds)


@pytest.mark.parametrize(
    ("preset", "overrides"),
    [
        ("oasis", {}),
        ("russian", {}),
        ("russian-online", {}),
        ("oasis", {"bonus_min": 500, "max_payout": 20_000}),  # the cap bites
        ("russian", {"bonus_min_hand": "straight"}),
        ("russian-online", {"bonus_paytable": {"three_of_a_kind": 7, "straight": 30}}),
    ],
)
def test_the_bonus_figure_is_the_enumeration(
    preset: str, overrides: dict[str, Any], strengths: Any
) -> None:
    rules = make_ruleset(preset, overrides)
    assert bonus_rtp(rules) == enumerated(rules, strengths)


def test_no_bonus_no_figure() -> None:
    assert bonus_rtp(make_ruleset("oasis", {"bonus_enabled": False})) is None
