"""docs/rules.md §1 (cards), §2 (combinations), §3 (two combinations) and §6 (paytables), each
played as a whole round on a fixed deck: exact cards, outcome and balance to the unit."""

from __future__ import annotations

import pytest

from russian_poker.events.commands import BuyCard, Deal, PlaceAnte, Play
from russian_poker.events.game import CardsDealt, DealerRevealed, PaidCombination, SixthCardBought
from russian_poker.service.rules.deck import shuffled
from tests.rules.rounds import ANN, START, books, settled, single_box, table
from tests.rules.scenario import Scenario

ANTE = 100
BET = 2 * ANTE


def play_against(scenario: Scenario, hand: str, dealer: str) -> None:
    single_box(scenario, hand, dealer)
    scenario.run(Play(box=1), ANN)


def combos(*pairs: tuple[str, str]) -> tuple[PaidCombination, ...]:
    return tuple(PaidCombination(category=c, cards=tuple(cards.split())) for c, cards in pairs)  # type: ignore[arg-type]


# --- §1 cards ---------------------------------------------------------------------------------


def test_each_round_is_dealt_from_a_fresh_deck_shuffled_from_its_own_seed() -> None:
    scenario = table(dealer_draw=False)
    dealt = []
    for seed in (bytes(32), bytes([7]) * 32):
        scenario.open_round(seed=seed)
        scenario.run(PlaceAnte(box=1, ante=ANTE), ANN)
        scenario.run(Deal(), ANN)
        deck = shuffled(seed).cards
        assert sorted(deck) == sorted(set(deck)) and len(deck) == 52
        [deal] = [e for e in scenario.of_type(CardsDealt) if e.round == len(dealt) + 1]
        # One box and the dealer: the box gets cards 0, 2, 4, 6, 8 of the seed's deck.
        assert deal.hands[0].cards == deck[0:10:2]
        assert deal.dealer_cards == deck[1:10:2]
        dealt.append(deal.hands[0].cards + deal.dealer_cards)
        scenario.run(Play(box=1), ANN)
    assert dealt[0] != dealt[1]
    books(scenario)


def test_the_wheel_is_the_lowest_straight() -> None:
    scenario = table(dealer_draw=False)
    play_against(scenario, "5h 4d 3c 2s Ah", "6d 5s 4h 3d 2c")
    box = settled(scenario, 1)
    assert (box.hand, box.outcome, box.returned, box.won) == ("straight", "lost", 0, 0)
    assert scenario.balance("ann") == START - ANTE - BET
    books(scenario)


def test_no_wrap_around_straight_q_k_a_2_3_is_only_ak() -> None:
    scenario = table()
    play_against(scenario, "Qs Kd Ah 2c 3h", "Ac Kh 9d 7s 4c")
    box = settled(scenario, 1)
    assert (box.hand, box.outcome) == ("ak", "won")
    assert box.combinations == combos(("ak", "Ah Kd"))
    assert box.won == BET * 1
    assert scenario.balance("ann") == START + BET
    books(scenario)


def test_suits_have_equal_value_same_flush_in_two_suits_is_a_tie() -> None:
    scenario = table()
    play_against(scenario, "Ah Jh 8h 6h 3h", "As Js 8s 6s 3s")
    box = settled(scenario, 1)
    assert (box.outcome, box.returned, box.won) == ("tied", ANTE + BET, 0)
    assert scenario.balance("ann") == START
    books(scenario)


