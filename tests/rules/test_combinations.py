"""The two-combination rule (docs/rules.md §3) and the Bet multiplier it yields."""

from __future__ import annotations

import random
from collections.abc import Mapping

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from russian_poker.service.rules.cards import FULL_DECK
from russian_poker.service.rules.combinations import Combination, bet_multiplier, paid_combinations
from russian_poker.service.rules.hands import Category, evaluate

PAYTABLE: Mapping[Category, int] = {
    Category.AK: 1,
    Category.PAIR: 1,
    Category.TWO_PAIR: 2,
    Category.THREE_OF_A_KIND: 3,
    Category.STRAIGHT: 4,
    Category.FLUSH: 5,
    Category.FULL_HOUSE: 7,
    Category.FOUR_OF_A_KIND: 20,
    Category.STRAIGHT_FLUSH: 50,
    Category.ROYAL_FLUSH: 100,
}
"""docs/rules.md §6, Bet column."""


def paid(text: str, **flags: bool) -> tuple[Combination, ...]:
    return paid_combinations(text.split(), paytable=PAYTABLE, **flags)


def labels(combos: tuple[Combination, ...]) -> list[str]:
    return [c.category.label for c in combos]


def shown(combos: tuple[Combination, ...]) -> list[str]:
    return [" ".join(c.cards) for c in combos]


# --- the examples of the brief and the seeds ------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected", "multiplier"),
    [
        ("As Kd 8h 8c 9s", ["pair", "ak"], 2),
        ("8h 8c As Kd 9s", ["pair", "ak"], 2),
        ("8s 7h 6d 5c 4s 3h", ["straight", "straight"], 8),
        ("Kh Qs Jd Tc 9h 9s", ["straight", "straight"], 8),
        ("8h 8c 8d As Kd", ["three_of_a_kind", "ak"], 4),
        ("8h 8c 9s 9d As", ["two_pair"], 2),
        ("As Kd Qh Jc Ts", ["straight"], 4),
        ("As Kd 7h 4c 2s", ["ak"], 1),
        ("8h 8c 2s 5d Js", ["pair"], 1),
        ("8h 8c 8d 8s As Kd", ["four_of_a_kind", "ak"], 21),
        ("8h 8c 8d 9s 9d 9h", ["full_house", "full_house"], 14),
        ("8h 8c 8d 8s 9s 9d", ["four_of_a_kind", "full_house"], 27),
        ("8h 8c 8d 9s 9d As", ["full_house"], 7),
        ("8h 8c 8d 9s 9d 2s", ["full_house"], 7),
        ("As Ks 9s 7s 4s 2s", ["flush", "flush"], 10),
        ("As Ks 9s 7s 4s Ad", ["flush", "pair"], 6),
        ("9h 8h 7h 6h 4h 5c", ["flush", "straight"], 9),
        ("9h 8h 7h 6h 2h Th", ["straight_flush", "flush"], 55),
        ("9s 8s 7s 6s 5s 5h", ["straight_flush", "straight"], 54),
        ("As Ks Qs Js Ts Ah", ["royal_flush", "straight"], 104),
        ("As Ks Qs Js Ts 2c", ["royal_flush"], 100),
        ("As 2d 3h 4c 5s Kd", ["straight", "ak"], 5),
        ("As Ad Kh Kc Qs Qd", ["two_pair", "two_pair"], 4),
        ("7h 7c 7d 2s 2d 2h", ["full_house", "full_house"], 14),
        ("2h 3d 5c 7s 9s", [], 0),
        ("2h 3d 5c 7s 9s Jd", [], 0),
    ],
)
def test_paid_combinations(text: str, expected: list[str], multiplier: int) -> None:
    combos = paid(text)
    assert labels(combos) == expected
    assert bet_multiplier(combos, PAYTABLE) == multiplier


def test_pair_and_ak_show_their_defining_cards() -> None:
    assert shown(paid("As Kd 8h 8c 9s")) == ["8h 8c", "As Kd"]


def test_two_straights_in_six_cards() -> None:
    assert shown(paid("8s 7h 6d 5c 4s 3h")) == ["8s 7h 6d 5c 4s", "7h 6d 5c 4s 3h"]


def test_straight_with_a_paired_end_is_two_straights_by_default() -> None:
    assert shown(paid("Kh Qs Jd Tc 9h 9s")) == ["Kh Qs Jd Tc 9s", "Kh Qs Jd Tc 9h"]


def test_straight_with_a_paired_end_is_straight_and_pair_when_the_casino_says_so() -> None:
    combos = paid("Kh Qs Jd Tc 9h 9s", straight_pair_counts_as_two_straights=False)
    assert shown(combos) == ["Kh Qs Jd Tc 9s", "9s 9h"]
    assert bet_multiplier(combos, PAYTABLE) == 5


def test_the_flag_leaves_straights_of_different_ranks_alone() -> None:
    combos = paid("8s 7h 6d 5c 4s 3h", straight_pair_counts_as_two_straights=False)
    assert labels(combos) == ["straight", "straight"]


