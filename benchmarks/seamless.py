"""The operator kinds of the HTTP load benchmark (``benchmarks/load.py --wallet ...``).

These kinds play the same game as ``service`` (the default operator, dev tokens, wallets
funded by deposits) but as a registered operator's players with launched sessions:

- **seamless**: an operator registered (admin token) with a ``seamless`` wallet at the
  reference operator wallet (``python -m russian_poker.service.tools.reference_wallet``), a separate
  process on loopback with its own database; each player is created there with a big balance
  (``PUT /_admin/players/{id}``), launched with ``POST /v1/sessions`` and plays with the
  session token. Every bet is an HTTP call to that wallet on the command's path; every win
  is delivered by the service's outbox, off the path.
- **memory**: the same protocol against :class:`MemoryWallet`, an operator wallet that
  keeps its ledger in memory (signatures checked both ways, idempotent by transaction id,
  balances in a dict, no database): a wallet that answers almost at once, so what is left
  of the difference to ``service`` is the game's own cost of the seamless path.
- **sessions**: an ``internal`` operator (wallets at the game, funded by deposits): what
  launched sessions and tenancy cost without a remote wallet, so the seamless figures can
  be split into "sessions" and "wallet".

This module holds what those kinds need beside the generator of ``load.py``: the wallet
processes, the setup through the API, a probe that times bare wallet round trips during
the window, and the figures read back from ``wallet_transactions`` and the wallet's own
deliveries.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

import msgspec

__all__ = [
    "DEBITING",
    "OPERATOR_KINDS",
    "SEAMLESS_KINDS",
    "WALLET_SECRET",
    "Launched",
    "MemoryWallet",
    "WalletServer",
    "create_memory_wallet",
    "drain",
    "probe_wallet",
    "setup_operator",
    "start_wallet",
    "wallet_figures",
    "wallet_timings",
]

ROOT: Final = Path(__file__).resolve().parent.parent
WALLET_SECRET: Final = "load-benchmark-wallet-secret-" + "w" * 32
OPERATOR_KINDS: Final = {
    "sessions": "bench-internal",
    "seamless": "bench-seamless",
    "memory": "bench-memory",
    "memory-baseline": "bench-memory",
}
"""Kind → the operator its players belong to."""
SEAMLESS_KINDS: Final = frozenset({"seamless", "memory", "memory-baseline"})
"""The kinds whose operator's wallet is seamless (a wallet process of their own)."""
DEBITING: Final = frozenset({"PlaceAnte", "Play", "BuyCard"})
"""The generator's commands that debit (one ``bet`` each, two for an ante with a bonus)."""
CURRENCY: Final = "EUR"
PROBE_PLAYER: Final = "probe"
UNKNOWN_BALANCE: Final = 10**12
"""What :class:`MemoryWallet` holds for a player it was not told about."""
PROBE_EVERY_S: Final = 0.05
"""The probe's bets are sequential, one per 50 ms: about 20 calls/s beside the load's."""


# -- the reference wallet process -------------------------------------------------------


@dataclass
class WalletServer:
    process: subprocess.Popen[bytes]
    base_url: str
    log: Path

    @property
    def url(self) -> str:
        """The operator's wallet URL as registered: calls go to ``{url}/{call}``."""
        return f"{self.base_url}/wallet"

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def start_wallet(database_url: str | None, port: int, logs: Path) -> WalletServer:
    """On loopback, ready when ``/_admin/ready`` is: ``python -m
    russian_poker.service.tools.reference_wallet`` on ``database_url``, or (``None``) the in-memory
    :class:`MemoryWallet` on uvicorn."""
    argv = (
        [sys.executable, "-m", "russian_poker.service.tools.reference_wallet",
         "--host", "127.0.0.1", "--port", str(port), "--database-url", database_url,
         "--log-level", "warning"]
        if database_url
        else [sys.executable, "-m", "uvicorn", "benchmarks.seamless:create_memory_wallet",
              "--factory", "--host", "127.0.0.1", "--port", str(port), "--no-access-log",
              "--log-level", "warning", "--app-dir", str(ROOT)]
    )  # fmt: skip
    # The secret through the environment (REFERENCE_WALLET_SECRET): ps shows argv.
    env = {key: value for key, value in os.environ.items() if not key.startswith("RUSSIAN_POKER_")}
    env.update(REFERENCE_WALLET_SECRET=WALLET_SECRET, PYTHONPATH=str(ROOT))
    log = logs / f"wallet-{port}.log"
    with log.open("ab") as sink:
        process = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=sink, stderr=subprocess.STDOUT)
    server = WalletServer(process, f"http://127.0.0.1:{port}", log)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"reference wallet exited: {log.read_text()[-2000:]}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
            if _get_ok(f"{server.base_url}/_admin/ready"):
                return server
        time.sleep(0.1)
    server.stop()
    raise RuntimeError(f"reference wallet did not start: {log.read_text()[-2000:]}")


