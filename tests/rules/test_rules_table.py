"""docs/rules.md §4 (table) and §5.1 (betting), as rounds on fixed decks with exact cards and
balances."""

from __future__ import annotations

import pytest

from russian_poker.events.commands import (
    BettingTimeUp,
    BuyCard,
    CancelBets,
    Deal,
    Exchange,
    Fold,
    LeaveTable,
    OpenTable,
    PlaceAnte,
    Play,
    RepeatBets,
    SitDown,
)
from russian_poker.events.game import (
    AntePlaced,
    CardsDealt,
    DealRequested,
    PlayerLeft,
)
from russian_poker.events.wallet import WalletCredited, WalletDebited
from russian_poker.service.rules.presets import RulesetError, make_ruleset
from russian_poker.service.rules.state import Table
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
from tests.rules.scenario import OPERATOR, SYSTEM, Scenario, player

CARL = player("carl")


# --- §4 table --------------------------------------------------------------------------------


def test_boxes_per_preset() -> None:
    russian, oasis = table("russian"), table("oasis")
    for scenario in (russian, oasis):
        scenario.open_round()
    assert len(russian.table.seats) == 4 and len(oasis.table.seats) == 6
    refused(russian, PlaceAnte(box=5, ante=100), ANN, "no_such_box")
    russian.run(PlaceAnte(box=4, ante=100), ANN)
    oasis.run(PlaceAnte(box=6, ante=100), ANN)
    refused(oasis, PlaceAnte(box=7, ante=100), ANN, "no_such_box")
    assert russian.balance("ann") == oasis.balance("ann") == START - 100


def test_one_box_has_one_owner_per_round() -> None:
    scenario = table("russian", "ann", "bob")
    scenario.open_round()
    scenario.run(PlaceAnte(box=2, ante=100), ANN)
    refused(scenario, PlaceAnte(box=2, ante=500), BOB, "box_taken")
    refused(scenario, PlaceAnte(box=2, ante=500), ANN, "box_taken")
    refused(scenario, Play(box=2), BOB, "not_deciding")
    assert scenario.balance("bob") == START


def test_light_boxes_per_player_land_casino_two_rest_dark() -> None:
    scenario = table()
    scenario.open_round()
    scenario.run(PlaceAnte(box=1, ante=100), ANN)
    scenario.run(PlaceAnte(box=2, ante=100), ANN)
    refused(scenario, PlaceAnte(box=3, ante=100), ANN, "light_box_limit")
    events = scenario.run(PlaceAnte(box=3, ante=100, dark=True), ANN)
    assert events[0] == AntePlaced(
        round=1, box=3, player="ann", ante=100, bonus=0, dark=True, bet=200
    )
    assert [(e.reason, e.amount) for e in events[1:]] == [("ante", 100), ("bet", 200)]
    assert scenario.balance("ann") == START - 100 - 100 - 300
    books(scenario)


def test_light_box_limit_is_per_player() -> None:
    scenario = table("russian", "ann", "bob")
    scenario.open_round()
    scenario.run(PlaceAnte(box=1, ante=100), ANN)
    scenario.run(PlaceAnte(box=2, ante=100), ANN)
    scenario.run(PlaceAnte(box=3, ante=100), BOB)
    scenario.run(PlaceAnte(box=4, ante=100), BOB)
    assert all(b.light for b in scenario.table.round.boxes)  # type: ignore[union-attr]


def test_online_preset_plays_all_four_boxes_light() -> None:
    scenario = table("russian-online")
    scenario.open_round()
    for box in (1, 2, 3, 4):
        scenario.run(PlaceAnte(box=box, ante=100), ANN)
    assert [b.dark for b in scenario.table.round.boxes] == [False] * 4  # type: ignore[union-attr]


def test_a_dark_box_plays_automatically_and_cannot_decide() -> None:
    scenario = table()
    scenario.open_round(
        deck=deck_for(["Qh Jc 8d 5s 3c", "9h 9c 4d 6s 2c"], "Ah Kc Td 7s 4c", then="5d")
    )
    scenario.run(PlaceAnte(box=1, ante=100, dark=True), ANN)
    scenario.run(PlaceAnte(box=2, ante=100), ANN)
    scenario.run(Deal(), ANN)
    for command in (Fold(box=1), Play(box=1), BuyCard(box=1), Exchange(box=1, cards=["Qh"])):
        refused(scenario, command, ANN, "dark_box")
    scenario.run(Play(box=2), ANN)
    dark = settled(scenario, 1)
    # The dark box is in play without a decision: its no-game hand loses ante and Bet.
    assert (dark.outcome, dark.returned, dark.won) == ("lost", 0, 0)
    light = settled(scenario, 2)
    assert (light.outcome, light.won) == ("won", 200)
    assert scenario.balance("ann") == START - 300 - 300 + 300 + 200
    books(scenario)


