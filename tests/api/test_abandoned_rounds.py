"""Interrupted rounds over HTTP, on the real clock's machinery (docs/rules-decisions.md,
"Interrupted rounds"): a round nobody finishes is completed after ``abandoned_round_after_s``
by the rules' defaults, with the reason in the recall, the report and the audit trail; the
money reconciles and the round replays.

Time is moved as every timer test here moves it, without sleeping: the clock sends what
PostgreSQL's ``now()`` says is due, so a test shifts ``timers.due_at`` back and ticks.
"""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta
from typing import Any

from russian_poker.events.postgres.timers import TimerStore
from russian_poker.service.clock import Clock
from tests.api.conftest import bearer
from tests.api.e2e import Harness, deck_for, harness

__all__ = ["harness"]

DAY = 86_400
REASON = "no activity for 86400 s"
AUDITOR = bearer("auditor", "aud")
# Play order: box 1 (alice, ante 200), then boxes 2 (bob, dark) and 3 (bob) at ante 100.
BOXES = ["7s 7h 7d Kc 2s", "9c 9h Jd 2h 3c", "Qd Qs 6c 5c 3h"]
DEALER = "8s 8d Ah 4c 6h"  # a pair of eights: the dealer qualifies


async def abandoned_timer(h: Harness) -> tuple[str, datetime]:
    rows = await h.app.state.services.pool.fetch(
        "SELECT timer_key, due_at FROM timers"
        " WHERE table_id = $1 AND timer_key LIKE '%:abandoned:%'",
        h.table_id,
    )
    assert len(rows) == 1, rows
    return rows[0]["timer_key"], rows[0]["due_at"]


async def days_pass(h: Harness, seconds: int, *, only_abandoned: bool = False) -> int:
    """Move the table's deadlines ``seconds`` into the past and let the clock send what is
    due; returns how many commands it sent."""
    await h.app.state.services.pool.execute(
        "UPDATE timers SET due_at = due_at - make_interval(secs => $2) WHERE table_id = $1"
        " AND ($3 OR timer_key LIKE '%:abandoned:%')",
        h.table_id,
        seconds,
        not only_abandoned,
    )
    sent = await Clock(TimerStore(h.app.state.services.pool), h.app.state.services.commands).tick()
    h.versions.append((await h.view())["version"])
    return sent


async def start(h: Harness) -> None:
    await h.fund({"alice": 10_000, "bob": 10_000})
    await h.open("russian", deck_for(BOXES, DEALER))
    for name in ("alice", "bob"):
        await h.send(name, "SitDown")
    await h.send("alice", "PlaceAnte", box=1, ante=200)
    await h.send("bob", "PlaceAnte", box=2, ante=100, dark=True)
    await h.send("bob", "PlaceAnte", box=3, ante=100)
    await h.send("alice", "Deal")
    await h.send("bob", "Deal")
    await h.send("bob", "Play", box=3)  # bob decides; alice has gone


async def audit_record(h: Harness, number: int) -> dict[str, Any]:
    """The regulator's record of the round, once the audit projection has it settled."""
    path = f"/v1/audit/rounds/{h.table_id}/{number}"

    async def settled() -> dict[str, Any]:
        while True:
            r = await h.client.get(path, headers=AUDITOR)
            if r.status_code == 200 and r.json()["seed"] is not None:
                found: dict[str, Any] = r.json()["record"]
                return found
            await asyncio.sleep(0.05)

    return await asyncio.wait_for(settled(), 10)


async def test_a_round_left_mid_decision_is_completed_with_the_reason_recorded(
    harness: Harness,
) -> None:
    h = harness
    await start(h)
    assert (await h.view())["round"]["awaiting"] == [1]
    # Alice's decision time-out never comes (lost: the case this guards), and a day passes.
    await h.app.state.services.pool.execute(
        "DELETE FROM timers WHERE table_id = $1 AND timer_key NOT LIKE '%:abandoned:%'",
        h.table_id,
    )
    assert await days_pass(h, DAY) == 1

    view = await h.view("alice")
    last = view["previous_round"]
    assert last["number"] == 1 and last["phase"] == "settled" and last["seed"]
    assert view["round"]["number"] == 2 and view["round"]["phase"] == "betting"
    outcomes = {b["box"]: b["result"]["outcome"] for b in last["boxes"]}
    assert outcomes == {1: "folded", 2: "won", 3: "won"}  # alice folded; bob paid as usual
    # alice: 10_000 - 200 = 9_800.  bob: 10_000 - 300 (dark) - 100 - 200 (Bet) + 2 x 500
    #   (nines and queens beat eights: ante and Bet back + the Bet's 1:1) = 10_400.
    await h.balances({"alice": 9_800, "bob": 10_400})

    # The player's recall says why the round ended so; so does the operator's report.
    (recalled,) = await h.recall("alice")
    assert recalled["abandoned"] == REASON
    (box,) = recalled["boxes"]
    assert (box["box"], box["decision"], box["outcome"], box["paid_back"]) == (
        1,
        "fold",
        "folded",
        0,
    )
    assert (await h.recall("bob"))[0]["abandoned"] == REASON
    (reported,) = await h.report()
    assert (reported["abandoned"], reported["house_result"]) == (REASON, -200)

    # The audit trail: the reason, when, and each fold as a time-out, not a choice.
    record = await audit_record(h, 1)
    assert record["abandoned"]["reason"] == REASON
    assert record["abandoned"]["after_s"] == DAY and record["abandoned"]["phase"] == "decisions"
    assert [b["decision"] for b in record["boxes"]] == ["timed_out", "play", "play"]
    system = [c for c in record["commands"] if c["actor"]["role"] == "system"]
    assert system[-1]["command"]["type"] == "CompleteAbandonedRound"
    r = await h.client.get("/v1/audit/feed", params={"limit": 500}, headers=AUDITOR)
    kinds = [item["event_type"] for item in r.json()["items"]]
    assert kinds.index("RoundAbandoned") < kinds.index("RoundSettled")
    # Money: the record's wallets, a replay from the seed and the books all agree.
    await h.audited([(-200, {"alice": 9_800, "bob": 10_400})])


