"""Test mode for integrators' own tests: a deck stacked on the round taking bets deals as
docs/test-mode.md says (boxes in play order, the dealer, draws, the rest of the 52 in a
fixed order), a deck set once cards are out is the next round's, and the deck stays secret
(the audit feed hides it) until the round is settled; replay still reproduces the round."""

from __future__ import annotations

import asyncio
from typing import Any

from russian_poker.service.rules.cards import FULL_DECK
from tests.api.e2e import OPERATOR, Harness, bearer, deck_for, harness
from tests.processes import eventually

__all__ = ["harness"]

AUDITOR = bearer("auditor", "aud")


async def stack(h: Harness, cards: list[str]) -> dict[str, Any]:
    r = await h.client.put(
        f"/v1/tables/{h.table_id}/test-deck", json={"cards": cards}, headers=OPERATOR
    )
    assert r.status_code == 200, r.text
    answer: dict[str, Any] = r.json()
    return answer


async def test_a_deck_stacked_on_the_round_taking_bets_deals_as_documented(
    harness: Harness,
) -> None:
    h = harness
    await h.fund({"alice": 10_000, "bob": 10_000})
    r = await h.client.post("/v1/tables", json={"table_id": h.table_id}, headers=OPERATOR)
    assert r.status_code == 201, r.text
    for name in ("alice", "bob"):
        await h.send(name, "SitDown")
    # Bets first: the deck may be stacked until the deal. Play order: bob's larger ante
    # (box 3) first, then alice's box 1.
    await h.send("alice", "PlaceAnte", box=1, ante=100)
    await h.send("bob", "PlaceAnte", box=3, ante=200)
    bob_hand, alice_hand, dealer = "Ah Ad Ac 2s 3s", "Kh Kd 9c 8c 4d", "Qs Qh 7d 6c 5h"
    top = list(deck_for([bob_hand, alice_hand], dealer, "Ts"))  # then bob's sixth card
    assert await stack(h, top) == {"round": 1, "applies_to": "current"}

    # Secret until settled: the auditor's feed shows the stacking, not the cards. The feed
    # is commit-safe: an event shows once no transaction begun before it is still open
    # (the audit projection's own writes may be, for a moment).
    feed: dict[str, Any] = {}

    async def listed() -> bool:
        nonlocal feed
        feed = (await h.client.get("/v1/audit/feed", headers=AUDITOR)).json()
        return any(e["event_type"] == "DeckStacked" for e in feed["items"])

    await eventually(listed, timeout=30, message="the stacking is in the feed")
    stacked = [e for e in feed["items"] if e["event_type"] == "DeckStacked"]
    assert len(stacked) == 1 and stacked[0]["data"]["deck"] == []
    assert stacked[0]["command"] == {"type": "StackDeck", "deck": []}
    assert "Ts" not in str(feed)

    await h.send("alice", "Deal")
    await h.send("bob", "Deal")
    assert (await h.box("bob", 3))["cards"] == bob_hand.split()
    assert (await h.box("alice", 1))["cards"] == alice_hand.split()
    assert (await h.view())["round"]["dealer"]["upcard"] == "5h"  # the dealer's fifth card
    # Cards are out: a deck set now is the next round's.
    assert await stack(h, ["2c", "2d"]) == {"round": 2, "applies_to": "next"}
    view = await h.send("bob", "BuyCard", box=3)
    assert next(b for b in view["round"]["boxes"] if b["box"] == 3)["cards"][-1] == "Ts"
    await h.send("bob", "Play", box=3)
    view = await h.send("alice", "Play", box=1)
    assert view["previous_round"]["dealer"]["cards"] == dealer.split()
    assert view["round"]["number"] == 2

    # Round 2 deals the deck set for it; cards it does not name follow in FULL_DECK order.
    await h.send("alice", "PlaceAnte", box=1, ante=100)
    await h.send("alice", "Deal")
    rest = [c for c in FULL_DECK if c not in {"2c", "2d"}]
    order = ["2c", "2d", *rest]
    assert (await h.box("alice", 1))["cards"] == [order[0], order[2], order[4], order[6], order[8]]

    # The revealed round 1 replays with its stacked deck.
    async def settled_record() -> None:
        while True:
            r = await h.client.get(f"/v1/audit/rounds/{h.table_id}/1", headers=AUDITOR)
            if r.status_code == 200 and r.json()["seed"] is not None:
                return
            await asyncio.sleep(0.05)

    await asyncio.wait_for(settled_record(), 10)
    r = await h.client.post(
        "/v1/audit/replay", json={"table_id": h.table_id, "round": 1}, headers=AUDITOR
    )
    assert (r.json()["verified"], r.json()["differences"]) == (1, [])


async def test_a_stacked_deck_is_refused_outside_test_mode_or_when_invalid(
    harness: Harness,
) -> None:
    h = harness
    r = await h.client.post("/v1/tables", json={"table_id": h.table_id}, headers=OPERATOR)
    assert r.status_code == 201, r.text
    r = await h.client.put(
        f"/v1/tables/{h.table_id}/test-deck", json={"cards": ["As", "As"]}, headers=OPERATOR
    )
    assert r.status_code == 422 and r.json()["code"] == "invalid_deck"
    r = await h.client.put("/v1/tables/nowhere/test-deck", json={"cards": ["As"]}, headers=OPERATOR)
    assert r.status_code == 404
