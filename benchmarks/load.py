"""Load over HTTP: full rounds by many simulated players, against the ceiling of the stack.

    .venv/bin/pip install -e '.[bench]'        # aiohttp (generator), py-spy (--profile)
    .venv/bin/python benchmarks/load.py [--clients 32] [--tables 16] [--seconds 20]
                                        [--repeat 3] [--workers 1] [--instances 1] [--url URL]
                                        [--wallet internal,sessions,seamless,memory|both|all]
                                        [--baseline-root DIR] [--profile DIR] [--json FILE]
                                        [--peer] [--peer-turns]

Run by hand, not in CI. It creates a fresh database per kind below on the PostgreSQL server
at ``--url`` (default: the local one), so that what one kind leaves behind is not charged to
another, and then, ``--repeat`` times, interleaved:

- **service**: starts ``russian-poker serve`` as a subprocess on that database (rate limit
  off, a fixed JWT secret, the default pool, clock and audit projection on, logs to a file)
  and, in a separate process, the load generator: ``--clients`` players on ``--tables``
  tables (``clients / tables`` per table, each on its own box). Every player loops over full
  rounds: ``PlaceAnte`` (a bonus now and then), ``Deal`` once every player of the table has
  bet, then its decision (mostly ``Play``, sometimes ``BuyCard`` first, sometimes ``Fold``)
  and the answer to a dealer-draw offer. Players learn the table's progress from the views
  their own commands return (shared per table inside the generator, as a live stream would);
  after a refusal or a long wait they read the table with a ``GET``, counted apart.
- **ceiling**: starts ``benchmarks/ceiling_app.py`` (one ``INSERT`` per request, same pool,
  same uvicorn, same worker count, no access log) and drives it with the same generator,
  ``--clients`` clients each sending the next request as soon as the last one is answered.
- with ``--instances N``, each kind runs as N server processes; the generator sends all of a
  table's players to one of them (table ``i`` to instance ``i mod N``, as the compose proxy
  hashes the table id), and ceiling clients take turns.
- **baseline** (only with ``--baseline-root``): the service once more, from another source
  tree (e.g. ``git archive`` of an older commit unpacked there), for before/after figures
  measured in the same run; with ``--wallet`` naming memory, **memory-baseline** too (the
  seamless operator's players on that tree).
- **seamless**, **memory**, **sessions** (``--wallet``, comma-separated; ``both`` is
  ``internal,seamless``, ``all`` every kind; ``internal``, the default, is **service**
  above): the same game by a registered operator's players with launched sessions
  (``POST /v1/sessions``), tables opened by that operator. **seamless**: the operator's
  wallet is the reference operator wallet
  (``python -m russian_poker.service.tools.reference_wallet``, a separate process with its
  own database, on loopback): every bet is a signed HTTP call on
  the command's path, every win is delivered by the service's outbox. **memory**: the same
  against an operator wallet that keeps its ledger in memory (``seamless.MemoryWallet``, a
  separate uvicorn process), i.e. a wallet that answers at once: what remains of the
  difference is the game's own cost. **sessions**: an internal operator (wallets at the
  game): what sessions and tenancy cost without a remote wallet. For the seamless kinds a
  probe times bare wallet round trips during the window, the money calls per command are
  read back from ``wallet_transactions``, and the time of a command's bet is split into
  to the wallet, in it and back (see ``benchmarks/seamless.py``). Each kind is compared
  with **service** at the same concurrency.
- **peer** (``--peer``): the same game on the Python ``eventsourcing`` library (its
  PostgreSQL recorder, our rules in its aggregates, no HTTP), in a process of its own on a
  database of its own, driven by threads as the generator drives the service
  (``benchmarks/peer_eventsourcing.py``); compared with **service** at the same concurrency.
  **peer_turns** (``--peer-turns``): the same with a table's commands taking turns in the
  peer's process, as the service's do.

``--clients`` and ``--tables`` take comma-separated lists (``--clients 8,32 --tables
4,16``): each pair is one concurrency, all of them interleaved in every repetition.

Each measurement runs ``--warmup`` seconds, then counts ``--seconds`` seconds: requests
(commands) per second and their latency p50/p95/p99 (sent to answer fully read, in the
generator). The service run also reports events and settled rounds per second (from the
store) and the CPU each process used in the window: the server, the PostgreSQL backends
of its database, the operator's wallet and its database, the generator, and everything
else on the machine, and how long the server's and PostgreSQL's threads waited for a CPU
(run-queue delay, ``/proc/PID/task/TID/schedstat``). Latencies are also given per
command type and for commands with a bet apart from those without. After the
last repetition it rebuilds every read model (``projections.rebuild``) and replays every
settled round (``service.audit.replay``) of the service's database and reports their
events per second. Medians over the
repetitions and the service/ceiling ratios come last; ``--json FILE`` keeps everything.
``--keep`` keeps the databases (their names are printed). ``--profile DIR`` samples every
server with ``py-spy`` (collapsed stacks; ``PY_SPY_EXTRA=--native`` adds native frames).
See docs/benchmarks.md, "Load (HTTP)" and "Seamless wallet".
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final
from urllib.parse import urlsplit, urlunsplit

import msgspec

ROOT: Final = Path(__file__).resolve().parent.parent
DEFAULT_URL: Final = "postgresql://postgres@127.0.0.1:5432/postgres"
SECRET: Final = "load-benchmark-secret-" + "k" * 32
DEPOSIT: Final = 1_000_000_000
WAIT_S: Final = 1.0
"""A player that saw no progress for this long reads the table itself."""


# -- the load generator (its own process) ----------------------------------------------


class _Box(msgspec.Struct):
    box: int
    player: str


class _Round(msgspec.Struct):
    number: int
    phase: str
    boxes: list[_Box]
    ready: list[str]
    awaiting: list[int]


class _Table(msgspec.Struct):
    version: int
    status: str
    round: _Round | None = None


class _Answer(msgspec.Struct):
    table: _Table


_table_decoder: Final = msgspec.json.Decoder(_Table)
_answer_decoder: Final = msgspec.json.Decoder(_Answer)


@dataclass
class _Sample:
    finished: float
    seconds: float
    kind: str
    status: int
    command: str = ""


@dataclass
class _Recorder:
    window: tuple[float, float]
    samples: list[_Sample] = field(default_factory=list)
    refusals: dict[str, int] = field(default_factory=dict)

    def add(self, started: float, kind: str, status: int, command: str = "") -> None:
        now = time.perf_counter()
        if self.window[0] <= now <= self.window[1]:
            self.samples.append(_Sample(now, now - started, kind, status, command))


class _CpuWindow:
    """CPU used during the measured window: the server, PostgreSQL, this generator, and the
    whole machine (other work on a shared machine shows up as ``other``); and how long the
    server's and PostgreSQL's threads waited for a CPU when they were ready to run (the
    scheduler's run-queue delay, ``/proc/PID/task/TID/schedstat``)."""

    def __init__(
        self,
        server_pids: list[int],
        database: str,
        wallet_pids: list[int] | None = None,
        wallet_database: str | None = None,
    ) -> None:
        self.server_pids = set(server_pids)
        self.database = database
        self.wallet_pids = set(wallet_pids or ())
        self.wallet_database = wallet_database
        self.samples: list[dict[str, float]] = []

    def sample(self) -> None:
        machine_busy, machine_total = _machine_ticks()
        ticks = os.sysconf("SC_CLK_TCK")
        taken: dict[str, float] = {
            "generator": time.process_time(),
            "machine_busy": machine_busy,
            "machine_total": machine_total,
        }
        parts: dict[str, tuple[set[int] | None, str | None]] = {
            "server": (self.server_pids, None),
            "postgres": (None, self.database),
        }
        if self.wallet_pids:
            parts["wallet"] = (self.wallet_pids, None)
        if self.wallet_database:
            parts["wallet_postgres"] = (None, self.wallet_database)
        for name, (pids, database) in parts.items():
            used, waited = _cpu_ticks(pids, database)
            taken[name] = used / ticks
            taken[f"{name}_waited"] = waited / 1e9
        self.samples.append(taken)

    async def run(self, start: float, until: float) -> None:
        await asyncio.sleep(max(0.0, start - time.perf_counter()))
        self.sample()
        await asyncio.sleep(max(0.0, until - time.perf_counter()))
        self.sample()

    def cores(self, seconds: float) -> dict[str, float]:
        if len(self.samples) < 2:
            return {}
        first, last = self.samples[:2]
        used = {k: last[k] - first[k] for k in first}
        total = used.pop("machine_total")
        busy = used.pop("machine_busy")
        machine = busy / total * (os.cpu_count() or 1) if total > 0 else 0.0
        mine = sum(v for k, v in used.items() if not k.endswith("_waited"))
        cores = {f"{k}_cores": v / seconds for k, v in used.items() if not k.endswith("_waited")}
        cores["other_cores"] = max(0.0, machine - mine / seconds)
        for k, v in used.items():
            if k.endswith("_waited"):
                # Seconds spent runnable but not running, in the window.
                cores[f"{k}_s"] = v
        return cores


def _machine_ticks() -> tuple[int, int]:
    """Busy and total clock ticks of the whole machine (``/proc/stat``)."""
    fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]
    return sum(fields) - idle, sum(fields)


