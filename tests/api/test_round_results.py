"""A settled round shows its result in the table view and the live stream, per box, with the
same figures game recall has: outcome, hand, combinations paid, stakes, paid back, net, the
bonus and the insurance. Expected money is worked out by hand from docs/rules.md §5-6."""

from __future__ import annotations

from typing import Any

from tests.api.e2e import Harness, deck_for, harness

__all__ = ["harness"]

# Round 1, play order: box 1 (alice, ante 200), box 2 (bob, ante 100).
R1_BOXES = ["7s 7h 7d Kc 2s", "9c Tc Jd 2h 3c"]
R1_DEALER = "8s 8d Ah 4c 6h"  # a pair of eights: the dealer qualifies
# Round 2: alice alone; the dealer has no game; her dealer draw replaces Kd by Kh (same
# rank, still no game: again, free) and Kh by 9h: a pair of nines, beaten by two pair.
R2_BOXES = ["5s 5h Jc Jd 2c"]
R2_DEALER = "Kd 9c 7h 4c 2d"
R2_DRAWS = "Kh 9h"


def box_of(round_view: dict[str, Any], number: int) -> dict[str, Any]:
    box: dict[str, Any] = next(b for b in round_view["boxes"] if b["box"] == number)
    return box


async def test_a_settled_round_shows_each_box_result(harness: Harness) -> None:
    h = harness
    await h.fund({"alice": 10_000, "bob": 10_000})
    await h.open("russian", deck_for(R1_BOXES, R1_DEALER))
    olga = await h.watch("olga")
    for name in ("alice", "bob"):
        await h.send(name, "SitDown")
    await h.send("alice", "PlaceAnte", box=1, ante=200, bonus=100)
    await h.send("bob", "PlaceAnte", box=2, ante=100)
    await h.send("alice", "Deal")
    dealt = await h.send("bob", "Deal")
    assert all(b["result"] is None for b in dealt["round"]["boxes"])  # nothing settled yet
    await h.send("alice", "Insure", box=1, amount=300)
    await h.next_deck(deck_for(R2_BOXES, R2_DEALER, R2_DRAWS))
    view = await h.send("bob", "Fold", box=2)

    last = view["previous_round"]
    assert last["phase"] == "settled"
    assert last["dealer"]["hand"] == "pair" and last["dealer"]["qualifies"] is True
    # alice: ante 200, bonus 100, Bet 400, insurance 300 = 1_000 staked. Trips beat the
    # eights: ante and Bet back (600) + 3 x 400; the bonus pays trips 5 x 100 and its stake
    # back; the insurance is lost: 2_400 back.
    assert box_of(last, 1)["result"] == {
        "outcome": "won",
        "dealer_draw": False,
        "hand": "three_of_a_kind",
        "combinations": [{"category": "three_of_a_kind", "cards": ["7s", "7h", "7d"]}],
        "staked": 1_000,
        "fees": 0,
        "returned": 600,
        "won": 1_200,
        "capped": 0,
        "paid_back": 2_400,
        "net": 1_400,
        "bonus": {
            "outcome": "won",
            "stake": 100,
            "hand": "three_of_a_kind",
            "won": 500,
            "capped": 0,
        },
        "insurance": {"outcome": "lost", "stake": 300},
    }
    assert box_of(last, 2)["result"] == {
        "outcome": "folded",
        "dealer_draw": False,
        "hand": "no_game",
        "combinations": [],
        "staked": 100,
        "fees": 0,
        "returned": 0,
        "won": 0,
        "capped": 0,
        "paid_back": 0,
        "net": -100,
        "bonus": None,
        "insurance": None,
    }
    await h.balances({"alice": 11_400, "bob": 9_900})

    # Everyone at the table reads the same results.
    shown = (await h.view("bob"))["previous_round"]
    assert [b["result"] for b in shown["boxes"]] == [b["result"] for b in last["boxes"]]

    # Game recall has the same figures.
    recalled = (await h.recall("alice"))[0]["boxes"][0]
    result = box_of(last, 1)["result"]
    assert recalled["result"] == result
    for figure in ("staked", "returned", "won", "paid_back"):
        assert recalled[figure] == result[figure], figure

    # -- round 2: the dealer draw -------------------------------------------------------------
    await h.send("alice", "PlaceAnte", box=1, ante=100)
    await h.send("alice", "Deal")
    await h.send("alice", "Play", box=1)
    await h.next_deck(deck_for(R1_BOXES, R1_DEALER))
    view = await h.send("alice", "RequestDealerExchange", box=1)
    last = view["previous_round"]
    assert last["number"] == 2
    assert last["dealer"]["cards"] == ["9h", "9c", "7h", "4c", "2d"]
    assert last["dealer"]["hand"] == "pair"
    # The ante paid for the draw; two pair beats the nines: Bet 200 back + 2 x 200.
    assert box_of(last, 1)["result"] == {
        "outcome": "won",
        "dealer_draw": True,
        "hand": "two_pair",
        "combinations": [{"category": "two_pair", "cards": ["Jd", "Jc", "5s", "5h"]}],
        "staked": 300,
        "fees": 0,
        "returned": 200,
        "won": 400,
        "capped": 0,
        "paid_back": 600,
        "net": 300,
        "bonus": None,
        "insurance": None,
    }
    await h.balances({"alice": 11_700})

    # The live stream carried the results as they happened: the state right after each
    # settling command shows its round settled, with the results above.
    events = await olga.stop_at(h.versions[-1])
    settled = {
        data["previous_round"]["number"]: data["previous_round"]
        for _, _, data in events
        if data["previous_round"]
    }
    assert sorted(settled) == [1, 2]
    assert box_of(settled[2], 1)["result"] == box_of(last, 1)["result"]
    assert box_of(settled[1], 2)["result"]["outcome"] == "folded"