def test_the_flag_applies_to_straight_flush_over_the_same_ranks() -> None:
    combos = paid("9s 8s 7s 6s 5s 5h", straight_pair_counts_as_two_straights=False)
    assert labels(combos) == ["straight_flush", "pair"]
    assert bet_multiplier(combos, PAYTABLE) == 51


def test_trips_and_ak() -> None:
    assert shown(paid("8h 8c 8d As Kd")) == ["8h 8d 8c", "As Kd"]


def test_quads_and_ak_in_six_cards() -> None:
    assert shown(paid("Kd 8h 8c 8d 8s As")) == ["8s 8h 8d 8c", "As Kd"]


def test_full_house_two_ways_in_six_cards() -> None:
    assert shown(paid("8h 8c 8d 9s 9d 9h")) == ["9s 9h 9d 8h 8d", "9s 9h 9d 8h 8c"]


def test_an_ak_sharing_the_ace_of_a_pair_of_aces_still_has_a_card_of_its_own() -> None:
    # The king is outside the pair, so the AK is a valid second combination (docs/rules.md §3).
    assert shown(paid("Ah Ad Kc 7s 4s")) == ["Ah Ad", "Ah Kc"]


@pytest.mark.parametrize(
    "text",
    [
        "As Kd 8h 8c 9s",
        "8s 7h 6d 5c 4s 3h",
        "Kh Qs Jd Tc 9h 9s",
        "8h 8c 8d As Kd",
        "8h 8c 8d 8s As Kd",
        "9s 8s 7s 6s 5s 5h",
    ],
)
def test_a_single_combination_table_pays_only_the_first(text: str) -> None:
    both = paid(text)
    single = paid(text, double_combination=False)
    assert single == both[:1]


def test_the_dearest_pairing_wins_even_with_an_odd_paytable() -> None:
    # A paytable where AK pays more than a pair: trips + AK still beats trips + pair.
    table = {**PAYTABLE, Category.AK: 9}
    combos = paid_combinations(["8h", "8c", "8d", "As", "Kd"], paytable=table)
    assert labels(combos) == ["three_of_a_kind", "ak"]
    assert bet_multiplier(combos, table) == 12


def test_a_category_missing_from_the_paytable_pays_nothing() -> None:
    table: dict[Category, int] = {c: v for c, v in PAYTABLE.items() if c is not Category.AK}
    combos = paid_combinations(["As", "Kd", "8h", "8c", "9s"], paytable=table)
    assert bet_multiplier(combos, table) == 1


def test_bad_input_raises() -> None:
    with pytest.raises(ValueError, match="5 or 6 cards"):
        paid_combinations(["As", "Kd"], paytable=PAYTABLE)
    with pytest.raises(ValueError, match="repeated"):
        paid_combinations(["As", "As", "8h", "8c", "9s"], paytable=PAYTABLE)


# --- properties -----------------------------------------------------------------------------

hands = st.one_of(
    st.lists(st.sampled_from(FULL_DECK), min_size=5, max_size=6, unique=True),
    # Few ranks and suits: pairs, trips, full houses, flushes and straights become common.
    st.lists(
        st.sampled_from([c for c in FULL_DECK if c[0] in "A2345KQ" and c[1] in "sh"]),
        min_size=5,
        max_size=6,
        unique=True,
    ),
    st.lists(
        st.sampled_from([c for c in FULL_DECK if c[0] in "56789T"]),
        min_size=5,
        max_size=6,
        unique=True,
    ),
)


@settings(max_examples=300)
@given(hands)
def test_combination_invariants(cards: list[str]) -> None:
    combos = paid_combinations(cards, paytable=PAYTABLE)
    category = evaluate(cards).category
    if category is Category.NO_GAME:
        assert combos == ()
        return
    first, *rest = combos
    assert first.category is category
    assert len(rest) <= 1
    for second in rest:
        assert second.category <= first.category
        assert set(second.cards) - set(first.cards)
    for combo in combos:
        assert set(combo.cards) <= set(cards)
    assert bet_multiplier(combos, PAYTABLE) >= PAYTABLE[first.category]


@settings(max_examples=200)
@given(hands)
def test_single_combination_tables_pay_at_most_one(cards: list[str]) -> None:
    combos = paid_combinations(cards, paytable=PAYTABLE, double_combination=False)
    assert len(combos) <= 1
    assert [c.category for c in combos] == [
        c for c in [evaluate(cards).category] if c is not Category.NO_GAME
    ]


@settings(max_examples=200)
@given(hands, st.randoms(use_true_random=False))
def test_result_ignores_card_order(cards: list[str], rnd: random.Random) -> None:
    shuffled = list(cards)
    rnd.shuffle(shuffled)
    assert paid_combinations(shuffled, paytable=PAYTABLE) == paid_combinations(
        cards, paytable=PAYTABLE
    )


@settings(max_examples=200)
@given(hands)
def test_the_flag_never_raises_the_pay(cards: list[str]) -> None:
    strict = paid_combinations(
        cards, paytable=PAYTABLE, straight_pair_counts_as_two_straights=False
    )
    lenient = paid_combinations(cards, paytable=PAYTABLE)
    assert bet_multiplier(strict, PAYTABLE) <= bet_multiplier(lenient, PAYTABLE)
