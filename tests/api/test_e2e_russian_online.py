"""The `russian-online` preset end to end over HTTP: two players and an observer, two rounds.

What seed 003 changes: every box light (one player plays three), box cards shown to the
whole table, the bonus paid only from three aces, no insurance and no dealer draw. Money
is worked out by hand from docs/rules.md §6 (Bet: trips 3, flush 5, two straights 4 + 4; bonus:
three aces 5).
"""

from __future__ import annotations

from tests.api.e2e import Harness, deck_for, harness

__all__ = ["harness"]

# Round 1. Play order: box 1 (dan, ante 300), 4 (eve, 200, dark), 2 (dan, 100), 3 (dan, 100).
R1_BOXES = ["Ac Ad Ah 9s 4c", "Kc Kd Kh 7s 2d", "2s 3h 8d Jc 6c", "9h 8s 7d 6h 4d"]
R1_DEALER = "Qs Qd 3d 5h Js"  # a pair of queens: qualifies
R1_DRAWS = "Tc 7c 2c 5c"  # box 2's three replacements (a flush), then box 3's sixth card
# Round 2. Play order: box 4 (eve, 200, dark, repeated), box 1 (dan, 100).
R2_BOXES = ["As Ac Ad Kh Qh", "9c 9h 9d 2s 4d"]
R2_DEALER = "Jh 8c 6s 4s 2h"  # jack high: no game


async def test_russian_online_rounds_end_to_end(harness: Harness) -> None:
    h = harness
    await h.fund({"dan": 10_000, "eve": 10_000})
    opened = await h.open(
        "russian-online", deck_for(R1_BOXES, R1_DEALER, R1_DRAWS), discards_return_to_deck=False
    )
    assert opened["ruleset"]["light_boxes_per_player"] == 4
    olga = await h.watch("olga")

    # -- round 1 ---------------------------------------------------------------------------
    await h.send("dan", "SitDown")
    await h.send("eve", "SitDown")
    await h.send("dan", "PlaceAnte", box=1, ante=300, bonus=100)
    await h.send("dan", "PlaceAnte", box=2, ante=100, bonus=100)
    await h.send("dan", "PlaceAnte", box=3, ante=100)  # a third light box: allowed online
    await h.send("eve", "PlaceAnte", box=4, ante=200, bonus=100, dark=True)
    await h.send("dan", "Deal")
    dealt = await h.send("eve", "Deal")
    # Box cards are public at this table: the observer sees them, but not the dealer's.
    seen = await h.view("olga")
    assert seen["viewer"]["role"] == "observer"
    assert [b["cards"] for b in seen["round"]["boxes"]] == [
        R1_BOXES[0].split(),
        R1_BOXES[2].split(),
        R1_BOXES[3].split(),
        R1_BOXES[1].split(),
    ]
    assert seen["round"]["dealer"]["cards"] is None
    assert dealt["round"]["dealer"]["upcard"] == "Js"
    # dan: 10_000 - 300 - 100 - 100 - 100 - 100 (antes and bonuses) + 600 (three aces:
    #   100 back + 5 x 100; box 2's bonus lost) = 9_900.
    # eve: 10_000 - 200 - 100 - 400 (ante, bonus, dark Bet); three kings pay no bonus here.
    await h.balances({"dan": 9_900, "eve": 9_300})
    box1 = await h.box("dan", 1)
    assert box1["actions"] == ["Play", "Fold", "BuyCard", "Exchange"]  # no insurance
    assert box1["insurance_range"] is None
    await h.send("dan", "Play", box=1)
    await h.send("dan", "Exchange", box=2, cards=["2s", "3h", "8d"])
    assert sorted((await h.box("dan", 2))["cards"]) == sorted(["Jc", "6c", "Tc", "7c", "2c"])
    await h.send("dan", "Play", box=2)
    await h.send("dan", "BuyCard", box=3)
    await h.next_deck(deck_for(R2_BOXES, R2_DEALER))
    view = await h.send("dan", "Play", box=3)
    assert view["previous_round"]["number"] == 1
    # dan: 9_900 - 600 (Bet 1) - 100 - 200 (fee, Bet 2) - 100 - 200 (fee, Bet 3) + 2_700
    #   (three aces: 300 + 600 back + 3 x 600) + 1_300 (flush: 300 back + 5 x 200)
    #   + 1_900 (4-5-6-7-8-9 is two straights: 300 back + 8 x 200) = 14_600.
    # eve: 9_300 + 1_800 (dark three kings beat the queens: 600 back + 3 x 400) = 11_100.
    await h.balances({"dan": 14_600, "eve": 11_100})

    # -- round 2: RepeatBets (dark, bonus), no insurance, no dealer draw -----------------
    await h.send("eve", "RepeatBets")
    await h.send("dan", "PlaceAnte", box=1, ante=100)
    await h.send("dan", "Deal")
    await h.send("eve", "Deal")
    trips = await h.box("dan", 1)
    assert trips["actions"] == ["Play", "Fold", "BuyCard", "Exchange"]  # trips, no Insure
    await h.refused("dan", "insurance_not_allowed", "Insure", box=1, amount=100)
    await h.refused("eve", "dark_box", "Fold", box=4)
    view = await h.send("dan", "Play", box=1)
    # The dealer has no game and there is no dealer draw: settled at once, no offer.
    assert view["previous_round"]["number"] == 2
    assert view["previous_round"]["dealer"]["qualifies"] is False
    assert view["round"]["phase"] == "betting"
    # dan: 14_600 - 100 - 200 + 400 (ante paid 1:1, Bet back) = 14_700.
    # eve: 11_100 - 700 (repeated ante, bonus, dark Bet) + 600 (three aces: 100 + 5 x 100)
    #   + 800 (ante 200 paid 1:1, Bet 400 back) = 11_800.
    await h.balances({"dan": 14_700, "eve": 11_800})

    # Round 1 staked: box 1 300 + 100 + 600, box 2 100 + 100 + 100 + 200, box 3 100 + 100
    #   + 200, box 4 200 + 100 + 400 = 2_600; paid back 600 + 2_700 + 1_300 + 1_900 + 1_800.
    # Round 2 staked: 300 + 700 = 1_000; paid back 400 + 600 + 800 = 1_800.
    report = await h.report()
    assert [(r["round"], r["staked"], r["paid_back"], r["house_result"]) for r in report] == [
        (1, 2_600, 8_300, -5_700),
        (2, 1_000, 1_800, -800),
    ]
    assert 14_700 + 11_800 + sum(r["house_result"] for r in report) == 20_000
    straights = report[0]["boxes"][2]
    assert (straights["box"], straights["hand"], straights["won"]) == (3, "straight", 1_600)
    await h.audited(
        [(-5_700, {"dan": 14_600, "eve": 11_100}), (-800, {"dan": 14_700, "eve": 11_800})]
    )
    eve = await h.recall("eve")
    assert [(r["round"], r["staked"], r["paid_back"]) for r in eve] == [
        (1, 700, 1_800),
        (2, 700, 1_400),
    ]
    assert [r["boxes"][0]["bonus_won"] for r in eve] == [0, 500]
    dan = await h.recall("dan")
    assert [(r["round"], r["staked"], r["paid_back"]) for r in dan] == [
        (1, 1_900, 6_500),
        (2, 300, 400),
    ]

    events = await olga.stop_at(h.versions[-1])
    h.check_stream(
        events,
        {1: set(R1_DEALER.split()[:4]), 2: set(R2_DEALER.split()[:4])},
        box_cards_public=True,
    )
