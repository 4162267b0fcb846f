"""Full rounds through HTTP: operator, players and an observer at one table."""

from __future__ import annotations

from typing import Any

import asyncpg
from litestar.testing import AsyncTestClient

from tests.api.conftest import bearer
from tests.rules.scenario import deck_for

OPERATOR = bearer("operator", "op")
ALICE = bearer("player", "alice")
BOB = bearer("player", "bob")


async def command(
    client: AsyncTestClient, who: dict[str, str], key: str, body: dict[str, Any]
) -> Any:  # type: ignore[type-arg]
    response = await client.post(
        "/v1/tables/t1/commands", json=body, headers={**who, "Idempotency-Key": key}
    )
    assert response.status_code == 200, response.text
    return response.json()


async def test_a_russian_round_end_to_end(client: AsyncTestClient) -> None:  # type: ignore[type-arg]
    for name in ("alice", "bob"):
        r = await client.post("/v1/wallets", json={"wallet_id": name}, headers=OPERATOR)
        assert r.status_code == 201, r.text
        r = await client.post(
            f"/v1/wallets/{name}/deposits",
            json={"transfer_id": f"d-{name}", "amount": 10_000},
            headers=OPERATOR,
        )
        assert r.json()["balance"] == 10_000
    deck = deck_for(["As Kd 8h 8c 9s", "2c 3d 4h 7s 9d"], "Ac Qc 2d 3h 5s")
    r = await client.post(
        "/v1/tables",
        json={"table_id": "t1", "preset": "russian", "test_deck": list(deck)},
        headers=OPERATOR,
    )
    assert r.status_code == 201, r.text
    await command(client, ALICE, "a1", {"type": "SitDown"})
    await command(client, BOB, "b1", {"type": "SitDown"})
    await command(client, ALICE, "a2", {"type": "PlaceAnte", "box": 1, "ante": 100})
    await command(client, BOB, "b2", {"type": "PlaceAnte", "box": 2, "ante": 100})
    await command(client, ALICE, "a3", {"type": "Deal"})
    view = (await command(client, BOB, "b3", {"type": "Deal"}))["table"]
    bob_box = next(b for b in view["round"]["boxes"] if b["box"] == 2)
    alice_box = next(b for b in view["round"]["boxes"] if b["box"] == 1)
    assert bob_box["cards"] == ["2c", "3d", "4h", "7s", "9d"]
    assert alice_box["cards"] is None  # bob cannot see alice's cards
    assert view["round"]["dealer"]["cards"] is None
    assert view["round"]["dealer"]["upcard"] == "5s"
    assert "Play" in bob_box["actions"]
    await command(client, BOB, "b4", {"type": "Fold", "box": 2})
    offer = (await command(client, ALICE, "a4", {"type": "Play", "box": 1}))["table"]
    # The dealer has no game (A-Q high): alice's light box is offered the dealer draw.
    assert offer["round"]["phase"] == "dealer_draw"
    assert offer["round"]["dealer"]["cards"] == ["Ac", "Qc", "2d", "3h", "5s"]
    mine = next(b for b in offer["round"]["boxes"] if b["box"] == 1)
    assert mine["actions"] == ["RequestDealerExchange", "DeclineDealerExchange"]
    assert offer["round"]["seed"] is None
    done = await command(client, ALICE, "a5", {"type": "DeclineDealerExchange", "box": 1})
    last = done["table"]["previous_round"]
    assert last["phase"] == "settled" and last["seed"] is not None
    assert done["table"]["round"]["phase"] == "betting"
    # Declined: ante paid 1:1, Bet returned. Bob folded: his ante is lost.
    alice = (await client.get("/v1/wallets/alice", headers=ALICE)).json()
    bob = (await client.get("/v1/wallets/bob", headers=BOB)).json()
    assert alice["balance"] == 10_000 + 100
    assert bob["balance"] == 10_000 - 100
    # Another player's wallet is not there for bob: not even its existence is confirmed.
    assert (await client.get("/v1/wallets/alice", headers=BOB)).status_code == 404
    again = await command(client, ALICE, "a5", {"type": "DeclineDealerExchange", "box": 1})
    assert again["duplicate"] is True