def _get_ok(url: str) -> bool:
    import urllib.request

    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return bool(response.status == 200)
    except OSError:
        return False


# -- setup through the API (in the generator, not measured) -----------------------------


@dataclass(frozen=True)
class Launched:
    """A launched session's player: the game's id for them and the session token."""

    game_id: str
    token: str


async def _ok(response: Any, *statuses: int) -> Any:
    if response.status not in statuses:
        raise RuntimeError(f"{response.method} {response.url}: {response.status} "
                           f"{(await response.text())[:500]}")  # fmt: skip
    return await response.json() if response.content_type == "application/json" else None


async def setup_operator(
    session: Any, config: dict[str, Any], players: list[str], jwt_secret: str
) -> dict[str, Launched]:
    """Register the kind's operator (or update it: the wallet's port is the run's), create
    and fund its players (at the reference wallet, or in the game's internal wallets),
    launch a session for each, and open the tables as the operator's."""
    import aiohttp

    from russian_poker.service.app.auth import mint_token

    kind: str = config["kind"]
    operator_id = OPERATOR_KINDS[kind]
    admin = {"Authorization": f"Bearer {mint_token(jwt_secret, 'admin', 'load', 7200)}"}
    staff = mint_token(jwt_secret, "operator", "load", 7200, operator=operator_id)
    operator = {"Authorization": f"Bearer {staff}"}
    wallet: dict[str, Any] = (
        {"mode": "seamless", "url": config["wallet_url"], "secret": WALLET_SECRET,
         "timeout_ms": config["wallet_timeout_ms"]}
        if kind in SEAMLESS_KINDS else {"mode": "internal"}
    )  # fmt: skip
    body = {"operator_id": operator_id, "name": operator_id, "currencies": [CURRENCY],
            "wallet": wallet}  # fmt: skip
    async with session.post("/v1/operators", json=body, headers=admin) as response:
        if response.status == 409:
            async with session.put(
                f"/v1/operators/{operator_id}", json=body, headers=admin
            ) as again:
                await _ok(again, 200)
        else:
            await _ok(response, 201)
    if kind in SEAMLESS_KINDS:
        async with aiohttp.ClientSession(config["wallet_base"]) as bank:
            for player in [*players, PROBE_PLAYER]:
                account = {"currency": CURRENCY, "balance": config["deposit"]}
                async with bank.put(f"/_admin/players/{player}", json=account) as response:
                    await _ok(response, 200)
    else:
        for player in players:
            async with session.post(
                "/v1/wallets", json={"wallet_id": player, "currency": CURRENCY}, headers=operator
            ) as response:
                await _ok(response, 201, 409)
            transfer = {"transfer_id": f"{config['prefix']}-{player}", "amount": config["deposit"]}
            async with session.post(
                f"/v1/wallets/{player}/deposits", json=transfer, headers=operator
            ) as response:
                await _ok(response, 200)
    launched = {}
    for player in players:
        async with session.post(
            "/v1/sessions", json={"player_id": player, "currency": CURRENCY}, headers=operator
        ) as response:
            answer = await _ok(response, 201)
        launched[player] = Launched(answer["game_player_id"], answer["session_token"])
    opened = []
    for table_id in config["table_ids"]:
        body = {"table_id": table_id, "preset": "russian", "overrides": {"max_payout": 500_000}}
        async with session.post("/v1/tables", json=body, headers=operator) as response:
            # An operator's table is named in its own namespace (`operator.table`).
            opened.append((await _ok(response, 201))["table_id"])
    config["table_ids"] = opened
    return launched


# -- the probe: bare wallet round trips under the same load ----------------------------


