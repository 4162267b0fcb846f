"""Load over HTTP against real service processes: bot players, live-stream watchers, and a
journal of every request and what came back.

Each bot player reads its own view of the table (``GET /v1/tables/{id}``) and sends the next
legal move with a fresh ``Idempotency-Key``: sit down, bet (sometimes a bonus or a dark box),
ask for the deal, then play, fold, buy a card, exchange, insure, ask for or decline the dealer
draw. Several players share a table and act at once, so commands race. Requests go to the
instances in turn. When a request gets no answer (the instance died, the connection was
reset) or a 503, the player sends the **same** command with the **same** key again (to the
next instance), as a real client must; whatever the outcome, the journal keeps each attempt.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import httpx

from russian_poker.service.application.idempotency import player_command_id
from tests.processes import token_headers

__all__ = [
    "Attempt",
    "Journal",
    "Player",
    "Watcher",
    "open_casino",
    "play",
]

OPERATOR = token_headers("operator", "op")
START_BALANCE = 1_000_000


@dataclass
class Attempt:
    """One HTTP request and its outcome (``status`` is None when no response came)."""

    method: str
    path: str
    instance: str
    sent_at: float
    player: str | None = None
    key: str | None = None
    body: dict[str, Any] | None = None
    status: int | None = None
    error: str | None = None
    retry_after: str | None = None
    problem: str | None = None
    content_type: str | None = None
    duplicate: bool = False
    answered_at: float | None = None

    @property
    def command_id(self) -> str | None:
        if not (self.key and self.player):
            return None
        table_id = self.path.split("/")[3]  # /v1/tables/{table_id}/commands
        return player_command_id(table_id, self.player, self.key)


@dataclass
class Journal:
    attempts: list[Attempt] = field(default_factory=list)
    acknowledged: dict[str, Attempt] = field(default_factory=dict)
    """Command id → the first 2xx answer it got."""

    def record(self, attempt: Attempt) -> None:
        self.attempts.append(attempt)
        command_id = attempt.command_id
        if (
            command_id
            and attempt.status is not None
            and 200 <= attempt.status < 300
            and command_id not in self.acknowledged
        ):
            self.acknowledged[command_id] = attempt

    def statuses(self) -> Counter[int | str]:
        return Counter(a.status if a.status is not None else a.error or "?" for a in self.attempts)

    def problems(self) -> Counter[str]:
        """Refusals by problem type (``/problems/...``)."""
        return Counter(a.problem for a in self.attempts if a.problem)

    def server_errors(self) -> list[Attempt]:
        """Every 5xx except a clean 503: a problem+json body with ``Retry-After``."""
        return [
            a
            for a in self.attempts
            if a.status is not None
            and a.status >= 500
            and not (
                a.status == 503
                and a.retry_after
                and (a.content_type or "").startswith("application/problem+json")
            )
        ]

    def unavailable(self) -> list[Attempt]:
        return [a for a in self.attempts if a.status == 503]

    def unanswered(self) -> list[Attempt]:
        return [a for a in self.attempts if a.status is None]

    def commands(self) -> int:
        """Distinct commands sent (retries of one key count once)."""
        return len({a.command_id for a in self.attempts if a.command_id})


class Endpoints:
    """The instances a client talks to, in turn."""

    def __init__(self, urls: Sequence[str], start: int = 0) -> None:
        self.urls = list(urls)
        self._turn = itertools.count(start)

    def next(self) -> str:
        return self.urls[next(self._turn) % len(self.urls)]


class Player:
    def __init__(
        self,
        name: str,
        table_id: str,
        urls: Sequence[str],
        client: httpx.AsyncClient,
        journal: Journal,
        seed: int,
        *,
        patience: float = 120.0,
        headers: dict[str, str] | None = None,
    ) -> None:
        """``name`` is the player's id at the table; ``headers`` their authorization (by
        default a token of the default operator's player ``name``; a seamless operator's
        player brings their session's)."""
        self.name = name
        self.table_id = table_id
        self.endpoints = Endpoints(urls, seed)
        self.client = client
        self.journal = journal
        self.rng = random.Random(seed)
        self.headers = headers or token_headers("player", name)
        self.patience = patience
        self.keys = itertools.count(1)
        self.sent = 0
        self.last_round: int | None = None
        """Set while playing: finish this round, then stop (a graceful end of a long run)."""

    async def request(
        self, method: str, path: str, body: dict[str, Any] | None = None, key: str | None = None
    ) -> httpx.Response:
        """Send until an answer other than 503 comes (the same key every time)."""
        headers = dict(self.headers)
        if key is not None:
            headers["Idempotency-Key"] = key
        deadline = time.monotonic() + self.patience
        while True:
            attempt = Attempt(
                method=method,
                path=path,
                instance=self.endpoints.next(),
                sent_at=time.monotonic(),
                player=self.name,
                key=key,
                body=body,
            )
            try:
                response = await self.client.request(
                    method, attempt.instance + path, json=body, headers=headers
                )
            except httpx.TransportError as error:
                attempt.error = type(error).__name__
                self.journal.record(attempt)
                if time.monotonic() > deadline:
                    raise
                await asyncio.sleep(0.1)
                continue
            describe(attempt, response)
            self.journal.record(attempt)
            if response.status_code == 503 and time.monotonic() < deadline:
                await asyncio.sleep(0.1)
                continue
            return response

    async def view(self) -> dict[str, Any]:
        response = await self.request("GET", f"/v1/tables/{self.table_id}")
        assert response.status_code == 200, response.text
        view: dict[str, Any] = response.json()
        return view

    async def command(self, body: dict[str, Any]) -> httpx.Response:
        self.sent += 1
        key = f"{self.table_id}-{next(self.keys)}"
        return await self.request("POST", f"/v1/tables/{self.table_id}/commands", body, key)

    async def run(self, rounds: int) -> None:
        """Play until the table has settled ``rounds`` rounds (or :attr:`last_round`)."""
        while True:
            view = await self.view()
            current = view["round"]
            last = rounds if self.last_round is None else min(rounds, self.last_round)
            # A bet can land in the round after the last (the command names no round, and the
            # view it was chosen on may be older): that round is played to its end too.
            staked = current is not None and any(b["player"] == self.name for b in current["boxes"])
            if current is None or (current["number"] > last and not staked):
                return
            move = self.move(view)
            if move is None:
                await asyncio.sleep(0.02)
                continue
            await self.command(move)

    def move(self, view: dict[str, Any]) -> dict[str, Any] | None:
        rng = self.rng
        rules = view["ruleset"]
        current = view["round"]
        if self.name not in view["seats"]:
            return {"type": "SitDown"}
        mine = [b for b in current["boxes"] if b["player"] == self.name]
        if current["phase"] == "betting":
            if not mine:
                if not view["free_boxes"]:
                    return None
                bet: dict[str, Any] = {
                    "type": "PlaceAnte",
                    "box": rng.choice(view["free_boxes"]),
                    "ante": rules["ante_min"] * rng.choice((1, 1, 2, 3)),
                }
                if rules["bonus_enabled"] and rng.random() < 0.3:
                    bet["bonus"] = rules["bonus_min"]
                if rng.random() < 0.15:
                    bet["dark"] = True
                if rules.get("player_seeds"):
                    bet["client_seed"] = f"{self.name}-{current['number']}-{rng.random():.6f}"
                return bet
            if self.name not in current["ready"]:
                return {"type": "Deal"}
            return None
        for box in mine:
            actions = box["actions"]
            if not actions:
                continue
            number = box["box"]
            if "RequestDealerExchange" in actions:
                kind = rng.choice(("RequestDealerExchange", "DeclineDealerExchange"))
                return {"type": kind, "box": number}
            roll = rng.random()
            if "BuyCard" in actions and roll < 0.12:
                return {"type": "BuyCard", "box": number}
            if "Exchange" in actions and roll < 0.25 and box["cards"]:
                most = min(2, rules["max_exchange_cards"])
                cards = rng.sample(box["cards"], rng.randint(1, most))
                return {"type": "Exchange", "box": number, "cards": cards}
            if "Insure" in actions and box["insurance_range"] and roll < 0.5:
                return {"type": "Insure", "box": number, "amount": box["insurance_range"][0]}
            if "Fold" in actions and roll < 0.35:
                return {"type": "Fold", "box": number}
            if "Play" in actions:
                return {"type": "Play", "box": number}
        return None


