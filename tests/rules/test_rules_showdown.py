"""docs/rules.md §5.5-§5.7: the dealer's reveal, the dealer draw and its four outcomes, settlement
against a qualifying dealer (Russian and Oasis), insurance at settlement, ``max_payout``
and the end of the round — on fixed decks, to the unit."""

from __future__ import annotations

import pytest

from russian_poker.events.commands import (
    Deal,
    DecisionTimeUp,
    DeclineDealerExchange,
    Fold,
    Insure,
    OpenRound,
    PlaceAnte,
    Play,
    RequestDealerExchange,
)
from russian_poker.events.game import (
    BoxSettled,
    DealerCardReplaced,
    DealerExchangeDeclined,
    DealerRevealed,
    RoundSettled,
)
from tests.rules.rounds import (
    ANN,
    BOB,
    START,
    bonus_of,
    books,
    deck_for,
    refused,
    settled,
    single_box,
    table,
)
from tests.rules.scenario import SEED, SYSTEM, Scenario

ANTE = 100
BET = 200
QUALIFYING = "Ah Kc 9d 7s 4c"


def phase(scenario: Scenario) -> str:
    assert scenario.table.round is not None
    return scenario.table.round.phase


# --- §5.5 the reveal ------------------------------------------------------------------------


def test_the_dealer_reveals_once_every_box_has_decided() -> None:
    scenario = table("russian", "ann", "bob")
    scenario.open_round(deck=deck_for(["8h 8c 2d 5s Jc", "9h 9c 2s 5d Qc"], QUALIFYING))
    scenario.run(PlaceAnte(box=1, ante=ANTE), ANN)
    scenario.run(PlaceAnte(box=2, ante=ANTE), BOB)
    scenario.run(Deal(), ANN)
    scenario.run(Deal(), BOB)
    scenario.run(Play(box=1), ANN)
    assert not scenario.of_type(DealerRevealed) and phase(scenario) == "decisions"
    events = scenario.run(Fold(box=2), BOB)
    assert isinstance(events[1], DealerRevealed)
    assert events[1].cards == tuple(QUALIFYING.split()) and events[1].qualifies
    assert [type(e) for e in events[2:]].count(BoxSettled) == 2
    assert isinstance(events[-1], RoundSettled) and phase(scenario) == "settled"
    assert scenario.balance("ann") == START + BET
    assert scenario.balance("bob") == START - ANTE
    assert books(scenario) == {1: ANTE - BET}


def test_all_dark_or_folded_boxes_reveal_at_once() -> None:
    scenario = table()
    single_box(scenario, "8h 8c 2d 5s Jc", "Qh Jh 9d 7s 4c", dark=True)
    # A dark box has nothing to decide and cannot ask for the dealer draw: no game pays
    # the ante 1:1 and returns the Bet at once.
    assert phase(scenario) == "settled"
    box = settled(scenario, 1)
    assert (box.outcome, box.returned, box.won) == ("dealer_no_game", ANTE + BET, ANTE)
    assert scenario.balance("ann") == START + ANTE
    books(scenario)


@pytest.mark.parametrize("preset", ["oasis", "russian-online"])
def test_dealer_without_a_game_and_no_dealer_draw_pays_the_ante_and_returns_the_bet(
    preset: str,
) -> None:
    scenario = table(preset)
    single_box(scenario, "8h 8c 2d 5s Jc", "Qh Jh 9d 7s 4c")
    scenario.run(Play(box=1), ANN)
    assert phase(scenario) == "settled"
    box = settled(scenario, 1)
    assert (box.outcome, box.returned, box.won, box.combinations) == (
        "dealer_no_game",
        ANTE + BET,
        ANTE,
        (),
    )
    assert scenario.balance("ann") == START + ANTE
    books(scenario)


# --- §5.6 settlement against a qualifying dealer -----------------------------------------