async def test_activity_before_the_deadline_moves_it_and_the_round_is_left_alone(
    harness: Harness,
) -> None:
    h = harness
    await start(h)
    _, due = await abandoned_timer(h)
    now = await h.app.state.services.pool.fetchval("SELECT now()")
    assert timedelta(seconds=DAY - 60) < due - now <= timedelta(seconds=DAY)
    # A minute before the deadline: nothing is due, nothing happens.
    assert await days_pass(h, DAY - 60, only_abandoned=True) == 0
    assert (await h.view())["round"]["phase"] == "decisions"

    await h.send("alice", "Play", box=1)  # she is back: the round goes on
    # That ended the round (every box decided): nothing waits, no timer is left.
    assert (
        await h.app.state.services.pool.fetchval(
            "SELECT count(*) FROM timers WHERE table_id = $1", h.table_id
        )
        == 0
    )
    (recalled,) = await h.recall("alice")
    assert recalled["abandoned"] is None


async def test_each_event_of_the_round_restarts_the_day(harness: Harness) -> None:
    h = harness
    await h.fund({"alice": 10_000})
    await h.open("russian", deck_for(["7s 7h 7d Kc 2s", "2d 5h 8c Jc 4s"], DEALER))
    await h.send("alice", "SitDown")
    await h.send("alice", "PlaceAnte", box=1, ante=200)
    await h.send("alice", "PlaceAnte", box=2, ante=100)
    await h.send("alice", "Deal")
    first, first_due = await abandoned_timer(h)
    assert await days_pass(h, DAY - 60, only_abandoned=True) == 0  # 23 h 59 min later...
    await h.send("alice", "Play", box=1)  # ...she plays her first box
    second, second_due = await abandoned_timer(h)
    now = await h.app.state.services.pool.fetchval("SELECT now()")
    assert second != first and second_due - now > timedelta(seconds=DAY - 60)
    assert second_due > first_due
    # Her second box is never decided, and its time-out is lost too: a day later it folds.
    await h.app.state.services.pool.execute(
        "DELETE FROM timers WHERE table_id = $1 AND timer_key NOT LIKE '%:abandoned:%'",
        h.table_id,
    )
    assert await days_pass(h, DAY - 60, only_abandoned=True) == 0  # not yet a day since
    assert await days_pass(h, 120, only_abandoned=True) == 1
    last = (await h.view("alice"))["previous_round"]
    assert [b["result"]["outcome"] for b in last["boxes"]] == ["won", "folded"]
    # alice: 10_000 - 300 (antes) - 400 (Bet) + 600 + 3 x 400 (trips beat eights) = 11_100.
    await h.balances({"alice": 11_100})
    await h.audited([(-1_100, {"alice": 11_100})])


async def test_the_rules_own_time_outs_fall_due_first_even_after_an_outage(
    harness: Harness,
) -> None:
    h = harness
    await start(h)
    # The service was down for two days: every deadline is past when it comes back. The
    # decision time-out is due first, folds alice's box and the round ends as usual.
    sent = await days_pass(h, 2 * DAY)
    assert sent == 1  # the decision time-out; the interrupted-round one was then stale
    assert (
        await h.app.state.services.pool.fetchval(
            "SELECT count(*) FROM timers WHERE table_id = $1", h.table_id
        )
        == 0
    )
    (recalled,) = await h.recall("alice")
    assert recalled["abandoned"] is None
    record = await audit_record(h, 1)
    assert "abandoned" not in record and record["boxes"][0]["decision"] == "timed_out"
    await h.audited([(-200, {"alice": 9_800, "bob": 10_400})])


async def test_a_round_not_yet_dealt_is_called_off_with_every_bet_refunded(
    harness: Harness,
) -> None:
    h = harness
    await h.fund({"alice": 10_000, "bob": 10_000})
    await h.open("russian", [])
    for name in ("alice", "bob"):
        await h.send(name, "SitDown")
    await h.send("alice", "PlaceAnte", box=1, ante=200, bonus=100)
    await h.send("bob", "PlaceAnte", box=2, ante=100, dark=True)
    await h.balances({"alice": 9_700, "bob": 9_700})
    # The betting timer is lost; a day later the round is called off.
    await h.app.state.services.pool.execute(
        "DELETE FROM timers WHERE table_id = $1 AND timer_key NOT LIKE '%:abandoned:%'",
        h.table_id,
    )
    assert await days_pass(h, DAY) == 1
    await h.balances({"alice": 10_000, "bob": 10_000})
    view = await h.view()
    assert view["previous_round"]["number"] == 1 and view["previous_round"]["seed"]
    assert view["round"]["number"] == 2
    record = await audit_record(h, 1)
    assert record["abandoned"]["phase"] == "betting"
    assert [b["cancelled"] for b in record["boxes"]] == [True, True]
    (reported,) = await h.report()  # no box left in it, but the round and its reason are
    assert (reported["abandoned"], reported["staked"], reported["boxes"]) == (REASON, 0, [])
    await h.audited([(0, {"alice": 10_000, "bob": 10_000})])
