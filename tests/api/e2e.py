"""The end-to-end harness: a real server, a table driven through HTTP, and an observer's stream.

``Harness`` sends every command as the client would (bearer token, Idempotency-Key) and
notes the table version each accepted command produced, so the test can check the live
stream delivered exactly those versions, in order. ``Watcher`` reads the stream as a player
with no seat (an observer); ``Harness.check_stream`` checks it saw every version and never
a card before the showdown. ``Harness.audited`` checks each round as the auditor finds
it: the regulator record, a replay, the seed reveal and the reconciliation.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Iterable, Mapping
from typing import Any

import httpx
import pytest

from russian_poker.events.postgres.timers import TimerStore
from russian_poker.service.app import create_app
from russian_poker.service.app.problems import STATUS_OF_KIND
from russian_poker.service.clock import Clock
from russian_poker.service.rules.errors import REFUSALS
from tests.api.conftest import bearer, fresh_settings
from tests.api.live_server import serving
from tests.rules.scenario import deck_for

__all__ = ["OPERATOR", "Harness", "Watcher", "deck_for", "harness"]

OPERATOR = bearer("operator", "op")


class Watcher:
    """An observer's SSE stream of one table, read in the background."""

    def __init__(self, client: httpx.AsyncClient, table_id: str, who: str) -> None:
        self._client = client
        self._table_id = table_id
        self._headers = bearer("player", who)
        self.events: list[tuple[str, int, dict[str, Any]]] = []
        self._opened = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def _read(self) -> None:
        event, ident = "message", 0
        path = f"/v1/tables/{self._table_id}/stream"
        async with self._client.stream("GET", path, headers=self._headers) as response:
            assert response.status_code == 200
            async for line in response.aiter_lines():
                if line.startswith("event:"):
                    event = line.split(":", 1)[1].strip()
                elif line.startswith("id:"):
                    ident = int(line.split(":", 1)[1])
                elif line.startswith("data:"):
                    self.events.append((event, ident, json.loads(line.split(":", 1)[1])))
                    self._opened.set()

    async def start(self) -> None:
        """Returns once the stream is live (its first state has arrived)."""
        self._task = asyncio.create_task(self._read())
        await asyncio.wait_for(self._opened.wait(), 10)

    async def stop_at(self, version: int) -> list[tuple[str, int, dict[str, Any]]]:
        """Every event up to ``version``, once it has arrived."""
        assert self._task is not None

        async def arrived() -> None:
            while not self.events or self.events[-1][1] < version:
                if self._task is not None and self._task.done():
                    self._task.result()
                await asyncio.sleep(0.02)

        await asyncio.wait_for(arrived(), 10)
        await self.stop()
        return self.events

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, httpx.HTTPError):
                await self._task


