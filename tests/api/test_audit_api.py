"""The auditor's API over a real server: feed, round record, replay, seed, reconciliation."""

from __future__ import annotations

import hashlib
from typing import Any

import httpx
import msgspec

from russian_poker.events.commands import Actor
from russian_poker.events.postgres.projections import ProjectionStore
from russian_poker.projections.audit import AuditProjection
from russian_poker.projections.runner import ProjectionRunner
from russian_poker.projections.shown import RoundOpenedShown, ShownEvent
from tests.api.conftest import bearer
from tests.processes import eventually
from tests.rules.scenario import deck_for

OPERATOR = bearer("operator", "op")
AUDITOR = bearer("auditor", "regulator")
ALICE = bearer("player", "alice")


async def send(api: httpx.AsyncClient, key: str, body: dict[str, Any]) -> Any:
    r = await api.post(
        "/v1/tables/t1/commands", json=body, headers={**ALICE, "Idempotency-Key": key}
    )
    assert r.status_code == 200, r.text
    return r.json()


async def play_one_round(api: httpx.AsyncClient) -> None:
    await api.post("/v1/wallets", json={"wallet_id": "alice"}, headers=OPERATOR)
    await api.post(
        "/v1/wallets/alice/deposits",
        json={"transfer_id": "d1", "amount": 10_000},
        headers=OPERATOR,
    )
    deck = deck_for(["8h 8c 8d As Kd"], "Qc Jc 9d 4h 2s")
    r = await api.post(
        "/v1/tables",
        json={"table_id": "t1", "preset": "oasis", "test_deck": list(deck)},
        headers=OPERATOR,
    )
    assert r.status_code == 201, r.text
    await send(api, "1", {"type": "SitDown"})
    await send(api, "2", {"type": "PlaceAnte", "box": 1, "ante": 100, "bonus": 100})
    await send(api, "3", {"type": "Deal"})
    # Trips: insurable in Oasis; dealer Q-high has no game, so insurance pays 1:1.
    await send(api, "4", {"type": "Insure", "box": 1, "amount": 100})


async def test_auditor_sees_the_round_and_can_verify_it(
    api: httpx.AsyncClient, database_url: str
) -> None:
    await play_one_round(api)
    runner = ProjectionRunner(AuditProjection(), ProjectionStore(database_url))
    await runner.run_until_caught_up()
    await runner.stop()

    # Caught up to the commit-safe horizon, which a transaction still open elsewhere (the
    # service's own projection leader) can hold just short of the last commands: the record
    # can exist before it has them all, so wait for the last one.
    async def recorded() -> bool:
        nonlocal record
        record = await api.get("/v1/audit/rounds/t1/1", headers=AUDITOR)
        if record.status_code != 200:
            return False
        last = record.json()["record"]["commands"][-1]["command"]["type"]
        return bool(last == "Insure")

    record = await api.get("/v1/audit/rounds/t1/1", headers=AUDITOR)
    await eventually(recorded, timeout=30, message="the round's audit record")
    body = record.json()
    commands = [c["command"]["type"] for c in body["record"]["commands"]]
    played = [c for c in commands if c in ("PlaceAnte", "Deal", "Insure")]
    assert played == ["PlaceAnte", "Deal", "Insure"]

    seed = (await api.get("/v1/audit/rounds/t1/1/seed", headers=AUDITOR)).json()
    assert seed["verified"] is True
    assert hashlib.sha256(bytes.fromhex(seed["seed"])).hexdigest() == seed["commitment"]

    replay = await api.post(
        "/v1/audit/replay", json={"table_id": "t1", "round": 1}, headers=AUDITOR
    )
    assert replay.status_code == 200, replay.text
    assert replay.json()["verified"] == 1 and replay.json()["differences"] == []

    books = await api.get("/v1/audit/reconciliation", headers=AUDITOR)
    assert books.status_code == 200 and books.json()["mismatches"] == []

    # The feed is commit-safe: the last events show once no older transaction is open.
    feed: dict[str, Any] = {}

    async def caught_up() -> bool:
        nonlocal feed
        feed = (await api.get("/v1/audit/feed?limit=1000", headers=AUDITOR)).json()
        types = [item["event_type"] for item in feed["items"]]
        return "RoundSettled" in types and "WalletOpened" in types

    await eventually(caught_up, timeout=30, message="the settled round is in the feed")
    # The second round is open: its RoundOpened must not carry the seed.
    opened = [i for i in feed["items"] if i["event_type"] == "RoundOpened"]
    assert opened[-1]["data"].get("seed") in (None, "")
    # Every item's data is what the document says: one of the union's types, tagged on
    # `type` (its event type), hidden parts and all; every actor an Actor.
    for item in feed["items"]:
        shown = msgspec.convert(item["data"], ShownEvent)
        assert item["data"]["type"] == item["event_type"]
        assert type(shown).__name__ in (item["event_type"], f"{item['event_type']}Shown")
        if item["actor"] is not None:
            msgspec.convert(item["actor"], Actor)
    assert isinstance(msgspec.convert(opened[0]["data"], ShownEvent), RoundOpenedShown)

    assert (await api.get("/v1/audit/feed", headers=ALICE)).status_code == 403
    assert (await api.get("/v1/audit/rounds/t1/2/seed", headers=AUDITOR)).status_code == 404
