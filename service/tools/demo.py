"""``russian-poker demo``: bot players play rounds through the HTTP API of a running service.

A newcomer runs ``serve`` and then ``demo`` and sees tables, wallets, rounds and reports
fill up, all through the same API a casino frontend uses. The bots' choices come from
``random.Random(seed)``: per table, one stream for the bets (how many bots, stakes, bonus
bets, dark boxes, repeats) and one for decisions, so a seed places the same bets whatever
order the concurrent tables run in and whatever cards the service's own shuffle deals.
Table and player ids carry a per-run id, so runs never collide; every deposit's transfer id
is derived from the seed and the player.
"""

from __future__ import annotations

import asyncio
import random
import secrets
import time
from collections.abc import Callable, Sequence
from typing import Any, Final

import click
import httpx
import msgspec

from russian_poker.service.rules.cards import rank_of
from russian_poker.service.rules.hands import Category, evaluate
from russian_poker.service.settings import ConfigurationError, load_settings
from russian_poker.service.tokens import Role, mint_token

__all__ = ["DemoError", "DemoSummary", "TableResult", "choose", "demo", "run_demo"]

PRESETS: Final = ("russian", "russian-online", "oasis")
NAMES: Final = ("ann", "boris", "chen")
ANTES: Final = (100, 200, 500)
DEPOSIT: Final = 200_000
TOP_UP_BELOW: Final = 40_000
"""A bot tops up before a round when its balance falls below this: enough for the worst
round it can bet (a 500 ante, dark box, draw fee and the largest insurance)."""
_RETRIES: Final = 5

Json = dict[str, Any]
Echo = Callable[[str], None]


class DemoError(Exception):
    """The service answered something the bots did not expect."""


class TableResult(msgspec.Struct, kw_only=True):
    table_id: str
    preset: str
    players: list[str]
    rounds: int = 0
    staked: int = 0
    paid_back: int = 0
    error: str | None = None

    @property
    def house_result(self) -> int:
        return self.staked - self.paid_back


class DemoSummary(msgspec.Struct, kw_only=True):
    run: str
    seed: int
    tables: list[TableResult]
    deposited: int

    @property
    def staked(self) -> int:
        return sum(t.staked for t in self.tables)

    @property
    def paid_back(self) -> int:
        return sum(t.paid_back for t in self.tables)

    @property
    def house_result(self) -> int:
        return self.staked - self.paid_back

    @property
    def errors(self) -> list[str]:
        return [f"{t.table_id}: {t.error}" for t in self.tables if t.error]


class _Api:
    """The service over HTTP with tokens minted from the service's own secret."""

    def __init__(self, client: httpx.AsyncClient, secret: str, ttl_s: int) -> None:
        self._client = client
        self._secret = secret
        self._ttl_s = ttl_s
        self._tokens: dict[tuple[str, str], tuple[str, float]] = {}

    def _headers(self, role: Role, subject: str) -> dict[str, str]:
        cached = self._tokens.get((role, subject))
        # Re-minted well before expiry, so a long demo never sends an expired token. (Not
        # "minted at 0.0": the monotonic clock may be younger than a token's half-life.)
        if cached is None or time.monotonic() - cached[1] > self._ttl_s / 2:
            token = mint_token(self._secret, role, subject, self._ttl_s)
            cached = (token, time.monotonic())
            self._tokens[(role, subject)] = cached
        return {"Authorization": f"Bearer {cached[0]}"}

    async def call(
        self,
        method: str,
        path: str,
        *,
        role: Role,
        subject: str,
        body: Json | None = None,
        key: str | None = None,
        params: dict[str, Any] | None = None,
        accept: Sequence[str] = (),
    ) -> Json:
        """The JSON answer; a refusal whose problem type is in ``accept`` is returned too."""
        headers = self._headers(role, subject)
        if key is not None:
            headers["Idempotency-Key"] = key
        for attempt in range(_RETRIES):
            try:
                response = await self._client.request(
                    method, path, json=body, headers=headers, params=params
                )
            except httpx.TransportError as exc:
                raise DemoError(f"{method} {path}: cannot reach the service ({exc!r})") from None
            # 429 (this bot's rate limit) and 503 (busy, or the database briefly away) say
            # when to come back; every command carries an Idempotency-Key and every deposit
            # a transfer id, so sending it again is safe.
            if response.status_code in (429, 503) and attempt + 1 < _RETRIES:
                wait = response.headers.get("Retry-After") or response.headers.get(
                    "RateLimit-Reset", "1"
                )
                await asyncio.sleep(max(float(wait), 0.1))
                continue
            break
        try:
            data: Json = response.json() if response.content else {}
        except ValueError:  # not JSON: a proxy's error page, say
            data = {}
        if response.is_success or data.get("type") in accept:
            return data
        problem = data.get("type", "")
        detail = data.get("detail", response.text[:200])
        raise DemoError(f"{method} {path} as {subject}: {response.status_code} {problem} {detail}")


