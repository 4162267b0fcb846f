"""docs/rules.md §5.4: a light box's decisions — play, fold, buy a sixth card, exchange, the draw
fee, one draw per box, insurance and the decision time-out — on fixed decks."""

from __future__ import annotations

import pytest

from russian_poker.events.commands import (
    BuyCard,
    Deal,
    DecisionTimeUp,
    Exchange,
    Fold,
    Insure,
    PlaceAnte,
    Play,
    RequestDealerExchange,
)
from russian_poker.events.game import BoxFolded, BoxPlayed, CardsExchanged, SixthCardBought
from russian_poker.events.wallet import WalletDebited
from russian_poker.service.rules.deck import stacked
from tests.rules.rounds import (
    ANN,
    BOB,
    START,
    books,
    deck_for,
    refused,
    settled,
    single_box,
    table,
)
from tests.rules.scenario import SYSTEM

ANTE = 100
BET = 200
QUALIFYING = "Ah Kc 9d 7s 4c"
NO_GAME = "Qh Jc 9d 7s 4c"


def debits(events: list[object]) -> list[tuple[str, int]]:
    return [(e.reason, e.amount) for e in events if isinstance(e, WalletDebited)]


# --- play and fold ---------------------------------------------------------------------------


def test_play_places_the_bet_of_twice_the_ante() -> None:
    scenario = table()
    single_box(scenario, "8h 8c 2d 5s Jc", QUALIFYING, ante=350)
    events = scenario.run(Play(box=1), ANN)
    assert events[0] == BoxPlayed(round=1, box=1, bet=700)
    assert debits(events) == [("bet", 700)]
    assert settled(scenario, 1).won == 700
    assert scenario.balance("ann") == START + 700
    books(scenario)


def test_fold_loses_the_ante() -> None:
    scenario = table()
    single_box(scenario, "8h 8c 2d 5s Jc", QUALIFYING)
    scenario.run(Fold(box=1), ANN)
    box = settled(scenario, 1)
    assert (box.outcome, box.returned, box.won) == ("folded", 0, 0)
    assert scenario.balance("ann") == START - ANTE
    assert books(scenario) == {1: ANTE}


# --- buy a sixth card ----------------------------------------------------------------------


def test_buy_a_sixth_card_for_one_ante_then_only_play_or_fold() -> None:
    scenario = table()
    single_box(scenario, "8h 8c 2d 5s Jc", QUALIFYING, then="8d 3c")
    events = scenario.run(BuyCard(box=1), ANN)
    assert events[0] == SixthCardBought(round=1, box=1, card="8d", fee=ANTE)
    assert debits(events) == [("draw_fee", ANTE)]
    assert scenario.table.round.box(1).cards == ("8h", "8c", "2d", "5s", "Jc", "8d")  # type: ignore[union-attr]
    refused(scenario, BuyCard(box=1), ANN, "draw_already_used")
    refused(scenario, Exchange(box=1, cards=["2d"]), ANN, "draw_already_used")
    scenario.run(Play(box=1), ANN)
    assert settled(scenario, 1).won == 3 * BET
    assert scenario.balance("ann") == START - ANTE + 3 * BET
    books(scenario)


def test_a_fold_after_a_draw_loses_ante_and_fee() -> None:
    scenario = table(sixth_card_fee_antes=2)
    single_box(scenario, "8h 8c 2d 5s Jc", QUALIFYING, then="3c")
    events = scenario.run(BuyCard(box=1), ANN)
    assert debits(events) == [("draw_fee", 2 * ANTE)]
    scenario.run(Fold(box=1), ANN)
    assert scenario.balance("ann") == START - 3 * ANTE
    assert books(scenario) == {1: 3 * ANTE}


def test_oasis_sells_no_sixth_card() -> None:
    scenario = table("oasis")
    single_box(scenario, "8h 8c 2d 5s Jc", QUALIFYING)
    refused(scenario, BuyCard(box=1), ANN, "sixth_card_not_allowed")


# --- exchange ------------------------------------------------------------------------------