class _Tracker:
    """The latest state of one table that any of its players was told."""

    def __init__(self, table_id: str, players: int) -> None:
        self.table_id = table_id
        self.players = players
        self.view = _Table(version=0, status="open")
        self.changed = asyncio.Condition()

    async def update(self, view: _Table) -> None:
        if view.version > self.view.version:
            self.view = view
            async with self.changed:
                self.changed.notify_all()

    async def wait_past(self, version: int, timeout: float) -> bool:
        async with self.changed:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(
                    self.changed.wait_for(lambda: self.view.version > version), timeout
                )
        return self.view.version > version


def next_move(
    view: _Table, box: int, player_id: str, players: int, rng: random.Random, drew: int
) -> tuple[dict[str, Any] | None, int]:
    """The command a player sends now, if any, from the latest view of its table, and the
    round it last bought a card in (one draw per round). Shared with the eventsourcing
    peer (``benchmarks/peer_eventsourcing.py``), so both play the same mix."""
    current = view.round
    if current is None:
        return None, drew
    mine = any(b.box == box for b in current.boxes)
    if current.phase == "betting":
        if not mine:
            ante = 100 * rng.randint(1, 3)
            bonus = 100 if rng.random() < 0.2 else 0
            return ({"type": "PlaceAnte", "box": box, "ante": ante, "bonus": bonus}, drew)
        if player_id not in current.ready and len(current.boxes) >= players:
            return ({"type": "Deal"}, drew)
        return None, drew
    if box not in current.awaiting:
        return None, drew
    if current.phase == "decisions":
        roll = rng.random()
        kind = "Play" if roll < 0.75 else "Fold" if roll < 0.85 else "BuyCard"
        if kind == "BuyCard":
            if drew == current.number:
                kind = "Play"  # one draw per round
            drew = current.number
        return ({"type": kind, "box": box}, drew)
    if current.phase == "dealer_draw":
        kind = "RequestDealerExchange" if rng.random() < 0.3 else "DeclineDealerExchange"
        return ({"type": kind, "box": box}, drew)
    return None, drew


class _Player:
    def __init__(
        self,
        session: Any,
        player_id: str,
        token: str,
        tracker: _Tracker,
        box: int,
        recorder: _Recorder,
        rng: random.Random,
        run: str,
    ) -> None:
        self.session = session
        self.run = run
        self.player_id = player_id
        self.headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        self.tracker = tracker
        self.box = box
        self.recorder = recorder
        self.rng = rng
        self.sent = 0
        self.last_refusal: tuple[int, bytes] = (0, b"")
        self.drew = 0

    async def command(self, body: dict[str, Any]) -> bool:
        self.sent += 1
        headers = {**self.headers, "Idempotency-Key": f"{self.run}-{self.sent}"}
        started = time.perf_counter()
        async with self.session.post(
            f"/v1/tables/{self.tracker.table_id}/commands",
            data=msgspec.json.encode(body),
            headers=headers,
        ) as response:
            payload = await response.read()
            status = response.status
        self.recorder.add(started, "command", status, body["type"])
        self.last_refusal = (status, payload[:300])
        if status == 200:
            await self.tracker.update(_answer_decoder.decode(payload).table)
            return True
        # A seamless wallet's unknown outcome is a 503 the client may retry (with a new
        # key, as here): counted as a refusal, not a failure of the run.
        if status >= 500 and b"wallet_unavailable" not in payload:
            raise RuntimeError(f"{body['type']}: {status} {payload[:300]!r}")
        if self.recorder.window[0] <= time.perf_counter() <= self.recorder.window[1]:
            problem = msgspec.json.decode(payload).get("type", "?").rsplit("/", 1)[-1]
            key = f"{body['type']}:{problem}"
            self.recorder.refusals[key] = self.recorder.refusals.get(key, 0) + 1
        await self.look()
        return False

    async def look(self) -> None:
        started = time.perf_counter()
        async with self.session.get(
            f"/v1/tables/{self.tracker.table_id}", headers=self.headers
        ) as response:
            payload = await response.read()
            status = response.status
        self.recorder.add(started, "query", status)
        if status == 200:
            await self.tracker.update(_table_decoder.decode(payload))

    def move(self) -> dict[str, Any] | None:
        """The command this player sends now, if any, from the latest view of its table."""
        body, self.drew = next_move(
            self.tracker.view, self.box, self.player_id, self.tracker.players, self.rng, self.drew
        )
        return body

    async def play(self, until: float) -> None:
        while time.perf_counter() < until:
            body = self.move()
            if body is not None:
                await self.command(body)
                continue
            seen = self.tracker.view.version
            if not await self.tracker.wait_past(seen, WAIT_S):
                await self.look()


