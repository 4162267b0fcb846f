"""docs/rules.md §5.2 (the deal), §5.3 (the bonus) and §8 (randomness and fairness), as rounds on
fixed decks with exact cards and balances."""

from __future__ import annotations

import hashlib

from russian_poker.events.commands import (
    BuyCard,
    Deal,
    Exchange,
    Fold,
    PlaceAnte,
    Play,
)
from russian_poker.events.game import (
    AntePlaced,
    BonusSettled,
    BoxPlayed,
    CardsDealt,
    DealtHand,
    RoundOpened,
    RoundSettled,
)
from russian_poker.events.wallet import WalletCredited
from russian_poker.service.rules.cards import FULL_DECK
from russian_poker.service.rules.deck import shuffled
from tests.rules.rounds import (
    ANN,
    BOB,
    START,
    bonus_of,
    books,
    settled,
    single_box,
    table,
)
from tests.rules.scenario import Scenario

# --- §5.2 the deal ---------------------------------------------------------------------------


def test_one_card_at_a_time_in_play_order_then_the_dealer() -> None:
    scenario = table("russian", "ann", "bob")
    scenario.open_round(deck=FULL_DECK[:21])  # 2s 3s .. As 2h .. 9h on top
    scenario.run(PlaceAnte(box=1, ante=100), ANN)
    scenario.run(PlaceAnte(box=2, ante=300), ANN)
    scenario.run(PlaceAnte(box=3, ante=100), BOB)
    scenario.run(Deal(), BOB)
    scenario.run(Deal(), ANN)
    [deal] = scenario.of_type(CardsDealt)
    assert deal.hands == (
        DealtHand(box=2, cards=("2s", "6s", "Ts", "As", "5h")),
        DealtHand(box=1, cards=("3s", "7s", "Js", "2h", "6h")),
        DealtHand(box=3, cards=("4s", "8s", "Qs", "3h", "7h")),
    )
    # The dealer's fifth card, the one dealt face up, is the last card of the deal.
    assert deal.dealer_cards == ("5s", "9s", "Ks", "4h", "8h")
    # The next card of the deck is the first draw.
    events = scenario.run(BuyCard(box=2), ANN)
    assert events[0].card == "9h"  # type: ignore[attr-defined]


# --- §5.3 bonus ------------------------------------------------------------------------------


def test_bonus_wins_on_trips_right_after_the_deal_whatever_happens_later() -> None:
    scenario = table(discards_return_to_deck=False)
    single_box(scenario, "8h 8c 8d 5s Jc", "Ah Kc 9d 7s 4c", then="2c 3d 4s", bonus=200)
    [_, _, dealt, bonus, credit] = scenario.events[-5:]
    assert isinstance(dealt, CardsDealt)
    assert bonus == BonusSettled(
        round=1, box=1, player="ann", hand="three_of_a_kind", stake=200, won=1_000
    )
    assert isinstance(credit, WalletCredited) and (credit.reason, credit.amount) == ("bonus", 1_200)
    # Throwing the trips away and folding changes nothing for the bonus.
    scenario.run(Exchange(box=1, cards=["8h", "8c", "8d"]), ANN)
    scenario.run(Fold(box=1), ANN)
    assert settled(scenario, 1).outcome == "folded"
    assert scenario.balance("ann") == START - 100 - 200 - 100 + 1_200
    books(scenario)


def test_bonus_is_lost_below_trips_even_if_a_draw_makes_trips() -> None:
    scenario = table()
    single_box(scenario, "8h 8c Kd 5s Jc", "Ah Kc 9d 7s 4c", then="8d", bonus=100)
    assert bonus_of(scenario, 1).won == 0 and bonus_of(scenario, 1).hand == "pair"
    assert not [e for e in scenario.events if isinstance(e, WalletCredited)]
    scenario.run(BuyCard(box=1), ANN)
    scenario.run(Play(box=1), ANN)
    box = settled(scenario, 1)
    assert (box.hand, box.won) == ("three_of_a_kind", 3 * 200)
    assert len(scenario.of_type(BonusSettled)) == 1
    assert scenario.balance("ann") == START - 100 - 100 + 600
    books(scenario)


def test_bonus_is_paid_on_a_dark_box() -> None:
    scenario = table()
    single_box(scenario, "Ks Kd Kc Kh 2c", "Ah Ac 9d 7s 4c", bonus=100, dark=True)
    assert bonus_of(scenario, 1).won == 200 * 100
    box = settled(scenario, 1)
    assert (box.outcome, box.won) == ("won", 20 * 200)
    assert scenario.balance("ann") == START + 20_000 + 4_000
    books(scenario)


def test_online_bonus_needs_three_aces_or_better() -> None:
    cases = [
        ("Ks Kd Kc 2h 5c", "three_of_a_kind", 0),
        ("As Ad Ac 2h 5c", "three_of_a_kind", 5 * 100),
        ("9s 8d 7c 6h 5c", "straight", 40 * 100),
    ]
    for hand, label, won in cases:
        scenario = table("russian-online")
        single_box(scenario, hand, "Qh Jh 9h 4d 3h", bonus=100)
        bonus = bonus_of(scenario, 1)
        assert (bonus.hand, bonus.won) == (label, won), hand
        scenario.run(Fold(box=1), ANN)
        assert scenario.balance("ann") == START - 200 + (won + 100 if won else 0)
        books(scenario)


# --- §8 randomness and fairness --------------------------------------------------------------


def test_commitment_before_bets_seed_revealed_at_the_end() -> None:
    seed = bytes(range(100, 132))
    scenario = table(dealer_draw=False)
    opened = scenario.open_round(seed=seed)
    [announced] = opened
    assert isinstance(announced, RoundOpened)
    assert announced.commitment == hashlib.sha256(seed).hexdigest()
    # The deck is fixed the moment the round opens, before any bet.
    assert scenario.table.round.deck == shuffled(seed)  # type: ignore[union-attr]
    scenario.run(PlaceAnte(box=1, ante=100), ANN)
    scenario.run(Deal(), ANN)
    scenario.run(Play(box=1), ANN)
    kinds = [type(e) for e in scenario.events]
    assert kinds.index(RoundOpened) < kinds.index(AntePlaced)
    [end] = scenario.of_type(RoundSettled)
    assert end.seed == seed and end.commitment == announced.commitment
    assert hashlib.sha256(end.seed).hexdigest() == end.commitment
    # Anyone can recompute the deal from the revealed seed.
    deck = shuffled(end.seed).cards
    [deal] = scenario.of_type(CardsDealt)
    assert deal.hands[0].cards == deck[0:10:2] and deal.dealer_cards == deck[1:10:2]
    assert kinds.index(RoundSettled) == len(kinds) - 1
    books(scenario)


def test_a_round_replays_bit_for_bit() -> None:
    def play() -> Scenario:
        scenario = table("russian", "ann", "bob")
        scenario.open_round(seed=bytes([42]) * 32)
        scenario.run(PlaceAnte(box=1, ante=100, bonus=100), ANN)
        scenario.run(PlaceAnte(box=2, ante=200), BOB)
        scenario.run(Deal(), ANN)
        scenario.run(Deal(), BOB)
        hand = scenario.table.round.box(2).cards  # type: ignore[union-attr]
        scenario.run(Exchange(box=2, cards=list(hand[:3])), BOB)
        scenario.run(BuyCard(box=1), ANN)
        scenario.run(Play(box=1), ANN)
        scenario.run(Play(box=2), BOB)
        return scenario

    first, second = play(), play()
    assert first.events == second.events
    assert [e.bet for e in first.of_type(BoxPlayed)] == [200, 400]
    books(first)
