"""The `russian` preset end to end over HTTP: three players and an observer, three rounds.

Every command of the rules, dark boxes, the bonus, insurance (lost and paid), the dealer
draw with a free redraw, and all three time-outs (betting, decision, dealer-draw offer).
Expected money is worked out by hand from docs/rules.md §6 (Bet: trips 3, straight 4, two pair 2;
bonus: trips 5); discards stay out of the deck so replacements are the cards scripted.
"""

from __future__ import annotations

from tests.api.e2e import Harness, deck_for, harness

__all__ = ["harness"]

# Round 1. Play order: box 1 (alice, ante 200), 2 (bob), 3 (carol), 4 (alice, dark), all 100.
R1_BOXES = ["7s 7h 7d Kc 2s", "9c Tc Jd 2h 3c", "2d 5h 8c Jc 4s", "Qd Js 6c 5c 3h"]
R1_DEALER = "8s 8d Ah 4c 6h"  # a pair of eights: the dealer qualifies
R1_DRAWS = "Qh Kd 9h"  # bob's two replacements, then carol's sixth card
# Round 2. Same order. The dealer has no game; the draw replaces Kd by Kh (same rank, still
# no game: replaced again for free) and then Kh by 9h: a pair of nines.
R2_BOXES = ["As Ad 5c 6d Th", "5s 5h Jc Jd 2c", "3d 4h 9s Qc 8d", "6s 7c 4d 3s 2h"]
R2_DEALER = "Kd 9c 7h 4c 2d"
R2_DRAWS = "Kh 9h"
# Round 3. Play order: box 4 (alice, ante 300), 1 (alice, 100), 2 (bob, 100).
R3_BOXES = ["Qs Qh Qd 9c 4s", "2c 7d 9h Js 3s", "Th Tc 6s 5d Ah"]
R3_DEALER = "Kc Jd 8h 4h 2s"  # king high: no game


def hidden(boxes: list[str], dealer: str, draws: str = "") -> set[str]:
    """What an observer may not see before the reveal: box cards, draws, the hole cards."""
    return {*" ".join(boxes).split(), *dealer.split()[:4], *draws.split()}