@pytest.mark.parametrize(
    ("hand", "dealer", "outcome", "returned", "won"),
    [
        ("As Kd 8h 8c 9s", "Ah Kc 2d 3s 4h", "won", ANTE + BET, 1 * BET + ANTE),
        ("Ah Jh 8h 6h 3h", "As Js 8s 6s 3s", "tied", ANTE + BET, 0),
        ("Ah Jh 8h 6h 2h", "As Js 8s 6s 3s", "lost", 0, 0),
    ],
)
def test_oasis_pays_the_ante_one_to_one_on_a_win_and_one_combination(
    hand: str, dealer: str, outcome: str, returned: int, won: int
) -> None:
    scenario = table("oasis")
    single_box(scenario, hand, dealer)
    scenario.run(Play(box=1), ANN)
    box = settled(scenario, 1)
    assert (box.outcome, box.returned, box.won) == (outcome, returned, won)
    assert len(box.combinations) == (1 if outcome == "won" else 0)
    assert scenario.balance("ann") == START - ANTE - BET + returned + won
    books(scenario)


def test_russian_returns_the_ante_on_a_win_and_loses_both_on_a_loss() -> None:
    scenario = table("russian", "ann", "bob")
    scenario.open_round(deck=deck_for(["Qh Qc 2d 5s Jc", "3h 3c 2s 5d Td"], "Js Jd 9h 7s 4c"))
    scenario.run(PlaceAnte(box=1, ante=ANTE), ANN)
    scenario.run(PlaceAnte(box=2, ante=ANTE), BOB)
    scenario.run(Deal(), ANN)
    scenario.run(Deal(), BOB)
    scenario.run(Play(box=1), ANN)
    scenario.run(Play(box=2), BOB)
    win, loss = settled(scenario, 1), settled(scenario, 2)
    assert (win.outcome, win.returned, win.won) == ("won", ANTE + BET, BET)
    assert (loss.outcome, loss.returned, loss.won) == ("lost", 0, 0)
    assert scenario.balance("ann") == START + BET
    assert scenario.balance("bob") == START - ANTE - BET
    assert books(scenario) == {1: ANTE}


# --- §5.5 the dealer draw -----------------------------------------------------------------


def dealer_draw_round(
    scenario: Scenario, hands: list[str], dealer: str, then: str, antes: list[int]
) -> None:
    """Ann's light boxes 1.. with ``antes`` (play order = listed order), all played."""
    scenario.open_round(deck=deck_for(hands, dealer, then=then))
    for number, ante in enumerate(antes, start=1):
        scenario.run(PlaceAnte(box=number, ante=ante), ANN)
    scenario.run(Deal(), ANN)
    for number in range(1, len(antes) + 1):
        scenario.run(Play(box=number), ANN)


def test_seed_example_ace_replaced_by_ace_is_redrawn_free_into_a_heart_flush() -> None:
    scenario = table("russian", "ann", "bob")
    scenario.open_round(
        deck=deck_for(["Kc Kd Ks 9c 9d", "Qc Qd 2c 3c 5s"], "As Jh 8h 5h 2h", then="Ac Ah")
    )
    scenario.run(PlaceAnte(box=1, ante=ANTE), ANN)
    scenario.run(PlaceAnte(box=2, ante=ANTE), BOB)
    scenario.run(Deal(), ANN)
    scenario.run(Deal(), BOB)
    scenario.run(Play(box=1), ANN)
    scenario.run(Play(box=2), BOB)
    [revealed] = scenario.of_type(DealerRevealed)
    assert (revealed.hand, revealed.qualifies) == ("no_game", False)
    assert phase(scenario) == "dealer_draw"
    refused(scenario, RequestDealerExchange(box=1), BOB, "not_your_box")
    scenario.run(RequestDealerExchange(box=1), ANN)
    refused(scenario, RequestDealerExchange(box=1), ANN, "no_dealer_draw")
    assert phase(scenario) == "dealer_draw" and not scenario.of_type(DealerCardReplaced)
    events = scenario.run(DeclineDealerExchange(box=2), BOB)
    kinds = [type(e).__name__ for e in events]
    # Bob took the ante win against the dealer as revealed, before the draw.
    assert kinds.index("BoxSettled") < kinds.index("DealerCardReplaced")
    assert scenario.of_type(DealerCardReplaced) == [
        DealerCardReplaced(round=1, replaced="As", card="Ac", free=False),
        DealerCardReplaced(round=1, replaced="Ac", card="Ah", free=True),
    ]
    assert scenario.table.round.dealer == ("Ah", "Jh", "8h", "5h", "2h")  # type: ignore[union-attr]
    assert scenario.table.round.dealer_qualified is True  # type: ignore[union-attr]
    assert scenario.table.round.set_aside == ("As", "Ac")  # type: ignore[union-attr]
    bob = settled(scenario, 2)
    assert (bob.outcome, bob.dealer_draw, bob.returned, bob.won) == (
        "dealer_no_game",
        False,
        ANTE + BET,
        ANTE,
    )
    # Ann's full house beats the flush: the Bet is paid 7:1, the ante was the fee.
    ann = settled(scenario, 1)
    assert (ann.outcome, ann.dealer_draw, ann.hand) == ("won", True, "full_house")
    assert (ann.returned, ann.won) == (BET, 7 * BET)
    assert scenario.balance("ann") == START - ANTE + 7 * BET
    assert scenario.balance("bob") == START + ANTE
    assert books(scenario) == {1: ANTE - 7 * BET - ANTE}