def test_russian_exchanges_any_one_to_five_cards_for_one_ante() -> None:
    scenario = table(discards_return_to_deck=False)
    single_box(scenario, "2s 7h 8d Jc 5d", QUALIFYING, then="Ts Td Tc 3h 3d")
    refused(scenario, Exchange(box=1, cards=[]), ANN, "exchange_not_allowed")
    refused(scenario, Exchange(box=1, cards=["Ah"]), ANN, "exchange_not_allowed")
    refused(scenario, Exchange(box=1, cards=["2s", "2s"]), ANN, "exchange_not_allowed")
    refused(scenario, Exchange(box=1, cards=["zz"]), ANN, "exchange_not_allowed")
    events = scenario.run(Exchange(box=1, cards=["2s", "7h", "8d", "Jc", "5d"]), ANN)
    assert events[0] == CardsExchanged(
        round=1,
        box=1,
        discarded=("2s", "7h", "8d", "Jc", "5d"),
        received=("Ts", "Td", "Tc", "3h", "3d"),
        fee=ANTE,
    )
    assert debits(events) == [("draw_fee", ANTE)]
    current = scenario.table.round
    assert current is not None
    assert sorted(current.box(1).cards) == sorted(("Ts", "Td", "Tc", "3h", "3d"))  # type: ignore[union-attr]
    assert set(current.set_aside) == {"2s", "7h", "8d", "Jc", "5d"}
    refused(scenario, Exchange(box=1, cards=["3h"]), ANN, "draw_already_used")
    refused(scenario, BuyCard(box=1), ANN, "draw_already_used")
    scenario.run(Play(box=1), ANN)
    box = settled(scenario, 1)
    assert (box.hand, box.won) == ("full_house", 7 * BET)
    assert scenario.balance("ann") == START - ANTE + 7 * BET
    books(scenario)


def test_discards_go_back_into_the_deck_first_and_may_come_back() -> None:
    seed = bytes([10]) * 32
    top = deck_for(["2s 7h 9d Jc Kd"], "Ah Qc 9s 7s 4c")
    # The deck functions say where 2s goes: back into the undealt deck, and on top of it.
    undealt = stacked(seed, top).draw(10)[1]
    assert undealt.reinsert(["2s"]).cards[:2] == ("2s", "3s")
    scenario = table(dealer_draw=False)
    scenario.open_round(deck=top, seed=seed)
    scenario.run(PlaceAnte(box=1, ante=ANTE), ANN)
    scenario.run(Deal(), ANN)
    events = scenario.run(Exchange(box=1, cards=["2s"]), ANN)
    assert events[0] == CardsExchanged(
        round=1, box=1, discarded=("2s",), received=("2s",), fee=ANTE
    )
    current = scenario.table.round
    assert current is not None
    assert current.box(1).cards == ("2s", "7h", "9d", "Jc", "Kd")  # type: ignore[union-attr]
    assert current.deck.cards[0] == "3s" and "2s" not in current.deck.cards
    scenario.run(Fold(box=1), ANN)
    assert scenario.balance("ann") == START - 2 * ANTE
    books(scenario)


def test_returned_discards_change_what_the_replacements_are() -> None:
    seed = bytes(range(32))
    top = deck_for(["2s 7h 9d Jc Kd"], "Ah Qc 9s 7s 4c", then="Ts Td")
    undealt = stacked(seed, top).draw(10)[1]
    expected, _ = undealt.reinsert(["2s", "7h"]).draw(2)
    scenario = table(dealer_draw=False)
    scenario.open_round(deck=top, seed=seed)
    scenario.run(PlaceAnte(box=1, ante=ANTE), ANN)
    scenario.run(Deal(), ANN)
    events = scenario.run(Exchange(box=1, cards=["2s", "7h"]), ANN)
    assert events[0].received == expected  # type: ignore[attr-defined]
    # Only the two discards can have joined the ten stacked cards above the rest.
    assert set(expected) <= {"Ts", "Td", "2s", "7h"}
    assert sorted(scenario.table.round.box(1).cards) == sorted(("9d", "Jc", "Kd", *expected))  # type: ignore[union-attr]
    scenario.run(Play(box=1), ANN)
    books(scenario)