async def test_russian_rounds_end_to_end(harness: Harness) -> None:
    h = harness
    await h.fund({"alice": 10_000, "bob": 10_000, "carol": 10_000})
    await h.open("russian", deck_for(R1_BOXES, R1_DEALER, R1_DRAWS), discards_return_to_deck=False)
    olga = await h.watch("olga")  # never sits: an observer

    # -- round 1: bonus, dark box, CancelBets, Insure (lost), Exchange, BuyCard, Fold -------
    for name in ("alice", "bob", "carol"):
        await h.send(name, "SitDown")
    await h.send("alice", "PlaceAnte", box=1, ante=200, bonus=100)
    await h.send("alice", "PlaceAnte", box=4, ante=100, dark=True)
    await h.send("bob", "PlaceAnte", box=2, ante=100, bonus=100)
    await h.send("bob", "CancelBets", box=2)  # refunds ante and bonus
    await h.send("bob", "PlaceAnte", box=2, ante=100)
    await h.refused("carol", "box_taken", "PlaceAnte", box=2, ante=100)
    await h.send("carol", "PlaceAnte", box=3, ante=100)
    # Stakes are off the wallets at once: alice 200 + 100 + 100 + 200 (the dark Bet).
    await h.balances({"alice": 9_400, "bob": 9_900, "carol": 9_900})
    await h.send("alice", "Deal")
    await h.send("bob", "Deal")
    dealt = await h.send("carol", "Deal")  # the last player ready: cards out
    assert dealt["round"]["phase"] == "decisions"
    assert dealt["round"]["dealer"] == {
        "upcard": "6h",
        "cards": None,
        "hand": None,
        "qualifies": None,
    }
    # Alice's trips paid the bonus at once: 100 back + 5 x 100.
    await h.balances({"alice": 10_000})

    box1 = await h.box("alice", 1)
    assert box1["cards"] == ["7s", "7h", "7d", "Kc", "2s"]
    assert box1["actions"] == ["Play", "Fold", "BuyCard", "Exchange", "Insure"]
    assert box1["insurance_range"] == [200, 1_200]  # one ante .. the Bet's win, 3 x 400
    assert (await h.box("alice", 4))["actions"] == []  # dark: plays itself
    assert (await h.box("bob", 1))["cards"] is None  # bob never sees alice's cards
    r = await h.post("alice", {"type": "Insure", "box": 1, "amount": 300}, key="alice-insure")
    h.versions.append(r.json()["version"])
    again = await h.post("alice", {"type": "Insure", "box": 1, "amount": 300}, key="alice-insure")
    assert again.json()["duplicate"] is True  # a retry acts once
    await h.refused("alice", "not_your_box", "Play", box=2)
    view = await h.send("bob", "Exchange", box=2, cards=["2h", "3c"])
    bob_box = next(b for b in view["round"]["boxes"] if b["box"] == 2)
    assert sorted(bob_box["cards"]) == sorted(["9c", "Tc", "Jd", "Qh", "Kd"])
    # After a draw only Play or Fold, and Insure (Play with insurance): a straight qualifies.
    assert bob_box["drew"] is True and bob_box["actions"] == ["Play", "Fold", "Insure"]
    await h.send("bob", "Play", box=2)
    view = await h.send("carol", "BuyCard", box=3)
    carol_box = next(b for b in view["round"]["boxes"] if b["box"] == 3)
    assert carol_box["cards"] == ["2d", "5h", "8c", "Jc", "4s", "9h"]
    await h.next_deck(deck_for(R2_BOXES, R2_DEALER, R2_DRAWS))
    view = await h.send("carol", "Fold", box=3)  # the last decision: reveal and settle
    last = view["previous_round"]
    assert last["number"] == 1 and last["phase"] == "settled" and last["seed"]
    assert last["dealer"]["cards"] == ["8s", "8d", "Ah", "4c", "6h"]
    assert view["round"]["number"] == 2 and view["round"]["phase"] == "betting"
    # alice: 10_000 - 200 - 100 - 100 - 200 (bets) + 600 (bonus) - 400 - 300 (Bet,
    #   insurance) + 1_800 (box 1 beats the eights: ante 200 and Bet 400 back + 3 x 400;
    #   the insurance is lost) + 0 (dark box 4, queen high, loses) = 11_100.
    # bob: 10_000 - 100 (ante) - 100 (exchange fee) - 200 (Bet) + 1_100 (straight: 100 +
    #   200 back + 4 x 200) = 10_700.   carol: 10_000 - 100 (ante) - 100 (sixth card) = 9_800.
    await h.balances({"alice": 11_100, "bob": 10_700, "carol": 9_800})

    # -- round 2: RepeatBets, betting and decision time-outs, dealer draw with free redraw --
    await h.send("alice", "RepeatBets")  # box 1: 200 + 100 bonus; box 4: 100 dark
    await h.send("bob", "PlaceAnte", box=2, ante=100)
    await h.send("carol", "PlaceAnte", box=3, ante=100)
    await h.send("alice", "Deal")
    await h.send("bob", "Deal")
    await h.time_out("2:betting")  # carol never asked for the deal
    assert (await h.view())["round"]["phase"] == "decisions"
    await h.send("alice", "Play", box=1)
    await h.send("bob", "Play", box=2)
    await h.time_out("2:decision:3:dealt")  # carol does not decide: folded
    offer = await h.view("bob")
    assert offer["round"]["phase"] == "dealer_draw"
    assert offer["round"]["dealer"]["cards"] == R2_DEALER.split()
    assert offer["round"]["awaiting"] == [1, 2]
    mine = next(b for b in offer["round"]["boxes"] if b["box"] == 2)
    assert mine["actions"] == ["RequestDealerExchange", "DeclineDealerExchange"]
    await h.refused("alice", "no_dealer_draw", "RequestDealerExchange", box=4)  # dark
    await h.send("bob", "RequestDealerExchange", box=2)
    await h.next_deck(deck_for(R3_BOXES, R3_DEALER))
    view = await h.send("alice", "DeclineDealerExchange", box=1)
    last = view["previous_round"]
    assert last["number"] == 2
    assert last["dealer"]["cards"] == ["9h", "9c", "7h", "4c", "2d"]  # K -> K (free) -> 9
    # alice: 11_100 - 600 (repeated bets) - 400 (Bet) + 800 (box 1 declined the draw: ante
    #   200 paid 1:1, Bet back) + 400 (dark box 4 never asks: ante 100 paid 1:1, its Bet
    #   200 back; the pair-of-aces bonus lost) = 11_300.
    # bob: 10_700 - 100 - 200 + 600 (his ante paid for the draw; two pair beats the nines:
    #   Bet 200 back + 2 x 200) = 11_000.   carol: 9_800 - 100 (timed out, folded) = 9_700.
    await h.balances({"alice": 11_300, "bob": 11_000, "carol": 9_700})

    # -- round 3: LeaveTable refunds, two light boxes in order, insurance paid, offer timeout
    await h.send("carol", "PlaceAnte", box=3, ante=100)
    await h.send("carol", "LeaveTable")  # before the deal: the ante comes back
    await h.balances({"carol": 9_700})
    await h.send("alice", "PlaceAnte", box=1, ante=100)
    await h.send("alice", "PlaceAnte", box=4, ante=300)
    await h.refused("alice", "light_box_limit", "PlaceAnte", box=3, ante=100)
    await h.send("bob", "PlaceAnte", box=2, ante=100)
    await h.send("alice", "Deal")
    await h.send("bob", "Deal")
    await h.refused("alice", "out_of_turn", "Play", box=1)  # the larger ante decides first
    box4 = await h.box("alice", 4)
    assert box4["insurance_range"] == [300, 1_800]  # trips: up to 3 x the Bet of 600
    await h.send("alice", "Insure", box=4, amount=500)
    await h.send("alice", "Fold", box=1)
    await h.send("bob", "Play", box=2)
    assert (await h.view())["round"]["awaiting"] == [4, 2]
    await h.send("alice", "DeclineDealerExchange", box=4)
    await h.time_out("3:dealer_draw:2")  # bob does not answer: he takes the ante win
    # alice: 11_300 - 100 - 300 (antes) - 600 - 500 (Bet, insurance) + 2_200 (box 4 against
    #   no game: ante 300 paid 1:1, Bet 600 back, insurance 500 paid 1:1) = 12_000.
    # bob: 11_000 - 100 - 200 + 400 (ante paid 1:1, Bet back) = 11_100.
    await h.balances({"alice": 12_000, "bob": 11_100, "carol": 9_700})
    await h.send("alice", "LeaveTable")  # every box of hers is settled
    # Nothing was created or destroyed: 30_000 deposited = wallets + house result.
    report = await h.report()
    assert 12_000 + 11_100 + 9_700 + sum(r["house_result"] for r in report) == 30_000

    # -- the operator's report, to the unit -----------------------------------------------
    # Round 1 staked: box 1 200 + 100 + 400 + 300, box 2 100 + 100 + 200, box 3 100 + 100,
    #   box 4 300 = 1_900; paid back 600 + 1_800 + 1_100 = 3_500.
    # Round 2 staked: 700 + 300 + 100 + 300 = 1_400; paid back 800 + 600 + 400 = 1_800.
    # Round 3 staked: box 4 1_400, box 1 100, box 2 300 = 1_800; paid back 2_200 + 400.
    assert [(r["round"], r["staked"], r["paid_back"], r["house_result"]) for r in report] == [
        (1, 1_900, 3_500, -1_600),
        (2, 1_400, 1_800, -400),
        (3, 1_800, 2_600, -800),
    ]
    assert [r["dealer_hand"] for r in report] == ["pair", "pair", "no_game"]
    outcomes = [[(b["box"], b["outcome"]) for b in r["boxes"]] for r in report]
    assert outcomes == [
        [(1, "won"), (2, "won"), (3, "folded"), (4, "lost")],
        [(1, "dealer_no_game"), (2, "won"), (3, "folded"), (4, "dealer_no_game")],
        [(1, "folded"), (2, "dealer_no_game"), (4, "dealer_no_game")],
    ]
    bob_r2 = report[1]["boxes"][1]
    assert (bob_r2["dealer_draw"], bob_r2["returned"], bob_r2["won"]) == ("requested", 200, 400)

    # The regulator's record of each round: every wallet it moved ends where we said.
    await h.audited(
        [
            (-1_600, {"alice": 11_100, "bob": 10_700, "carol": 9_800}),
            (-400, {"alice": 11_300, "bob": 11_000, "carol": 9_700}),
            (-800, {"alice": 12_000, "bob": 11_100, "carol": 9_700}),
        ]
    )

    # -- game recall: each player's own boxes ------------------------------------------------
    alice = await h.recall("alice")
    assert [(r["round"], r["staked"], r["paid_back"]) for r in alice] == [
        (1, 1_300, 2_400),
        (2, 1_000, 1_200),
        (3, 1_500, 2_200),
    ]
    first = alice[0]["boxes"][0]
    assert (first["box"], first["bonus_won"], first["insurance"], first["won"]) == (
        1,
        500,
        300,
        1_200,
    )
    assert alice[2]["boxes"][1]["insurance"] == 500
    carol = await h.recall("carol")  # her round-3 bet was refunded: no round 3
    assert [(r["round"], r["staked"], r["paid_back"]) for r in carol] == [
        (1, 200, 0),
        (2, 100, 0),
    ]
    assert carol[0]["boxes"][0]["cards"] == ["2d", "5h", "8c", "Jc", "4s", "9h"]
    assert [b["box"] for r in await h.recall("bob") for b in r["boxes"]] == [2, 2, 2]

    # -- the observer's live stream -----------------------------------------------------------
    events = await olga.stop_at(h.versions[-1])
    h.check_stream(
        events,
        {
            1: hidden(R1_BOXES, R1_DEALER, R1_DRAWS),
            2: hidden(R2_BOXES, R2_DEALER, R2_DRAWS),
            3: hidden(R3_BOXES, R3_DEALER),
        },
    )
    # After the reveal everyone sees the boxes: round 2's offer showed bob's two pair.
    offered = [d for _, _, d in events if d["round"] and d["round"]["phase"] == "dealer_draw"]
    assert offered and offered[0]["round"]["boxes"][1]["cards"] == R2_BOXES[1].split()