@pytest.mark.parametrize(
    ("hand", "dealer", "then", "outcome", "returned", "won", "final"),
    [
        # the dealer qualifies and loses: Bet paid by the paytable (trips 3:1)
        ("9h 9s 9c 4d 2s", "Ks 8d Qh 7c 3d", "Qd", "won", BET, 3 * BET, "Qd 8d Qh 7c 3d"),
        # the dealer draws the same hand: Bet returned
        ("9h 9s Qd 7s 3h", "Ks 9d Qh 7c 3d", "9c", "tied", BET, 0, "9c 9d Qh 7c 3d"),
        # the dealer wins: Bet lost
        ("9h 9s 4d 2s 6c", "Ks Jd Qh 7c 3d", "Jc", "lost", 0, 0, "Jc Jd Qh 7c 3d"),
        # still no game: Bet returned, the ante neither returned nor paid
        ("9h 9s 9c 4d 2s", "Ks Jd Qh 7c 3d", "5c", "dealer_no_game", BET, 0, "5c Jd Qh 7c 3d"),
    ],
)
def test_the_four_outcomes_of_a_dealer_draw(
    hand: str, dealer: str, then: str, outcome: str, returned: int, won: int, final: str
) -> None:
    scenario = table()
    single_box(scenario, hand, dealer, then=then)
    scenario.run(Play(box=1), ANN)
    scenario.run(RequestDealerExchange(box=1), ANN)
    current = scenario.table.round
    assert current is not None
    assert current.dealer == tuple(final.split())
    # The round's state tells whether the dealer's final hand has a game.
    assert current.dealer_qualified is (outcome != "dealer_no_game")
    box = settled(scenario, 1)
    assert (box.outcome, box.dealer_draw, box.returned, box.won) == (outcome, True, returned, won)
    assert scenario.balance("ann") == START - ANTE - BET + returned + won
    books(scenario)


def test_one_dealer_draw_serves_every_box_that_asked() -> None:
    scenario = table("russian", "ann", "bob")
    scenario.open_round(
        deck=deck_for(["Qc Qd 2c 3c 5s", "Tc Td 2d 3d 6s"], "Ks Jh 8h 5h 2h", then="Jc 4s")
    )
    scenario.run(PlaceAnte(box=1, ante=ANTE), ANN)
    scenario.run(PlaceAnte(box=2, ante=ANTE), BOB)
    scenario.run(Deal(), ANN)
    scenario.run(Deal(), BOB)
    scenario.run(Play(box=1), ANN)
    scenario.run(Play(box=2), BOB)
    scenario.run(RequestDealerExchange(box=2), BOB)
    scenario.run(RequestDealerExchange(box=1), ANN)
    assert scenario.of_type(DealerCardReplaced) == [
        DealerCardReplaced(round=1, replaced="Ks", card="Jc", free=False)
    ]
    # Dealer: pair of jacks. Queens win the Bet 1:1, tens lose it; both antes were the fee.
    ann, bob = settled(scenario, 1), settled(scenario, 2)
    assert (ann.outcome, ann.returned, ann.won) == ("won", BET, BET)
    assert (bob.outcome, bob.returned, bob.won) == ("lost", 0, 0)
    assert scenario.balance("ann") == START - ANTE + BET
    assert scenario.balance("bob") == START - ANTE - BET
    assert books(scenario) == {1: ANTE + ANTE + BET - BET}


