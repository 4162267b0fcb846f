"""Every refusal the rules can give, each shown to change nothing (table, wallets, log);
and docs/rules.md §7: integer money, no balance below zero, and per-round conservation."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec
import pytest

from russian_poker.events.commands import (
    Actor,
    BettingTimeUp,
    BuyCard,
    CancelBets,
    ChangeRuleset,
    CloseTable,
    Command,
    Deal,
    DecisionTimeUp,
    DeclineDealerExchange,
    Exchange,
    Fold,
    Insure,
    LeaveTable,
    OpenRound,
    OpenTable,
    PlaceAnte,
    Play,
    ReopenTable,
    RepeatBets,
    RequestDealerExchange,
    SitDown,
    StackDeck,
)
from russian_poker.events.game import BetsCancelled, RoundSettled, TableClosed
from russian_poker.events.wallet import WalletCredited
from russian_poker.service.rules.decide import decide
from russian_poker.service.rules.errors import REFUSALS, RuleViolation
from russian_poker.service.rules.state import Table
from russian_poker.service.rules.wallets import Wallet, deposit, fold_wallet, open_wallet
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
from tests.rules.scenario import OPERATOR, SEED, SYSTEM, Scenario, player

QUALIFYING = "Ah Kc 9d 7s 4c"
NO_GAME = "Qh Jh 9d 7s 4c"
CARL = player("carl")

Setup = Callable[[], tuple[Scenario, Command, Actor]]


def betting(*names: str, **overrides: object) -> Scenario:
    scenario = table("russian", *(names or ("ann", "bob")), **overrides)
    scenario.open_round()
    return scenario


def two_boxes_dealt(dealer: str = QUALIFYING, **overrides: object) -> Scenario:
    """Ann's light box 1 and bob's light box 2 dealt; nobody has decided."""
    scenario = table("russian", "ann", "bob", **overrides)
    scenario.open_round(deck=deck_for(["8h 8c 8d 5s Jc", "9h 9c 2s 5d Qc"], dealer))
    scenario.run(PlaceAnte(box=1, ante=100), ANN)
    scenario.run(PlaceAnte(box=2, ante=100), BOB)
    scenario.run(Deal(), ANN)
    scenario.run(Deal(), BOB)
    return scenario


def in_dealer_draw() -> Scenario:
    scenario = table()
    scenario.open_round(deck=deck_for(["8h 8c 8d 5s Jc", "9h 9c 2s 5d Qc"], NO_GAME))
    scenario.run(PlaceAnte(box=1, ante=100), ANN)
    scenario.run(PlaceAnte(box=2, ante=100, dark=True), ANN)
    scenario.run(PlaceAnte(box=3, ante=100), ANN)
    scenario.run(Deal(), ANN)
    scenario.run(Play(box=1), ANN)
    scenario.run(Fold(box=3), ANN)
    assert scenario.table.round.phase == "dealer_draw"  # type: ignore[union-attr]
    return scenario


def ready_and_waiting() -> Scenario:
    scenario = betting()
    scenario.run(PlaceAnte(box=1, ante=100), ANN)
    scenario.run(PlaceAnte(box=2, ante=100), BOB)
    scenario.run(Deal(), ANN)
    return scenario


def with_light_boxes(count: int) -> Scenario:
    scenario = betting()
    for number in range(1, count + 1):
        scenario.run(PlaceAnte(box=number, ante=100), ANN)
    return scenario


def unfunded_carl() -> Scenario:
    scenario = betting("ann")
    scenario.sit("carl")
    return scenario


def carl_in_dollars() -> Scenario:
    scenario = betting()
    wallet = Wallet()
    moves = open_wallet(wallet, "carl", "USD")
    wallet = fold_wallet(wallet, moves)
    scenario.wallets["carl"] = fold_wallet(wallet, deposit(wallet, "t-1", START))
    scenario.sit("carl")
    return scenario


def drew() -> Scenario:
    scenario = two_boxes_dealt()
    scenario.run(BuyCard(box=1), ANN)
    return scenario


def played_box_1() -> Scenario:
    scenario = two_boxes_dealt()
    scenario.run(Play(box=1), ANN)
    return scenario


def poor_ann(balance: int) -> Scenario:
    scenario = Scenario(players={"ann": balance})
    scenario.sit("ann")
    return scenario


def poor_ann_dealt(balance: int, hand: str = "8h 8c 8d 5s Jc") -> Scenario:
    scenario = poor_ann(balance)
    single_box(scenario, hand, QUALIFYING)
    return scenario


def closed() -> Scenario:
    scenario = table()
    scenario.run(CloseTable(), OPERATOR)
    return scenario


def settled_round() -> Scenario:
    scenario = table()
    single_box(scenario, "8h 8c 8d 5s Jc", QUALIFYING)
    scenario.run(Fold(box=1), ANN)
    return scenario


CASES: dict[str, Setup] = {
    "wrong_role": lambda: (betting(), PlaceAnte(box=1, ante=100), OPERATOR),
    "wrong_role/open_round": lambda: (table(), OpenRound(seed=SEED), ANN),
    "not_your_box": lambda: (two_boxes_dealt(), Play(box=2), ANN),
    "no_such_box": lambda: (two_boxes_dealt(), Play(box=3), ANN),
    "no_such_box/range": lambda: (betting(), PlaceAnte(box=0, ante=100), ANN),
    "table_private": lambda: (_private_for_ann(), SitDown(), BOB),
    "wrong_operator": lambda: (table(), SitDown(), Actor(role="player", id="beta:bob")),
    "no_such_seat": lambda: (table("russian", "ann"), SitDown(seat=5), BOB),
    "no_wallet": lambda: (unfunded_carl(), PlaceAnte(box=1, ante=100), CARL),
    "currency_mismatch": lambda: (carl_in_dollars(), PlaceAnte(box=1, ante=100), CARL),
    "table_not_open": lambda: (closed(), SitDown(), BOB),
    "table_not_open/round": lambda: (closed(), OpenRound(seed=SEED), SYSTEM),
    "table_already_opened": lambda: (table(), OpenTable(ruleset=table().rules), OPERATOR),
    "table_not_closed": lambda: (table(), ReopenTable(), OPERATOR),
    "ruleset_locked": lambda: (ready_and_waiting(), _ruleset_change(), OPERATOR),
    "ruleset_locked/in_play": lambda: (two_boxes_dealt(), _ruleset_change(), OPERATOR),
    "ruleset_change_invalid": lambda: (table(), _ruleset_change(currency="USD"), OPERATOR),
    "ruleset_change_invalid/boxes": lambda: (table(), _ruleset_change(boxes=6), OPERATOR),
    "wrong_role/change_ruleset": lambda: (table(), _ruleset_change(), ANN),
    "round_in_progress": lambda: (two_boxes_dealt(), CloseTable(), OPERATOR),
    "round_not_finished": lambda: (betting(), OpenRound(seed=SEED), SYSTEM),
    "not_seated": lambda: (betting("ann"), PlaceAnte(box=1, ante=100), BOB),
    "already_seated": lambda: (betting(), SitDown(), ANN),
    "seat_taken": lambda: (table("russian", "ann"), SitDown(seat=1), BOB),
    "table_full": lambda: (betting("ann", "bob", "carl", "dan"), SitDown(), player("eve")),
    "boxes_in_play": lambda: (played_box_1(), LeaveTable(), ANN),
    "betting_closed": lambda: (two_boxes_dealt(), PlaceAnte(box=3, ante=100), ANN),
    "betting_closed/cancel": lambda: (two_boxes_dealt(), CancelBets(), ANN),
    "betting_closed/deal": lambda: (settled_round(), Deal(), ANN),
    "betting_closed/stack_deck": lambda: (two_boxes_dealt(), StackDeck(deck=("As",)), OPERATOR),
    "invalid_deck": lambda: (betting(), StackDeck(deck=("As", "As")), OPERATOR),
    "wrong_role/stack_deck": lambda: (betting(), StackDeck(deck=("As",)), ANN),
    "box_taken": lambda: (ready_and_waiting(), PlaceAnte(box=1, ante=100), BOB),
    "light_box_limit": lambda: (with_light_boxes(2), PlaceAnte(box=3, ante=100), ANN),
    "bets_final": lambda: (ready_and_waiting(), CancelBets(box=1), ANN),
    "no_bets": lambda: (betting(), Deal(), ANN),
    "no_previous_bets": lambda: (betting(), RepeatBets(), ANN),
    "deal_already_requested": lambda: (ready_and_waiting(), Deal(), ANN),
    "out_of_turn": lambda: (_two_own_boxes_dealt(), Play(box=2), ANN),
    "already_decided": lambda: (played_box_1(), Fold(box=1), ANN),
    "dark_box": lambda: (in_dealer_draw_decisions(), Play(box=2), ANN),
    "draw_already_used": lambda: (drew(), BuyCard(box=1), ANN),
    "not_deciding": lambda: (betting(), Fold(box=1), ANN),
    "not_deciding/dealer_draw": lambda: (two_boxes_dealt(), RequestDealerExchange(box=1), ANN),
    "no_dealer_draw/dark": lambda: (in_dealer_draw(), RequestDealerExchange(box=2), ANN),
    "no_dealer_draw/folded": lambda: (in_dealer_draw(), DeclineDealerExchange(box=3), ANN),
    "stale_timeout/betting": lambda: (two_boxes_dealt(), BettingTimeUp(round=1), SYSTEM),
    "client_seeds_not_accepted": lambda: (
        betting(player_seeds=False),
        PlaceAnte(box=1, ante=100, client_seed="mine"),
        ANN,
    ),
    "invalid_client_seed/empty": lambda: (
        betting(),
        PlaceAnte(box=1, ante=100, client_seed=""),
        ANN,
    ),
    "invalid_client_seed/long": lambda: (
        betting(),
        PlaceAnte(box=1, ante=100, client_seed="x" * 65),
        ANN,
    ),
    "invalid_client_seed/unicode": lambda: (
        betting(),
        PlaceAnte(box=1, ante=100, client_seed="caf\u00e9"),
        ANN,
    ),
    "invalid_client_seed/control": lambda: (
        betting(),
        PlaceAnte(box=1, ante=100, client_seed="tab\there"),
        ANN,
    ),
    "stale_timeout/decision": lambda: (
        played_box_1(),
        DecisionTimeUp(round=1, box=1, phase="decision"),
        SYSTEM,
    ),
    "stale_timeout/dealer_draw": lambda: (
        in_dealer_draw(),
        DecisionTimeUp(round=1, box=3, phase="dealer_draw"),
        SYSTEM,
    ),
    "insufficient_funds/ante": lambda: (
        _poor_betting(250),
        PlaceAnte(box=1, ante=200, bonus=100),
        ANN,
    ),
    "insufficient_funds/dark": lambda: (
        _poor_betting(250),
        PlaceAnte(box=1, ante=100, dark=True),
        ANN,
    ),
    "insufficient_funds/bet": lambda: (poor_ann_dealt(250), Play(box=1), ANN),
    "insufficient_funds/fee": lambda: (poor_ann_dealt(150), BuyCard(box=1), ANN),
    "insufficient_funds/insurance": lambda: (poor_ann_dealt(400), Insure(box=1, amount=200), ANN),
    "insufficient_funds/repeat": lambda: (_poor_repeat(), RepeatBets(), ANN),
    "ante_out_of_range": lambda: (betting(), PlaceAnte(box=1, ante=10_001), ANN),
    "bonus_out_of_range": lambda: (betting(), PlaceAnte(box=1, ante=100, bonus=1_001), ANN),
    "bonus_not_offered": lambda: (
        betting(bonus_enabled=False),
        PlaceAnte(box=1, ante=100, bonus=100),
        ANN,
    ),
    "sixth_card_not_allowed": lambda: (
        two_boxes_dealt(buy_sixth_card=False),
        BuyCard(box=1),
        ANN,
    ),
    "exchange_not_allowed": lambda: (
        two_boxes_dealt(max_exchange_cards=2),
        Exchange(box=1, cards=["8h", "8c", "8d"]),
        ANN,
    ),
    "insurance_not_allowed": lambda: (two_boxes_dealt(), Insure(box=2, amount=100), BOB),
    "insurance_out_of_range": lambda: (two_boxes_dealt(), Insure(box=1, amount=601), ANN),
}


def _poor_betting(balance: int) -> Scenario:
    scenario = poor_ann(balance)
    scenario.open_round()
    return scenario


def _poor_repeat() -> Scenario:
    scenario = poor_ann(500)
    single_box(scenario, "8h 8c 2d 5s Jc", QUALIFYING, ante=200, bonus=100)
    scenario.run(Fold(box=1), ANN)  # 200 left; repeating ante 200 + bonus 100 needs 300
    scenario.open_round(seed=bytes([9]) * 32)
    return scenario


def _ruleset_change(**changes: Any) -> ChangeRuleset:
    """A change of the test table's ruleset (the ante minimum, and ``changes``)."""
    rules = msgspec.structs.replace(table().rules, ante_min=50, **changes)
    return ChangeRuleset(ruleset=rules, reason="a test change")