class _Bot:
    def __init__(self, player: str, boxes: list[int]) -> None:
        self.player = player
        self.boxes = boxes
        self.keys = 0
        self.bet_before = False

    def key(self) -> str:
        # Unique per player across tables and runs (the player id carries the run).
        self.keys += 1
        return f"demo-{self.keys}"


class _Table:
    """One table and its bots, played a round at a time."""

    def __init__(self, api: _Api, run: str, index: int, seed: int, echo: Echo) -> None:
        self.api = api
        self.table_id = f"demo-{run}-{index + 1}"
        self.preset = PRESETS[index % len(PRESETS)]
        # Streams per table, so concurrency cannot reorder them; decisions have their own
        # because they depend on the cards, and the bets must not.
        self.rng = random.Random(f"{seed}:{index}")
        self.decisions = random.Random(f"{seed}:{index}:decisions")
        self.seed = seed
        self.echo = echo
        self.rules: Json = {}
        self.bots: list[_Bot] = []
        self.deposited = 0

    async def operator(self, method: str, path: str, **kwargs: Any) -> Json:
        return await self.api.call(method, path, role="operator", subject="demo", **kwargs)

    async def send(self, bot: _Bot, body: Json) -> Json:
        answer = await self.api.call(
            "POST",
            f"/v1/tables/{self.table_id}/commands",
            role="player",
            subject=bot.player,
            body=body,
            key=bot.key(),
        )
        table: Json = answer["table"]
        return table

    async def deposit(self, bot: _Bot, purpose: str) -> None:
        # Derived from the seed: a retried deposit is recognised, never paid twice.
        transfer = f"demo-{self.seed}-{bot.player}-{purpose}"
        await self.operator(
            "POST",
            f"/v1/wallets/{bot.player}/deposits",
            body={"transfer_id": transfer, "amount": DEPOSIT},
        )
        self.deposited += DEPOSIT

    async def open(self, index: int) -> None:
        view = await self.operator(
            "POST",
            "/v1/tables",
            body={
                "table_id": self.table_id,
                "name": f"Demo {index} ({self.preset})",
                "preset": self.preset,
            },
        )
        self.rules = view["ruleset"]
        count = self.rng.choice((2, 3))
        boxes = int(self.rules["boxes"])
        for j in range(count):
            # Each bot owns every count-th box, so repeated bets never collide.
            owned = [b for b in range(1, boxes + 1) if (b - 1) % count == j]
            bot = _Bot(f"{self.table_id}-{NAMES[j]}", owned)
            await self.operator(
                "POST",
                "/v1/wallets",
                body={"wallet_id": bot.player, "currency": self.rules["currency"]},
                accept=("/problems/wallet_exists",),
            )
            await self.deposit(bot, "start")
            await self.send(bot, {"type": "SitDown"})
            self.bots.append(bot)

    def _ante(self) -> int:
        low, high = int(self.rules["ante_min"]), int(self.rules["ante_max"])
        return min(max(self.rng.choice(ANTES), low), high)

    def _bonus(self) -> int:
        if not self.rules["bonus_enabled"] or self.rng.random() >= 0.4:
            return 0
        return int(self.rules["bonus_min"])

    async def bet(self, bot: _Bot, number: int) -> None:
        wallet = await self.api.call(
            "GET", f"/v1/wallets/{bot.player}", role="player", subject=bot.player
        )
        if wallet["balance"] < TOP_UP_BELOW:
            await self.deposit(bot, f"round-{number}")
        if bot.bet_before and self.rng.random() < 0.25:
            await self.send(bot, {"type": "RepeatBets"})
        else:
            first, *others = bot.boxes
            body = {"type": "PlaceAnte", "box": first, "ante": self._ante()}
            await self.send(bot, {**body, "bonus": self._bonus()})
            if others and self.rng.random() < 0.35:
                # A dark box: the Bet goes down with the ante and plays itself.
                dark = {"type": "PlaceAnte", "box": others[0], "ante": self._ante(), "dark": True}
                await self.send(bot, dark)
        bot.bet_before = True

    async def play_round(self, number: int, of: int) -> Json:
        for bot in self.bots:
            await self.bet(bot, number)
        for bot in self.bots:
            await self.send(bot, {"type": "Deal"})
        while True:
            acted = False
            for bot in self.bots:
                view = await self.api.call(
                    "GET", f"/v1/tables/{self.table_id}", role="player", subject=bot.player
                )
                while not _finished(view, number):
                    box = next((b for b in _boxes(view) if b["yours"] and b["actions"]), None)
                    if box is None:
                        break
                    view = await self.send(bot, choose(box, self.rules, self.decisions))
                    acted = True
                if _finished(view, number):
                    return await self.record(number, of)
            if not acted:
                raise DemoError(f"{self.table_id} round {number}: nobody can act")

    async def record(self, number: int, of: int) -> Json:
        page = await self.operator(
            "GET", "/v1/reports/rounds", params={"table_id": self.table_id, "limit": 1}
        )
        rounds: list[Json] = page["items"]
        settled = rounds[0] if rounds else {}
        if settled.get("round") != number:
            raise DemoError(f"{self.table_id} round {number} is missing from the round report")
        boxes = ", ".join(
            f"box {b['box']} {b['player'].rsplit('-', 1)[-1]} {b['hand']} "
            f"{b['outcome']} {b['paid_back'] - b['staked']:+d}"
            for b in settled["boxes"]
        )
        self.echo(
            f"{self.table_id} ({self.preset}) round {number}/{of}: dealer "
            f"{' '.join(settled['dealer_cards'])} ({settled['dealer_hand']}); {boxes}; "
            f"house {settled['house_result']:+d}"
        )
        return settled

    async def leave(self) -> None:
        for bot in self.bots:
            await self.send(bot, {"type": "LeaveTable"})