def test_declining_or_timing_out_on_the_dealer_draw_takes_the_ante_win() -> None:
    scenario = table()
    dealer_draw_round(
        scenario, ["Qc Qd 2c 3c 5s", "Tc Td 2d 3d 6s"], "Ks Jh 8h 5h 2h", "", [ANTE, ANTE]
    )
    refused(scenario, DecisionTimeUp(round=1, box=1, phase="decision"), SYSTEM, "stale_timeout")
    scenario.run(DeclineDealerExchange(box=1), ANN)
    refused(scenario, DeclineDealerExchange(box=1), ANN, "no_dealer_draw")
    events = scenario.run(DecisionTimeUp(round=1, box=2, phase="dealer_draw"), SYSTEM)
    assert events[0] == DealerExchangeDeclined(round=1, box=2, timed_out=True)
    refused(scenario, DecisionTimeUp(round=1, box=2, phase="dealer_draw"), SYSTEM, "stale_timeout")
    assert not scenario.of_type(DealerCardReplaced)
    for number in (1, 2):
        box = settled(scenario, number)
        assert (box.outcome, box.returned, box.won) == ("dealer_no_game", ANTE + BET, ANTE)
    assert scenario.balance("ann") == START + 2 * ANTE
    books(scenario)


@pytest.mark.parametrize(
    ("limit", "draws", "final_hand", "outcome", "won"),
    [
        (0, ["As>Ac"], "no_game", "dealer_no_game", 0),
        (1, ["As>Ac", "Ac>Ad"], "no_game", "dealer_no_game", 0),
        (None, ["As>Ac", "Ac>Ad", "Ad>Ah"], "flush", "won", 7 * BET),
    ],
)
def test_dealer_redraw_limit(
    limit: int | None, draws: list[str], final_hand: str, outcome: str, won: int
) -> None:
    scenario = table(dealer_redraw_limit=limit)
    single_box(scenario, "Kc Kd Ks 9c 9d", "As Jh 8h 5h 2h", then="Ac Ad Ah")
    scenario.run(Play(box=1), ANN)
    scenario.run(RequestDealerExchange(box=1), ANN)
    replaced = scenario.of_type(DealerCardReplaced)
    assert [f"{e.replaced}>{e.card}" for e in replaced] == draws
    assert [e.free for e in replaced] == [False] + [True] * (len(draws) - 1)
    box = settled(scenario, 1)
    assert (box.outcome, box.returned, box.won) == (outcome, BET, won)
    assert scenario.balance("ann") == START - ANTE + won
    books(scenario)


def test_a_different_rank_ends_the_dealer_draw_even_without_a_game() -> None:
    scenario = table()
    single_box(scenario, "Kc Kd Ks 9c 9d", "As Jh 8h 5h 2c", then="Qs Ah")
    scenario.run(Play(box=1), ANN)
    scenario.run(RequestDealerExchange(box=1), ANN)
    assert scenario.of_type(DealerCardReplaced) == [
        DealerCardReplaced(round=1, replaced="As", card="Qs", free=False)
    ]
    assert settled(scenario, 1).outcome == "dealer_no_game"
    assert scenario.balance("ann") == START - ANTE
    books(scenario)


def test_a_same_rank_card_that_gives_the_dealer_a_game_is_not_redrawn() -> None:
    scenario = table()
    single_box(scenario, "Kc Kd Ks 9c 9d", "As Jh 8h 5h 2h", then="Ah Ac")
    scenario.run(Play(box=1), ANN)
    scenario.run(RequestDealerExchange(box=1), ANN)
    assert scenario.of_type(DealerCardReplaced) == [
        DealerCardReplaced(round=1, replaced="As", card="Ah", free=False)
    ]
    assert settled(scenario, 1).won == 7 * BET
    books(scenario)


@pytest.mark.parametrize(("returned_flag", "kept"), [(False, 0), (True, 300)])
def test_insurance_after_a_dealer_draw_that_gives_the_dealer_a_game(
    returned_flag: bool, kept: int
) -> None:
    scenario = table(insurance_returned_after_dealer_draw=returned_flag)
    single_box(scenario, "8c 8d 8s Kc 2d", "As Jh 7h 5c 3d", then="Jd")
    scenario.run(Insure(box=1, amount=300), ANN)
    scenario.run(RequestDealerExchange(box=1), ANN)
    box = settled(scenario, 1)
    assert (box.outcome, box.returned, box.won) == ("won", BET + kept, 3 * BET)
    assert scenario.balance("ann") == START - ANTE - BET - 300 + BET + kept + 3 * BET
    books(scenario)


