"""The service behind PgBouncer in transaction mode, with deploy/pgbouncer/pgbouncer.ini (its
paths and ports replaced): Debian's PgBouncer as a real process between the service's
command and read pool and the tests' private PostgreSQL, with fewer server connections than
the pool has; ``LISTEN``, the session locks and the migrations straight to PostgreSQL.
Internal players and a seamless operator's (the reference wallet) play rounds; the books
then balance to the unit, the operator's ledger equals the game's record, and PgBouncer's
own statistics show the commands went through it."""

from __future__ import annotations

import asyncio
import contextlib
import pwd
import re
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Final

import asyncpg
import httpx
import pytest

from tests.faults.books import check_books
from tests.faults.load import Journal, Player, open_casino, play, tables_of
from tests.operators.harness import launch, register
from tests.operators.processes import ADMIN, Deployment, staff
from tests.processes import (
    PrivatePostgres,
    ServiceProcess,
    eventually,
    free_port,
)
from tests.wallet.reference import ReferenceWallet

ROOT: Final = Path(__file__).parents[2]
TABLES: Final = tables_of(2, 3, prefix="b")
SERVER_CONNECTIONS: Final = 3
"""PgBouncer's server connections for the pool: fewer than the service's pool has."""
PGBOUNCER: Final = shutil.which("pgbouncer") or "/usr/sbin/pgbouncer"


class PgBouncer:
    """Debian's pgbouncer, as an unprivileged user (it refuses to run as root)."""

    def __init__(self, root: Path, upstream_port: int) -> None:
        self.root = root
        self.port = free_port()
        self.upstream_port = upstream_port
        self.user = "postgres" if _exists("postgres") else "nobody"
        self.process: subprocess.Popen[bytes] | None = None

    def url(self, database: str) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def start(self) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        config = (ROOT / "deploy" / "pgbouncer" / "pgbouncer.ini").read_text()
        for setting, value in (
            ("listen_port", str(self.port)),
            ("default_pool_size", str(SERVER_CONNECTIONS)),
            ("auth_file", str(self.root / "userlist.txt")),
            ("logfile", str(self.root / "pgbouncer.log")),
            ("pidfile", str(self.root / "pgbouncer.pid")),
        ):
            config, count = re.subn(
                rf"^{setting} = .*$", f"{setting} = {value}", config, flags=re.M
            )
            assert count == 1, setting
        config = config.replace("port=5432", f"port={self.upstream_port}")
        (self.root / "pgbouncer.ini").write_text(config)
        (self.root / "userlist.txt").write_text('"postgres" ""\n')
        shutil.chown(self.root, self.user)
        for name in ("pgbouncer.ini", "userlist.txt"):
            shutil.chown(self.root / name, self.user)
        self.process = subprocess.Popen(
            [PGBOUNCER, str(self.root / "pgbouncer.ini")],
            user=self.user,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            cwd=self.root,
        )

    def stats(self, database: str) -> dict[str, int]:
        """``SHOW STATS`` of the admin console, for ``database`` (psql: the console speaks
        only the simple query protocol)."""
        done = subprocess.run(
            [
                "psql",
                "-h",
                "127.0.0.1",
                "-p",
                str(self.port),
                "-U",
                "postgres",
                "-d",
                "pgbouncer",
                "-A",
                "-F",
                "\t",
                "-c",
                "SHOW STATS",
            ],
            capture_output=True,
            text=True,
            timeout=30,
            check=True,
        )
        header, *rows = done.stdout.strip().splitlines()
        names = header.split("\t")
        for row in rows:
            values = dict(zip(names, row.split("\t"), strict=False))
            if values.get("database") == database:
                return {k: int(v) for k, v in values.items() if v.isdigit()}
        return {}

    def log(self) -> str:
        with contextlib.suppress(FileNotFoundError):
            return (self.root / "pgbouncer.log").read_text(errors="replace")
        return ""

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(10)
            if self.process.poll() is None:
                self.process.kill()


def _exists(user: str) -> bool:
    try:
        pwd.getpwnam(user)
    except KeyError:
        return False
    return True