def describe(attempt: Attempt, response: httpx.Response) -> None:
    attempt.answered_at = time.monotonic()
    attempt.status = response.status_code
    attempt.retry_after = response.headers.get("retry-after")
    attempt.content_type = response.headers.get("content-type")
    if attempt.content_type and attempt.content_type.startswith("application/problem+json"):
        attempt.problem = response.json().get("type")
    elif response.status_code == 200 and attempt.key:
        attempt.duplicate = bool(response.json().get("duplicate"))


async def open_casino(
    url: str,
    client: httpx.AsyncClient,
    tables: dict[str, tuple[str, ...]],
    *,
    overrides: dict[str, Any] | None = None,
) -> None:
    """Wallets for every player (funded) and the tables, through the operator's API."""
    players = sorted({p for names in tables.values() for p in names})
    for name in players:
        r = await client.post(f"{url}/v1/wallets", json={"wallet_id": name}, headers=OPERATOR)
        assert r.status_code == 201, r.text
        r = await client.post(
            f"{url}/v1/wallets/{name}/deposits",
            json={"transfer_id": f"start-{name}", "amount": START_BALANCE},
            headers=OPERATOR,
        )
        assert r.status_code == 200, r.text
    for index, table_id in enumerate(tables):
        preset = ("russian", "oasis", "russian-online")[index % 3]
        body = {"table_id": table_id, "preset": preset, "overrides": overrides or {}}
        r = await client.post(f"{url}/v1/tables", json=body, headers=OPERATOR)
        assert r.status_code == 201, r.text