def test_a_players_boxes_act_in_order_larger_ante_first_others_act_independently() -> None:
    scenario = table("russian", "ann", "bob", dealer_draw=False)
    scenario.open_round(
        deck=deck_for(
            ["Ah Ad 2c 3c 4c", "Ks Kd 5c 6c 7c", "Qs Qd 8c 9c Tc"],
            "2h 4h 6h 8h Th",
        )
    )
    scenario.run(PlaceAnte(box=1, ante=100), ANN)
    scenario.run(PlaceAnte(box=3, ante=200), ANN)  # plays before box 1
    scenario.run(PlaceAnte(box=2, ante=100), BOB)
    scenario.run(Deal(), ANN)
    scenario.run(Deal(), BOB)
    [deal] = scenario.of_type(CardsDealt)
    assert [h.box for h in deal.hands] == [3, 1, 2]
    refused(scenario, Play(box=1), ANN, "out_of_turn")
    scenario.run(Play(box=2), BOB)  # bob need not wait for ann
    scenario.run(Play(box=3), ANN)
    assert scenario.table.round.phase == "decisions"  # type: ignore[union-attr]
    scenario.run(Fold(box=1), ANN)
    assert scenario.table.round.phase == "settled"  # type: ignore[union-attr]
    assert settled(scenario, 3).cards == ("Ah", "Ad", "2c", "3c", "4c")
    assert settled(scenario, 1).cards == ("Ks", "Kd", "5c", "6c", "7c")
    books(scenario)


def test_ante_and_bonus_limits() -> None:
    scenario = table()  # ante 100..10_000, bonus 100..ante_max / 10
    scenario.open_round()
    refused(scenario, PlaceAnte(box=1, ante=99), ANN, "ante_out_of_range")
    refused(scenario, PlaceAnte(box=1, ante=10_001), ANN, "ante_out_of_range")
    refused(scenario, PlaceAnte(box=1, ante=100, bonus=99), ANN, "bonus_out_of_range")
    refused(scenario, PlaceAnte(box=1, ante=100, bonus=1_001), ANN, "bonus_out_of_range")
    scenario.run(PlaceAnte(box=1, ante=10_000, bonus=1_000), ANN)
    assert scenario.balance("ann") == START - 11_000
    no_bonus = table(bonus_enabled=False)
    no_bonus.open_round()
    refused(no_bonus, PlaceAnte(box=1, ante=100, bonus=100), ANN, "bonus_not_offered")


def test_observers_must_take_a_free_seat_to_bet() -> None:
    scenario = table("russian", "ann", "bob", "carl", "dan")
    scenario.fund("eve", START)
    scenario.open_round()
    refused(scenario, PlaceAnte(box=1, ante=100), player("eve"), "not_seated")
    refused(scenario, SitDown(), player("eve"), "table_full")
    scenario.run(LeaveTable(), player("dan"))
    refused(scenario, SitDown(seat=1), player("eve"), "seat_taken")
    refused(scenario, SitDown(seat=9), player("eve"), "no_such_seat")
    scenario.run(SitDown(), player("eve"))
    assert scenario.table.seats == ("ann", "bob", "carl", "eve")
    refused(scenario, SitDown(), player("eve"), "already_seated")
    scenario.run(PlaceAnte(box=1, ante=100), player("eve"))


def test_a_private_table_seats_only_its_player() -> None:
    scenario = Scenario(players={"ann": START, "bob": START})
    scenario.table = Table()
    scenario.run(OpenTable(ruleset=scenario.rules, private_for="ann"), OPERATOR)
    refused(scenario, SitDown(), BOB, "table_private")
    scenario.sit("ann")
    assert scenario.table.seats[0] == "ann"


# --- §5.1 betting ----------------------------------------------------------------------------