@pytest.fixture
def pgbouncer(private_postgres: PrivatePostgres) -> Iterator[PgBouncer]:
    # Outside pytest's root-only base directory: PgBouncer runs as an unprivileged user.
    root = Path(tempfile.gettempdir()) / f"pgbouncer-{uuid.uuid4().hex[:12]}"
    bouncer = PgBouncer(root, private_postgres.port)
    bouncer.start()
    try:
        yield bouncer
    finally:
        bouncer.stop()
        print(f"----- pgbouncer -----\n{bouncer.log()[-3000:]}")
        shutil.rmtree(bouncer.root, ignore_errors=True)


async def _server_connections(url: str, database: str) -> int:
    conn = await asyncpg.connect(url)
    try:
        count: int = await conn.fetchval(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = $1 AND backend_type ="
            " 'client backend' AND application_name = 'russian-poker'",
            database,
        )
    finally:
        await conn.close()
    return count


async def test_the_service_behind_pgbouncer_in_transaction_mode(
    fresh_database: str,
    pgbouncer: PgBouncer,
    spawn: Callable[..., ServiceProcess],
    http: httpx.AsyncClient,
    reference_wallet: ReferenceWallet,
) -> None:
    database = fresh_database.rsplit("/", 1)[1]
    await eventually(
        lambda: _accepts(pgbouncer.url(database)), timeout=30, message="pgbouncer listening"
    )
    service = spawn(
        "bounced",
        fresh_database,
        env={
            "RUSSIAN_POKER_POOLED_DATABASE_URL": pgbouncer.url(database),
            "RUSSIAN_POKER_POOL_SIZE": "8",
            "RUSSIAN_POKER_WALLET_BACKOFF_MAX_S": "0.2",
        },
    )
    await service.start_ready()
    await open_casino(service.url, http, TABLES)
    operator = staff("operator", "acme")
    async with httpx.AsyncClient(base_url=service.url, timeout=60) as client:
        wallet = {
            "mode": "seamless",
            "url": reference_wallet.url,
            "secret": reference_wallet.secret,
            "timeout_ms": 5000,
        }
        await register(client, ADMIN, "acme", wallet, ["EUR"])
        r = await client.post("/v1/tables", json={"table_id": "s1"}, headers=operator)
        assert r.status_code == 201, r.text
        journal = Journal()
        seamless = []
        for seed, name in enumerate(("ann", "ben")):
            await reference_wallet.set_player(name, "EUR", 1_000_000)
            launched = await launch(client, operator, "acme", name, "EUR")
            seamless.append(
                Player(
                    launched.game_id,
                    "acme.s1",
                    [service.url],
                    client,
                    journal,
                    900 + seed,
                    headers=launched.headers,
                )
            )
        before = pgbouncer.stats(database).get("total_xact_count", 0)
        await asyncio.gather(
            play([service.url], http, journal, TABLES, 3),
            *(bot.run(3) for bot in seamless),
        )
    assert journal.server_errors() == []
    # The commands went through PgBouncer, over no more server connections than it keeps.
    stats = pgbouncer.stats(database)
    assert stats["total_xact_count"] - before > len(journal.acknowledged)
    direct = await _server_connections(fresh_database, database)
    assert direct <= SERVER_CONNECTIONS + 4, direct  # its own, and the direct pool of 8 // 2
    books = await check_books(fresh_database, journal)
    pool = await asyncpg.create_pool(fresh_database, min_size=1, max_size=2)
    try:
        casino = Deployment([service], reference_wallet, pool)
        await casino.delivered(timeout=60)
        ours = await casino.books("acme", {"ann": 1_000_000, "ben": 1_000_000})
    finally:
        await pool.close()
    assert ours.of("bet", "committed") and ours.of("win")
    assert "Exception in ASGI application" not in service.log_text()
    print(
        f"behind PgBouncer ({SERVER_CONNECTIONS} server connections for a pool of 8):"
        f" {books.acknowledged} commands acknowledged, {books.rounds} rounds replayed,"
        f" {len(ours.ours)} operator calls agree;"
        f" {stats['total_xact_count'] - before} transactions through PgBouncer"
    )


async def _accepts(url: str) -> bool:
    try:
        conn = await asyncpg.connect(url, statement_cache_size=0, timeout=3)
    except (OSError, asyncpg.PostgresError, TimeoutError):
        return False
    await conn.close()
    return True