# --- §2 combinations and their comparison ------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "dealer", "label", "outcome", "multiple"),
    [
        # each category beats the one below it
        ("8h 8c 2d 5s Jc", "Ah Kc 9d 7s 4c", "pair", "won", 1),
        ("8h 8c 5d 5s Jc", "Ah Ac 9d 7s 4c", "two_pair", "won", 2),
        ("8h 8c 8d 5s Jc", "Ah Ac 9d 9s 4c", "three_of_a_kind", "won", 3),
        ("9h 8c 7d 6s 5c", "Ah Ac Ad 2s 4c", "straight", "won", 4),
        ("Kh Th 7h 4h 2h", "9s 8d 7c 6s 5d", "flush", "won", 5),
        ("8h 8c 8d 5s 5c", "As Js 7s 4s 2s", "full_house", "won", 7),
        ("8h 8c 8d 8s 5c", "Ah Ac Ad Ks Kc", "four_of_a_kind", "won", 20),
        ("9h 8h 7h 6h 5h", "Ah Ac Ad As Kc", "straight_flush", "won", 50),
        ("Ah Kh Qh Jh Th", "9s 8s 7s 6s 5s", "royal_flush", "won", 100),
        # equal categories: card by card
        ("8h 8c Kd 5s 3c", "8s 8d Qh 5c 3d", "pair", "won", 1),
        ("8s 8d Qh 5c 3d", "8h 8c Kd 5s 3c", "pair", "lost", 0),
        ("9h 9c 2d 2s 3c", "8s 8d 7h 7c Ad", "two_pair", "won", 2),
        ("9h 9c 5d 5s Kc", "9s 9d 5h 5c Qd", "two_pair", "won", 2),
        ("9h 9c 9d 2s 2c", "8s 8d 8h Ac Ad", "full_house", "won", 7),
        ("As Kd Jh 7c 3s", "Ah Kc Th 9d 2c", "ak", "won", 1),
        ("Kh Jh 9h 6h 2h", "Ks Js 9s 6s 3s", "flush", "lost", 0),
        ("Td 9c 8h 7s 6d", "Ts 9d 8c 7h 6c", "straight", "tied", 0),
        # a player without a game cannot beat a dealer who has one
        ("Qh Jc 8d 5s 3c", "Ah Kc 9d 7s 4c", "no_game", "lost", 0),
    ],
)
def test_showdown_against_a_qualifying_dealer(
    hand: str, dealer: str, label: str, outcome: str, multiple: int
) -> None:
    scenario = table()
    play_against(scenario, hand, dealer)
    [revealed] = scenario.of_type(DealerRevealed)
    assert revealed.qualifies and revealed.cards == tuple(dealer.split())
    box = settled(scenario, 1)
    assert (box.hand, box.outcome, box.cards) == (label, outcome, tuple(hand.split()))
    expected = {
        "won": (ANTE + BET, BET * multiple),
        "tied": (ANTE + BET, 0),
        "lost": (0, 0),
    }[outcome]
    assert (box.returned, box.won) == expected
    assert scenario.balance("ann") == START - ANTE - BET + sum(expected)
    books(scenario)


@pytest.mark.parametrize(
    ("dealer", "label", "qualifies"),
    [
        ("Ah Kc 9d 7s 4c", "ak", True),
        ("2h 2c 9d 7s 4c", "pair", True),
        ("Ah Qc 9d 7s 4c", "no_game", False),
        ("Kh Qc 9d 7s 4c", "no_game", False),
    ],
)
def test_the_dealer_qualifies_with_ak_or_better(dealer: str, label: str, qualifies: bool) -> None:
    scenario = table(dealer_draw=False)
    play_against(scenario, "3h 3d Jc 6s 5c", dealer)
    [revealed] = scenario.of_type(DealerRevealed)
    assert (revealed.hand, revealed.qualifies) == (label, qualifies)
    box = settled(scenario, 1)
    if qualifies:  # the threes beat the dealer's AK and pair of twos: paid by the paytable
        assert (box.outcome, box.returned, box.won) == ("won", ANTE + BET, BET)
    else:
        assert (box.outcome, box.returned, box.won) == ("dealer_no_game", ANTE + BET, ANTE)
    books(scenario)