def _boxes(view: Json) -> list[Json]:
    current = view.get("round") or {}
    boxes: list[Json] = current.get("boxes", [])
    return boxes


def _finished(view: Json, number: int) -> bool:
    """Round ``number`` is settled (the next one opens in the same step)."""
    last = view.get("previous_round") or {}
    return bool(last.get("number", 0) >= number)


def choose(box: Json, rules: Json, rng: random.Random) -> Json:
    """A sensible decision for a light box from its ``actions`` (the box is the bot's own)."""
    actions: list[str] = box["actions"]
    number = box["box"]
    hand = evaluate(box["cards"])
    if "RequestDealerExchange" in actions:
        # Giving up the ante win for the dealer draw only pays with a hand that can win big.
        strong = hand.category >= Category.TWO_PAIR
        answer = "RequestDealerExchange" if strong else "DeclineDealerExchange"
        return {"type": answer, "box": number}
    if "Insure" in actions and box.get("insurance_range"):
        low, _ = box["insurance_range"]
        return {"type": "Insure", "box": number, "amount": low}
    if hand.category >= Category.AK:
        # AK or better: what the dealer needs to qualify, so worth the Bet.
        return {"type": "Play", "box": number}
    if not box["drew"]:
        if "BuyCard" in actions and ("Exchange" not in actions or rng.random() < 0.3):
            return {"type": "BuyCard", "box": number}
        if "Exchange" in actions:
            # Keep the high cards (a queen or better) and draw to the rest, lowest first.
            limit = int(rules["max_exchange_cards"])
            low_first = sorted(box["cards"], key=rank_of)
            discards = [c for c in low_first if rank_of(c) < 12][:limit] or low_first[:1]
            return {"type": "Exchange", "box": number, "cards": discards}
    return {"type": "Fold", "box": number}


