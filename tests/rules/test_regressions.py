"""Failing examples found by the stateful test (``test_stateful.py``), kept as plain tests."""

from __future__ import annotations

import pytest

from russian_poker.events.commands import (
    BuyCard,
    Deal,
    Exchange,
    PlaceAnte,
    Play,
    RequestDealerExchange,
)
from russian_poker.events.game import BoxSettled, DealerCardReplaced, RoundSettled
from russian_poker.service.rules.cards import FULL_DECK
from russian_poker.service.rules.presets import RulesetError, make_ruleset
from tests.rules.scenario import Scenario, deck_for, player

# -- a round must fit in one 52-card deck -----------------------------------------------------
# Found: an Oasis table with `boxes: 10` was accepted, and its first round with all ten boxes
# bet crashed the deal with "cannot draw 55 from 52 cards". Fixed by refusing rulesets whose
# worst round needs more cards than the deck has (`Ruleset.cards_needed`).


def test_ten_box_oasis_table_is_refused() -> None:
    with pytest.raises(RulesetError, match="`boxes` \\(10\\)"):
        make_ruleset("oasis", {"boxes": 10, "light_boxes_per_player": 2})


@pytest.mark.parametrize(
    ("preset", "overrides", "largest"),
    [
        ("oasis", {}, 9),  # 5 x 10 cards dealt; discards go back, no sixth card
        ("russian", {}, 7),  # + a sixth card per box + the dealer draw (at most 4 cards)
        ("russian-online", {}, 7),  # a sixth card per box, no dealer draw
        ("russian", {"discards_return_to_deck": False}, 4),  # 5 replacements per box
        ("russian", {"dealer_redraw_limit": 0, "buy_sixth_card": False}, 9),
    ],
)
def test_largest_table_for_one_deck(
    preset: str, overrides: dict[str, object], largest: int
) -> None:
    rules = make_ruleset(preset, {**overrides, "boxes": largest, "light_boxes_per_player": 1})
    assert rules.cards_needed <= len(FULL_DECK)
    with pytest.raises(RulesetError, match="`boxes`"):
        make_ruleset(preset, {**overrides, "boxes": largest + 1, "light_boxes_per_player": 1})


def _worst_case_round(scenario: Scenario, boxes: int, draw: str, then: str) -> None:
    """Every box light, drawing all it may, then asking for the dealer draw."""
    alice = player("alice")
    dealer = "Ah 9c 7d 5s 3h"  # no game, ace high
    used = set((dealer + " " + then).split())
    rest = [c for c in FULL_DECK if c not in used]
    hands = [" ".join(rest[5 * i : 5 * i + 5]) for i in range(boxes)]
    scenario.sit("alice")
    scenario.open_round(deck_for(hands, dealer, then))
    for box in range(1, boxes + 1):
        scenario.run(PlaceAnte(box=box, ante=100), alice)
    scenario.run(Deal(), alice)
    for box in range(1, boxes + 1):
        current = scenario.table.round
        assert current is not None
        if draw == "sixth":
            scenario.run(BuyCard(box=box), alice)
        else:
            held = current.box(box)
            assert held is not None
            scenario.run(Exchange(box=box, cards=list(held.cards)), alice)
        scenario.run(Play(box=box), alice)
    for box in range(1, boxes + 1):
        scenario.run(RequestDealerExchange(box=box), alice)


def test_worst_round_at_the_largest_russian_table_has_cards_enough() -> None:
    # 7 boxes + dealer dealt (40), 7 sixth cards, the dealer's ace replaced by the three
    # other aces one after the other (free redraws) and then a 4: 51 cards.
    scenario = Scenario(players={"alice": 10**6}, boxes=7, light_boxes_per_player=7)
    sixth_cards = " ".join(["2c", "3c", "4d", "5d", "6d", "7c", "8d"])
    _worst_case_round(scenario, 7, "sixth", f"{sixth_cards} Ad Ac As 4c")
    replaced = scenario.of_type(DealerCardReplaced)
    assert [(r.replaced, r.card, r.free) for r in replaced] == [
        ("Ah", "Ad", False),
        ("Ad", "Ac", True),
        ("Ac", "As", True),
        ("As", "4c", True),
    ]
    assert len(scenario.of_type(BoxSettled)) == 7
    assert scenario.of_type(RoundSettled)
    assert scenario.table.round is not None
    assert len(scenario.table.round.deck.cards) == 1


def test_worst_round_with_discards_set_aside_has_cards_enough() -> None:
    # 4 boxes + dealer dealt (25), every box exchanges all five (20 set aside, 20 drawn),
    # the dealer draw takes 4: 49 cards.
    scenario = Scenario(
        players={"alice": 10**6},
        boxes=4,
        light_boxes_per_player=4,
        discards_return_to_deck=False,
    )
    _worst_case_round(scenario, 4, "exchange", "")
    assert len(scenario.of_type(BoxSettled)) == 4
    assert scenario.of_type(RoundSettled)