def _private_for_ann() -> Scenario:
    scenario = Scenario(players={"ann": START, "bob": START})
    scenario.table = Table()
    scenario.run(OpenTable(ruleset=scenario.rules, private_for="ann"), OPERATOR)
    scenario.sit("ann")
    return scenario


def _two_own_boxes_dealt() -> Scenario:
    scenario = table()
    scenario.open_round(deck=deck_for(["8h 8c 8d 5s Jc", "9h 9c 2s 5d Qc"], QUALIFYING))
    scenario.run(PlaceAnte(box=1, ante=100), ANN)
    scenario.run(PlaceAnte(box=2, ante=100), ANN)
    scenario.run(Deal(), ANN)
    return scenario


def in_dealer_draw_decisions() -> Scenario:
    scenario = table()
    scenario.open_round(deck=deck_for(["8h 8c 8d 5s Jc", "9h 9c 2s 5d Qc"], QUALIFYING))
    scenario.run(PlaceAnte(box=1, ante=100), ANN)
    scenario.run(PlaceAnte(box=2, ante=100, dark=True), ANN)
    scenario.run(Deal(), ANN)
    return scenario


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_refused_command_changes_nothing(case: str) -> None:
    scenario, command, actor = CASES[case]()
    refusal = refused(scenario, command, actor, case.split("/", maxsplit=1)[0])
    assert refusal.kind == REFUSALS[refusal.code][0]
    # Nothing said about hidden cards: the message is the code's or names the limits.
    assert not any(card in refusal.message for card in ("Ah", "Kc", "Qh", "Jh"))
    books(scenario)