def test_with_six_cards_the_hand_is_the_best_five() -> None:
    scenario = table()
    single_box(scenario, "Ah 9h 6h 3h 2c", "Kd Kc 9s 7s 4c", then="Jh")
    scenario.run(BuyCard(box=1), ANN)
    scenario.run(Play(box=1), ANN)
    box = settled(scenario, 1)
    assert box.cards == ("Ah", "9h", "6h", "3h", "2c", "Jh")
    assert (box.hand, box.outcome) == ("flush", "won")
    assert box.combinations == combos(("flush", "Ah Jh 9h 6h 3h"))
    assert box.won == 5 * BET
    assert scenario.balance("ann") == START - ANTE + 5 * BET  # the fee is the only loss
    books(scenario)


# --- §3 two combinations ---------------------------------------------------------------------


def test_seed_example_ak_with_a_pair_pays_pair_plus_ak() -> None:
    scenario = table()
    play_against(scenario, "As Kd 8h 8c 9s", "Ah Kc 2d 3s 4h")
    box = settled(scenario, 1)
    assert box.outcome == "won"
    assert box.combinations == combos(("pair", "8h 8c"), ("ak", "As Kd"))
    assert (box.returned, box.won) == (ANTE + BET, 2 * BET)
    assert scenario.balance("ann") == START + 2 * BET
    books(scenario)


def test_without_double_combination_only_the_best_combination_is_paid() -> None:
    scenario = table(double_combination=False)
    play_against(scenario, "As Kd 8h 8c 9s", "Ah Kc 2d 3s 4h")
    box = settled(scenario, 1)
    assert box.combinations == combos(("pair", "8h 8c"))
    assert box.won == BET
    assert scenario.balance("ann") == START + BET
    books(scenario)


def test_seed_example_bought_sixth_card_pays_two_straights() -> None:
    scenario = table()
    single_box(scenario, "8s 7h 6d 5c 3h", "Ah Kc 9d 2s Jd", then="4s")
    bought = scenario.run(BuyCard(box=1), ANN)
    assert bought[0] == SixthCardBought(round=1, box=1, card="4s", fee=ANTE)
    scenario.run(Play(box=1), ANN)
    box = settled(scenario, 1)
    assert box.cards == ("8s", "7h", "6d", "5c", "3h", "4s")
    assert [c.category for c in box.combinations] == ["straight", "straight"]
    assert {c.cards for c in box.combinations} == {
        ("8s", "7h", "6d", "5c", "4s"),
        ("7h", "6d", "5c", "4s", "3h"),
    }
    assert (box.returned, box.won) == (ANTE + BET, (4 + 4) * BET)
    assert scenario.balance("ann") == START - ANTE + 8 * BET
    books(scenario)


@pytest.mark.parametrize(
    ("two_straights", "labels", "multiple"),
    [(True, ["straight", "straight"], 8), (False, ["straight", "pair"], 5)],
)
def test_a_straight_with_a_paired_end(
    two_straights: bool, labels: list[str], multiple: int
) -> None:
    scenario = table(straight_pair_counts_as_two_straights=two_straights)
    single_box(scenario, "Kh Qs Jd Tc 9h", "Ah Kc 7d 2s 3d", then="9s")
    scenario.run(BuyCard(box=1), ANN)
    scenario.run(Play(box=1), ANN)
    box = settled(scenario, 1)
    assert [c.category for c in box.combinations] == labels
    assert box.won == multiple * BET
    assert scenario.balance("ann") == START - ANTE + multiple * BET
    books(scenario)


# --- §6 paytables ----------------------------------------------------------------------------


def test_the_bet_paytable_is_a_table_parameter() -> None:
    scenario = table(bet_paytable={"pair": 3, "ak": 2})
    play_against(scenario, "As Kd 8h 8c 9s", "Ah Kc 2d 3s 4h")
    box = settled(scenario, 1)
    assert box.won == (3 + 2) * BET
    assert scenario.balance("ann") == START + 5 * BET
    books(scenario)
