"""Hand evaluation (docs/rules.md §1-2): categories, kickers, best five of six, qualification."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from russian_poker.service.rules.cards import FULL_DECK, RANKS, SUITS
from russian_poker.service.rules.hands import Category, Hand, evaluate, qualifies


def hand(text: str) -> Hand:
    return evaluate(text.split())


def strength(text: str) -> int:
    return hand(text).strength


# --- an independent, count-based reference ------------------------------------------------
# Deliberately written differently from the table-driven evaluator: Counter over rank
# letters, index arithmetic on the RANKS string, and Python tuple comparison for kickers.


def _rank_indexes(cards: list[str]) -> list[int]:
    return sorted((RANKS.index(c[0]) for c in cards), reverse=True)


def _is_straight(idx: list[int]) -> bool:
    unique = sorted(set(idx))
    return len(unique) == 5 and (unique[4] - unique[0] == 4 or unique == [0, 1, 2, 3, 12])


def brute_category(cards: list[str]) -> Category:
    counts = sorted(Counter(c[0] for c in cards).values(), reverse=True)
    idx = _rank_indexes(cards)
    flush = len({c[1] for c in cards}) == 1
    straight = _is_straight(idx)
    if straight and flush:
        return Category.ROYAL_FLUSH if min(idx) == RANKS.index("T") else Category.STRAIGHT_FLUSH
    by_counts = {
        (4, 1): Category.FOUR_OF_A_KIND,
        (3, 2): Category.FULL_HOUSE,
        (3, 1, 1): Category.THREE_OF_A_KIND,
        (2, 2, 1): Category.TWO_PAIR,
        (2, 1, 1, 1): Category.PAIR,
    }
    if tuple(counts) in by_counts:  # a repeated rank rules out straights and flushes
        return by_counts[tuple(counts)]
    if flush:
        return Category.FLUSH
    if straight:
        return Category.STRAIGHT
    letters = {c[0] for c in cards}
    return Category.AK if {"A", "K"} <= letters else Category.NO_GAME


def brute_key(cards: list[str]) -> tuple[int, tuple[int, ...]]:
    """(category, ranks by group size then rank) compared as a Python tuple."""
    category = brute_category(cards)
    idx = _rank_indexes(cards)
    if category in (Category.STRAIGHT, Category.STRAIGHT_FLUSH) and idx == [12, 3, 2, 1, 0]:
        return category, (3, 2, 1, 0, -1)
    tally = Counter(idx)
    ordered = sorted(idx, key=lambda i: (tally[i], i), reverse=True)
    return category, tuple(ordered)


# --- strategies ---------------------------------------------------------------------------

five_cards = st.lists(st.sampled_from(FULL_DECK), min_size=5, max_size=5, unique=True)
six_cards = st.lists(st.sampled_from(FULL_DECK), min_size=6, max_size=6, unique=True)
# Two suits only: five or six suited cards (the flush path of the six-card search) are common.
two_suit_six = st.lists(
    st.sampled_from([c for c in FULL_DECK if c[1] in "sh"]), min_size=6, max_size=6, unique=True
)


# --- categories ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("2s 5h 7d 9c Js", Category.NO_GAME),
        ("As Qh 7d 9c Js", Category.NO_GAME),
        ("As Kh 7d 9c 2s", Category.AK),
        ("8h 8c As Kd 9s", Category.PAIR),
        ("8h 8c 9s 9d As", Category.TWO_PAIR),
        ("8h 8c 8d As Kd", Category.THREE_OF_A_KIND),
        ("9s 8h 7d 6c 5s", Category.STRAIGHT),
        ("As 2h 3d 4c 5s", Category.STRAIGHT),
        ("As Kh Qd Jc Ts", Category.STRAIGHT),
        ("2h 5h 7h 9h Jh", Category.FLUSH),
        ("8h 8c 8d 9s 9d", Category.FULL_HOUSE),
        ("8h 8c 8d 8s Ad", Category.FOUR_OF_A_KIND),
        ("9d 8d 7d 6d 5d", Category.STRAIGHT_FLUSH),
        ("Ac 2c 3c 4c 5c", Category.STRAIGHT_FLUSH),
        ("As Ks Qs Js Ts", Category.ROYAL_FLUSH),
        ("Qs Ks As 2d 3c", Category.AK),  # no wrap-around straight
    ],
)
def test_category(text: str, category: Category) -> None:
    assert hand(text).category is category


def test_labels_are_the_snake_case_names() -> None:
    assert [c.label for c in Category] == [
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
    for category in Category:
        assert Category.from_label(category.label) is category


@pytest.mark.parametrize("label", ["AK", "Pair", "royal", "", "two pair"])
def test_from_label_rejects_unknown_labels_naming_the_allowed_ones(label: str) -> None:
    with pytest.raises(ValueError, match="allowed: no_game, ak, pair"):
        Category.from_label(label)


def test_categories_rank_low_to_high() -> None:
    ladder = [
        "As Qh 7d 9c Js",
        "As Kh 7d 9c 2s",
        "2h 2c 3s 4d 6s",
        "2h 2c 3s 3d 5s",
        "2h 2c 2s 3d 4s",
        "As 2h 3d 4c 5s",
        "2h 3h 4h 5h 7h",
        "2h 2c 2s 3d 3s",
        "2h 2c 2s 2d 3s",
        "Ac 2c 3c 4c 5c",
        "As Ks Qs Js Ts",
    ]
    strengths = [strength(text) for text in ladder]
    assert strengths == sorted(strengths)
    assert len(set(strengths)) == len(strengths)


# --- kickers (docs/rules.md §2)
# ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        # pair: rank first, then kickers one by one
        ("9h 9c 2s 3d 4s", "8h 8c As Kd Qs"),
        ("8h 8c As 3d 2s", "8s 8d Ks Qd Js"),
        ("8h 8c As Kd 3s", "8s 8d Ah Kc 2h"),
        # two pair: high pair, then low pair, then kicker
        ("Kh Kc 2s 2d 3s", "Qh Qc Js Jd As"),
        ("Kh Kc 3s 3d 2s", "Ks Kd 2h 2c As"),
        ("Kh Kc 3s 3d 5s", "Ks Kd 3h 3c 4s"),
        # trips, then kickers
        ("4h 4c 4s 2d 3s", "3h 3c 3s Ad Ks"),
        ("4h 4c 4s Ad 3s", "4d 4c 4s Kd Qs"),
        # full house: trips then pair
        ("3h 3c 3s 2d 2s", "2h 2c 2d As Ac"),
        ("3h 3c 3s Ad As", "3h 3c 3d Kd Ks"),
        # quads, then kicker
        ("5h 5c 5s 5d 2s", "4h 4c 4s 4d As"),
        # straights: highest card; A-5 is the lowest straight
        ("6s 5h 4d 3c 2s", "As 2h 3d 4c 5s"),
        ("As Kh Qd Jc Ts", "Ks Qh Jd Tc 9s"),
        ("7d 6d 5d 4d 3d", "Ac 2c 3c 4c 5c"),
        # flush: all five cards
        ("Ah Jh 9h 6h 3h", "Ad Jd 9d 6d 2d"),
        ("Ah Kh 3h 4h 6h", "Ad Qd Jd 9d 8d"),
        # AK and high card: all five cards
        ("As Kh 7d 9c 3s", "Ad Kc 7h 9s 2c"),
        ("As Kh 2d 3c 4s", "As Qh Jd 9c 8s"),
        ("As Qh 7d 9c 3s", "Ks Qh Jd Tc 8c"),
    ],
)
def test_kickers(better: str, worse: str) -> None:
    assert strength(better) > strength(worse)


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("As Kh 7d 9c 3s", "Ah Kd 7c 9s 3h"),
        ("8h 8c As Kd 9s", "8s 8d Ah Kc 9h"),
        ("9s 8h 7d 6c 5s", "9h 8d 7c 6s 5h"),
        ("As 2h 3d 4c 5s", "Ad 2c 3s 4h 5d"),
        ("2h 5h 7h 9h Jh", "2c 5c 7c 9c Jc"),
        ("As Ks Qs Js Ts", "Ah Kh Qh Jh Th"),
    ],
)
def test_equal_ranks_in_other_suits_tie(one: str, other: str) -> None:
    assert strength(one) == strength(other)


def test_shown_cards_defining_first_then_kickers() -> None:
    assert hand("9s 8h As Kd 8c").cards == ("8h", "8c", "As", "Kd", "9s")
    assert hand("As 8h 9s 8c 9d").cards == ("9s", "9d", "8h", "8c", "As")
    assert hand("2d 9s 2s 9h 2h").cards == ("2s", "2h", "2d", "9s", "9h")
    assert hand("3c As 5d 2h 4s").cards == ("5d", "4s", "3c", "2h", "As")
    assert hand("Kd 7c Ah 2s 9d").cards == ("Ah", "Kd", "9d", "7c", "2s")


# --- six cards ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "category", "cards"),
    [
        ("8s 7h 6d 5c 4s 3h", Category.STRAIGHT, ("8s", "7h", "6d", "5c", "4s")),
        ("Kh Qs Jd Tc 9h 9s", Category.STRAIGHT, ("Kh", "Qs", "Jd", "Tc", "9s")),
        ("2s 3s 4s 5s 7s 6h", Category.FLUSH, ("7s", "5s", "4s", "3s", "2s")),
        ("2s 3s 4s 5s 7s 6s", Category.STRAIGHT_FLUSH, ("7s", "6s", "5s", "4s", "3s")),
        ("As Ks Qs Js Ts 9s", Category.ROYAL_FLUSH, ("As", "Ks", "Qs", "Js", "Ts")),
        ("Ah As 2s 3s 4s 5s", Category.STRAIGHT_FLUSH, ("5s", "4s", "3s", "2s", "As")),
        ("8h 8c 8d 9s 9d 9h", Category.FULL_HOUSE, ("9s", "9h", "9d", "8h", "8d")),
        ("8h 8c 8d 8s As Kd", Category.FOUR_OF_A_KIND, ("8s", "8h", "8d", "8c", "As")),
        ("As Ad Kh Kc Qs Qd", Category.TWO_PAIR, ("As", "Ad", "Kh", "Kc", "Qs")),
        ("As Kd 2h 4c 7s 9d", Category.AK, ("As", "Kd", "9d", "7s", "4c")),
        ("Qs 2d 4h 6c 8s Td", Category.NO_GAME, ("Qs", "Td", "8s", "6c", "4h")),
    ],
)
def test_best_five_of_six(text: str, category: Category, cards: tuple[str, ...]) -> None:
    result = hand(text)
    assert result.category is category
    assert result.cards == cards


def test_sixth_card_can_only_help() -> None:
    assert strength("As Kd 2h 4c 7s 2d") > strength("As Kd 2h 4c 7s")
    assert strength("As Kd 2h 4c 7s 3d") == strength("As Kd 4c 7s 3d")


# --- dealer qualification -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "qualified"),
    [
        ("As Kh 2d 3c 4s", True),
        ("As Kh 7d 9c 3s", True),
        ("As Qh Jd 9c 8s", False),
        ("Ks Qh Jd 9c 8s", False),
        ("2h 2c 3s 4d 6s", True),
        ("As 2h 3d 4c 5s", True),
    ],
)
def test_dealer_qualifies_with_ak_or_better(text: str, qualified: bool) -> None:
    assert qualifies(hand(text)) is qualified


# --- bad input ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        (["As", "Kd", "Qh", "Jc"], "5 or 6 cards, got 4"),
        (["As", "Kd", "Qh", "Jc", "Ts", "9s", "8s"], "5 or 6 cards, got 7"),
        ([], "got 0"),
        (["As", "As", "Qh", "Jc", "Ts"], "repeated"),
        (["As", "Kd", "Qh", "Jc", "Kd", "2s"], "repeated"),
        (["As", "Kd", "Qh", "Jc", "1s"], "not a card"),
        (["as", "Kd", "Qh", "Jc", "Ts"], "not a card"),
    ],
)
def test_bad_input_raises(cards: list[str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        evaluate(cards)


# --- properties -----------------------------------------------------------------------------


@given(st.one_of(five_cards, six_cards, two_suit_six), st.randoms(use_true_random=False))
def test_result_ignores_card_order(cards: list[str], rnd: random.Random) -> None:
    shuffled = list(cards)
    rnd.shuffle(shuffled)
    assert evaluate(shuffled) == evaluate(cards)


@given(st.one_of(five_cards, six_cards), st.permutations(SUITS))
def test_strength_ignores_a_relabelling_of_suits(cards: list[str], suits: list[str]) -> None:
    relabel = dict(zip(SUITS, suits, strict=True))
    renamed = [c[0] + relabel[c[1]] for c in cards]
    assert evaluate(renamed).strength == evaluate(cards).strength
    assert evaluate(renamed).category == evaluate(cards).category


@settings(max_examples=300)
@given(st.one_of(six_cards, two_suit_six))
def test_six_card_strength_is_the_best_five(cards: list[str]) -> None:
    result = evaluate(cards)
    fives = [evaluate(five) for five in combinations(cards, 5)]
    assert result.strength == max(h.strength for h in fives)
    assert set(result.cards) <= set(cards)
    assert evaluate(result.cards).strength == result.strength


@settings(max_examples=500)
@given(five_cards)
def test_category_matches_the_brute_force_classifier(cards: list[str]) -> None:
    assert evaluate(cards).category is brute_category(cards)


@settings(max_examples=500)
@given(five_cards, five_cards)
def test_strength_orders_like_the_brute_force_key(one: list[str], other: list[str]) -> None:
    by_strength = (evaluate(one).strength > evaluate(other).strength) - (
        evaluate(one).strength < evaluate(other).strength
    )
    by_brute = (brute_key(one) > brute_key(other)) - (brute_key(one) < brute_key(other))
    assert by_strength == by_brute


@given(five_cards)
def test_shown_cards_are_the_hand_reordered(cards: list[str]) -> None:
    result = evaluate(cards)
    assert sorted(result.cards) == sorted(cards)
    assert evaluate(result.cards) == result