async def probe_wallet(
    wallet_base: str, operator_id: str, window: tuple[float, float], prefix: str
) -> list[float]:
    """Signed ``bet`` calls straight to the wallet, one at a time, one per
    :data:`PROBE_EVERY_S`, during ``window`` (``perf_counter``): what one wallet round trip
    costs on loopback while the service is loaded, apart from the service's own client."""
    import aiohttp

    from russian_poker.service.wallet.protocol import BetCall
    from russian_poker.service.wallet.signing import HEADER, sign

    encoder = msgspec.json.Encoder()
    seconds: list[float] = []
    async with aiohttp.ClientSession(wallet_base) as bank:
        await asyncio.sleep(max(0.0, window[0] - time.perf_counter()))
        n = 0
        while time.perf_counter() < window[1]:
            n += 1
            call = BetCall(
                request_id=uuid.uuid4().hex, operator_id=operator_id, player_id=PROBE_PLAYER,
                session_id=f"{prefix}-probe", currency=CURRENCY,
                transaction_id=f"probe-{prefix}-{n}", amount=1, round_id=f"probe:{n}",
                table_id="probe", box=1, reason="ante",
            )  # fmt: skip
            body = encoder.encode(call)
            headers = {"content-type": "application/json", HEADER: sign(WALLET_SECRET, body)}
            started = time.perf_counter()
            async with bank.post("/wallet/bet", data=body, headers=headers) as response:
                payload = await response.read()
                status = response.status
            elapsed = time.perf_counter() - started
            if status != 200 or b'"ok"' not in payload:
                raise RuntimeError(f"probe bet: {status} {payload[:300]!r}")
            seconds.append(elapsed)
            await asyncio.sleep(max(0.0, PROBE_EVERY_S - elapsed))
    return seconds


# -- figures read back after the window -------------------------------------------------


_OWED: Final = (
    "SELECT count(*) FROM wallet_transactions WHERE status IN ('queued', 'pending', 'accepted')"
)


async def drain(database: str, timeout_s: float = 60.0) -> tuple[float, int]:
    """Wait until the outbox owes nothing (so no leftover is delivered during the next
    measurement), at most ``timeout_s``; returns how long that took and what is still owed.
    (The service's clock may still settle abandoned rounds later, in another measurement:
    their wins then go to that measurement's wallet.)"""
    import asyncpg

    started = time.monotonic()
    conn = await asyncpg.connect(database)
    try:
        while owed := await conn.fetchval(_OWED):
            if time.monotonic() - started > timeout_s:
                return time.monotonic() - started, int(owed)
            await asyncio.sleep(0.1)
    finally:
        await conn.close()
    return time.monotonic() - started, 0


def wallet_timings(wallet_base: str) -> dict[str, list[float]]:
    """When the in-memory wallet received and answered each bet (wall clock, by
    transaction id); empty for a wallet that does not keep them (the reference one)."""
    import json
    import urllib.request

    try:
        with urllib.request.urlopen(f"{wallet_base}/_admin/timings", timeout=30) as response:
            timings: dict[str, list[float]] = json.loads(response.read())
    except OSError:
        return {}
    return timings


_SINGLE_BETS: Final = """
SELECT transaction_id, extract(epoch FROM created_at)::float8 AS intent,
       extract(epoch FROM updated_at)::float8 AS appended
FROM wallet_transactions w
WHERE kind = 'bet' AND status = 'committed' AND created_at >= $1 AND created_at < $2
  AND NOT EXISTS (SELECT FROM wallet_transactions o
                  WHERE o.attempt_id = w.attempt_id AND o.transaction_id <> w.transaction_id)
"""