async def _ceiling_client(
    session: Any, player_id: str, token: str, recorder: _Recorder, until: float
) -> None:
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    sent = 0
    while time.perf_counter() < until:
        sent += 1
        body = {"type": "PlaceAnte", "box": 1, "ante": 100, "player": player_id}
        started = time.perf_counter()
        async with session.post(
            "/v1/writes",
            data=msgspec.json.encode(body),
            headers={**headers, "Idempotency-Key": f"{player_id}-{sent}"},
        ) as response:
            await response.read()
            status = response.status
        recorder.add(started, "command", status)
        if status >= 500:
            raise RuntimeError(f"ceiling: {status}")


async def _setup_service(session: Any, config: dict[str, Any], tokens: dict[str, str]) -> None:
    """Wallets funded, tables opened, every player seated; not measured."""
    operator = {"Authorization": f"Bearer {config['operator']}"}
    for player in tokens:
        async with session.post(
            "/v1/wallets", json={"wallet_id": player, "currency": "EUR"}, headers=operator
        ) as response:
            assert response.status in (201, 409), await response.text()
        transfer = {"transfer_id": f"{config['prefix']}-{player}", "amount": DEPOSIT}
        async with session.post(
            f"/v1/wallets/{player}/deposits", json=transfer, headers=operator
        ) as response:
            assert response.status == 200, await response.text()
    for table_id in config["table_ids"]:
        body = {"table_id": table_id, "preset": "russian", "overrides": {"max_payout": 500_000}}
        async with session.post("/v1/tables", json=body, headers=operator) as response:
            assert response.status == 201, await response.text()


async def _generate(config: dict[str, Any]) -> dict[str, Any]:
    import aiohttp

    from benchmarks.seamless import (
        OPERATOR_KINDS,
        SEAMLESS_KINDS,
        probe_wallet,
        setup_operator,
    )

    clients: int = config["clients"]
    players = [f"p{i}" for i in range(clients)]
    tokens: dict[str, str] = config["tokens"]
    game_ids = {p: p for p in players}
    timeout = aiohttp.ClientTimeout(total=60)
    async with contextlib.AsyncExitStack() as stack:
        # One session per instance; a table's players all use one (as the compose proxy
        # sends a table's commands to one instance), ceiling clients take turns.
        sessions = [
            await stack.enter_async_context(
                aiohttp.ClientSession(
                    url,
                    connector=aiohttp.TCPConnector(limit=0, force_close=False),
                    timeout=timeout,
                )
            )
            for url in config["base_urls"]
        ]
        session = sessions[0]
        start = time.perf_counter() + config["warmup"]
        until = start + config["seconds"]
        recorder = _Recorder(window=(start, until))
        cpu = _CpuWindow(
            config["server_pids"],
            config["database"],
            config.get("wallet_pids"),
            config.get("wallet_database"),
        )
        probes: list[float] = []
        if config["kind"] == "ceiling":
            started_wall = time.time() + config["warmup"]
            await asyncio.gather(
                cpu.run(start, until),
                *(
                    _ceiling_client(sessions[i % len(sessions)], p, tokens[p], recorder, until)
                    for i, p in enumerate(players)
                ),
            )
        else:
            if config["kind"] in OPERATOR_KINDS:
                launched = await setup_operator(session, config, players, SECRET)
                tokens = {p: launched[p].token for p in players}
                game_ids = {p: launched[p].game_id for p in players}
            else:
                await _setup_service(session, config, tokens)
            table_ids: list[str] = config["table_ids"]
            per_table = clients // len(table_ids)
            trackers = [_Tracker(t, per_table) for t in table_ids]
            rng = random.Random(config["seed"])
            bots = []
            for i, player in enumerate(players):
                table = i % len(trackers)
                tracker = trackers[table]
                box = i // len(trackers) + 1
                bot = _Player(
                    sessions[table % len(sessions)],
                    game_ids[player],
                    tokens[player],
                    tracker,
                    box,
                    recorder,
                    rng,
                    config["prefix"],
                )
                assert await bot.command({"type": "SitDown"}), (
                    f"{player} could not sit: {bot.last_refusal}"
                )
                bots.append(bot)
            for bot in bots[: len(trackers)]:
                await bot.look()
            # The clock starts now: warm-up, then the measured window.
            start = time.perf_counter() + config["warmup"]
            until = start + config["seconds"]
            recorder.window = (start, until)
            started_wall = time.time() + config["warmup"]

            async def probe() -> None:
                if config["kind"] in SEAMLESS_KINDS:
                    operator = OPERATOR_KINDS[config["kind"]]
                    probed = await probe_wallet(
                        config["wallet_base"], operator, (start, until), config["prefix"]
                    )
                    probes.extend(probed)

            await asyncio.gather(cpu.run(start, until), probe(), *(b.play(until) for b in bots))
    summary = _summary(recorder, config["seconds"], started_wall)
    if probes:
        ordered = sorted(probes)
        summary["wallet_rtt_p50_ms"] = _quantile(ordered, 0.50) * 1000
        summary["wallet_rtt_p99_ms"] = _quantile(ordered, 0.99) * 1000
        summary["wallet_probes"] = len(ordered)
    summary.update(cpu.cores(config["seconds"]))
    requests = summary["requests"] or 1
    for name in ("server", "postgres", "wallet", "wallet_postgres"):
        if f"{name}_cores" in summary:
            summary[f"{name}_ms_per_request"] = (
                summary[f"{name}_cores"] * config["seconds"] / requests * 1000
            )
            summary[f"{name}_waited_ms_per_request"] = summary[f"{name}_waited_s"] / requests * 1000
    return summary