class Harness:
    """One table played over HTTP by named players; every accepted version is noted."""

    def __init__(self, client: httpx.AsyncClient, app: Any, table_id: str) -> None:
        self.client = client
        self.app = app
        self.table_id = table_id
        self.versions: list[int] = []
        self.watchers: list[Watcher] = []
        self._keys = 0

    async def watch(self, who: str) -> Watcher:
        """The table's live stream as ``who``, already open."""
        watcher = Watcher(self.client, self.table_id, who)
        self.watchers.append(watcher)
        await watcher.start()
        return watcher

    async def fund(self, deposits: Mapping[str, int]) -> None:
        for name, amount in deposits.items():
            r = await self.client.post("/v1/wallets", json={"wallet_id": name}, headers=OPERATOR)
            assert r.status_code == 201, r.text
            r = await self.client.post(
                f"/v1/wallets/{name}/deposits",
                json={"transfer_id": f"dep-{name}", "amount": amount},
                headers=OPERATOR,
            )
            assert r.json()["balance"] == amount, r.text

    async def open(self, preset: str, deck: Iterable[str], **overrides: Any) -> dict[str, Any]:
        r = await self.client.post(
            "/v1/tables",
            json={
                "table_id": self.table_id,
                "preset": preset,
                "overrides": overrides,
                "test_deck": list(deck),
            },
            headers=OPERATOR,
        )
        assert r.status_code == 201, r.text
        view: dict[str, Any] = r.json()
        self.versions.append(view["version"])
        return view

    async def next_deck(self, deck: Iterable[str]) -> None:
        """The deck of the round that opens when the current one (cards out) settles."""
        r = await self.client.put(
            f"/v1/tables/{self.table_id}/test-deck", json={"cards": list(deck)}, headers=OPERATOR
        )
        assert r.status_code == 200, r.text
        assert r.json()["applies_to"] == "next", r.text

    async def post(self, player: str, body: dict[str, Any], key: str | None = None) -> Any:
        if key is None:
            self._keys += 1
            key = f"{self.table_id}-{self._keys}"
        return await self.client.post(
            f"/v1/tables/{self.table_id}/commands",
            json=body,
            headers={**bearer("player", player), "Idempotency-Key": key},
        )

    async def send(self, player: str, kind: str, **fields: Any) -> dict[str, Any]:
        """Send a command; returns the player's own view of the table after it."""
        r = await self.post(player, {"type": kind, **fields})
        assert r.status_code == 200, r.text
        answer = r.json()
        assert answer["duplicate"] is False
        self.versions.append(answer["version"])
        table: dict[str, Any] = answer["table"]
        return table

    async def refused(self, player: str, code: str, kind: str, **fields: Any) -> None:
        r = await self.post(player, {"type": kind, **fields})
        assert r.status_code == STATUS_OF_KIND[REFUSALS[code][0]], r.text
        assert r.headers["content-type"].startswith("application/problem+json")
        assert r.json()["type"] == f"/problems/{code}", r.text

    async def view(self, who: str | None = None) -> dict[str, Any]:
        headers = bearer("player", who) if who else OPERATOR
        r = await self.client.get(f"/v1/tables/{self.table_id}", headers=headers)
        assert r.status_code == 200, r.text
        view: dict[str, Any] = r.json()
        return view

    async def box(self, player: str, number: int) -> dict[str, Any]:
        """Box ``number`` of the current round, as ``player`` sees it."""
        view = await self.view(player)
        return next(b for b in view["round"]["boxes"] if b["box"] == number)

    async def timers(self) -> list[str]:
        """The table's pending time-outs, but the interrupted-round timer (always pending
        while stakes are on the table, and far later than these: tests/abandoned/)."""
        rows = await self.app.state.services.pool.fetch(
            "SELECT timer_key FROM timers WHERE table_id = $1"
            " AND timer_key NOT LIKE '%:abandoned:%' ORDER BY timer_key",
            self.table_id,
        )
        return [r["timer_key"] for r in rows]

    async def time_out(self, *expected: str) -> None:
        """Make the pending timers (exactly ``expected``) due and let the clock send them."""
        assert await self.timers() == sorted(f"{self.table_id}:{k}" for k in expected)
        pool = self.app.state.services.pool
        await pool.execute(
            "UPDATE timers SET due_at = now() - interval '1 second' WHERE table_id = $1"
            " AND timer_key NOT LIKE '%:abandoned:%'",
            self.table_id,
        )
        clock = Clock(TimerStore(pool), self.app.state.services.commands)
        assert await clock.tick() == len(expected)
        self.versions.append((await self.view())["version"])

    async def balances(self, expected: Mapping[str, int]) -> None:
        for name, balance in expected.items():
            r = await self.client.get(f"/v1/wallets/{name}", headers=OPERATOR)
            assert r.json()["balance"] == balance, f"{name}: {r.json()['balance']} != {balance}"

    async def report(self) -> list[dict[str, Any]]:
        """The operator's round report for this table, oldest round first."""
        r = await self.client.get(
            "/v1/reports/rounds", params={"table_id": self.table_id}, headers=OPERATOR
        )
        assert r.status_code == 200, r.text
        return list(reversed(r.json()["items"]))

    async def recall(self, player: str) -> list[dict[str, Any]]:
        """The player's game recall (their own boxes only), oldest round first."""
        r = await self.client.get(f"/v1/players/{player}/rounds", headers=bearer("player", player))
        assert r.status_code == 200, r.text
        return list(reversed(r.json()["items"]))

    async def audited(self, rounds: list[tuple[int, Mapping[str, int]]]) -> None:
        """The auditor's view of each settled round, oldest first, as ``(house result,
        {player: balance after the round})``: the regulator record's wallet movements and
        totals, a replay that reproduces the round, the seed reveal, and books that balance."""
        auditor = bearer("auditor", "aud")
        for number, (house, after) in enumerate(rounds, start=1):
            path = f"/v1/audit/rounds/{self.table_id}/{number}"

            async def recorded(path: str = path) -> dict[str, Any]:
                # The audit projection runs behind the command path: wait for it.
                while True:
                    r = await self.client.get(path, headers=auditor)
                    if r.status_code == 200 and r.json()["seed"] is not None:
                        found: dict[str, Any] = r.json()
                        return found
                    assert r.status_code in (200, 404), r.text
                    await asyncio.sleep(0.05)

            record = (await asyncio.wait_for(recorded(), 10))["record"]
            assert record["totals"]["house"] == house, number
            moved = {w: m["after"] for w, m in record["wallets"].items()}
            assert moved == dict(after), number
            r = await self.client.post(
                "/v1/audit/replay",
                json={"table_id": self.table_id, "round": number},
                headers=auditor,
            )
            replay = r.json()
            assert (replay["rounds"], replay["verified"], replay["differences"]) == (1, 1, [])
            r = await self.client.get(f"{path}/seed", headers=auditor)
            assert r.json()["verified"] is True
        r = await self.client.get("/v1/audit/reconciliation", headers=auditor)
        assert r.json()["mismatches"] == [], r.text

    def check_stream(
        self,
        events: list[tuple[str, int, dict[str, Any]]],
        hidden: Mapping[int, set[str]],
        *,
        box_cards_public: bool = False,
    ) -> None:
        """The observer saw every accepted version exactly once, in order, and never a card
        before its time: ``hidden[n]`` are round ``n``'s cards no observer may see before
        the dealer's reveal (the dealer's hole cards, and box cards unless public)."""
        assert [kind for kind, _, _ in events] == ["table"] * len(events)
        assert [ident for _, ident, _ in events] == self.versions
        assert [data["version"] for _, _, data in events] == self.versions
        for _, _, data in events:
            assert data["viewer"]["role"] == "observer"
            for shown in (data["round"], data["previous_round"]):
                if shown is None:
                    continue
                settled = shown["phase"] == "settled"
                revealed = shown["dealer"]["qualifies"] is not None or settled
                assert settled or shown["seed"] is None
                if revealed:
                    continue
                assert shown["dealer"]["cards"] is None
                assert all(b["actions"] == [] for b in shown["boxes"])
                if not box_cards_public:
                    assert all(b["cards"] is None for b in shown["boxes"])
            current = data["round"]
            if current and current["dealer"]["qualifies"] is None:
                text = json.dumps(current)
                leaked = {c for c in hidden.get(current["number"], set()) if f'"{c}"' in text}
                assert not leaked, f"version {data['version']} shows {leaked}"


@pytest.fixture
async def harness(database_url: str, tmp_path: Any) -> AsyncIterator[Harness]:
    """A real server (test mode, its own clock off: tests tick it) and a table harness."""
    app = create_app(await fresh_settings(database_url, tmp_path, clock=False))
    async with serving(app) as url, httpx.AsyncClient(base_url=url, timeout=10) as client:
        played = Harness(client, app, "t1")
        try:
            yield played
        finally:
            for watcher in played.watchers:
                await watcher.stop()