def test_oasis_exchanges_at_most_one_card() -> None:
    scenario = table("oasis", discards_return_to_deck=False)
    single_box(scenario, "2s 7h 9h 9c 5d", QUALIFYING, then="9s")
    refused(scenario, Exchange(box=1, cards=["2s", "5d"]), ANN, "exchange_not_allowed")
    events = scenario.run(Exchange(box=1, cards=["2s"]), ANN)
    assert events[0].received == ("9s",)  # type: ignore[attr-defined]
    assert debits(events) == [("draw_fee", ANTE)]
    scenario.run(Play(box=1), ANN)
    box = settled(scenario, 1)
    # Oasis pays the ante 1:1 on a win, and trips 3:1 on the Bet.
    assert (box.hand, box.returned, box.won) == ("three_of_a_kind", ANTE + BET, ANTE + 3 * BET)
    assert scenario.balance("ann") == START - ANTE + ANTE + 3 * BET
    books(scenario)


def test_oasis_draw_fee_by_count_schedule() -> None:
    scenario = table(
        "oasis", max_exchange_cards=2, draw_fee_antes=(1, 2, 3, 4, 5), discards_return_to_deck=False
    )
    single_box(scenario, "2s 7h 9h 9c 5d", QUALIFYING, then="9s 3d")
    refused(scenario, Exchange(box=1, cards=["2s", "5d", "7h"]), ANN, "exchange_not_allowed")
    events = scenario.run(Exchange(box=1, cards=["2s", "5d"]), ANN)
    assert debits(events) == [("draw_fee", 2 * ANTE)]
    scenario.run(Fold(box=1), ANN)
    assert scenario.balance("ann") == START - 3 * ANTE
    books(scenario)


# --- insurance -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("insurance_max", "ceiling"),
    [("payout", 2 * ANTE * (3 + 1)), ("half_payout", ANTE * (3 + 1))],
)
def test_insurance_range_one_ante_to_the_payout(insurance_max: str, ceiling: int) -> None:
    scenario = table(insurance_max=insurance_max, dealer_draw=False)
    # Trips and AK: the Bet would win 3 + 1 times.
    single_box(scenario, "8h 8c 8d Ac Kd", NO_GAME)
    refused(scenario, Insure(box=1, amount=ANTE - 1), ANN, "insurance_out_of_range")
    refused(scenario, Insure(box=1, amount=ceiling + 1), ANN, "insurance_out_of_range")
    events = scenario.run(Insure(box=1, amount=ceiling), ANN)
    assert events[0] == BoxPlayed(round=1, box=1, bet=BET, insurance=ceiling)
    assert debits(events) == [("bet", BET), ("insurance", ceiling)]
    refused(scenario, Insure(box=1, amount=ANTE), ANN, "not_deciding")
    # The dealer has no game: ante 1:1, Bet back, insurance 1:1.
    box = settled(scenario, 1)
    assert (box.outcome, box.returned, box.won) == (
        "dealer_no_game",
        ANTE + BET + ceiling,
        ANTE + ceiling,
    )
    assert scenario.balance("ann") == START + ANTE + ceiling
    books(scenario)


def test_insurance_needs_the_minimum_hand() -> None:
    scenario = table()
    single_box(scenario, "8h 8c Kd Ac 2d", NO_GAME)
    refused(scenario, Insure(box=1, amount=ANTE), ANN, "insurance_not_allowed")
    online = table("russian-online")
    single_box(online, "8h 8c 8d Ac Kd", NO_GAME)
    refused(online, Insure(box=1, amount=ANTE), ANN, "insurance_not_allowed")
    straight_only = table("oasis", insurance_min_hand="straight")
    single_box(straight_only, "8h 8c 8d Ac Kd", NO_GAME)
    refused(straight_only, Insure(box=1, amount=ANTE), ANN, "insurance_not_allowed")


def test_oasis_insures_from_a_straight_when_the_table_says_so() -> None:
    scenario = table("oasis", insurance_min_hand="straight")
    single_box(scenario, "9h 8c 7d 6s 5c", NO_GAME)
    scenario.run(Insure(box=1, amount=4 * BET), ANN)
    box = settled(scenario, 1)
    assert (box.outcome, box.won) == ("dealer_no_game", ANTE + 4 * BET)
    assert scenario.balance("ann") == START + ANTE + 4 * BET
    books(scenario)