def _summary(recorder: _Recorder, seconds: float, started_wall: float) -> dict[str, Any]:
    from benchmarks.seamless import DEBITING

    commands = [s for s in recorder.samples if s.kind == "command"]
    queries = [s for s in recorder.samples if s.kind == "query"]
    latencies = sorted(s.seconds for s in commands)
    statuses: dict[str, int] = {}
    for s in commands:
        statuses[str(s.status)] = statuses.get(str(s.status), 0) + 1
    by_command: dict[str, list[float]] = {}
    for s in commands:
        by_command.setdefault(s.command, []).append(s.seconds)
    debiting = sorted(s.seconds for s in commands if s.command in DEBITING)
    other = sorted(s.seconds for s in commands if s.command not in DEBITING)
    return {
        "by_command": {
            name: {
                "n": len(values),
                "p50_ms": _quantile(sorted(values), 0.50) * 1000,
                "p99_ms": _quantile(sorted(values), 0.99) * 1000,
            }
            for name, values in sorted(by_command.items())
        },
        "debiting_p50_ms": _quantile(debiting, 0.50) * 1000,
        "debiting_p99_ms": _quantile(debiting, 0.99) * 1000,
        "other_p50_ms": _quantile(other, 0.50) * 1000,
        "other_p99_ms": _quantile(other, 0.99) * 1000,
        "debiting_share": len(debiting) / len(commands) if commands else 0.0,
        "requests": len(commands),
        "per_second": len(commands) / seconds,
        "accepted_per_second": statuses.get("200", 0) / seconds,
        "statuses": statuses,
        "refusals": recorder.refusals,
        "queries_per_second": len(queries) / seconds,
        "p50_ms": _quantile(latencies, 0.50) * 1000,
        "p95_ms": _quantile(latencies, 0.95) * 1000,
        "p99_ms": _quantile(latencies, 0.99) * 1000,
        "mean_ms": statistics.fmean(latencies) * 1000 if latencies else 0.0,
        "in_flight": sum(latencies) / seconds,
        "window": [started_wall, started_wall + seconds],
    }


def _quantile(ordered: list[float], q: float) -> float:
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def generate_main(raw: str) -> None:
    config = json.loads(raw)
    with contextlib.suppress(ImportError):
        import uvloop

        uvloop.install()
    print(json.dumps(asyncio.run(_generate(config))))


# -- the orchestrator -------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{name}"))


def _cpu_ticks(pids: set[int] | None = None, database: str | None = None) -> tuple[int, int]:
    """User + system clock ticks of the given processes (and their children), or of the
    PostgreSQL backends serving ``database`` (other databases' backends are other work);
    and the nanoseconds their threads waited on a run queue."""
    total = waited = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        comm = stat[stat.index("(") + 1 : stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2 :].split()
        pid, ppid = int(entry.name), int(fields[1])
        if pids is not None and (pid in pids or ppid in pids):
            total += int(fields[11]) + int(fields[12])
            waited += _run_queue_ns(entry)
        elif database and comm == "postgres":
            with contextlib.suppress(OSError):
                title = (entry / "cmdline").read_bytes()
                if f" {database} ".encode() in title:
                    total += int(fields[11]) + int(fields[12])
                    waited += _run_queue_ns(entry)
    return total, waited


def _run_queue_ns(process: Path) -> int:
    """Nanoseconds the process's threads were ready to run but waited for a CPU."""
    waited = 0
    with contextlib.suppress(OSError):
        for task in (process / "task").iterdir():
            with contextlib.suppress(OSError, IndexError, ValueError):
                waited += int((task / "schedstat").read_text().split()[1])
    return waited


@dataclass
class _Server:
    process: subprocess.Popen[bytes]
    base_url: str
    log: Path

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def _start(
    kind: str,
    database: str,
    workers: int,
    logs: Path,
    extra_env: dict[str, str],
    baseline_root: Path | None = None,
) -> _Server:
    port = _free_port()
    root = baseline_root if kind in BASELINE_KINDS and baseline_root else ROOT
    env = {
        **os.environ,
        "DATABASE_URL": database,
        "RUSSIAN_POKER_RATE_LIMIT": "0",
        "RUSSIAN_POKER_JWT_SECRET": SECRET,
        "RUSSIAN_POKER_DATA_DIR": str(logs),
        "PYTHONPATH": _source_path(root),
        **extra_env,
    }
    if kind != "ceiling":
        # The CLI of the source tree on PYTHONPATH (another checkout for "baseline").
        argv = [
            sys.executable, "-c", f"from {_package(root)}service.cli import main; main()",
            "serve", "--port", str(port), "--workers", str(workers),
        ]  # fmt: skip
    else:
        argv = [
            sys.executable, "-m", "uvicorn", "benchmarks.ceiling_app:create_app", "--factory",
            "--port", str(port), "--workers", str(workers), "--app-dir", str(ROOT),
            "--no-access-log",  # as `russian-poker serve` below debug level
        ]  # fmt: skip
    log = logs / f"{kind}-{port}.log"
    with log.open("wb") as sink:
        process = subprocess.Popen(argv, cwd=root, env=env, stdout=sink, stderr=subprocess.STDOUT)
    server = _Server(process, f"http://127.0.0.1:{port}", log)
    deadline = time.monotonic() + 60
    probe = "/v1/writes" if kind == "ceiling" else "/health/ready"
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{kind} server exited: {log.read_text()[-2000:]}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
            if kind == "ceiling" or _get_ok(server.base_url + probe):
                return server
        time.sleep(0.1)
    server.stop()
    raise RuntimeError(f"{kind} server did not start: {log.read_text()[-2000:]}")


def _py_spy(pid: int, directory: Path, label: str) -> subprocess.Popen[bytes]:
    """Sample a server (and its workers) until stopped, as collapsed stacks."""
    directory.mkdir(parents=True, exist_ok=True)
    executable = Path(sys.executable).with_name("py-spy")
    argv = [
        str(executable), "record", "--pid", str(pid), "--subprocesses",
        "--rate", "250", *os.environ.get("PY_SPY_EXTRA", "").split(),
        "--format", "raw", "-o", str(directory / f"{label}.txt"),
    ]  # fmt: skip
    return subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _get_ok(url: str) -> bool:
    import urllib.request

    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return bool(response.status == 200)
    except OSError:
        return False


