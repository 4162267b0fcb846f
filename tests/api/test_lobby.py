"""The lobby and the table say what a player may do: boxes free to bet on now versus boxes
in play, the game's paytables and limits, seats and the round's phase; a player without a
wallet (or with one in another currency) is told so when sitting down."""

from __future__ import annotations

import httpx

from russian_poker.events.paytables import DEFAULT_BET_PAYTABLE, DEFAULT_BONUS_PAYTABLE
from tests.api.conftest import bearer

OPERATOR = bearer("operator", "op")
ALICE = bearer("player", "alice")
BOB = bearer("player", "bob")


async def send(
    api: httpx.AsyncClient, who: dict[str, str], key: str, body: object
) -> httpx.Response:
    return await api.post(
        "/v1/tables/t1/commands", json=body, headers={**who, "Idempotency-Key": key}
    )


async def lobby_entry(api: httpx.AsyncClient, table_id: str) -> dict[str, object]:
    r = await api.get("/v1/tables", headers=BOB)
    assert r.status_code == 200, r.text
    entry: dict[str, object] = next(e for e in r.json() if e["table_id"] == table_id)
    return entry


async def test_lobby_and_view_tell_free_boxes_from_boxes_in_play(api: httpx.AsyncClient) -> None:
    assert (await api.post("/v1/wallets", json={"wallet_id": "alice"}, headers=OPERATOR)).is_success
    deposit = {"transfer_id": "d1", "amount": 10_000}
    assert (await api.post("/v1/wallets/alice/deposits", json=deposit, headers=OPERATOR)).is_success
    overrides = {"ante_min": 50, "ante_max": 5_000, "max_payout": 100_000}
    created = await api.post(
        "/v1/tables",
        json={"table_id": "t1", "preset": "russian", "overrides": overrides},
        headers=OPERATOR,
    )
    assert created.status_code == 201, created.text
    oasis = await api.post(
        "/v1/tables",
        json={"table_id": "t2", "preset": "oasis", "overrides": {"bonus_enabled": False}},
        headers=OPERATOR,
    )
    assert oasis.status_code == 201, oasis.text

    assert await lobby_entry(api, "t1") == {
        "table_id": "t1",
        "name": "",
        "game": "russian",
        "status": "open",
        "private": False,
        "operator_id": "default",
        "shared": False,
        "currency": "EUR",
        "ante_min": 50,
        "ante_max": 5_000,
        "bonus_min": 100,
        "bonus_max": 500,
        "max_payout": 100_000,
        "bet_paytable": DEFAULT_BET_PAYTABLE,
        "bonus_paytable": DEFAULT_BONUS_PAYTABLE,
        "seats": 4,
        "free_seats": 4,
        "boxes": 4,
        "free_boxes": [1, 2, 3, 4],
        "boxes_in_play": [],
        "round": 1,
        "phase": "betting",
    }
    t2 = await lobby_entry(api, "t2")
    assert (t2["game"], t2["boxes"], t2["bonus_paytable"], t2["bonus_min"]) == (
        "oasis",
        6,
        None,
        None,
    )

    assert (await send(api, ALICE, "sit", {"type": "SitDown"})).status_code == 200
    bet = {"type": "PlaceAnte", "box": 2, "ante": 50}
    betting = (await send(api, ALICE, "bet", bet)).json()["table"]
    assert (betting["free_boxes"], betting["boxes_in_play"]) == ([1, 3, 4], [2])
    entry = await lobby_entry(api, "t1")
    assert (entry["free_seats"], entry["free_boxes"], entry["boxes_in_play"]) == (3, [1, 3, 4], [2])

    dealt = (await send(api, ALICE, "deal", {"type": "Deal"})).json()["table"]
    # Cards are out: no box takes a bet now, box 2 is in play.
    assert (dealt["free_boxes"], dealt["boxes_in_play"]) == ([], [2])
    entry = await lobby_entry(api, "t1")
    assert (entry["free_boxes"], entry["boxes_in_play"], entry["phase"]) == ([], [2], "decisions")

    closed = await api.post("/v1/tables/t2/close", json={"reason": "test"}, headers=OPERATOR)
    assert closed.status_code == 200 and closed.json()["free_boxes"] == []
    assert (await lobby_entry(api, "t2"))["status"] == "closed"


async def test_sitting_down_without_a_wallet_is_refused_at_once(api: httpx.AsyncClient) -> None:
    r = await api.post("/v1/tables", json={"table_id": "t1"}, headers=OPERATOR)
    assert r.status_code == 201, r.text
    refused = await send(api, BOB, "sit", {"type": "SitDown"})
    assert refused.status_code == 404
    assert refused.json()["code"] == "no_wallet"
    assert "wallet" in refused.json()["detail"]
    assert (await api.get("/v1/tables/t1", headers=BOB)).json()["seats"] == [None] * 4

    dollars = {"wallet_id": "bob", "currency": "USD"}
    assert (await api.post("/v1/wallets", json=dollars, headers=OPERATOR)).is_success
    mismatch = await send(api, BOB, "sit-2", {"type": "SitDown"})
    assert mismatch.status_code == 422 and mismatch.json()["code"] == "currency_mismatch"
    assert "EUR" in mismatch.json()["detail"] and "USD" in mismatch.json()["detail"]