def test_cancel_one_box_or_all_refunds_every_stake_exactly() -> None:
    scenario = table("russian", "ann", "bob")
    scenario.open_round()
    scenario.run(PlaceAnte(box=1, ante=300, bonus=200), ANN)
    scenario.run(PlaceAnte(box=2, ante=100), ANN)
    scenario.run(PlaceAnte(box=3, ante=500, bonus=100, dark=True), ANN)
    assert scenario.balance("ann") == START - 500 - 100 - 1_600
    events = scenario.run(CancelBets(box=3), ANN)
    assert [(type(e).__name__, getattr(e, "amount", None)) for e in events] == [
        ("BetsCancelled", None),
        ("WalletCredited", 1_600),
    ]
    scenario.run(PlaceAnte(box=3, ante=100), BOB)  # the box is free again
    scenario.run(CancelBets(), ANN)
    assert scenario.balance("ann") == START
    assert [b.number for b in scenario.table.round.boxes] == [3]  # type: ignore[union-attr]
    refused(scenario, CancelBets(), ANN, "no_bets")
    refused(scenario, CancelBets(box=3), ANN, "not_your_box")
    books(scenario)


def test_bets_are_final_once_the_player_asked_for_the_deal() -> None:
    scenario = table("russian", "ann", "bob")
    scenario.open_round()
    scenario.run(PlaceAnte(box=1, ante=100), ANN)
    scenario.run(PlaceAnte(box=2, ante=100), BOB)
    scenario.run(Deal(), ANN)
    refused(scenario, CancelBets(), ANN, "bets_final")
    refused(scenario, PlaceAnte(box=3, ante=100), ANN, "bets_final")
    refused(scenario, Deal(), ANN, "deal_already_requested")
    assert scenario.table.round.phase == "betting"  # type: ignore[union-attr]


def test_repeat_places_the_previous_rounds_bets_in_one_step() -> None:
    scenario = table(dealer_draw=False)
    refused(scenario, RepeatBets(), ANN, "betting_closed")
    scenario.open_round()
    refused(scenario, RepeatBets(), ANN, "no_previous_bets")
    scenario.run(PlaceAnte(box=2, ante=300, bonus=100), ANN)
    scenario.run(PlaceAnte(box=4, ante=200, dark=True), ANN)
    scenario.run(Deal(), ANN)
    scenario.run(Fold(box=2), ANN)
    assert scenario.table.round.phase == "settled"  # type: ignore[union-attr]
    scenario.open_round(seed=bytes([1]) * 32)
    before = scenario.balance("ann")
    events = scenario.run(RepeatBets(), ANN)
    placed = [e for e in events if isinstance(e, AntePlaced)]
    assert [(e.box, e.ante, e.bonus, e.dark, e.bet) for e in placed] == [
        (2, 300, 100, False, 0),
        (4, 200, 0, True, 400),
    ]
    assert all(e.round == 2 for e in placed)
    debits = [(e.box, e.reason, e.amount) for e in events if isinstance(e, WalletDebited)]
    assert debits == [(2, "ante", 300), (2, "bonus", 100), (4, "ante", 200), (4, "bet", 400)]
    assert scenario.balance("ann") == before - 1_000
    refused(scenario, RepeatBets(), ANN, "box_taken")
    books(scenario)


def test_repeat_after_sitting_out_a_round_repeats_the_last_bets_played() -> None:
    scenario = table("russian", "ann", "bob", dealer_draw=False)
    scenario.open_round()
    scenario.run(PlaceAnte(box=3, ante=400), ANN)
    scenario.run(Deal(), ANN)
    scenario.run(Fold(box=3), ANN)
    scenario.open_round(seed=bytes([1]) * 32)
    scenario.run(PlaceAnte(box=1, ante=100), BOB)
    scenario.run(Deal(), BOB)
    scenario.run(Fold(box=1), BOB)
    scenario.open_round(seed=bytes([2]) * 32)
    events = scenario.run(RepeatBets(), ANN)
    assert [(e.round, e.box, e.ante) for e in events if isinstance(e, AntePlaced)] == [(3, 3, 400)]
    assert scenario.balance("ann") == START - 400 - 400
    books(scenario)


def test_repeat_is_all_or_nothing() -> None:
    scenario = table("russian", "ann", "bob", dealer_draw=False)
    scenario.open_round()
    scenario.run(PlaceAnte(box=1, ante=100), ANN)
    scenario.run(PlaceAnte(box=2, ante=100), ANN)
    scenario.run(Deal(), ANN)
    scenario.run(Fold(box=1), ANN)
    scenario.run(Fold(box=2), ANN)
    scenario.open_round(seed=bytes([1]) * 32)
    scenario.run(PlaceAnte(box=2, ante=100), BOB)
    refused(scenario, RepeatBets(), ANN, "box_taken")
    assert scenario.balance("ann") == START - 200


