"""A Patroni drill, run by hand: a local three-member etcd and two Patroni nodes (Debian's
patroni, etcd-server and postgresql-15, with deploy/patroni/patroni.yml as it is), one
``russian-poker serve`` on the libpq multi-host URL over both nodes, players at the tables;
then a **switchover** (``patronictl switchover``) and, later, a **failover** (``kill -9`` of
the leader's Patroni and PostgreSQL). Reported: what the service saw of each (clean 503s,
the time from the event to the first acknowledged command after it), and the verdict on the
last leader: nothing acknowledged lost, nothing applied twice, replay and reconciliation
clean (tests/faults/books.py).

    apt-get install patroni etcd-server etcd-client postgresql-15   # once
    PYTHONPATH=. .venv/bin/python benchmarks/patroni_drill.py [--rounds N] [--keep DIR]

It runs as root and starts Patroni as the ``postgres`` user (PostgreSQL refuses root). The
figures in docs/reliability.md#patroni come from it; it is not part of the suite (a
failover waits for the leader's key to expire: ``ttl``, 15 s).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from tests.faults.books import check_books
from tests.faults.load import Journal, Player, open_casino, tables_of
from tests.processes import ServiceProcess, eventually, free_port

ROOT = Path(__file__).parents[1]
CONFIG = ROOT / "deploy" / "patroni" / "patroni.yml"
PASSWORD = "drill-password"


@dataclass
class Node:
    name: str
    pg_port: int = field(default_factory=free_port)
    api_port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    @property
    def api(self) -> str:
        return f"http://127.0.0.1:{self.api_port}"


def _etcd(root: Path) -> tuple[list[subprocess.Popen[bytes]], str]:
    members = [(f"e{i}", free_port(), free_port()) for i in range(1, 4)]
    cluster = ",".join(f"{n}=http://127.0.0.1:{peer}" for n, _, peer in members)
    processes = []
    for name, client, peer in members:
        log = (root / f"{name}.log").open("wb")
        processes.append(
            subprocess.Popen(
                [
                    "etcd",
                    "--name",
                    name,
                    "--data-dir",
                    str(root / name),
                    "--listen-client-urls",
                    f"http://127.0.0.1:{client}",
                    "--advertise-client-urls",
                    f"http://127.0.0.1:{client}",
                    "--listen-peer-urls",
                    f"http://127.0.0.1:{peer}",
                    "--initial-advertise-peer-urls",
                    f"http://127.0.0.1:{peer}",
                    "--initial-cluster",
                    cluster,
                    "--initial-cluster-state",
                    "new",
                ],
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        )
    return processes, ",".join(f"127.0.0.1:{client}" for _, client, _ in members)


def _start_patroni(node: Node, root: Path, etcd_hosts: str) -> None:
    data = root / node.name
    data.mkdir(parents=True, exist_ok=True)
    shutil.chown(data, "postgres", "postgres")
    data.chmod(0o700)
    env = {
        "PATH": os.environ["PATH"],
        "PATRONI_NAME": node.name,
        "PATRONI_RESTAPI_LISTEN": f"127.0.0.1:{node.api_port}",
        "PATRONI_RESTAPI_CONNECT_ADDRESS": f"127.0.0.1:{node.api_port}",
        "PATRONI_POSTGRESQL_LISTEN": f"127.0.0.1:{node.pg_port}",
        "PATRONI_POSTGRESQL_CONNECT_ADDRESS": f"127.0.0.1:{node.pg_port}",
        "PATRONI_POSTGRESQL_DATA_DIR": str(data / "pgdata"),
        "PATRONI_POSTGRESQL_PGPASS": str(data / "pgpass"),
        "PATRONI_ETCD3_HOSTS": etcd_hosts,
        "PATRONI_SUPERUSER_PASSWORD": PASSWORD,
        "PATRONI_REPLICATION_PASSWORD": PASSWORD,
        "PATRONI_REWIND_PASSWORD": PASSWORD,
    }
    log = (root / f"{node.name}.log").open("ab")
    node.process = subprocess.Popen(
        ["patroni", str(CONFIG)],
        env=env,
        user="postgres",
        cwd=data,
        stdout=log,
        stderr=subprocess.STDOUT,
    )


async def _role(http: httpx.AsyncClient, node: Node) -> str | None:
    try:
        r = await http.get(f"{node.api}/patroni", timeout=2)
    except httpx.HTTPError:
        return None
    if r.status_code != 200:
        return None
    state: dict[str, Any] = r.json()
    if state.get("state") != "running":
        return None
    role: str = state.get("role", "")
    return role


async def _leader(http: httpx.AsyncClient, nodes: list[Node]) -> Node | None:
    for node in nodes:
        if await _role(http, node) in ("master", "primary"):
            return node
    return None


async def _in_sync(http: httpx.AsyncClient, node: Node) -> bool:
    try:
        r = await http.get(f"{node.api}/sync", timeout=2)
    except httpx.HTTPError:
        return False
    return r.status_code == 200


def _patronictl(root: Path, etcd_hosts: str, *args: str) -> str:
    config = root / "patronictl.yml"
    config.write_text(f"scope: russian-poker\netcd3:\n  hosts: {etcd_hosts}\n")
    done = subprocess.run(
        ["patronictl", "-c", str(config), *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    return done.stdout + done.stderr


def _postmaster(node: Node, root: Path) -> int | None:
    pid_file = root / node.name / "pgdata" / "postmaster.pid"
    try:
        return int(pid_file.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def _after(journal: Journal, moment: float) -> tuple[float | None, int]:
    """The first acknowledged command sent after ``moment`` (its answer's time), and the
    503s answered after it."""
    acked = [
        a.answered_at
        for a in journal.acknowledged.values()
        if a.answered_at is not None and a.sent_at >= moment
    ]
    unavailable = sum(1 for a in journal.attempts if a.sent_at >= moment and a.status == 503)
    return (min(acked) if acked else None), unavailable


async def drill(args: argparse.Namespace) -> None:
    root = Path(args.keep or tempfile.mkdtemp(prefix="patroni-drill-"))
    root.mkdir(parents=True, exist_ok=True)
    shutil.chown(root, "postgres", "postgres")
    etcd, hosts = _etcd(root)
    nodes = [Node("node1"), Node("node2")]
    service: ServiceProcess | None = None
    try:
        async with httpx.AsyncClient() as http:
            await asyncio.sleep(2)
            _start_patroni(nodes[0], root, hosts)
            await eventually(lambda: _leader(http, nodes), timeout=120, message="a leader")
            _start_patroni(nodes[1], root, hosts)
            await eventually(
                lambda: _in_sync(http, nodes[1]), timeout=180, message="a sync standby"
            )
            first = await _leader(http, nodes)
            assert first is not None
            subprocess.run(
                [
                    "psql",
                    f"postgresql://postgres:{PASSWORD}@127.0.0.1:{first.pg_port}/postgres",
                    "-c",
                    "CREATE DATABASE poker",
                ],
                check=True,
                capture_output=True,
            )
            url = (
                f"postgresql://postgres:{PASSWORD}@"
                + ",".join(f"127.0.0.1:{n.pg_port}" for n in nodes)
                + "/poker?target_session_attrs=read-write&connect_timeout=2"
            )
            service = ServiceProcess("drill", url, root / "service")
            await service.start_ready()
            tables = tables_of(3, 3, prefix="d")
            await open_casino(service.url, http, tables)
            journal = Journal()
            players = [
                Player(name, table_id, [service.url], http, journal, 10 * t + i, patience=300)
                for t, (table_id, names) in enumerate(tables.items())
                for i, name in enumerate(names)
            ]
            load = asyncio.ensure_future(asyncio.gather(*(p.run(args.rounds) for p in players)))
            await eventually(lambda: len(journal.acknowledged) >= 60, timeout=120)

            leader = await _leader(http, nodes)
            assert leader is not None
            other = nodes[1] if leader is nodes[0] else nodes[0]
            switched_at = time.monotonic()
            said = _patronictl(
                root,
                hosts,
                "switchover",
                "--leader",
                leader.name,
                "--candidate",
                other.name,
                "--force",
            )
            await eventually(
                lambda: _after(journal, switched_at)[0] is not None,
                timeout=120,
                message="a command acknowledged after the switchover",
            )
            back, refused = _after(journal, switched_at)
            assert back is not None
            switchover = (back - switched_at, refused, said.strip().splitlines()[-1:])

            await eventually(
                lambda: _in_sync(http, leader), timeout=180, message="the old leader in sync again"
            )
            await eventually(lambda: len(journal.acknowledged) >= 200, timeout=180)
            if load.done():
                load.result()  # the players' own error
            leader = await _leader(http, nodes)
            assert leader is not None and leader.process is not None
            postmaster = _postmaster(leader, root)
            killed_at = time.monotonic()
            leader.process.send_signal(signal.SIGKILL)
            if postmaster:
                os.kill(postmaster, signal.SIGKILL)
            await eventually(
                lambda: _after(journal, killed_at)[0] is not None,
                timeout=180,
                message="a command acknowledged after the failover",
            )
            back, refused = _after(journal, killed_at)
            assert back is not None
            failover = (back - killed_at, refused)
            # A little more play on the survivor, then the players stop (at whatever move:
            # only what was acknowledged is held to account).
            settled = len(journal.acknowledged)
            await eventually(lambda: len(journal.acknowledged) >= settled + 60, timeout=180)
            load.cancel()
            await asyncio.gather(load, return_exceptions=True)
            survivor = await _leader(http, nodes)
            assert survivor is not None
            books = await check_books(
                f"postgresql://postgres:{PASSWORD}@127.0.0.1:{survivor.pg_port}/poker", journal
            )
            print(
                json.dumps(
                    {
                        "commands_sent": journal.commands(),
                        "acknowledged": books.acknowledged,
                        "rounds_replayed": books.rounds,
                        "statuses": {str(k): v for k, v in journal.statuses().items()},
                        "server_errors": len(journal.server_errors()),
                        "switchover": {
                            "first_ack_after_s": round(switchover[0], 2),
                            "clean_503s": switchover[1],
                            "patronictl": switchover[2],
                        },
                        "failover": {
                            "first_ack_after_kill_s": round(failover[0], 2),
                            "clean_503s": failover[1],
                        },
                        "service_restarts": service.starts - 1,
                    },
                    indent=2,
                )
            )
    finally:
        if service is not None:
            service.stop_now()
        for node in nodes:
            if node.process is not None and node.process.poll() is None:
                node.process.terminate()
                try:
                    node.process.wait(30)
                except subprocess.TimeoutExpired:
                    node.process.kill()
            pid = _postmaster(node, root)
            if pid:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
        for process in etcd:
            process.terminate()
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--rounds", type=int, default=1000, help="at most this many rounds per table"
    )
    parser.add_argument("--keep", help="a directory to keep the nodes' logs and data in")
    asyncio.run(drill(parser.parse_args()))


if __name__ == "__main__":
    main()
