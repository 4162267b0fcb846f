"""The `oasis` preset end to end over HTTP: three players and an observer, two rounds.

What seed 002 changes: six boxes, a one-card exchange and no sixth card, one combination
paid, the ante paid 1:1 on a win, no dealer draw. Money is worked out by hand from docs/rules.md §6
(Bet: pair 1, trips 3, straight flush 50; bonus: straight 40).
"""

from __future__ import annotations

from tests.api.e2e import Harness, deck_for, harness

__all__ = ["harness"]

# Round 1. Play order: box 1 (fay, ante 200), then boxes 2..6 (ante 100) in number order:
# 2 fay, 3 fay (dark), 4 gus, 5 gus, 6 hal.
R1_BOXES = [
    "8h 8d As Kd 9s",  # pair + AK: one combination only in Oasis
    "6s 6d 6h 4c 3d",  # trips: insurable
    "3s 4d 7h 9h Qs",  # queen high
    "Tc 9c 8c 7c 4s",  # four to a straight flush: exchange the 4s
    "Qd Td 5d 4h 3h",  # queen high
    "2h 2c Kh Jh 5h",  # the dealer's exact ranks: a tie
]
R1_DEALER = "2d 2s Kc Jc 5c"  # a pair of twos: qualifies
R1_DRAWS = "6c"  # gus's replacement: T-9-8-7-6 of clubs
# Round 2. Play order: box 1 (fay, 200), 2 (fay), 3 (fay, dark), 4 (gus).
R2_BOXES = ["5s 6h 7d 8c 9s", "2c 4d Td Jh Kc", "3c 4h 9d Qs Ts", "Ah Kh 4c 3d 2s"]
R2_DEALER = "Qc Jd 8s 6s 3h"  # queen high: no game


def hidden(boxes: list[str], dealer: str, draws: str = "") -> set[str]:
    return {*" ".join(boxes).split(), *dealer.split()[:4], *draws.split()}