def test_leaving_during_betting_refunds_exactly() -> None:
    scenario = table("russian", "ann", "bob")
    scenario.open_round()
    scenario.run(PlaceAnte(box=1, ante=250, bonus=150), ANN)
    scenario.run(PlaceAnte(box=2, ante=100, dark=True), ANN)
    scenario.run(PlaceAnte(box=3, ante=100), BOB)
    scenario.run(Deal(), ANN)
    events = scenario.run(LeaveTable(), ANN)
    assert [e.amount for e in events if isinstance(e, WalletCredited)] == [400, 300]
    assert events[-1] == PlayerLeft(player="ann", seat=1)
    assert scenario.balance("ann") == START
    assert scenario.table.round.phase == "betting"  # type: ignore[union-attr]
    scenario.run(Deal(), BOB)  # bob alone decides the deal now
    [deal] = scenario.of_type(CardsDealt)
    assert [h.box for h in deal.hands] == [3]
    books(scenario)


def test_the_last_player_not_ready_leaving_deals_to_the_others() -> None:
    scenario = table("russian", "ann", "bob")
    scenario.open_round()
    scenario.run(PlaceAnte(box=1, ante=100), ANN)
    scenario.run(PlaceAnte(box=2, ante=200), BOB)
    scenario.run(Deal(), ANN)
    events = scenario.run(LeaveTable(), BOB)
    assert [type(e).__name__ for e in events] == [
        "BetsCancelled",
        "WalletCredited",
        "PlayerLeft",
        "CardsDealt",
    ]
    assert scenario.balance("bob") == START
    assert scenario.table.round.phase == "decisions"  # type: ignore[union-attr]
    books(scenario)


def test_leaving_with_cards_out_is_refused_until_the_boxes_are_settled() -> None:
    scenario = table()
    single_box(scenario, "Qh Jc 8d 5s 3c", "Ah Kc 9d 7s 4c")
    refused(scenario, LeaveTable(), ANN, "boxes_in_play")
    scenario.run(Fold(box=1), ANN)
    scenario.run(LeaveTable(), ANN)
    assert scenario.table.seats[0] is None
    assert scenario.balance("ann") == START - 100


def test_the_deal_waits_for_every_player_with_a_bet() -> None:
    scenario = table("russian", "ann", "bob", "carl")
    scenario.open_round()
    scenario.run(PlaceAnte(box=1, ante=100), ANN)
    scenario.run(PlaceAnte(box=2, ante=100), BOB)
    refused(scenario, Deal(), CARL, "no_bets")  # carl only watches
    assert scenario.run(Deal(), ANN) == [DealRequested(round=1, player="ann")]
    events = scenario.run(Deal(), BOB)
    assert isinstance(events[1], CardsDealt)


def test_betting_time_up_deals_what_is_bet() -> None:
    scenario = table("russian", "ann", "bob")
    scenario.open_round()
    refused(scenario, BettingTimeUp(round=1), SYSTEM, "stale_timeout")  # nothing bet yet
    scenario.run(PlaceAnte(box=1, ante=100), ANN)
    scenario.run(PlaceAnte(box=2, ante=100), BOB)
    refused(scenario, BettingTimeUp(round=2), SYSTEM, "stale_timeout")
    refused(scenario, BettingTimeUp(round=1), ANN, "wrong_role")
    [deal] = scenario.run(BettingTimeUp(round=1), SYSTEM)[:1]
    assert isinstance(deal, CardsDealt) and [h.box for h in deal.hands] == [1, 2]
    assert scenario.table.round.phase == "decisions"  # type: ignore[union-attr]
    refused(scenario, BettingTimeUp(round=1), SYSTEM, "stale_timeout")
    books(scenario)


def test_a_bonus_paytable_prices_every_qualifying_hand_at_one_to_one_or_more() -> None:
    # At 0 a qualifying bonus hand would be settled as a loss; "does not pay" is bonus_min_hand.
    with pytest.raises(RulesetError, match=r"`bonus_paytable` multiples must be 1\.\.100000"):
        make_ruleset("oasis", {"bonus_enabled": True, "bonus_paytable": {"straight": 0}})
    assert (
        make_ruleset("oasis", {"bonus_paytable": {"straight": 1}}).bonus_paytable["straight"] == 1
    )
