"""A soak, run by hand: two ``russian-poker serve`` instances on one database for
``--minutes`` (30 by default) of mixed play (the default operator's players and a seamless
operator's, whose wallet is the reference wallet process). The second instance (two
workers) is ``kill -9``ed and started again every ``--kill-every`` seconds, the first lives
throughout, and the operator's wallet is down for ``--outage`` seconds every
``--outage-every``. Every ``--sample`` seconds it samples each instance: resident memory
(its processes together), open file descriptors, child processes, its database
connections; the outbox's backlog; and processes left behind (a child of a killed instance
still running: an orphan).

Written to ``--out`` (default ``benchmarks/soak-out``): ``samples.jsonl``, ``soak.png`` (the
series over time, kills and outages marked) and ``summary.json``: growth per hour of each
series (least squares over each instance's lives after their first minute), the orphans
found, and the verdict on the books (tests/faults/books.py, and the operator's ledger
against the game's record).

    PYTHONPATH=. .venv/bin/python benchmarks/soak.py [--minutes 30] [--url URL]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import random
import signal
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import asyncpg
import httpx
import psutil

from tests.faults.books import check_books
from tests.faults.load import Journal, Player, open_casino, tables_of
from tests.operators.harness import launch, register
from tests.operators.processes import ADMIN, Deployment, staff
from tests.processes import ServiceProcess, create_database, drop_database
from tests.wallet.reference import ReferenceWallet

DEFAULT_URL = "postgresql://postgres@127.0.0.1:5432/postgres"
OPERATOR = "acme"


@dataclass
class Sample:
    at: float
    instance: str
    pid: int
    rss_mib: float
    fds: int
    children: int
    connections: int
    backlog: int
    orphans: int


def _tree(pid: int) -> list[psutil.Process]:
    try:
        root = psutil.Process(pid)
        return [root, *root.children(recursive=True)]
    except psutil.NoSuchProcess:
        return []


def _measure(tree: list[psutil.Process]) -> tuple[float, int, int]:
    rss = fds = 0
    for process in tree:
        with contextlib.suppress(psutil.Error):
            rss += process.memory_info().rss
            fds += process.num_fds()
    return rss / 2**20, fds, max(0, len(tree) - 1)


class Soak:
    def __init__(self, args: argparse.Namespace, root: Path) -> None:
        self.args = args
        self.root = root
        self.samples: list[Sample] = []
        self.events: list[tuple[float, str]] = []
        self.dead_children: set[int] = set()
        self.started = time.monotonic()
        self.port = urlsplit(args.url).port or 5432

    def mark(self, what: str) -> None:
        self.events.append((time.monotonic() - self.started, what))
        print(f"{time.monotonic() - self.started:7.0f} s  {what}", flush=True)

    async def sample(self, services: list[ServiceProcess], url: str) -> None:
        conn = await asyncpg.connect(url)
        try:
            backlog = await conn.fetchval(
                "SELECT count(*) FROM wallet_transactions"
                " WHERE status IN ('queued', 'pending', 'accepted')"
            )
            ports = [
                r["client_port"]
                for r in await conn.fetch(
                    "SELECT client_port FROM pg_stat_activity WHERE datname ="
                    " current_database() AND pid <> pg_backend_pid()"
                )
            ]
        finally:
            await conn.close()
        orphans = sum(1 for pid in self.dead_children if psutil.pid_exists(pid))
        local = _client_ports(self.port)
        for service in services:
            if service.pid is None or not service.running:
                continue
            tree = _tree(service.pid)
            rss, fds, children = _measure(tree)
            pids = {p.pid for p in tree}
            connections = sum(1 for port in ports if local.get(port) in pids)
            self.samples.append(
                Sample(
                    at=time.monotonic() - self.started,
                    instance=service.name,
                    pid=service.pid,
                    rss_mib=round(rss, 1),
                    fds=fds,
                    children=children,
                    connections=connections,
                    backlog=backlog,
                    orphans=orphans,
                )
            )

    async def kill_and_restart(self, service: ServiceProcess) -> None:
        assert service.pid is not None
        self.dead_children |= {p.pid for p in _tree(service.pid)[1:]}
        await service.kill()
        self.mark(f"kill -9 {service.name}")
        await service.start_ready(timeout=120)
        self.mark(f"{service.name} ready again (pid {service.pid})")


async def _wallet_outage(run: Soak, wallet: ReferenceWallet, seconds: float) -> None:
    await wallet.stop()
    run.mark("wallet down")
    await asyncio.sleep(seconds)
    await wallet.start_ready()
    run.mark("wallet back")


def _client_ports(server_port: int) -> dict[int, int]:
    """Local TCP port -> pid of every process with a connection to PostgreSQL's port."""
    found = {}
    for connection in psutil.net_connections(kind="tcp"):
        if connection.raddr and connection.raddr.port == server_port and connection.pid:
            found[connection.laddr.port] = connection.pid
    return found