async def test_errors_are_problem_json(client: AsyncTestClient) -> None:  # type: ignore[type-arg]
    r = await client.post("/v1/tables", json={"table_id": "t1"}, headers=OPERATOR)
    assert r.status_code == 201
    r = await client.post(
        "/v1/tables/t1/commands",
        json={"type": "PlaceAnte", "box": 1, "ante": 100},
        headers={**ALICE, "Idempotency-Key": "k"},
    )
    assert r.status_code == 409
    assert r.headers["content-type"].startswith("application/problem+json")
    assert r.json()["type"] == "/problems/not_seated"
    r = await client.post("/v1/tables/t1/commands", json={"type": "SitDown"}, headers=ALICE)
    assert r.status_code == 428
    r = await client.get("/v1/tables/t1")
    assert r.status_code == 401
    r = await client.post("/v1/tables", json={"table_id": "t2"}, headers=ALICE)
    assert r.status_code == 403
    r = await client.post(
        "/v1/tables", json={"table_id": "t3", "overrides": {"boxes": 0}}, headers=OPERATOR
    )
    assert r.status_code == 422 and "boxes" in r.json()["detail"]


async def test_game_recall_and_round_report(client: AsyncTestClient) -> None:  # type: ignore[type-arg]
    await test_a_russian_round_end_to_end(client)
    recall = (await client.get("/v1/players/alice/rounds", headers=ALICE)).json()
    (played,) = recall["items"]
    assert played["table_id"] == "t1" and played["round"] == 1
    assert [b["box"] for b in played["boxes"]] == [1]  # only alice's own box
    box = played["boxes"][0]
    assert box["cards"] == ["As", "Kd", "8h", "8c", "9s"]
    assert box["outcome"] == "dealer_no_game"
    assert (box["staked"], box["paid_back"]) == (300, 400)
    assert played["dealer_cards"] == ["Ac", "Qc", "2d", "3h", "5s"]
    import hashlib

    assert hashlib.sha256(bytes.fromhex(played["seed"])).hexdigest() == played["commitment"]
    assert (await client.get("/v1/players/alice/rounds", headers=BOB)).status_code == 404
    report = (await client.get("/v1/reports/rounds?table_id=t1", headers=OPERATOR)).json()
    (whole,) = report["items"]
    # alice: staked 300, got 400; bob: staked 100 (folded), got nothing.
    assert (whole["staked"], whole["paid_back"], whole["house_result"]) == (400, 400, 0)
    assert (await client.get("/v1/reports/rounds", headers=ALICE)).status_code == 403


async def test_the_request_id_is_recorded_with_the_events(
    client: AsyncTestClient,  # type: ignore[type-arg]
    database_url: str,
) -> None:
    r = await client.post("/v1/tables", json={"table_id": "t1"}, headers=OPERATOR)
    assert r.status_code == 201, r.text
    opened = await client.post("/v1/wallets", json={"wallet_id": "alice"}, headers=OPERATOR)
    assert opened.status_code == 201, opened.text
    response = await client.post(
        "/v1/tables/t1/commands",
        json={"type": "SitDown"},
        headers={**ALICE, "Idempotency-Key": "s1", "X-Request-ID": "req-sit-alice"},
    )
    assert response.status_code == 200, response.text
    assert response.headers["x-request-id"] == "req-sit-alice"
    conn = await asyncpg.connect(database_url)
    try:
        recorded = await conn.fetchval(
            "SELECT metadata ->> 'request_id' FROM events"
            " WHERE metadata ->> 'command_id' = 't1/alice:s1'"
        )
    finally:
        await conn.close()
    assert recorded == "req-sit-alice"
