"""What a read replica takes off the primary, run by hand: a primary and a streaming standby
(tests/failover/cluster.py: pgserver's PostgreSQL, ``pg_basebackup -R``), one service
process, and a mixed load: players playing full rounds and readers polling what a lobby, a
table page and a cashier read (the lobby, table views, ledgers, a player's rounds). Each
repetition runs the same load twice on the same databases, A (every read on the primary)
and B (``RUSSIAN_POKER_READ_DATABASE_URL`` on the standby), and measures the primary's CPU
(its server processes, from /proc) per command and per read.

    PYTHONPATH=. .venv/bin/python benchmarks/replica.py [--seconds 20] [--repeat 3]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import statistics
import tempfile
import time
from pathlib import Path

import asyncpg
import httpx
import psutil

from tests.failover.cluster import Replicated
from tests.faults.load import OPERATOR, Journal, Player, open_casino, tables_of
from tests.processes import ServiceProcess, token_headers, with_database

DATABASE = "replica_bench"


def _cpu(pid: int) -> float:
    """CPU seconds of the postmaster ``pid`` and every server process under it."""
    try:
        root = psutil.Process(pid)
        total = 0.0
        for process in [root, *root.children(recursive=True)]:
            try:
                times = process.cpu_times()
            except psutil.NoSuchProcess:
                continue
            total += times.user + times.system
    except psutil.NoSuchProcess:
        return 0.0
    return total


async def _reader(
    http: httpx.AsyncClient, base: str, names: list[str], stop: asyncio.Event, reads: list[int]
) -> None:
    for name in itertools.cycle(names):
        if stop.is_set():
            return
        table = name.split("p")[0]
        player = token_headers("player", name)
        for path, headers in (
            ("/v1/tables", OPERATOR),
            (f"/v1/tables/{table}", player),
            (f"/v1/wallets/{name}/ledger?limit=20", player),
            (f"/v1/players/{name}/rounds?limit=10", player),
        ):
            r = await http.get(f"{base}{path}", headers=headers)
            if r.status_code == 200:
                reads[0] += 1


async def _one(
    cluster: Replicated, root: Path, label: str, replica: bool, seconds: float, offset: int
) -> tuple[float, float, int, int]:
    env = {"RUSSIAN_POKER_LOG_LEVEL": "warning", "RUSSIAN_POKER_CLOCK": "false"}
    if replica:
        env["RUSSIAN_POKER_READ_DATABASE_URL"] = with_database(cluster.standby_url, DATABASE)
    service = ServiceProcess(label, cluster.primary.url(DATABASE), root / label, env=env)
    await service.start_ready()
    try:
        limits = httpx.Limits(max_connections=64)
        async with httpx.AsyncClient(timeout=60, limits=limits) as http:
            tables = tables_of(4, 2, prefix=f"r{offset}t")
            await open_casino(service.url, http, tables)
            journal = Journal()
            players = [
                Player(name, table_id, [service.url], http, journal, 10 * t + i)
                for t, (table_id, names) in enumerate(tables.items())
                for i, name in enumerate(names)
            ]
            names = [n for names in tables.values() for n in names]
            stop = asyncio.Event()
            reads = [0]
            pid = int((cluster.primary.pgdata / "postmaster.pid").read_text().split()[0])
            load = asyncio.ensure_future(asyncio.gather(*(p.run(10**9) for p in players)))
            readers = [
                asyncio.ensure_future(
                    _reader(http, service.url, names[i:] + names[:i], stop, reads)
                )
                for i in range(4)
            ]
            await asyncio.sleep(3)  # warm
            before_cpu, before_cmds, before_reads = _cpu(pid), len(journal.acknowledged), reads[0]
            await asyncio.sleep(seconds)
            cpu = _cpu(pid) - before_cpu
            commands = len(journal.acknowledged) - before_cmds
            done_reads = reads[0] - before_reads
            stop.set()
            load.cancel()
            await asyncio.gather(load, *readers, return_exceptions=True)
    finally:
        await service.terminate()
    return cpu * 1000 / max(commands, 1), cpu, commands, done_reads


async def main(args: argparse.Namespace) -> None:
    root = Path(tempfile.mkdtemp(prefix="replica-bench-"))
    cluster = Replicated(
        Path(tempfile.gettempdir()) / "russian-poker-bench" / f"replica-{time.time_ns()}"
    )
    await cluster.setup()
    try:
        conn = await asyncpg.connect(cluster.primary.server_url)
        await conn.execute(f'CREATE DATABASE "{DATABASE}"')
        await conn.close()
        rows: dict[str, list[tuple[float, float, int, int]]] = {"A": [], "B": []}
        offset = itertools.count()
        for attempt in range(args.repeat):
            for label, replica in (("A", False), ("B", True)):
                result = await _one(
                    cluster, root, f"{label}{attempt}", replica, args.seconds, next(offset)
                )
                rows[label].append(result)
                per_cmd, cpu, commands, reads = result
                print(
                    f"run {attempt + 1} {label} ({'replica' if replica else 'primary only'}):"
                    f" {commands} commands, {reads} reads in {args.seconds:.0f} s;"
                    f" primary CPU {cpu:.1f} s, {per_cmd:.2f} ms per command"
                )
        a = statistics.median(r[0] for r in rows["A"])
        b = statistics.median(r[0] for r in rows["B"])
        ra = statistics.median(r[3] / r[2] for r in rows["A"])
        rb = statistics.median(r[3] / r[2] for r in rows["B"])
        print(
            f"medians of {args.repeat}: primary CPU per command A {a:.2f} ms, B {b:.2f} ms"
            f" (B/A {b / a:.2f}); reads per command A {ra:.1f}, B {rb:.1f}"
        )
    finally:
        cluster.teardown()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--repeat", type=int, default=3)
    asyncio.run(main(parser.parse_args()))
