"""The availability and change log over HTTP: a table opened, its ruleset changed between
rounds (refused mid-round, versioned, the next round paid by the new paytable), closed with
a reason, reopened; each listed with actor, reason, time and ruleset version; operators
see their own tables only; the rebuild finds the log equal to the events."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import httpx
import msgspec

from russian_poker.events.paytables import DEFAULT_BET_PAYTABLE
from russian_poker.events.postgres.pool import create_pool
from russian_poker.events.postgres.rebuild import RebuildStore
from russian_poker.events.ruleset import Ruleset
from russian_poker.projections.audit import AuditProjection
from russian_poker.projections.availability import AvailabilityProjection
from russian_poker.projections.rebuild import rebuild, rebuild_catch_up
from russian_poker.service.app.auth import mint_token
from tests.api.conftest import SECRET, bearer
from tests.processes import eventually
from tests.rules.scenario import deck_for

OPERATOR = bearer("operator", "op")
ADMIN = bearer("admin", "root")
AUDITOR = bearer("auditor", "regulator")
ALICE = bearer("player", "alice")
BETA = {"Authorization": f"Bearer {mint_token(SECRET, 'operator', 'b', operator='beta')}"}

STRAIGHT = "5h 6c 7d 8s 9h"
DEALER_AK = "Ah Kc 9d 7s 4c"
DECK = list(deck_for([STRAIGHT], DEALER_AK))
"""One box with a straight against a dealer who qualifies with ace-king: the Bet is paid at
the paytable's straight."""
ANTE = 100


async def command(api: httpx.AsyncClient, key: str, body: dict[str, Any]) -> httpx.Response:
    return await api.post(
        "/v1/tables/t1/commands", json=body, headers={**ALICE, "Idempotency-Key": key}
    )


async def balance(api: httpx.AsyncClient) -> int:
    r = await api.get("/v1/wallets/alice", headers=OPERATOR)
    return int(r.json()["balance"])


async def change(
    api: httpx.AsyncClient, body: dict[str, Any], who: dict[str, str] = OPERATOR
) -> httpx.Response:
    return await api.put("/v1/tables/t1/ruleset", json=body, headers=who)


async def log(api: httpx.AsyncClient, who: dict[str, str], **query: Any) -> httpx.Response:
    return await api.get("/v1/audit/availability", params=query, headers=who)


async def play_round(api: httpx.AsyncClient, round_no: int) -> int:
    """Bet, deal, play box 1 with the scripted straight; the wallet's gain in the round."""
    before = await balance(api)
    assert (
        await command(api, f"ante-{round_no}", {"type": "PlaceAnte", "box": 1, "ante": ANTE})
    ).is_success
    # A bet is placed: the round is no longer "between rounds".
    refused = await change(api, {"overrides": {"ante_min": 5}, "reason": "too late"})
    assert refused.status_code == 409, refused.text
    assert refused.json()["code"] == "ruleset_locked"
    assert (await command(api, f"deal-{round_no}", {"type": "Deal"})).is_success
    # Cards are out: still locked.
    refused = await change(api, {"overrides": {"ante_min": 5}, "reason": "too late"})
    assert refused.status_code == 409 and refused.json()["code"] == "ruleset_locked"
    played = await command(api, f"play-{round_no}", {"type": "Play", "box": 1})
    assert played.is_success, played.text
    assert played.json()["table"]["round"]["phase"] == "betting"  # the next one, opened at once
    return await balance(api) - before