def _measure(kind: str, servers: list[_Server], config: dict[str, Any]) -> dict[str, Any]:
    config = {
        **config,
        "kind": kind,
        "base_urls": [s.base_url for s in servers],
        "server_pids": [s.process.pid for s in servers],
    }
    generator = subprocess.run(
        [sys.executable, __file__, "generate", json.dumps(config)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        check=False,
    )
    if generator.returncode:
        raise RuntimeError(f"load generator failed:\n{generator.stderr[-4000:]}")
    result: dict[str, Any] = json.loads(generator.stdout.strip().splitlines()[-1])
    return result


async def _store_figures(database: str, window: list[float]) -> dict[str, float]:
    from datetime import UTC, datetime

    import asyncpg

    start, end = (datetime.fromtimestamp(t, UTC) for t in window)
    conn = await asyncpg.connect(database)
    try:
        row = await conn.fetchrow(
            "SELECT count(*) AS events, count(*) FILTER (WHERE event_type = 'RoundSettled')"
            " AS rounds FROM events WHERE recorded_at >= $1 AND recorded_at < $2",
            start,
            end,
        )
    finally:
        await conn.close()
    seconds = window[1] - window[0]
    assert row is not None
    return {
        "events_per_second": row["events"] / seconds,
        "rounds_per_second": row["rounds"] / seconds,
    }


async def _create_database(url: str, name: str, *, migrated: bool = True) -> str:
    import asyncpg

    from benchmarks.ceiling_app import TABLE_DDL
    from russian_poker.events.postgres.migrate import migrate

    admin = await asyncpg.connect(url)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    database = _with_database(url, name)
    if not migrated:
        return database
    conn = await asyncpg.connect(database)
    try:
        await migrate(conn)
        await conn.execute(TABLE_DDL)
    finally:
        await conn.close()
    return database


async def _drop_database(url: str, name: str) -> None:
    import asyncpg

    admin = await asyncpg.connect(url)
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await admin.close()


async def _audit(database: str, repeat: int) -> dict[str, Any]:
    """Rebuild every read model and replay every settled round, ``repeat`` times each."""
    from russian_poker.events.postgres.pool import connect
    from russian_poker.events.postgres.rebuild import RebuildStore
    from russian_poker.events.postgres.replay import ReplayStore
    from russian_poker.projections.rebuild import NAMES, rebuild
    from russian_poker.service.audit.replay import select_rounds, verify_rounds

    conn = await connect(database, idle_in_transaction_timeout=600, application_name="load")
    figures: dict[str, Any] = {}
    try:
        for name in NAMES:
            runs = [await rebuild(RebuildStore(conn), name) for _ in range(repeat)]
            figures[f"rebuild_{name}"] = {
                "events": runs[0].events,
                "events_per_second": statistics.median(r.events_per_second for r in runs),
                "differences": max(r.differences for r in runs),
            }
        selection, _ = await select_rounds(ReplayStore(conn))
        replays = [await verify_rounds(ReplayStore(conn), selection) for _ in range(repeat)]
        figures["replay"] = {
            "rounds": replays[0].rounds,
            "events": replays[0].events,
            "events_per_second": statistics.median(r.events_per_second for r in replays),
            "differences": max(len(r.differences) for r in replays),
        }
    finally:
        await conn.close()
    return figures


_MEDIANS: Final = (
    "per_second", "accepted_per_second", "p50_ms", "p95_ms", "p99_ms", "mean_ms", "in_flight",
    "queries_per_second", "events_per_second", "rounds_per_second", "server_cores",
    "postgres_cores", "generator_cores", "other_cores", "server_ms_per_request",
    "postgres_ms_per_request", "debiting_p50_ms", "debiting_p99_ms", "other_p50_ms",
    "other_p99_ms", "debiting_share", "wallet_cores", "wallet_postgres_cores",
    "wallet_ms_per_request", "wallet_postgres_ms_per_request", "wallet_rtt_p50_ms",
    "wallet_rtt_p99_ms", "bets_per_command", "bets_per_debiting_command", "wins_per_command",
    "rollbacks_per_command", "wallet_calls_per_command", "win_delivery_p50_ms",
    "win_delivery_p99_ms", "outbox_backlog_at_end", "drain_s", "bet_phase_1_p50_ms",
    "bet_phase_1_p99_ms", "split_out_p50_ms", "split_wallet_p50_ms", "split_back_p50_ms",
    "split_rest_p50_ms", "server_waited_ms_per_request", "postgres_waited_ms_per_request",
    "wallet_waited_ms_per_request", "wallet_postgres_waited_ms_per_request",
    "conflicts_per_second",
)  # fmt: skip

_WALLET_KINDS: Final = {
    "internal": ("service",),
    "sessions": ("sessions",),
    "seamless": ("seamless",),
    "memory": ("memory",),
    "both": ("service", "seamless"),
    "all": ("service", "sessions", "seamless", "memory"),
}
"""``--wallet`` (comma-separated) → the service kinds measured: ``service`` is the internal
wallet of the default operator, ``sessions`` an internal operator's launched sessions,
``seamless`` the reference operator wallet, ``memory`` an operator wallet in memory."""


def _line(kind: str, r: dict[str, Any]) -> str:
    text = (
        f"{kind:>8}: {r['per_second']:7,.0f} req/s  p50 {r['p50_ms']:6.2f} ms  "
        f"p95 {r['p95_ms']:6.2f} ms  p99 {r['p99_ms']:6.2f} ms  in flight {r['in_flight']:4.1f}"
        f"\n          CPU cores: server {r['server_cores']:.2f}, "
        f"postgres {r['postgres_cores']:.2f}, generator {r['generator_cores']:.2f}, "
        f"other work {r['other_cores']:.2f}; per request: "
        f"server {r['server_ms_per_request']:.2f} ms, "
        f"postgres {r['postgres_ms_per_request']:.2f} ms"
    )
    if "server_waited_ms_per_request" in r:
        text += (
            f"\n          waited for a CPU per request: server "
            f"{r['server_waited_ms_per_request']:.2f} ms, postgres "
            f"{r['postgres_waited_ms_per_request']:.2f} ms"
        )
        if "wallet_waited_ms_per_request" in r:
            text += f", operator wallet {r['wallet_waited_ms_per_request']:.2f} ms"
        if "wallet_postgres_waited_ms_per_request" in r:
            text += f" + its postgres {r['wallet_postgres_waited_ms_per_request']:.2f} ms"
    if "wallet_cores" in r:
        text += (
            f"\n          operator wallet: {r['wallet_cores']:.2f} + its postgres "
            f"{r.get('wallet_postgres_cores', 0.0):.2f} cores, per request "
            f"{r['wallet_ms_per_request']:.2f} + "
            f"{r.get('wallet_postgres_ms_per_request', 0.0):.2f} ms"
        )
    if "debiting_p50_ms" in r and r.get("debiting_share"):
        text += (
            f"\n          commands with a bet ({r['debiting_share']:.0%}): p50 "
            f"{r['debiting_p50_ms']:.2f} ms p99 {r['debiting_p99_ms']:.2f} ms; without: p50 "
            f"{r['other_p50_ms']:.2f} ms p99 {r['other_p99_ms']:.2f} ms"
        )
    if "bets_per_command" in r:
        text += (
            f"\n          money calls per command: bets {r['bets_per_command']:.3f} "
            f"({r['bets_per_debiting_command']:.2f} per debiting command), wins "
            f"{r['wins_per_command']:.3f}, rollbacks {r['rollbacks_per_command']:.3f}"
        )
        if "wallet_calls_per_command" in r:
            text += f"; wallet received {r['wallet_calls_per_command']:.3f} calls per command"
        if r.get("wins_per_command"):
            text += (
                f"\n          outbox: wins delivered p50 {r['win_delivery_p50_ms']:.1f} ms p99 "
                f"{r['win_delivery_p99_ms']:.1f} ms after queueing, backlog at the end "
                f"{r['outbox_backlog_at_end']:.0f}, drained in {r['drain_s']:.1f} s"
            )
    if "wallet_rtt_p50_ms" in r:
        text += (
            f"\n          bare wallet round trip (probe bets): p50 {r['wallet_rtt_p50_ms']:.2f} "
            f"ms p99 {r['wallet_rtt_p99_ms']:.2f} ms"
        )
        if "bet_phase_1_p50_ms" in r:
            text += (
                f"\n          a command with one bet, from its intent to its append: p50 "
                f"{r['bet_phase_1_p50_ms']:.2f} ms p99 {r['bet_phase_1_p99_ms']:.2f} ms"
            )
        if "split_out_p50_ms" in r:
            text += f" (p50s: to the wallet {r['split_out_p50_ms']:.2f} ms"
            if "split_wallet_p50_ms" in r:
                text += (
                    f", in it {r['split_wallet_p50_ms']:.2f} ms, back to the append "
                    f"{r['split_back_p50_ms']:.2f} ms)"
                )
            elif "split_rest_p50_ms" in r:
                text += f", in it and back to the append {r['split_rest_p50_ms']:.2f} ms)"
            else:
                text += ")"
    if "events_per_second" in r:
        text += (
            f"\n          accepted {r['accepted_per_second']:,.0f}/s, "
            f"{r['events_per_second']:,.0f} events/s, {r['rounds_per_second']:,.1f} rounds/s, "
            f"{r['queries_per_second']:,.0f} GETs/s"
        )
    if "statuses" in r:
        text += f", statuses {r['statuses']}, refused {r['refusals']}"
    return text


def _compare(label: str, served: dict[str, Any], internal: dict[str, Any]) -> str:
    """One kind against the internal wallet at the same concurrency (medians)."""
    p50 = served["p50_ms"] / internal["p50_ms"]
    p99 = served["p99_ms"] / internal["p99_ms"]
    text = (
        f"{label}: {served['per_second'] / internal['per_second']:.2f}x the commands/s "
        f"({internal['per_second']:,.0f} -> {served['per_second']:,.0f}); "
        f"p50 {internal['p50_ms']:.2f} -> {served['p50_ms']:.2f} ms ({p50:.2f}x, "
        f"{served['p50_ms'] - internal['p50_ms']:+.2f} ms), "
        f"p99 {internal['p99_ms']:.2f} -> {served['p99_ms']:.2f} ms ({p99:.2f}x, "
        f"{served['p99_ms'] - internal['p99_ms']:+.2f} ms)"
        f"\n    commands with a bet: p50 {internal['debiting_p50_ms']:.2f} -> "
        f"{served['debiting_p50_ms']:.2f} ms "
        f"({served['debiting_p50_ms'] - internal['debiting_p50_ms']:+.2f} ms), without: "
        f"{internal['other_p50_ms']:.2f} -> {served['other_p50_ms']:.2f} ms "
        f"({served['other_p50_ms'] - internal['other_p50_ms']:+.2f} ms); CPU per command: "
        f"server {internal['server_ms_per_request']:.2f} -> "
        f"{served['server_ms_per_request']:.2f} ms, postgres "
        f"{internal['postgres_ms_per_request']:.2f} -> "
        f"{served['postgres_ms_per_request']:.2f} ms"
    )
    if "wallet_rtt_p50_ms" in served:
        trips = served["bets_per_command"]
        rtt = served["wallet_rtt_p50_ms"]
        per_debit = served["bets_per_debiting_command"]
        text += (
            f"\n    the seamless path costs its {trips:.2f} wallet round trips per command "
            f"({per_debit:.2f} per command with a bet; one round trip p50 {rtt:.2f} ms, so "
            f"{trips * rtt:.2f} ms per command, {per_debit * rtt:.2f} ms per command with a "
            f"bet) and {served['p50_ms'] - internal['p50_ms']:+.2f} ms at p50 "
            f"({served['debiting_p50_ms'] - internal['debiting_p50_ms']:+.2f} ms on a command "
            f"with a bet); target: p50 and p99 <= 1.5x at 8 clients"
        )
    return text


def _pairs(parser: argparse.ArgumentParser, clients: str, tables: str) -> list[tuple[int, int]]:
    """``--clients 8,32 --tables 4,16`` → [(8, 4), (32, 16)]; one ``--tables`` for all."""
    try:
        many = [int(c) for c in clients.split(",")]
        per = [int(t) for t in tables.split(",")]
    except ValueError:
        parser.error("--clients and --tables are integers, comma-separated")
    if len(per) == 1:
        per = per * len(many)
    if len(per) != len(many):
        parser.error("--tables: one value, or one per --clients value")
    for c, t in zip(many, per, strict=True):
        if c % t:
            parser.error(f"--clients {c} must be a multiple of --tables {t}")
        if c // t > 4:
            parser.error("at most 4 players per table (one box each on the russian preset)")
    return list(zip(many, per, strict=True))


def main() -> None:
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))  # benchmarks.ceiling_app, when run as a script
    if len(sys.argv) == 3 and sys.argv[1] == "generate":
        generate_main(sys.argv[2])
        return
    from benchmarks.seamless import (
        OPERATOR_KINDS,
        SEAMLESS_KINDS,
        drain,
        start_wallet,
        wallet_figures,
        wallet_timings,
    )

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default=os.environ.get("BENCH_DATABASE_URL", DEFAULT_URL))
    parser.add_argument("--clients", default="32", help="comma-separated: 8,32")
    parser.add_argument("--tables", default="16", help="comma-separated, one per --clients")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument(
        "--instances",
        type=int,
        default=1,
        help="server processes per kind; a table's players all talk to one of them",
    )
    parser.add_argument(
        "--only",
        choices=("service", "ceiling"),
        default=None,
        help="service: the kinds --wallet names (and baseline), no ceiling",
    )
    parser.add_argument(
        "--wallet",
        default="internal",
        help="comma-separated: internal (today's service kind), sessions (an internal "
        "operator's launched sessions), seamless (a seamless operator at the reference "
        "wallet), memory (a seamless operator at an in-memory wallet); both = "
        "internal,seamless; all = every one",
    )
    parser.add_argument(
        "--wallet-timeout-ms", type=int, default=2000, help="the seamless operator's timeout_ms"
    )
    parser.add_argument(
        "--baseline-root",
        type=Path,
        help="also run the service from this source tree (e.g. `git archive` of an older "
        "commit), interleaved, for before/after figures from the same run",
    )
    parser.add_argument("--audit-repeat", type=int, default=3, help="0: skip rebuild/replay")
    parser.add_argument("--database", help="use this existing database name (not dropped)")
    parser.add_argument("--keep", action="store_true", help="keep the benchmark databases")
    parser.add_argument("--json", type=Path, help="write every figure here")
    parser.add_argument(
        "--peer",
        action="store_true",
        help="also the same game on the eventsourcing library "
        "(benchmarks/peer_eventsourcing.py), interleaved",
    )
    parser.add_argument(
        "--peer-turns",
        action="store_true",
        help="also the peer with a table's commands taking turns (a lock per table)",
    )
    parser.add_argument(
        "--profile",
        type=Path,
        help="py-spy the service (and the wallet) during each run; collapsed stacks here",
    )
    parser.add_argument(
        "--env", action="append", default=[], metavar="NAME=VALUE", help="extra service env"
    )
    args = parser.parse_args()
    pairs = _pairs(parser, args.clients, args.tables)
    wanted: list[str] = []
    for item in args.wallet.split(","):
        if item not in _WALLET_KINDS:
            parser.error(f"--wallet: {item!r} is none of {', '.join(_WALLET_KINDS)}")
        wanted += [k for k in _WALLET_KINDS[item] if k not in wanted]
    extra_env = dict(item.split("=", 1) for item in args.env)

    run = f"rp_load_{uuid.uuid4().hex[:8]}"
    kinds = [] if args.only == "ceiling" else wanted
    if args.baseline_root and args.only != "ceiling":
        kinds.insert(kinds.index("service") + 1 if "service" in kinds else 0, "baseline")
        if "memory" in kinds:
            kinds.insert(kinds.index("memory") + 1, "memory-baseline")
    if args.only != "ceiling":
        kinds += [kind for kind, flag in _PEER_KINDS.items() if getattr(args, flag)]
    if args.only != "service":
        kinds.append("ceiling")
    # One database per kind: what one kind leaves behind (dead rows, autovacuum, the
    # ceiling's hundreds of thousands of rows) must not be charged to another.
    names = {kind: args.database or f"{run}_{kind}" for kind in kinds}
    databases = {
        kind: _with_database(args.url, name)
        if args.database
        else asyncio.run(_create_database(args.url, name, migrated=kind not in _PEER_KINDS))
        for kind, name in names.items()
    }
    # The operator's wallet has a database of its own (its ledger's schema is created by
    # the wallet itself), so its backends' CPU is counted apart from the game's.
    wallet_name = f"{run}_wallet" if "seamless" in kinds else None
    wallet_database = (
        asyncio.run(_create_database(args.url, wallet_name, migrated=False))
        if wallet_name
        else None
    )
    # One port per wallet and run: calls owed by one repetition stay deliverable.
    wallet_port, memory_port = _free_port(), _free_port()
    print(
        f"databases {', '.join(sorted({*names.values(), *([wallet_name] if wallet_name else [])}))}"
        f"; {' and '.join(f'{c} clients on {t} tables' for c, t in pairs)}, "
        f"{args.instances} instance(s) x {args.workers} worker(s), "
        f"{args.repeat} x {args.seconds:g} s "
        f"(+{args.warmup:g} s warm-up); load average before: {os.getloadavg()[0]:.2f}"
    )

    def label(kind: str, clients: int) -> str:
        return kind if len(pairs) == 1 else f"{kind}@{clients}"

    results: dict[str, list[dict[str, Any]]] = {label(k, c): [] for c, _ in pairs for k in kinds}
    figures: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="rp-load-") as scratch:
        logs = Path(scratch)
        try:
            for rep in range(args.repeat):
                for clients, tables in pairs:
                    for kind in kinds:
                        name = label(kind, clients)
                        config: dict[str, Any] = {
                            "clients": clients,
                            "seconds": args.seconds,
                            "warmup": args.warmup,
                            "seed": rep,
                            **_tokens(
                                args.baseline_root
                                if kind in BASELINE_KINDS and args.baseline_root
                                else ROOT,
                                clients,
                            ),
                            "prefix": f"{run}-{kind}-{rep}-{clients}",
                            "database": names[kind],
                            "deposit": DEPOSIT,
                            "table_ids": [
                                f"{kind}{rep}c{clients}-{run[-8:]}-t{j}" for j in range(tables)
                            ],
                        }
                        wallet = None
                        timings: dict[str, list[float]] = {}
                        if kind in SEAMLESS_KINDS:
                            reference = kind == "seamless"
                            wallet = start_wallet(
                                wallet_database if reference else None,
                                wallet_port if reference else memory_port,
                                logs,
                            )
                            config.update(
                                wallet_base=wallet.base_url,
                                wallet_url=wallet.url,
                                wallet_timeout_ms=args.wallet_timeout_ms,
                                wallet_pids=[wallet.process.pid],
                                wallet_database=wallet_name if reference else None,
                            )
                        servers = [
                            _start(
                                kind,
                                databases[kind],
                                args.workers,
                                logs,
                                extra_env,
                                args.baseline_root,
                            )
                            # The peer is its own server, started by _measure_peer.
                            for _ in range(0 if kind in _PEER_KINDS else args.instances)
                        ]
                        spies = (
                            [
                                _py_spy(server.process.pid, args.profile, f"{name}-{rep}-{i}")
                                for i, server in enumerate(servers)
                            ]
                            + (
                                [_py_spy(wallet.process.pid, args.profile, f"{name}-{rep}-wallet")]
                                if wallet
                                else []
                            )
                            if args.profile
                            else []
                        )
                        try:
                            result = (
                                _measure_peer(config, databases[kind], kind == "peer_turns")
                                if kind in _PEER_KINDS
                                else _measure(kind, servers, config)
                            )
                            if kind in OPERATOR_KINDS:
                                # Before anything stops: what the outbox still owes is
                                # delivered now, not during the next measurement.
                                drained, owed = asyncio.run(drain(databases[kind]))
                                result["drain_s"], result["owed_after_drain"] = drained, owed
                                if owed:
                                    print(
                                        f"warning: {name}: {owed} calls still owed after the drain"
                                    )
                            if wallet is not None:
                                timings = wallet_timings(wallet.base_url)
                        finally:
                            for spy in spies:
                                spy.send_signal(signal.SIGINT)
                                spy.wait(timeout=60)
                            for server in servers:
                                server.stop()
                            if wallet is not None:
                                wallet.stop()
                        if kind != "ceiling" and kind not in _PEER_KINDS:  # the peer counts its own
                            result.update(
                                asyncio.run(_store_figures(databases[kind], result["window"]))
                            )
                        if kind in OPERATOR_KINDS:
                            result.update(
                                asyncio.run(
                                    wallet_figures(
                                        databases[kind],
                                        wallet_database if kind == "seamless" else None,
                                        result["window"],
                                        result["requests"],
                                        timings,
                                    )
                                )
                            )
                        results[name].append(result)
                        print(f"[{rep + 1}/{args.repeat}] " + _line(name, result), flush=True)
                        if args.json:  # so far, should a later measurement fail
                            args.json.write_text(
                                json.dumps({"args": vars(args), "runs": results}, default=str)
                            )
            if args.audit_repeat and "service" in kinds:
                figures = asyncio.run(_audit(databases["service"], args.audit_repeat))
        finally:
            if not (args.keep or args.database):
                for name in names.values():
                    asyncio.run(_drop_database(args.url, name))
            if wallet_name and not args.keep:
                asyncio.run(_drop_database(args.url, wallet_name))
    medians: dict[str, dict[str, Any]] = {
        kind: _medians(runs) for kind, runs in results.items() if runs
    }
    print(f"\nmedians of {args.repeat}:")
    for kind, m in medians.items():
        print(_line(kind, m))
    for clients, _ in pairs:
        ceiling = medians.get(label("ceiling", clients))
        for kind in ("service", "baseline"):
            served = medians.get(label(kind, clients))
            if served and ceiling:
                print(
                    f"ratio {label(kind, clients)}/ceiling: "
                    f"{served['per_second'] / ceiling['per_second']:.2f} of the requests/s; "
                    f"p99 {served['p99_ms']:.1f} ms vs {ceiling['p99_ms']:.1f} ms "
                    f"(target: >= 0.50 and p99 < 25 ms)"
                )
        after, before = (
            medians.get(label("service", clients)),
            medians.get(label("baseline", clients)),
        )
        if after and before:
            print(
                f"service/baseline at {clients} clients: "
                f"{after['per_second'] / before['per_second']:.2f}x the "
                f"requests/s, server CPU per request {before['server_ms_per_request']:.2f} -> "
                f"{after['server_ms_per_request']:.2f} ms, PostgreSQL CPU per request "
                f"{before['postgres_ms_per_request']:.2f} -> "
                f"{after['postgres_ms_per_request']:.2f} ms"
            )
        internal = medians.get(label("service", clients))
        for kind in _PEER_KINDS:
            peer = medians.get(label(kind, clients))
            if internal and peer:
                print(_versus_peer(f"service/{kind}", clients, internal, peer))
        for kind in ("sessions", "seamless", "memory"):
            served = medians.get(label(kind, clients))
            if served and internal:
                print(_compare(f"{kind}/internal at {clients} clients", served, internal))
        memory, memory_before = (
            medians.get(label("memory", clients)),
            medians.get(label("memory-baseline", clients)),
        )
        if memory and memory_before:
            print(_compare(f"memory/memory-baseline at {clients} clients", memory, memory_before))
    for key, value in figures.items():
        print(
            f"{key}: {value['events']:,} events, {value['events_per_second']:,.0f} events/s"
            + (f", {value['rounds']:,} rounds" if "rounds" in value else "")
            + f", {value['differences']} differences"
        )
    if args.json:
        args.json.write_text(
            json.dumps(
                {"args": vars(args), "runs": results, "medians": medians, "audit": figures},
                indent=2,
                default=str,
            )
        )