def test_insurance_is_lost_when_the_dealer_qualifies() -> None:
    scenario = table()
    single_box(scenario, "8h 8c 8d 2c 5d", QUALIFYING)
    scenario.run(Insure(box=1, amount=300), ANN)
    box = settled(scenario, 1)
    assert (box.outcome, box.returned, box.won) == ("won", ANTE + BET, 3 * BET)
    assert scenario.balance("ann") == START - 300 + 3 * BET
    books(scenario)


def test_a_box_may_insure_after_a_draw_on_its_new_hand() -> None:
    scenario = table(dealer_draw=False)
    single_box(scenario, "8h 8c Kd 5s 2c", NO_GAME, then="8d")
    refused(scenario, Insure(box=1, amount=ANTE), ANN, "insurance_not_allowed")
    scenario.run(BuyCard(box=1), ANN)
    scenario.run(Insure(box=1, amount=3 * BET), ANN)
    assert scenario.balance("ann") == START + ANTE + 3 * BET - ANTE  # fee kept by the house
    books(scenario)


# --- the decision time-out -------------------------------------------------------------


def test_decision_time_up_folds_the_box_on_turn_only() -> None:
    scenario = table("russian", "ann", "bob")
    scenario.open_round(
        deck=deck_for(["8h 8c 2d 5s Jc", "9h 9c 2s 5d Qc", "Th Tc 3d 6s Qd"], QUALIFYING)
    )
    scenario.run(PlaceAnte(box=1, ante=300), ANN)
    scenario.run(PlaceAnte(box=2, ante=200), ANN)
    scenario.run(PlaceAnte(box=3, ante=100), BOB)
    refused(scenario, DecisionTimeUp(round=1, box=1, phase="decision"), SYSTEM, "stale_timeout")
    scenario.run(Deal(), ANN)
    scenario.run(Deal(), BOB)
    # Box 2 is not on turn (ann's box 1 decides first), round 2 is not this round.
    refused(scenario, DecisionTimeUp(round=1, box=2, phase="decision"), SYSTEM, "stale_timeout")
    refused(scenario, DecisionTimeUp(round=2, box=1, phase="decision"), SYSTEM, "stale_timeout")
    refused(scenario, DecisionTimeUp(round=1, box=1, phase="dealer_draw"), SYSTEM, "stale_timeout")
    refused(scenario, DecisionTimeUp(round=1, box=1, phase="decision"), ANN, "wrong_role")
    events = scenario.run(DecisionTimeUp(round=1, box=1, phase="decision"), SYSTEM)
    assert events == [BoxFolded(round=1, box=1, timed_out=True)]
    # The fold is done: the same time-out again is stale.
    refused(scenario, DecisionTimeUp(round=1, box=1, phase="decision"), SYSTEM, "stale_timeout")
    scenario.run(Play(box=3), BOB)
    scenario.run(Play(box=2), ANN)
    assert settled(scenario, 1).outcome == "folded"
    assert (settled(scenario, 2).outcome, settled(scenario, 3).outcome) == ("won", "won")
    assert scenario.balance("ann") == START - 300 + 400
    assert scenario.balance("bob") == START + 200
    books(scenario)


def test_a_box_that_drew_and_then_timed_out_is_folded() -> None:
    scenario = table()
    single_box(scenario, "8h 8c 2d 5s Jc", QUALIFYING, then="3c")
    scenario.run(BuyCard(box=1), ANN)
    scenario.run(DecisionTimeUp(round=1, box=1, phase="decision"), SYSTEM)
    assert settled(scenario, 1).outcome == "folded"
    assert scenario.balance("ann") == START - 2 * ANTE
    books(scenario)


def test_dark_boxes_cannot_insure_nor_ask_for_the_dealer_draw() -> None:
    scenario = table()
    scenario.open_round(deck=deck_for(["8h 8c 8d 5s Td", "9h 9c 2s 5d Qc"], NO_GAME))
    scenario.run(PlaceAnte(box=1, ante=ANTE, dark=True), ANN)
    scenario.run(PlaceAnte(box=2, ante=ANTE), ANN)
    scenario.run(Deal(), ANN)
    refused(scenario, Insure(box=1, amount=ANTE), ANN, "dark_box")
    scenario.run(Play(box=2), ANN)
    assert scenario.table.round.phase == "dealer_draw"  # type: ignore[union-attr]
    refused(scenario, RequestDealerExchange(box=1), ANN, "no_dealer_draw")