async def test_the_log_lists_every_change_with_actor_reason_time_and_version(
    api: httpx.AsyncClient, database_url: str
) -> None:
    assert (await api.post("/v1/wallets", json={"wallet_id": "alice"}, headers=OPERATOR)).is_success
    deposit = {"transfer_id": "d1", "amount": 100_000}
    assert (await api.post("/v1/wallets/alice/deposits", json=deposit, headers=OPERATOR)).is_success
    opened = await api.post(
        "/v1/tables",
        json={"table_id": "t1", "reason": "new table for the launch", "test_deck": DECK},
        headers=OPERATOR,
    )
    assert opened.status_code == 201, opened.text
    assert opened.json()["ruleset_version"] == 1
    assert (await command(api, "sit", {"type": "SitDown"})).is_success

    first = await play_round(api, 1)
    straight = DEFAULT_BET_PAYTABLE["straight"]

    # Between rounds (the next round takes bets, none placed): accepted, one version up.
    body = {"overrides": {"bet_paytable": {"straight": straight + 3}}, "reason": "paytable v2"}
    changed = await change(api, body)
    assert changed.status_code == 200, changed.text
    view = changed.json()
    assert view["ruleset_version"] == 2
    assert view["ruleset"]["bet_paytable"]["straight"] == straight + 3
    # A reason is required, 1-500 characters.
    assert (await change(api, {"overrides": {"ante_min": 5}})).status_code == 400
    assert (await change(api, {"overrides": {}, "reason": ""})).status_code == 400
    assert (await change(api, {"overrides": {}, "reason": "x" * 501})).status_code == 400
    # The currency stays.
    other = await change(api, {"overrides": {"currency": "USD"}, "reason": "dollars"})
    assert other.status_code == 422 and other.json()["code"] == "ruleset_change_invalid"

    # The round that was waiting for bets is played by the new paytable: the Bet's straight
    # pays three more times the Bet.
    r = await api.put("/v1/tables/t1/test-deck", json={"cards": DECK}, headers=OPERATOR)
    assert r.json()["applies_to"] == "current", r.text
    second = await play_round(api, 2)
    assert second - first == 3 * 2 * ANTE

    # An admin changes it too (as the table's operator would); the log says it was an admin.
    by_admin = await change(api, {"preset": "russian", "reason": "back to the preset"}, ADMIN)
    assert by_admin.status_code == 200 and by_admin.json()["ruleset_version"] == 3
    # Nothing to change: nothing recorded.
    same = await change(api, {"preset": "russian", "reason": "again"}, ADMIN)
    assert same.json()["ruleset_version"] == 3

    # Closing needs a reason; reopening does not.
    assert (await api.post("/v1/tables/t1/close", headers=OPERATOR)).status_code == 400
    closed = await api.post("/v1/tables/t1/close", json={"reason": "maintenance"}, headers=OPERATOR)
    assert closed.status_code == 200 and closed.json()["status"] == "closed"
    reopened = await api.post("/v1/tables/t1/reopen", headers=OPERATOR)
    assert reopened.status_code == 200 and reopened.json()["status"] == "open"

    expected = [
        ("opened", "operator", "op", "new table for the launch", 1),
        ("ruleset_changed", "operator", "op", "paytable v2", 2),
        ("ruleset_changed", "admin", "root", "back to the preset", 3),
        ("closed", "operator", "op", "maintenance", 3),
        ("reopened", "operator", "op", None, 3),
    ]

    async def listed() -> bool:
        r = await log(api, AUDITOR, table_id="t1")
        return r.status_code == 200 and len(r.json()["items"]) == len(expected)

    await eventually(listed, timeout=30, message="the availability log caught up")
    changes = (await log(api, AUDITOR, table_id="t1")).json()["items"]
    got = [
        (c["kind"], c["actor"]["role"], c["actor"]["id"], c["reason"], c["ruleset_version"])
        for c in changes
    ]
    assert got == expected
    times = [datetime.fromisoformat(c["time"]) for c in changes]
    assert times == sorted(times) and all(t.tzinfo is not None for t in times)
    assert [c["ruleset"] is not None for c in changes] == [True, True, True, False, False]
    assert changes[1]["ruleset"]["bet_paytable"]["straight"] == straight + 3
    assert all(c["operator_id"] == "default" and c["command_id"] for c in changes)

    # Pages: the cursor goes on where the last page ended.
    page = (await log(api, ADMIN, limit=2)).json()
    assert len(page["items"]) == 2 and page["next_cursor"] is not None
    rest = (await log(api, ADMIN, cursor=page["next_cursor"])).json()
    assert [c["kind"] for c in page["items"] + rest["items"]] == [e[0] for e in expected]
    # A window in time.
    later = (await log(api, AUDITOR, **{"from": changes[3]["time"]})).json()["items"]
    assert [c["kind"] for c in later] == ["closed", "reopened"]

    # The table's own operator reads it; another operator's token finds nothing there.
    assert len((await log(api, OPERATOR, table_id="t1")).json()["items"]) == len(expected)
    assert (await log(api, BETA, table_id="t1")).status_code == 404
    assert (await log(api, BETA, operator_id="default")).status_code == 404
    assert (await log(api, BETA)).json()["items"] == []
    assert (await change(api, {"overrides": {}, "reason": "x"}, BETA)).status_code == 404
    assert (
        await api.post("/v1/tables/t1/close", json={"reason": "x"}, headers=BETA)
    ).status_code == 404
    # Players are not auditors.
    assert (await log(api, ALICE)).status_code == 403

    # Replay re-runs the change inside round 2's window and gets the same settlement.
    for number in (1, 2):
        replay = await api.post(
            "/v1/audit/replay", json={"table_id": "t1", "round": number}, headers=AUDITOR
        )
        assert replay.status_code == 200, replay.text
        assert replay.json()["verified"] == 1 and replay.json()["differences"] == []

    pool = await create_pool(database_url)
    try:
        # The regulator's round record names the ruleset each round was played by.
        v1 = msgspec.convert(opened.json()["ruleset"], Ruleset).fingerprint
        v2 = msgspec.convert(view["ruleset"], Ruleset).fingerprint

        async def recorded() -> bool:
            rows = await pool.fetch(
                "SELECT round, ruleset_fingerprint FROM audit_rounds"
                " WHERE table_id = 't1' AND settled_at IS NOT NULL ORDER BY round"
            )
            return [(r["round"], r["ruleset_fingerprint"]) for r in rows][:2] == [(1, v1), (2, v2)]

        await eventually(recorded, timeout=30, message="rounds 1 and 2 by their rulesets")
        # The log is a projection: rebuilt from the events, it is what it was.
        async with pool.acquire() as conn:
            report = await rebuild(RebuildStore(conn), "availability")
            audits = [await rebuild(RebuildStore(conn), "audit")]
            # However the events fall into batches, a change reaches the round it applies to.
            for size in (1, 2, 3, 5, 8):
                audits.append(
                    await rebuild_catch_up(RebuildStore(conn), AuditProjection(), batch_size=size)
                )
                small = await rebuild_catch_up(
                    RebuildStore(conn), AvailabilityProjection(), batch_size=size
                )
                assert not small.differed, (size, small.details)
    finally:
        await pool.close()
    assert report.rows == len(expected) and not report.differed, report.details
    for audit in audits:
        assert not audit.differed, audit.details