def _growth(samples: list[Sample], field: str) -> float | None:
    """Least-squares slope per hour over each process life after its first minute, averaged
    by weight of the samples; ``None`` when too few."""
    slopes = []
    for _, life in itertools.groupby(
        sorted(samples, key=lambda s: (s.pid, s.at)), key=lambda s: s.pid
    ):
        points = [(s.at, float(getattr(s, field))) for s in life]
        points = [p for p in points if p[0] - points[0][0] >= 60]
        if len(points) < 5:
            continue
        n = len(points)
        mx = sum(x for x, _ in points) / n
        my = sum(y for _, y in points) / n
        var = sum((x - mx) ** 2 for x, _ in points)
        if var == 0:
            continue
        slope = sum((x - mx) * (y - my) for x, y in points) / var
        slopes.append((slope * 3600, n))
    if not slopes:
        return None
    return round(sum(s * n for s, n in slopes) / sum(n for _, n in slopes), 2)


def _plot(soak: Soak, out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fields = [
        ("rss_mib", "resident MiB"),
        ("fds", "open files"),
        ("connections", "database connections"),
        ("children", "child processes"),
        ("backlog", "outbox backlog"),
    ]
    figure, axes = plt.subplots(len(fields), 1, figsize=(10, 12), sharex=True)
    for axis, (field, label) in zip(axes, fields, strict=True):
        for name in sorted({s.instance for s in soak.samples}):
            points = [s for s in soak.samples if s.instance == name]
            axis.plot(
                [s.at / 60 for s in points],
                [getattr(s, field) for s in points],
                ".",
                ms=3,
                label=name,
            )
        for at, what in soak.events:
            axis.axvline(at / 60, color="red" if "kill" in what else "grey", lw=0.5, alpha=0.5)
        axis.set_ylabel(label)
    axes[0].legend()
    axes[-1].set_xlabel("minutes (red: kill -9, grey: restarts and wallet outages)")
    figure.tight_layout()
    figure.savefig(out / "soak.png", dpi=80)


async def soak(args: argparse.Namespace) -> None:
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    root = Path(tempfile.mkdtemp(prefix="soak-"))
    url = await create_database(args.url, "soak")
    wallet_db = await create_database(args.url, "soakwallet", migrated=False)
    wallet = ReferenceWallet(wallet_db, root / "wallet")
    await wallet.start_ready()
    env = {"RUSSIAN_POKER_WALLET_BACKOFF_MAX_S": "2", "RUSSIAN_POKER_LOG_LEVEL": "warning"}
    # The second runs two workers: its kills also show whether they outlive it.
    services = [ServiceProcess(f"s{i}", url, root / f"s{i}", env=env, workers=i) for i in (1, 2)]
    run = Soak(args, root)
    journal = Journal()
    try:
        for service in services:
            await service.start_ready()
        urls = [s.url for s in services]
        limits = httpx.Limits(max_connections=100)
        async with httpx.AsyncClient(timeout=60, limits=limits) as http:
            tables = tables_of(3, 3, prefix="k")
            await open_casino(urls[0], http, tables)
            client = httpx.AsyncClient(base_url=urls[0], timeout=60)
            config = {
                "mode": "seamless",
                "url": wallet.url,
                "secret": wallet.secret,
                "timeout_ms": 3000,
            }
            await register(client, ADMIN, OPERATOR, config, ["EUR"])
            r = await client.post(
                "/v1/tables", json={"table_id": "s1"}, headers=staff("operator", OPERATOR)
            )
            assert r.status_code == 201, r.text
            players = [
                Player(name, table_id, urls, http, journal, 10 * t + i, patience=600)
                for t, (table_id, names) in enumerate(tables.items())
                for i, name in enumerate(names)
            ]
            starts = {}
            for seed, name in enumerate(("ann", "ben", "cat")):
                await wallet.set_player(name, "EUR", 10_000_000)
                starts[name] = 10_000_000
                launched = await launch(client, staff("operator", OPERATOR), OPERATOR, name, "EUR")
                players.append(
                    Player(
                        launched.game_id,
                        f"{OPERATOR}.s1",
                        urls,
                        http,
                        journal,
                        500 + seed,
                        patience=600,
                        headers=launched.headers,
                    )
                )
            load = asyncio.ensure_future(asyncio.gather(*(p.run(10**9) for p in players)))
            end = run.started + args.minutes * 60
            next_kill = run.started + args.kill_every
            next_outage = run.started + args.outage_every
            # The second instance is the one killed: the first lives the whole soak, so its
            # series show growth over the full length, not over a few minutes' life.
            victim = services[1]
            outage: asyncio.Future[None] | None = None
            while time.monotonic() < end:
                await run.sample(services, url)
                now = time.monotonic()
                if now >= next_kill:
                    await run.kill_and_restart(victim)
                    next_kill = now + args.kill_every
                if now >= next_outage and (outage is None or outage.done()):
                    outage = asyncio.ensure_future(_wallet_outage(run, wallet, args.outage))
                    next_outage = now + args.outage_every
                if load.done():
                    load.result()
                await asyncio.sleep(args.sample)
            # Every round with bets is played to its end (the books close each one).
            if outage is not None:
                await outage
            for player in players:
                view = await player.view()
                player.last_round = view["round"]["number"]
            await asyncio.wait_for(load, 600)
            await client.aclose()
        run.mark("load stopped")
        books = await check_books(url, journal, catch_up_timeout=300)
        pool = await asyncpg.create_pool(url, min_size=1, max_size=2)
        try:
            casino = Deployment(services, wallet, pool)
            await casino.delivered(timeout=300)
            ours = await casino.books(OPERATOR, starts)
        finally:
            await pool.close()
        for service in services:
            assert service.pid is not None
            run.dead_children |= {p.pid for p in _tree(service.pid)[1:]}
            await service.kill()
        await asyncio.sleep(5)
        orphans = [pid for pid in run.dead_children if psutil.pid_exists(pid)]
        summary: dict[str, Any] = {
            "minutes": args.minutes,
            "kills": sum(1 for _, w in run.events if w.startswith("kill")),
            "wallet_outages": sum(1 for _, w in run.events if w == "wallet down"),
            "commands_sent": journal.commands(),
            "acknowledged": books.acknowledged,
            "rounds_replayed": books.rounds,
            "operator_calls_agreeing": len(ours.ours),
            "server_errors": len(journal.server_errors()),
            "statuses": {str(k): v for k, v in journal.statuses().items()},
            "growth_per_hour": {
                f: _growth(run.samples, f) for f in ("rss_mib", "fds", "connections", "children")
            },
            "max": {
                f: max((getattr(s, f) for s in run.samples), default=None)
                for f in ("rss_mib", "fds", "connections", "children", "backlog")
            },
            "orphans_during": max((s.orphans for s in run.samples), default=0),
            "orphans_after_last_kill": len(orphans),
        }
        (out / "samples.jsonl").write_text(
            "".join(json.dumps(asdict(s)) + "\n" for s in run.samples)
        )
        (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
        _plot(run, out)
        print(json.dumps(summary, indent=2))
    finally:
        for service in services:
            service.stop_now()
        with contextlib.suppress(Exception):
            await wallet.stop()
        wallet.stop_now()
        for pid in run.dead_children:
            with contextlib.suppress(psutil.Error):
                psutil.Process(pid).send_signal(signal.SIGKILL)
        await drop_database(args.url, url)
        await drop_database(args.url, wallet_db)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default=DEFAULT_URL, help="a server to make the databases on")
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--kill-every", type=float, default=240, help="seconds between kills")
    parser.add_argument(
        "--outage-every", type=float, default=420, help="seconds between wallet outages"
    )
    parser.add_argument("--outage", type=float, default=30, help="seconds the wallet is down")
    parser.add_argument("--sample", type=float, default=10, help="seconds between samples")
    parser.add_argument("--out", default=str(Path(__file__).parent / "soak-out"))
    random.seed(1)
    asyncio.run(soak(parser.parse_args()))


if __name__ == "__main__":
    main()
