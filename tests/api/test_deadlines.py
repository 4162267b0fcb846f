"""The view's deadlines over HTTP: the betting and decision time-outs a client counts down.

Due times are checked against the `timers` table and the events' commit times, never the
wall clock: the betting deadline is the first ante's commit time plus `betting_timeout_s`.
"""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta
from typing import Any

from russian_poker.events.streams import table_stream
from tests.api.e2e import Harness, Watcher, deck_for, harness

__all__ = ["harness"]

BOXES = ["7s 7h 7d Kc 2s", "9c Tc Jd 2h 3c", "2d 5h 8c Jc 4s"]
DEALER = "8s 8d Ah 4c 6h"


def _due(deadline: dict[str, Any]) -> datetime:
    return datetime.fromisoformat(deadline["due_at"])


async def _rows(h: Harness) -> dict[str, datetime]:
    rows = await h.app.state.services.pool.fetch(
        "SELECT timer_key, due_at FROM timers WHERE table_id = $1", h.table_id
    )
    return {r["timer_key"]: r["due_at"] for r in rows}


async def _committed_at(h: Harness, version: int) -> datetime:
    """When the command that produced ``version`` committed its events (its statement's
    ``now()``, the same instant the timers' due times count from)."""
    at: datetime = await h.app.state.services.pool.fetchval(
        "SELECT recorded_at FROM events WHERE stream_id = $1 AND stream_version = $2",
        table_stream(h.table_id),
        version,
    )
    return at


def _waits(view: dict[str, Any]) -> list[tuple[str, int | None]]:
    return [(d["wait"], d["box"]) for d in view["deadlines"]]


async def _arrived(watcher: Watcher, version: int) -> None:
    """Once the stream has delivered ``version`` (read before the table moves on, its
    deadlines are all of that state's)."""

    async def seen() -> None:
        while not any(ident >= version for _, ident, _ in watcher.events):
            await asyncio.sleep(0.02)

    await asyncio.wait_for(seen(), 10)


def _at(events: list[tuple[str, int, dict[str, Any]]], version: int) -> dict[str, Any]:
    return next(data for _, ident, data in events if ident == version)


async def test_the_betting_deadline_starts_with_the_first_ante(harness: Harness) -> None:
    h = harness
    await h.fund({"alice": 10_000, "bob": 10_000})
    opened = await h.open("russian", deck_for(BOXES, DEALER))
    assert opened["deadlines"] == []  # the operator's answer reads the timers: none yet
    olga = await h.watch("olga")
    await h.send("alice", "SitDown")
    seated = await h.send("bob", "SitDown")
    assert seated["deadlines"] is None  # a command's answer leaves them to GET and the stream
    before = await h.view("alice")
    assert before["round"]["phase"] == "betting" and before["deadlines"] == []

    r = await h.post("alice", {"type": "PlaceAnte", "box": 1, "ante": 100})
    assert r.status_code == 200, r.text
    ante_version = r.json()["version"]
    h.versions.append(ante_version)
    await _arrived(olga, ante_version)
    assert r.json()["table"]["deadlines"] is None
    timeout = timedelta(seconds=opened["ruleset"]["betting_timeout_s"])
    expected = await _committed_at(h, ante_version) + timeout
    rows = await _rows(h)
    assert rows[f"{h.table_id}:1:betting"] == expected
    assert any(":abandoned:" in key for key in rows)  # pending in the DB, never shown

    alice = await h.view("alice")
    assert _waits(alice) == [("betting", None)]
    assert _due(alice["deadlines"][0]) == expected
    assert (await h.view("olga"))["deadlines"] == alice["deadlines"]  # an observer too
    assert (await h.view())["deadlines"] == alice["deadlines"]  # and the operator

    # Another ante changes nothing about the wait: the deadline is kept, not extended.
    await h.send("bob", "PlaceAnte", box=2, ante=100)
    assert (await h.view("bob"))["deadlines"] == alice["deadlines"]

    events = await olga.stop_at(h.versions[-1])
    assert all(data["deadlines"] == [] for _, v, data in events if v < ante_version)
    assert _at(events, ante_version)["deadlines"] == alice["deadlines"]
    assert _at(events, h.versions[-1])["deadlines"] == alice["deadlines"]
    assert all(
        d["wait"] in ("betting", "decision", "dealer_draw")
        for _, _, data in events
        for d in data["deadlines"]
    )


async def test_decision_deadlines_follow_the_box_on_turn(harness: Harness) -> None:
    h = harness
    await h.fund({"alice": 10_000, "bob": 10_000})
    opened = await h.open("russian", deck_for(BOXES, DEALER))
    for name in ("alice", "bob"):
        await h.send(name, "SitDown")
    # Alice's larger ante decides first; her box 3 waits for it.
    await h.send("alice", "PlaceAnte", box=1, ante=200)
    await h.send("alice", "PlaceAnte", box=3, ante=100)
    await h.send("bob", "PlaceAnte", box=2, ante=100)
    olga = await h.watch("olga")
    await h.send("alice", "Deal")
    dealt = await h.send("bob", "Deal")
    assert dealt["round"]["phase"] == "decisions" and dealt["deadlines"] is None
    dealt_version = h.versions[-1]

    timeout = timedelta(seconds=opened["ruleset"]["decision_timeout_s"])
    expected = await _committed_at(h, dealt_version) + timeout
    rows = await _rows(h)
    view = await h.view("alice")
    assert _waits(view) == [("decision", 1), ("decision", 2)]
    for deadline in view["deadlines"]:
        key = f"{h.table_id}:1:decision:{deadline['box']}:dealt"
        assert _due(deadline) == rows[key] == expected
    assert (await h.view("olga"))["deadlines"] == view["deadlines"]

    # A row the state does not wait for (left over, or a later state's) never shows.
    await h.app.state.services.pool.execute(
        "INSERT INTO timers (timer_key, table_id, due_at, command)"
        " VALUES ($1, $2, now(), '{}'::jsonb)",
        f"{h.table_id}:1:decision:3:dealt",
        h.table_id,
    )
    assert (await h.view("alice"))["deadlines"] == view["deadlines"]
    await h.app.state.services.pool.execute(
        "DELETE FROM timers WHERE timer_key = $1", f"{h.table_id}:1:decision:3:dealt"
    )

    await _arrived(olga, dealt_version)
    await h.send("alice", "Play", box=1)
    played_version = h.versions[-1]
    after = await h.view("alice")
    assert _waits(after) == [("decision", 2), ("decision", 3)]
    bob_box, alice_box = after["deadlines"]
    assert bob_box == view["deadlines"][1]  # bob's wait goes on: the same deadline
    rows = await _rows(h)
    assert f"{h.table_id}:1:decision:1:dealt" not in rows
    assert _due(alice_box) == rows[f"{h.table_id}:1:decision:3:dealt"]
    assert _due(alice_box) == await _committed_at(h, played_version) + timeout
    assert (await h.view("olga"))["deadlines"] == after["deadlines"]

    events = await olga.stop_at(played_version)
    assert _at(events, dealt_version)["deadlines"] == view["deadlines"]
    assert _at(events, played_version)["deadlines"] == after["deadlines"]
    for _, _, data in events:
        assert all(d["wait"] != "abandoned" for d in data["deadlines"])