def tables_of(count: int, players: int, prefix: str = "t") -> dict[str, tuple[str, ...]]:
    return {f"{prefix}{i}": tuple(f"{prefix}{i}p{j}" for j in range(players)) for i in range(count)}


async def play(
    urls: Sequence[str],
    client: httpx.AsyncClient,
    journal: Journal,
    tables: dict[str, tuple[str, ...]],
    rounds: int,
    *,
    seed: int = 1,
) -> list[Player]:
    """Every player of every table at once, until each table settled ``rounds`` rounds."""
    players = [
        Player(name, table_id, urls, client, journal, seed * 1000 + 10 * t + i)
        for t, (table_id, names) in enumerate(tables.items())
        for i, name in enumerate(names)
    ]
    await asyncio.gather(*(p.run(rounds) for p in players))
    return players


class Watcher:
    """A live-stream (SSE) client of one table, preferring one instance; when its stream
    ends or breaks it reconnects (to the next instance) with ``Last-Event-ID``."""

    def __init__(
        self,
        table_id: str,
        urls: Sequence[str],
        client: httpx.AsyncClient,
        headers: dict[str, str] | None = None,
    ) -> None:
        self.table_id = table_id
        self.urls = list(urls)
        self.client = client
        self.headers = headers or OPERATOR
        self.versions: list[int] = []
        self.kinds: Counter[str] = Counter()
        self.mismatched: list[tuple[int, int]] = []
        """(id, data.version) pairs that disagree."""
        self.connections: list[tuple[str, str]] = []
        """(instance, how the stream ended: ``end``, ``status N`` or an error name)."""
        self.opened = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    @property
    def last(self) -> int:
        return self.versions[-1] if self.versions else -1

    async def _run(self) -> None:
        for turn in itertools.count():
            url = self.urls[turn % len(self.urls)]
            headers = dict(self.headers)
            if self.versions:
                headers["Last-Event-ID"] = str(self.versions[-1])
            outcome = "end"
            try:
                await self._stream(url, headers)
            except httpx.TransportError as error:
                outcome = type(error).__name__
            except _Refused as refused:
                outcome = str(refused)
            self.connections.append((url, outcome))
            await asyncio.sleep(0.05)

    async def _stream(self, url: str, headers: dict[str, str]) -> None:
        timeout = httpx.Timeout(10.0, read=None)
        path = f"{url}/v1/tables/{self.table_id}/stream"
        async with self.client.stream("GET", path, headers=headers, timeout=timeout) as response:
            if response.status_code != 200:
                raise _Refused(f"status {response.status_code}")
            fields: dict[str, str] = {}
            async for line in response.aiter_lines():
                if line:
                    name, _, value = line.partition(":")
                    fields[name] = value.strip()
                    continue
                if "data" in fields:
                    ident = int(fields["id"])
                    self.kinds[fields.get("event", "message")] += 1
                    version = json.loads(fields["data"])["version"]
                    if version != ident:
                        self.mismatched.append((ident, version))
                    self.versions.append(ident)
                    self.opened.set()
                fields = {}


class _Refused(Exception):
    pass