async def test_oasis_rounds_end_to_end(harness: Harness) -> None:
    h = harness
    await h.fund({"fay": 10_000, "gus": 10_000, "hal": 10_000})
    await h.open("oasis", deck_for(R1_BOXES, R1_DEALER, R1_DRAWS), discards_return_to_deck=False)
    olga = await h.watch("olga")

    # -- round 1 ---------------------------------------------------------------------------
    for name in ("fay", "gus", "hal"):
        await h.send(name, "SitDown")
    await h.send("fay", "PlaceAnte", box=1, ante=200, bonus=100)
    await h.send("fay", "PlaceAnte", box=2, ante=100)
    await h.refused("fay", "light_box_limit", "PlaceAnte", box=3, ante=100)
    await h.send("fay", "PlaceAnte", box=3, ante=100, dark=True)
    await h.send("gus", "PlaceAnte", box=4, ante=100)
    await h.send("gus", "PlaceAnte", box=5, ante=100, bonus=100)
    await h.send("hal", "PlaceAnte", box=6, ante=100)
    for name in ("fay", "gus", "hal"):
        await h.send(name, "Deal")
    # No bonus paid (a pair and queen high), so only the stakes are gone:
    # fay 200 + 100 + 100 + 100 + 200 (dark Bet); gus 100 + 100 + 100; hal 100.
    await h.balances({"fay": 9_300, "gus": 9_700, "hal": 9_900})
    box1 = await h.box("fay", 1)
    assert box1["actions"] == ["Play", "Fold", "Exchange"]  # no sixth card in Oasis
    await h.refused("fay", "sixth_card_not_allowed", "BuyCard", box=1)
    await h.send("fay", "Play", box=1)
    box2 = await h.box("fay", 2)
    assert box2["insurance_range"] == [100, 600]  # trips: up to 3 x the Bet of 200
    await h.send("fay", "Insure", box=2, amount=600)
    await h.refused("gus", "exchange_not_allowed", "Exchange", box=4, cards=["4s", "7c"])
    await h.send("gus", "Exchange", box=4, cards=["4s"])
    await h.refused("gus", "draw_already_used", "Exchange", box=4, cards=["6c"])
    await h.send("gus", "Play", box=4)
    await h.send("gus", "Fold", box=5)
    await h.next_deck(deck_for(R2_BOXES, R2_DEALER))
    view = await h.send("hal", "Play", box=6)
    assert view["previous_round"]["dealer"]["cards"] == R1_DEALER.split()
    # fay: 9_300 - 400 (Bet 1) - 200 - 600 (Bet 2, insurance) + 1_200 (pair beats the
    #   twos: 200 + 400 back, 1 x 400 for the pair alone, ante paid 1:1 200) + 1_000 (trips:
    #   100 + 200 back, 3 x 200 + 100; the insurance is lost) + 0 (dark box 3 loses) = 10_300.
    # gus: 9_700 - 100 (fee) - 200 (Bet) + 10_400 (straight flush: 100 + 200 back, 50 x 200
    #   + 100) = 19_800; box 5 folded.
    # hal: 9_900 - 200 + 300 (a tie: ante and Bet back) = 10_000.
    await h.balances({"fay": 10_300, "gus": 19_800, "hal": 10_000})
    await h.send("hal", "LeaveTable")

    # -- round 2: the straight bonus, a decision time-out, no dealer draw ------------------
    await h.send("fay", "RepeatBets")  # box 1 200 + 100 bonus, box 2 100, box 3 100 dark
    await h.send("gus", "PlaceAnte", box=4, ante=100)
    await h.send("fay", "Deal")
    await h.send("gus", "Deal")
    # fay: 10_300 - 700 (repeated bets) + 4_100 (a straight: 100 back + 40 x 100).
    await h.balances({"fay": 13_700})
    box1 = await h.box("fay", 1)
    assert box1["insurance_range"] == [200, 1_600]  # a straight pays 4 x the Bet of 400
    await h.send("fay", "Play", box=1)
    await h.send("gus", "Play", box=4)
    await h.time_out("2:decision:2:dealt")  # fay's box 2 does not decide: folded
    view = await h.view("fay")
    assert view["previous_round"]["number"] == 2  # no game, no dealer draw: settled at once
    assert view["previous_round"]["dealer"]["qualifies"] is False
    # fay: 13_700 - 400 + 800 (box 1: ante paid 1:1, Bet back) + 400 (dark box 3: the same
    #   on 100) = 14_500.   gus: 19_800 - 100 - 200 + 400 = 19_900.
    await h.balances({"fay": 14_500, "gus": 19_900, "hal": 10_000})

    # Round 1 staked: 700 + 900 + 300 + 400 + 200 + 300 = 2_800;
    #   paid back 1_200 + 1_000 + 10_400 + 300 = 12_900.
    # Round 2 staked: 700 + 100 + 300 + 300 = 1_400; paid back 4_100 + 800 + 400 + 400.
    report = await h.report()
    assert [(r["round"], r["staked"], r["paid_back"], r["house_result"]) for r in report] == [
        (1, 2_800, 12_900, -10_100),
        (2, 1_400, 5_700, -4_300),
    ]
    assert 14_500 + 19_900 + 10_000 + sum(r["house_result"] for r in report) == 30_000
    outcomes = [[(b["box"], b["outcome"]) for b in r["boxes"]] for r in report]
    assert outcomes == [
        [(1, "won"), (2, "won"), (3, "lost"), (4, "won"), (5, "folded"), (6, "tied")],
        [(1, "dealer_no_game"), (2, "folded"), (3, "dealer_no_game"), (4, "dealer_no_game")],
    ]
    await h.audited(
        [
            (-10_100, {"fay": 10_300, "gus": 19_800, "hal": 10_000}),
            (-4_300, {"fay": 14_500, "gus": 19_900}),  # hal left after round 1
        ]
    )
    gus = await h.recall("gus")
    assert [(r["round"], r["staked"], r["paid_back"]) for r in gus] == [
        (1, 600, 10_400),
        (2, 300, 400),
    ]
    flush = gus[0]["boxes"][0]
    assert (flush["hand"], flush["fees"], flush["won"]) == ("straight_flush", 100, 10_100)
    fay = await h.recall("fay")
    assert [(r["round"], r["staked"], r["paid_back"]) for r in fay] == [
        (1, 1_900, 2_200),
        (2, 1_100, 5_300),
    ]
    assert [(r["round"], r["paid_back"]) for r in await h.recall("hal")] == [(1, 300)]

    events = await olga.stop_at(h.versions[-1])
    h.check_stream(
        events,
        {1: hidden(R1_BOXES, R1_DEALER, R1_DRAWS), 2: hidden(R2_BOXES, R2_DEALER)},
    )