def _split(
    bets: list[Any], received: dict[str, float], answered: dict[str, float]
) -> dict[str, float]:
    """Where a one-bet command's time between its intent and its append goes: to the
    wallet's door (the intent's statement, the service's client, the loopback), in the
    wallet, and back to the append (the answer's way, the service resuming the command)."""
    out, inside, back, rest = [], [], [], []
    for bet in bets:
        got = received.get(bet["transaction_id"])
        if got is None:
            continue
        out.append(got - bet["intent"])
        done = answered.get(bet["transaction_id"])
        if done is not None:
            inside.append(done - got)
            back.append(bet["appended"] - done)
        else:
            rest.append(bet["appended"] - got)
    figures = {}
    for name, values in (("out", out), ("wallet", inside), ("back", back), ("rest", rest)):
        if values:
            values.sort()
            figures[f"split_{name}_p50_ms"] = values[len(values) // 2] * 1000
    return figures


async def wallet_figures(
    database: str,
    wallet_database: str | None,
    window: list[float],
    commands: int,
    timings: dict[str, list[float]] | None = None,
) -> dict[str, Any]:
    """Money calls of the window from the game's ``wallet_transactions`` (bets by status,
    wins and rollbacks queued, the wins' delivery delay, the outbox's backlog at the
    window's end), for a seamless operator the calls the wallet received, and where the
    time of a one-bet command's bet goes (with the wallet's ``timings`` or its own record
    of deliveries)."""
    import asyncpg

    start, end = (datetime.fromtimestamp(t, UTC) for t in window)
    conn = await asyncpg.connect(database)
    try:
        rows = await conn.fetch(
            "SELECT kind, status, count(*) AS n, count(DISTINCT attempt_id) AS attempts"
            " FROM wallet_transactions WHERE created_at >= $1 AND created_at < $2"
            " GROUP BY kind, status",
            start,
            end,
        )
        delay = await conn.fetchrow(
            "SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY d) AS p50,"
            " percentile_cont(0.99) WITHIN GROUP (ORDER BY d) AS p99 FROM ("
            "  SELECT extract(epoch FROM updated_at - created_at) * 1000 AS d"
            "  FROM wallet_transactions WHERE kind = 'win' AND status = 'delivered'"
            "  AND created_at >= $1 AND created_at < $2) AS w",
            start,
            end,
        )
        # From the intent's statement to the append's (both stamp now()): the bets' own
        # part of a command, per number of bets in the attempt.
        phases = await conn.fetch(
            "SELECT n, count(*) AS attempts,"
            " percentile_cont(0.5) WITHIN GROUP (ORDER BY d) AS p50,"
            " percentile_cont(0.99) WITHIN GROUP (ORDER BY d) AS p99 FROM ("
            "  SELECT count(*) AS n,"
            "   extract(epoch FROM max(updated_at) - min(created_at)) * 1000 AS d"
            "  FROM wallet_transactions WHERE kind = 'bet' AND status = 'committed'"
            "  AND created_at >= $1 AND created_at < $2 GROUP BY attempt_id) AS a"
            " GROUP BY n ORDER BY n",
            start,
            end,
        )
        single = await conn.fetch(_SINGLE_BETS, start, end)
        backlog = await conn.fetchval(
            "SELECT count(*) FROM wallet_transactions WHERE kind IN ('win', 'rollback')"
            " AND created_at < $1 AND (status = 'queued' OR updated_at > $1)",
            end,
        )
    finally:
        await conn.close()
    counts = {f"{r['kind']}:{r['status']}": r["n"] for r in rows}
    bets = sum(n for key, n in counts.items() if key.startswith("bet:"))
    attempts = sum(r["attempts"] for r in rows if r["kind"] == "bet")
    wins = sum(n for key, n in counts.items() if key.startswith("win:"))
    rollbacks = sum(n for key, n in counts.items() if key.startswith("rollback:"))
    per = max(commands, 1)
    figures: dict[str, Any] = {
        "wallet_transactions": counts,
        "bets_per_command": bets / per,
        "bets_per_debiting_command": bets / attempts if attempts else 0.0,
        "wins_per_command": wins / per,
        "rollbacks_per_command": rollbacks / per,
        "win_delivery_p50_ms": float(delay["p50"] or 0.0) if delay else 0.0,
        "win_delivery_p99_ms": float(delay["p99"] or 0.0) if delay else 0.0,
        "outbox_backlog_at_end": int(backlog or 0),
        "bet_phase": {
            str(r["n"]): {"attempts": r["attempts"], "p50_ms": r["p50"], "p99_ms": r["p99"]}
            for r in phases
        },
    }
    one = figures["bet_phase"].get("1")
    if one:
        figures["bet_phase_1_p50_ms"] = float(one["p50_ms"])
        figures["bet_phase_1_p99_ms"] = float(one["p99_ms"])
    if wallet_database:
        conn = await asyncpg.connect(wallet_database)
        try:
            received = await conn.fetch(
                "SELECT call, count(*) AS n FROM reference_wallet.deliveries"
                " WHERE received_at >= $1 AND received_at < $2"
                " AND transaction_id NOT LIKE 'probe-%' GROUP BY call",
                start,
                end,
            )
            arrivals = await conn.fetch(
                "SELECT transaction_id, extract(epoch FROM min(received_at))::float8 AS t"
                " FROM reference_wallet.deliveries WHERE call = 'bet'"
                " AND received_at >= $1 AND received_at < $2 GROUP BY transaction_id",
                start,
                end,
            )
        finally:
            await conn.close()
        calls = {r["call"]: r["n"] for r in received}
        figures["wallet_calls"] = calls
        figures["wallet_calls_per_command"] = sum(calls.values()) / per
        figures.update(_split(single, {r["transaction_id"]: r["t"] for r in arrivals}, {}))
    elif timings:
        figures.update(
            _split(
                single,
                {tid: t[0] for tid, t in timings.items()},
                {tid: t[1] for tid, t in timings.items()},
            )
        )
    return figures


# -- an operator wallet in memory -------------------------------------------------------


_answer_encoder: Final = msgspec.json.Encoder()


class MemoryWallet:
    """The operator's side of docs/wallet-protocol.md §3-§4 with its ledger in a dict: each call's
    signature is checked, a ``transaction_id`` applied once (a repeat gets the first
    answer), balances kept per player, every answer signed. Nothing is durable, and nothing
    is checked that the game cannot get wrong in a benchmark (sessions, currencies): a raw
    ASGI app, so that a call costs the wallet about as little as an HTTP answer can."""

    def __init__(self, secret: str) -> None:
        from russian_poker.service.wallet.protocol import (
            BalanceCall,
            BetCall,
            RollbackCall,
            WinCall,
        )

        self._secret = secret
        self._balances: dict[str, int] = {}
        self._applied: dict[tuple[str, str], bytes] = {}
        self._bets: dict[tuple[str, str], int] = {}
        self._tombstones: set[tuple[str, str]] = set()
        self._timings: dict[str, tuple[float, float]] = {}
        """Bets: when each was received and answered (wall clock), for the benchmark's
        split of a command's time."""
        self._next = 0
        self._decoders: dict[str, msgspec.json.Decoder[Any]] = {
            "balance": msgspec.json.Decoder(BalanceCall),
            "bet": msgspec.json.Decoder(BetCall),
            "win": msgspec.json.Decoder(WinCall),
            "rollback": msgspec.json.Decoder(RollbackCall),
        }

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        received = time.time()
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        path: str = scope["path"]
        if path.startswith("/wallet/"):
            signature = dict(scope["headers"]).get(b"x-signature", b"").decode("latin-1")
            name = path.removeprefix("/wallet/")
            answer = self._call(name, body, signature)
            if name == "bet":
                transaction_id = msgspec.json.decode(body)["transaction_id"]
                self._timings.setdefault(transaction_id, (received, time.time()))
            await _respond(send, 200, answer, secret=self._secret)
        elif path.startswith("/_admin/players/") and scope["method"] == "PUT":
            player = path.removeprefix("/_admin/players/")
            self._balances[player] = int(msgspec.json.decode(body)["balance"])
            await _respond(send, 200, b"{}")
        elif path == "/_admin/timings":
            await _respond(send, 200, msgspec.json.encode(self._timings))
        elif path == "/_admin/ready":
            await _respond(send, 200, b'{"ready":true}')
        else:
            await _respond(send, 404, b"{}")

    def _call(self, name: str, body: bytes, signature: str) -> bytes:
        from russian_poker.service.wallet.protocol import Answer, BetCall, RollbackCall, WinCall
        from russian_poker.service.wallet.signing import BadSignature, verify

        try:
            verify(self._secret, body, signature)
        except BadSignature:
            return _answer_encoder.encode(Answer(status="invalid_signature"))
        call = self._decoders[name].decode(body)
        # A player it never saw has the benchmark's deposit: the service's clock may settle
        # a round of an earlier measurement, whose players this process never met.
        balance = self._balances.get(call.player_id, UNKNOWN_BALANCE)
        if name == "balance":
            return _answer_encoder.encode(Answer(status="ok", balance=balance))
        key = (call.operator_id, call.transaction_id)
        earlier = self._applied.get(key)
        if earlier is not None:
            return earlier
        if isinstance(call, BetCall):
            if key in self._tombstones:
                return _answer_encoder.encode(Answer(status="transaction_rolled_back"))
            if call.amount > balance:
                return _answer_encoder.encode(Answer(status="insufficient_funds", balance=balance))
            balance -= call.amount
            self._bets[key] = call.amount
        elif isinstance(call, WinCall):
            balance += call.amount
        elif isinstance(call, RollbackCall):
            bet = (call.operator_id, call.reference_transaction_id)
            if bet not in self._bets:
                # A rollback of a bet never seen (§3.3): the bet is refused if it arrives.
                self._tombstones.add(bet)
                answer = _answer_encoder.encode(Answer(status="transaction_not_found"))
                self._applied[key] = answer
                return answer
            balance += self._bets.pop(bet)
        self._balances[call.player_id] = balance
        self._next += 1
        answer = _answer_encoder.encode(
            Answer(status="ok", balance=balance, operator_transaction_id=f"MW-{self._next}")
        )
        self._applied[key] = answer
        return answer


async def _respond(send: Any, status: int, body: bytes, *, secret: str | None = None) -> None:
    from russian_poker.service.wallet.signing import HEADER, sign

    headers = [(b"content-type", b"application/json")]
    if secret is not None:
        headers.append((HEADER.lower().encode(), sign(secret, body).encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def create_memory_wallet() -> MemoryWallet:
    """The uvicorn factory; the secret from ``REFERENCE_WALLET_SECRET``, as the reference
    wallet takes it."""
    return MemoryWallet(os.environ["REFERENCE_WALLET_SECRET"])