def test_insurance_pays_when_the_dealer_still_has_no_game_after_the_draw() -> None:
    scenario = table()
    single_box(scenario, "8c 8d 8s Kc 2d", "As Jh 7h 5c 3d", then="Td")
    scenario.run(Insure(box=1, amount=300), ANN)
    scenario.run(RequestDealerExchange(box=1), ANN)
    box = settled(scenario, 1)
    assert (box.outcome, box.returned, box.won) == ("dealer_no_game", BET + 300, 300)
    assert scenario.balance("ann") == START - ANTE + 300
    books(scenario)


def test_insured_box_declining_the_draw_wins_ante_and_insurance() -> None:
    scenario = table()
    single_box(scenario, "8c 8d 8s Kc 2d", "As Jh 7h 5c 3d")
    scenario.run(Insure(box=1, amount=600), ANN)
    scenario.run(DeclineDealerExchange(box=1), ANN)
    box = settled(scenario, 1)
    assert (box.outcome, box.returned, box.won) == ("dealer_no_game", ANTE + BET + 600, ANTE + 600)
    assert scenario.balance("ann") == START + ANTE + 600
    books(scenario)


# --- max_payout ------------------------------------------------------------------------------


def test_max_payout_caps_the_main_wager_and_separately_the_bonus() -> None:
    scenario = table(max_payout=1_000)
    single_box(scenario, "Ah Kh Qh Jh Th", "As Ks 9d 7c 2c", bonus=100)
    bonus = bonus_of(scenario, 1)
    assert (bonus.hand, bonus.won, bonus.capped) == ("royal_flush", 1_000, 100 * 1_000 - 1_000)
    scenario.run(Play(box=1), ANN)
    box = settled(scenario, 1)
    assert (box.outcome, box.returned, box.won, box.capped) == (
        "won",
        ANTE + BET,
        1_000,
        100 * BET - 1_000,
    )
    assert scenario.balance("ann") == START + 1_000 + 1_000
    books(scenario)


def test_max_payout_counts_ante_and_insurance_winnings_of_the_main_wager() -> None:
    scenario = table(max_payout=500, dealer_draw=False)
    single_box(scenario, "8c 8d 8s Ac Kd", "Qs Jh 7h 5c 3d")
    # Trips and AK would win 4 x 200 on the Bet, but never more than max_payout: insurance
    # goes up to 500 only.
    refused(scenario, Insure(box=1, amount=501), ANN, "insurance_out_of_range")
    scenario.run(Insure(box=1, amount=500), ANN)
    box = settled(scenario, 1)
    assert (box.returned, box.won, box.capped) == (ANTE + BET + 500, 500, ANTE + 500 - 500)
    assert scenario.balance("ann") == START + 500
    books(scenario)


def test_winnings_under_max_payout_are_not_capped() -> None:
    scenario = table(max_payout=400)
    single_box(scenario, "As Kd 8h 8c 9s", "Ah Kc 2d 3s 4h")
    scenario.run(Play(box=1), ANN)
    box = settled(scenario, 1)
    assert (box.won, box.capped) == (2 * BET, 0)
    books(scenario)


# --- §5.7 end of the round --------------------------------------------------------------


def test_the_next_round_opens_only_when_every_box_is_settled() -> None:
    scenario = table()
    single_box(scenario, "Kc Kd Ks 9c 9d", "As Jh 8h 5h 2h")
    refused(scenario, OpenRound(seed=SEED), SYSTEM, "round_not_finished")
    scenario.run(Play(box=1), ANN)
    refused(scenario, OpenRound(seed=SEED), SYSTEM, "round_not_finished")
    scenario.run(DeclineDealerExchange(box=1), ANN)
    assert phase(scenario) == "settled"
    assert all(b.settled for b in scenario.table.round.boxes)  # type: ignore[union-attr]
    scenario.open_round(seed=bytes([3]) * 32)
    assert scenario.table.round.number == 2 and phase(scenario) == "betting"  # type: ignore[union-attr]
    books(scenario)