def test_the_refusal_cases_cover_every_table_refusal_code() -> None:
    wallet_only = {"invalid_currency", "invalid_amount", "wallet_exists"}
    # The operator's refusals of a seamless bet, and a session missing, ended or another's:
    # the command path's, not the rules (tests/operators/test_operator_refusals.py,
    # tests/operators/test_sessions_bound.py).
    operator_only = {
        "session_ended",
        "session_required",
        "session_invalid",
        "player_blocked",
        "limit_reached",
    }
    covered = {case.split("/", maxsplit=1)[0] for case in CASES}
    assert covered | wallet_only | operator_only == set(REFUSALS)


def test_a_table_not_opened_refuses_everything() -> None:
    with pytest.raises(RuleViolation) as refusal:
        decide(Table(), SitDown(), ANN)
    assert refusal.value.code == "table_not_open"


def test_the_player_short_of_the_bet_can_still_fold() -> None:
    scenario = poor_ann_dealt(250)
    refused(scenario, Play(box=1), ANN, "insufficient_funds")
    scenario.run(Fold(box=1), ANN)
    assert scenario.balance("ann") == 150
    books(scenario)


def test_a_balance_exactly_enough_is_enough() -> None:
    scenario = poor_ann_dealt(300)
    scenario.run(Play(box=1), ANN)
    assert settled(scenario, 1).won == 3 * 200
    assert scenario.balance("ann") == 300 + 600
    books(scenario)