async def _play_table(
    api: _Api, index: int, run: str, seed: int, rounds: int, echo: Echo
) -> tuple[TableResult, int]:
    table = _Table(api, run, index, seed, echo)
    result = TableResult(table_id=table.table_id, preset=table.preset, players=[])
    try:
        await table.open(index + 1)
        result.players = [bot.player for bot in table.bots]
        for number in range(1, rounds + 1):
            settled = await table.play_round(number, rounds)
            result.rounds += 1
            result.staked += settled["staked"]
            result.paid_back += settled["paid_back"]
        await table.leave()
    except DemoError as exc:
        result.error = str(exc)
        echo(f"{table.table_id}: {exc}")
    return result, table.deposited


async def run_demo(
    client: httpx.AsyncClient,
    secret: str,
    *,
    tables: int,
    rounds: int,
    seed: int,
    ttl_s: int = 3600,
    echo: Echo = print,
) -> DemoSummary:
    """Play ``rounds`` rounds on ``tables`` new tables concurrently; ``client`` has the
    service's base URL. Errors are collected per table in the summary, never raised."""
    run = f"{int(time.time()):x}{secrets.token_hex(2)}"
    api = _Api(client, secret, ttl_s)
    played = await asyncio.gather(
        *(_play_table(api, i, run, seed, rounds, echo) for i in range(tables))
    )
    return DemoSummary(
        run=run,
        seed=seed,
        tables=[result for result, _ in played],
        deposited=sum(deposited for _, deposited in played),
    )


def _report(summary: DemoSummary, echo: Echo) -> None:
    echo("")
    echo(
        f"{'table':<28} {'preset':<15} {'rounds':>6} {'staked':>10} {'paid back':>10} {'house':>9}"
    )
    for t in summary.tables:
        echo(
            f"{t.table_id:<28} {t.preset:<15} {t.rounds:>6} {t.staked:>10} "
            f"{t.paid_back:>10} {t.house_result:>+9}"
        )
    total = sum(t.rounds for t in summary.tables)
    echo(
        f"{'total':<28} {'':<15} {total:>6} {summary.staked:>10} "
        f"{summary.paid_back:>10} {summary.house_result:>+9}"
    )
    echo(f"seed {summary.seed}; deposited {summary.deposited} into the bots' wallets")


@click.command()
@click.option("--url", default="http://127.0.0.1:8000", show_default=True, help="The service.")
@click.option("--tables", type=click.IntRange(1, 100), required=True, help="New tables to open.")
@click.option("--rounds", type=click.IntRange(1, 10_000), required=True, help="Rounds per table.")
@click.option("--seed", type=int, default=None, help="Bots' choices; random (printed) if unset.")
def demo(url: str, tables: int, rounds: int, seed: int | None) -> None:
    """Bots play --rounds rounds on --tables new tables through a running service's API."""
    try:
        settings = load_settings()
    except ConfigurationError as exc:
        raise click.ClickException(str(exc)) from None
    if seed is None:
        seed = secrets.randbelow(1_000_000)
    click.echo(f"demo: {tables} table(s) x {rounds} round(s) on {url}, seed {seed}")

    async def main() -> DemoSummary:
        async with httpx.AsyncClient(base_url=url, timeout=30) as client:
            try:
                await client.get("/health/live")
            except httpx.TransportError:
                raise click.ClickException(
                    f"no service at {url}: start one with `russian-poker serve`"
                ) from None
            return await run_demo(
                client,
                settings.jwt_secret,
                tables=tables,
                rounds=rounds,
                seed=seed,
                ttl_s=settings.jwt_ttl_s,
                echo=click.echo,
            )

    summary = asyncio.run(main())
    _report(summary, click.echo)
    if summary.errors:
        raise click.ClickException("; ".join(summary.errors))
