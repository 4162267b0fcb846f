"""Answers given again from memory say so: ``Idempotent-Replayed: true`` on a replayed
success, a replayed refusal and a replayed transfer; a refused command's key stays spent;
a key names a command of one player on one table; a reused key is logged as a refusal."""

from __future__ import annotations

import json
from pathlib import Path

import httpx

from tests.api.conftest import bearer
from tests.races.instances import instance
from tests.security.conftest import fresh_database

OPERATOR = bearer("operator", "op")
ALICE = bearer("player", "alice")
REPLAYED = "idempotent-replayed"


async def command(api: httpx.AsyncClient, table: str, key: str, body: object) -> httpx.Response:
    return await api.post(
        f"/v1/tables/{table}/commands", json=body, headers={**ALICE, "Idempotency-Key": key}
    )


async def setup(api: httpx.AsyncClient, *tables: str) -> None:
    assert (await api.post("/v1/wallets", json={"wallet_id": "alice"}, headers=OPERATOR)).is_success
    deposit = {"transfer_id": "d1", "amount": 10_000}
    r = await api.post("/v1/wallets/alice/deposits", json=deposit, headers=OPERATOR)
    assert r.status_code == 200 and REPLAYED not in r.headers
    for table in tables:
        r = await api.post("/v1/tables", json={"table_id": table}, headers=OPERATOR)
        assert r.status_code == 201, r.text


async def test_a_replayed_success_is_marked(api: httpx.AsyncClient) -> None:
    await setup(api, "t1")
    first = await command(api, "t1", "sit", {"type": "SitDown"})
    assert first.status_code == 200 and REPLAYED not in first.headers
    again = await command(api, "t1", "sit", {"type": "SitDown"})
    assert again.status_code == 200 and again.headers[REPLAYED] == "true"
    assert again.json()["duplicate"] is True
    assert again.json()["version"] == first.json()["version"]
    # The answer's table is the table as it is now, not as the first answer left it
    # (docs/api-guide.md): after a bet, the sit-down's replay shows the bet.
    bet = await command(api, "t1", "bet", {"type": "PlaceAnte", "box": 1, "ante": 100})
    assert bet.status_code == 200, bet.text
    later = await command(api, "t1", "sit", {"type": "SitDown"})
    assert later.headers[REPLAYED] == "true" and later.json()["version"] == first.json()["version"]
    assert later.json()["table"]["version"] == bet.json()["table"]["version"]
    assert [b["ante"] for b in later.json()["table"]["round"]["boxes"]] == [100]


async def test_a_refused_key_is_spent_and_its_replay_is_marked(api: httpx.AsyncClient) -> None:
    await setup(api, "t1")
    assert (await command(api, "t1", "sit", {"type": "SitDown"})).status_code == 200
    refused = await command(api, "t1", "bet", {"type": "PlaceAnte", "box": 1, "ante": 1})
    assert refused.status_code == 422 and refused.json()["code"] == "ante_out_of_range"
    assert REPLAYED not in refused.headers
    # The same key and body: the same refusal, from memory, even where a fresh decision
    # would be another one.
    again = await command(api, "t1", "bet", {"type": "PlaceAnte", "box": 1, "ante": 1})
    assert again.status_code == 422 and again.json() == refused.json()
    assert again.headers[REPLAYED] == "true"
    # A corrected body under the spent key is another command: the key is refused.
    corrected = await command(api, "t1", "bet", {"type": "PlaceAnte", "box": 1, "ante": 100})
    assert corrected.status_code == 422
    assert corrected.json()["code"] == "idempotency_key_reused"
    assert REPLAYED not in corrected.headers
    # A new key sends it.
    fresh = await command(api, "t1", "bet-2", {"type": "PlaceAnte", "box": 1, "ante": 100})
    assert fresh.status_code == 200, fresh.text


async def test_a_key_is_scoped_to_its_table(api: httpx.AsyncClient) -> None:
    await setup(api, "t1", "t2")
    one = await command(api, "t1", "k1", {"type": "SitDown"})
    two = await command(api, "t2", "k1", {"type": "SitDown"})
    assert one.status_code == two.status_code == 200
    assert REPLAYED not in two.headers and two.json()["duplicate"] is False
    assert two.json()["table"]["seats"][0] == "alice"


async def test_a_replayed_transfer_is_marked(api: httpx.AsyncClient) -> None:
    await setup(api)
    body = {"transfer_id": "d1", "amount": 10_000}
    again = await api.post("/v1/wallets/alice/deposits", json=body, headers=OPERATOR)
    assert again.status_code == 200 and again.headers[REPLAYED] == "true"
    assert again.json()["balance"] == 10_000


async def test_a_reused_key_is_logged_as_a_refusal(database_url: str, tmp_path: Path) -> None:
    await fresh_database(database_url)
    async with (
        instance(database_url, tmp_path, "logged", log_level="info") as served,
        httpx.AsyncClient(base_url=served.url, timeout=30) as client,
    ):
        await setup(client, "t1")
        assert (await command(client, "t1", "k", {"type": "SitDown"})).status_code == 200
        reused = await command(client, "t1", "k", {"type": "Deal"})
        assert reused.json()["code"] == "idempotency_key_reused"
    lines = [json.loads(line) for line in served.log_text().splitlines() if line.startswith("{")]
    commands = [line for line in lines if line.get("event") == "command"]
    assert [(c["command"], c["outcome"]) for c in commands] == [
        ("OpenTable", "accepted"),
        ("SitDown", "accepted"),
        ("Deal", "refused"),
    ]
    assert commands[-1]["code"] == "idempotency_key_reused"
    assert commands[-1]["level"] == "info"
    assert not [line for line in lines if line.get("level") == "error"], lines
