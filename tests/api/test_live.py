"""Live push over a real server: every state in each viewer's view, catch-up, time-outs."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx

from russian_poker.service.app import create_app
from tests.api.conftest import bearer, fresh_settings
from tests.api.live_server import serving

OPERATOR = bearer("operator", "op")
ALICE = bearer("player", "alice")
BOB = bearer("player", "bob")
_DUE_NOW = (
    "UPDATE timers SET due_at = now() - interval '1 second'"
    " WHERE timer_key NOT LIKE '%:abandoned:%'"
)


async def read_events(
    client: httpx.AsyncClient,
    who: dict[str, str],
    count: int,
    opened: asyncio.Event | None = None,
    **params: Any,
) -> list[tuple[str, int, dict[str, Any]]]:
    """The first ``count`` SSE events of the table's stream: (event, id, data). ``opened``
    is set once the first event (the state the stream starts from) has arrived."""
    seen: list[tuple[str, int, dict[str, Any]]] = []
    event, ident = "message", 0
    async with client.stream("GET", "/v1/tables/t1/stream", headers=who, params=params) as r:
        assert r.status_code == 200
        assert r.headers["content-type"].startswith("text/event-stream")
        async for line in r.aiter_lines():
            if line.startswith("event:"):
                event = line.split(":", 1)[1].strip()
            elif line.startswith("id:"):
                ident = int(line.split(":", 1)[1])
            elif line.startswith("data:"):
                seen.append((event, ident, json.loads(line.split(":", 1)[1])))
                if opened is not None:
                    opened.set()
                if len(seen) == count:
                    return seen
    return seen


async def send(
    client: httpx.AsyncClient, who: dict[str, str], key: str, body: dict[str, Any]
) -> Any:
    r = await client.post(
        "/v1/tables/t1/commands", json=body, headers={**who, "Idempotency-Key": key}
    )
    assert r.status_code == 200, r.text
    return r.json()


async def setup_table(client: httpx.AsyncClient) -> None:
    for name in ("alice", "bob"):
        await client.post("/v1/wallets", json={"wallet_id": name}, headers=OPERATOR)
        await client.post(
            f"/v1/wallets/{name}/deposits",
            json={"transfer_id": f"d-{name}", "amount": 100_000},
            headers=OPERATOR,
        )
    r = await client.post(
        "/v1/tables",
        json={
            "table_id": "t1",
            "test_deck": ["Ah", "Kh", "Qh", "Jh", "Th", "2c", "3d", "4s", "6h", "8c"],
        },
        headers=OPERATOR,
    )
    assert r.status_code == 201, r.text


async def test_observer_sees_every_state_without_secrets(api: httpx.AsyncClient) -> None:
    await setup_table(api)
    start = (await api.get("/v1/tables/t1", headers=BOB)).json()["version"]
    opened = asyncio.Event()
    watcher = asyncio.create_task(read_events(api, BOB, 4, opened))
    await asyncio.wait_for(opened.wait(), 10)  # the stream is live before the commands
    await send(api, ALICE, "1", {"type": "SitDown"})
    await send(api, ALICE, "2", {"type": "PlaceAnte", "box": 1, "ante": 100})
    await send(api, ALICE, "3", {"type": "Deal"})
    events = await asyncio.wait_for(watcher, 10)
    versions = [ident for _, ident, _ in events]
    assert versions == sorted(versions) and versions[0] == start
    assert len(set(versions)) == 4
    dealt = events[-1][2]
    box = dealt["round"]["boxes"][0]
    assert box["cards"] is None and box["card_count"] == 5  # bob only watches
    assert dealt["round"]["dealer"]["cards"] is None
    assert dealt["round"]["seed"] is None
    # Alice's box was dealt Ah Qh Th 3d 6h, the dealer Kh Jh 2c 4s and 8c face up.
    text = json.dumps(events)
    assert all(
        f'"{card}"' not in text for card in ["Ah", "Qh", "Th", "3d", "6h", "Kh", "Jh", "2c", "4s"]
    )
    assert dealt["round"]["dealer"]["upcard"] == "8c"


async def test_reconnect_catches_up_every_missed_state(api: httpx.AsyncClient) -> None:
    await setup_table(api)
    first = (await api.get("/v1/tables/t1", headers=ALICE)).json()["version"]
    versions = [first]
    versions.append((await send(api, ALICE, "1", {"type": "SitDown"}))["version"])
    versions.append(
        (await send(api, ALICE, "2", {"type": "PlaceAnte", "box": 1, "ante": 100}))["version"]
    )
    versions.append((await send(api, ALICE, "3", {"type": "Deal"}))["version"])
    missed = await asyncio.wait_for(read_events(api, ALICE, 3, after=first), 10)
    assert [kind for kind, _, _ in missed] == ["table"] * 3
    assert [ident for _, ident, _ in missed] == versions[1:]
    mine = missed[-1][2]["round"]["boxes"][0]
    assert mine["yours"] is True
    assert mine["cards"] == ["Ah", "Qh", "Th", "3d", "6h"]


async def test_the_clock_deals_when_betting_time_runs_out(api: httpx.AsyncClient) -> None:
    await setup_table(api)
    await send(api, ALICE, "1", {"type": "SitDown"})
    await send(api, ALICE, "2", {"type": "PlaceAnte", "box": 1, "ante": 100})
    app = api.app  # type: ignore[attr-defined]
    pool = app.state.services.pool
    due = await pool.fetch("SELECT timer_key FROM timers WHERE table_id = 't1' ORDER BY due_at")
    # The interrupted-round timer waits a day behind the betting timer (tests/abandoned/).
    assert [r["timer_key"] for r in due] == ["t1:1:betting", "t1:1:abandoned:1"]
    await pool.execute(_DUE_NOW)
    from russian_poker.events.postgres.timers import TimerStore
    from russian_poker.service.clock import Clock

    clock = Clock(TimerStore(pool), app.state.services.commands)
    assert await clock.tick() == 1
    assert await clock.tick() == 0  # sent once
    view = (await api.get("/v1/tables/t1", headers=ALICE)).json()
    assert view["round"]["phase"] == "decisions"
    timers = await pool.fetch("SELECT timer_key FROM timers WHERE table_id = 't1' ORDER BY due_at")
    assert [r["timer_key"] for r in timers] == ["t1:1:decision:1:dealt", "t1:1:abandoned:2"]
    await pool.execute(_DUE_NOW)
    assert await clock.tick() == 1
    view = (await api.get("/v1/tables/t1", headers=ALICE)).json()
    # Folded on time-out: the round settled and the next one is open.
    assert view["previous_round"]["boxes"][0]["decision"] == "fold"
    assert view["round"]["phase"] == "betting"


async def test_the_stream_says_when_to_reconnect_and_keeps_alive(
    database_url: str, tmp_path: Path
) -> None:
    settings = await fresh_settings(
        database_url, tmp_path, clock=False, rate_limit=0, stream_keepalive_s=0.2
    )
    app = create_app(settings)
    async with serving(app) as url, httpx.AsyncClient(base_url=url, timeout=10) as api:
        await setup_table(api)
        lines: list[str] = []
        async with api.stream("GET", "/v1/tables/t1/stream", headers=ALICE) as r:
            async for line in r.aiter_lines():
                lines.append(line)
                if line == ": keep-alive":
                    break
    # Before the first state: the reconnection delay (and a comment, never an event).
    first = lines.index(next(x for x in lines if x.startswith("data:")))
    assert "retry: 3000" in lines[:first]
    assert not any(line.startswith("event:") for line in lines[: lines.index("retry: 3000")])
    # Then, the table being quiet: a comment line on the wire, not an event.
    assert lines.index(": keep-alive") > first
    assert not any(line.startswith("event:") for line in lines[first + 1 :])