# -- the eventsourcing peer (--peer) ---------------------------------------------------


_PEER_KINDS: Final = {"peer": "peer", "peer_turns": "peer_turns"}
BASELINE_KINDS: Final = frozenset({"baseline", "memory-baseline"})
"""The kinds served from ``--baseline-root``: the internal service and, with ``--wallet``
naming memory, the seamless operator at the in-memory wallet."""
"""The peer's kinds → the flag that asks for each (``--peer``, ``--peer-turns``)."""


def _measure_peer(config: dict[str, Any], database: str, turns: bool) -> dict[str, Any]:
    """One measurement of benchmarks/peer_eventsourcing.py, in a process of its own."""
    peer = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "peer_eventsourcing.py"),
            "run",
            json.dumps({**config, "database_url": database, "turns": turns}),
        ],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        check=False,
    )
    if peer.returncode:
        raise RuntimeError(f"eventsourcing peer failed:\n{peer.stderr[-4000:]}")
    result: dict[str, Any] = json.loads(peer.stdout.strip().splitlines()[-1])
    return result


def _versus_peer(label: str, clients: int, service: dict[str, Any], peer: dict[str, Any]) -> str:
    """The service against the same game on the eventsourcing library (medians)."""
    return (
        f"{label} at {clients} clients: {service['per_second'] / peer['per_second']:.2f}x "
        f"the commands/s ({peer['per_second']:,.0f} -> {service['per_second']:,.0f}), "
        f"{service['rounds_per_second'] / (peer['rounds_per_second'] or 1):.2f}x the rounds/s; "
        f"p50 {peer['p50_ms']:.2f} -> {service['p50_ms']:.2f} ms, p99 {peer['p99_ms']:.2f} -> "
        f"{service['p99_ms']:.2f} ms; CPU per command: process {peer['server_ms_per_request']:.2f}"
        f" -> server {service['server_ms_per_request']:.2f} ms (+ generator apart), postgres "
        f"{peer['postgres_ms_per_request']:.2f} -> {service['postgres_ms_per_request']:.2f} ms; "
        f"peer conflicts retried {peer.get('conflicts_per_second', 0.0):,.0f}/s"
    )