# --- §7 money --------------------------------------------------------------------------------


def test_a_busy_round_balances_to_the_unit() -> None:
    scenario = table("russian", "ann", "bob")
    scenario.open_round(
        deck=deck_for(
            [
                "Tc Td 4h 6s 8c",  # box 4, bob, ante 300
                "Ks Kd Kh 5c 2d",  # box 1, ann, ante 200 + bonus 100
                "Qs Jd 9h 6c 3s",  # box 2, ann, ante 100
                "7c 7d 2c 4c 9d",  # box 3, ann, ante 100, dark
            ],
            "As Jh 8h 5h 2h",
            then="Th Jc",
        )
    )
    scenario.run(PlaceAnte(box=1, ante=200, bonus=100), ANN)
    scenario.run(PlaceAnte(box=2, ante=100), ANN)
    scenario.run(PlaceAnte(box=3, ante=100, dark=True), ANN)
    scenario.run(PlaceAnte(box=4, ante=300), BOB)
    scenario.run(Deal(), BOB)
    scenario.run(Deal(), ANN)
    scenario.run(BuyCard(box=4), BOB)
    scenario.run(Play(box=4), BOB)
    scenario.run(Insure(box=1, amount=400), ANN)
    scenario.run(Fold(box=2), ANN)
    scenario.run(DeclineDealerExchange(box=4), BOB)
    scenario.run(RequestDealerExchange(box=1), ANN)
    outcomes = {n: settled(scenario, n) for n in (1, 2, 3, 4)}
    assert {n: (b.outcome, b.returned, b.won) for n, b in outcomes.items()} == {
        1: ("won", 400, 3 * 400),  # trips of kings beat the drawn jacks; insurance lost
        2: ("folded", 0, 0),
        3: ("dealer_no_game", 300, 100),  # dark: no draw for it, ante 1:1
        4: ("dealer_no_game", 900, 300),  # bought a card, declined: ante 1:1
    }
    # ann: bonus +500, Bet +1200, insurance -400, ante -200 (the draw's fee); -100; +100
    assert scenario.balance("ann") == START + 500 + 1_200 - 400 - 200 - 100 + 100
    assert scenario.balance("bob") == START
    assert books(scenario) == {1: -1_100}


def test_closing_a_table_during_betting_refunds_every_bet() -> None:
    scenario = betting()
    scenario.run(PlaceAnte(box=1, ante=200, bonus=100), ANN)
    scenario.run(PlaceAnte(box=2, ante=100, dark=True), BOB)
    events = scenario.run(CloseTable(), OPERATOR)
    assert [type(e) for e in events].count(BetsCancelled) == 2
    assert [e.amount for e in events if isinstance(e, WalletCredited)] == [300, 300]
    assert isinstance(events[-2], RoundSettled) and isinstance(events[-1], TableClosed)
    assert scenario.balance("ann") == scenario.balance("bob") == START
    assert books(scenario) == {1: 0}
    refused(scenario, OpenRound(seed=SEED), SYSTEM, "table_not_open")
    scenario.run(ReopenTable(), OPERATOR)
    scenario.open_round(seed=bytes([5]) * 32)
    assert scenario.table.round.number == 2  # type: ignore[union-attr]


def test_cancelling_the_last_unready_bets_deals_to_those_who_are_ready() -> None:
    scenario = ready_and_waiting()
    events = scenario.run(CancelBets(), BOB)
    assert type(events[-1]).__name__ in {"CardsDealt", "BonusSettled"}
    assert scenario.table.round.phase == "decisions"  # type: ignore[union-attr]
    assert [b.number for b in scenario.table.round.boxes] == [1]  # type: ignore[union-attr]
    assert scenario.balance("bob") == START
    books(scenario)