def _medians(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Medians over the repetitions, key by key (per command type too)."""
    medians: dict[str, Any] = {
        k: statistics.median(r[k] for r in runs) for k in _MEDIANS if k in runs[0]
    }
    names = {name for r in runs for name in r.get("by_command", {})}
    medians["by_command"] = {
        name: {
            key: statistics.median(
                r["by_command"][name][key] for r in runs if name in r.get("by_command", {})
            )
            for key in ("n", "p50_ms", "p99_ms")
        }
        for name in sorted(names)
    }
    return medians


def _package(root: Path) -> str:
    """The import prefix of the tree at ``root``: ``russian_poker.`` once the folders are
    one namespace (``.ci/russian_poker`` links them), nothing for a tree from before."""
    return "russian_poker." if (root / ".ci" / "russian_poker").is_dir() else ""


def _source_path(root: Path) -> str:
    """PYTHONPATH that makes the tree at ``root`` the code imported. For a namespace tree it
    must name ``.ci`` (its links): the editable install's finder comes after PYTHONPATH's
    entries, so a baseline's ``russian_poker`` is its own, not this checkout's."""
    return os.pathsep.join([str(root / ".ci"), str(root)]) if _package(root) else str(root)


def _tokens(root: Path, clients: int) -> dict[str, Any]:
    """The operator's token and the players' (``p0``…), minted by the source tree at
    ``root`` itself: a baseline from before a change of the token format verifies its own."""
    code = (
        f"import json, sys; from {_package(root)}service.app.auth import mint_token as m; "
        "s, n = sys.argv[1:]; "
        "print(json.dumps({'operator': m(s, 'operator', 'load-benchmark', 7200), "
        "'tokens': {f'p{i}': m(s, 'player', f'p{i}', 7200) for i in range(int(n))}}))"
    )
    env = {**os.environ, "PYTHONPATH": _source_path(root)}
    minted = subprocess.run(
        [sys.executable, "-c", code, SECRET, str(clients)],
        cwd=root, env=env, check=True, capture_output=True, text=True,
    )  # fmt: skip
    tokens: dict[str, Any] = json.loads(minted.stdout)
    return tokens


if __name__ == "__main__":
    main()
