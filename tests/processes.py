"""Real processes for the fault, cluster and lifecycle tests.

* :class:`ServiceProcess` runs ``russian-poker serve`` as an OS process (the same entry
  point operators use), waits for ``/health/ready`` and stops it gracefully (SIGTERM) or not
  at all (SIGKILL), and starts it again on the same port.
* :class:`PrivatePostgres` is a PostgreSQL server of the test session's own (pgserver's
  binaries and data directory), listening on a TCP port of 127.0.0.1, which tests may stop,
  crash and start again. The shared server other suites use is never touched.
* :class:`DatabaseProxy` sits between a service and PostgreSQL: ``cut()`` resets every
  connection and refuses new ones (the database is unreachable), ``restore()`` lets them
  through again; ``silence()`` passes nothing more while keeping every connection open
  (the database went silent: a powered-off machine, a partition). It counts connection
  attempts, so a test can see a service trying.

Nothing here asserts on timing: waits are for conditions, with generous bounds.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import itertools
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import (
    AsyncIterator,
    Awaitable,
    Callable,
    Iterable,
    Iterator,
    Mapping,
    Sequence,
)
from pathlib import Path
from typing import Any, Final

import asyncpg
import httpx

from russian_poker.events.postgres.migrate import migrate
from russian_poker.service.app.auth import mint_token
from tests.conftest import with_database

__all__ = [
    "SECRET",
    "DatabaseProxy",
    "PrivatePostgres",
    "ServiceProcess",
    "answers_200",
    "create_database",
    "drop_database",
    "eventually",
    "free_port",
    "held_streams",
    "leaders",
    "lock_holders",
    "owner_of",
    "shared_private_postgres",
    "token_headers",
    "waiting_on_locks",
    "with_database",
]

SECRET: Final = "processes-secret-" + "y" * 40
"""``RUSSIAN_POKER_JWT_SECRET`` of every service process the tests start."""

_RUSSIAN_POKER: Final = Path(sys.executable).parent / "russian-poker"
"""The venv's console script (``shutil.which`` finds it when Python is not the venv's)."""


def _command() -> str:
    if _RUSSIAN_POKER.exists():
        return str(_RUSSIAN_POKER)
    found = shutil.which("russian-poker")
    assert found, "russian-poker is not installed (pip install -e .)"
    return found


_PORTS_PER_WORKER: Final = 1500
_next_port = itertools.count(random.randrange(_PORTS_PER_WORKER))


def free_port() -> int:
    """A port free now, for a process a test starts, from this xdist worker's own range
    below the kernel's ephemeral ports (32768 up). A port the kernel hands out (``bind`` to
    port 0) can be handed to another worker's process in the seconds before ours binds it,
    which once put a test's wallet port under another test's server."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw")
    base = 20_000 + (int(worker) if worker.isdigit() else 0) % 8 * _PORTS_PER_WORKER
    for _ in range(_PORTS_PER_WORKER):
        port = base + next(_next_port) % _PORTS_PER_WORKER
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port in {base}..{base + _PORTS_PER_WORKER - 1}")


def token_headers(role: str, subject: str) -> dict[str, str]:
    """``Authorization`` for a player (``role="player"``) or staff member, valid for hours."""
    token = mint_token(SECRET, role, subject, 6 * 3600)  # type: ignore[arg-type]
    return {"Authorization": f"Bearer {token}"}


async def eventually(
    condition: Callable[[], Awaitable[bool]] | Callable[[], bool],
    *,
    timeout: float = 60.0,
    interval: float = 0.1,
    message: str = "condition",
) -> None:
    """Wait until ``condition()`` holds; fail after ``timeout`` seconds (a bound, not a
    measurement: nothing asserts how fast it held)."""
    deadline = time.monotonic() + timeout
    while True:
        result = condition()
        if asyncio.iscoroutine(result):
            result = await result
        if result:
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"{message} did not hold within {timeout}s")
        await asyncio.sleep(interval)


async def create_database(server_url: str, prefix: str, *, migrated: bool = True) -> str:
    """A fresh database on the server (migrated unless told otherwise); its URL."""
    name = f"{prefix}_{uuid.uuid4().hex[:10]}"
    admin = await asyncpg.connect(server_url)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    url = with_database(server_url, name)
    if migrated:
        conn = await asyncpg.connect(url)
        try:
            await migrate(conn)
        finally:
            await conn.close()
    return url


async def drop_database(server_url: str, url: str) -> None:
    name = url.rsplit("/", 1)[1].split("?", 1)[0]
    with contextlib.suppress(OSError, asyncpg.PostgresError):
        admin = await asyncpg.connect(server_url, timeout=10)
        try:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await admin.close()


async def answers_200(url: str) -> bool:
    """Whether a GET of ``url`` answers 200 now (false while nothing listens there yet)."""
    try:
        async with httpx.AsyncClient(timeout=5) as client:
            response = await client.get(url)
    except httpx.HTTPError:
        return False
    return response.status_code == 200


class ServiceProcess:
    """``russian-poker serve --port P`` as a child process with its own log file."""

    def __init__(
        self,
        name: str,
        database_url: str,
        data_dir: Path,
        *,
        port: int | None = None,
        env: Mapping[str, str] | None = None,
        workers: int = 1,
    ) -> None:
        self.name = name
        self.workers = workers
        self.database_url = database_url
        self.data_dir = data_dir
        self.port = port or free_port()
        self.extra_env = dict(env or {})
        self.log_path = data_dir / f"{name}.log"
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0
        self.pids: list[int] = []

    def __repr__(self) -> str:
        return f"<service {self.name} :{self.port} pid={self.pid}>"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process else None

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def environment(self) -> dict[str, str]:
        env = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith(("RUSSIAN_POKER_", "PYTEST_")) and key != "DATABASE_URL"
        }
        env.update(
            DATABASE_URL=self.database_url,
            RUSSIAN_POKER_DATA_DIR=str(self.data_dir),
            RUSSIAN_POKER_JWT_SECRET=SECRET,
            RUSSIAN_POKER_RATE_LIMIT="0",
            RUSSIAN_POKER_POOL_SIZE="8",
            RUSSIAN_POKER_DATABASE_WAIT_S="90",
            RUSSIAN_POKER_LOG_LEVEL="info",
            PYTHONUNBUFFERED="1",
        )
        env.update(self.extra_env)
        return env

    def start(self) -> None:
        """Start the process (again, on the same port, after it stopped)."""
        assert not self.running, f"{self.name} is already running"
        self.data_dir.mkdir(parents=True, exist_ok=True)
        with self.log_path.open("ab") as log:
            log.write(f"\n===== start {self.starts + 1} of {self.name} =====\n".encode())
            log.flush()
            self.process = subprocess.Popen(
                [
                    _command(),
                    "serve",
                    "--host",
                    "127.0.0.1",
                    "--port",
                    str(self.port),
                    "--workers",
                    str(self.workers),
                ],
                env=self.environment(),
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                # Its own session: a Ctrl-C meant for pytest does not reach it.
                start_new_session=True,
            )
        if not self.starts:
            atexit.register(self.stop_now)  # even if the test run itself is interrupted
        self.starts += 1
        self.pids.append(self.process.pid)

    async def ready(self) -> bool:
        """Whether ``/health/ready`` answers 200 now."""
        return await answers_200(f"{self.url}/health/ready")

    async def wait_ready(self, timeout: float = 90.0) -> None:
        deadline = time.monotonic() + timeout
        while not await self.ready():
            if not self.running:
                raise AssertionError(
                    f"{self.name} exited with {self.returncode} before it was ready:\n"
                    + self.log_tail()
                )
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"{self.name} not ready within {timeout}s:\n" + self.log_tail()
                )
            await asyncio.sleep(0.1)

    async def start_ready(self, timeout: float = 90.0) -> None:
        self.start()
        await self.wait_ready(timeout)

    @property
    def returncode(self) -> int | None:
        return self.process.poll() if self.process else None

    def send(self, sig: int) -> None:
        assert self.process is not None
        self.process.send_signal(sig)

    async def wait_exit(self, timeout: float = 60.0) -> int:
        assert self.process is not None
        deadline = time.monotonic() + timeout
        while (code := self.process.poll()) is None:
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.name} still running {timeout}s later")
            await asyncio.sleep(0.05)
        return code

    async def terminate(self, timeout: float = 60.0) -> int:
        """SIGTERM (a graceful stop) and wait for the exit code."""
        self.send(signal.SIGTERM)
        return await self.wait_exit(timeout)

    async def kill(self) -> int:
        """SIGKILL: no clean-up of any kind, as a crash or an OOM kill."""
        self.send(signal.SIGKILL)
        return await self.wait_exit()

    async def listening(self) -> bool:
        """Whether the HTTP port accepts connections."""
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", self.port)
        except OSError:
            return False
        writer.close()
        with contextlib.suppress(OSError):
            await writer.wait_closed()
        return True

    def log_text(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def log_tail(self, lines: int = 60) -> str:
        return "\n".join(self.log_text().splitlines()[-lines:])

    def stop_now(self) -> None:
        """Tear-down: make sure the process is gone (SIGKILL if it is still there)."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(10)


class PrivatePostgres:
    """A PostgreSQL of the test session's own: stop, crash and start it at will.

    pgserver creates the data directory (``initdb``, as its ``pgserver`` system user when
    the tests run as root) and starts the server once; from then on ``pg_ctl`` restarts it
    listening on a TCP port of 127.0.0.1 (besides its Unix socket), so services reach it the
    way they reach a real database, and a :class:`DatabaseProxy` can stand in between.
    """

    def __init__(self, root: Path) -> None:
        self.root = root
        self.pgdata = root / "pgdata"
        self.port = free_port()
        self.socket_dir: Path | None = None
        self._user: str | None = None
        self._pg_ctl: Path | None = None
        self.restarts = 0
        self.up = False

    @property
    def server_url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def url(self, database: str) -> str:
        return with_database(self.server_url, database)

    def setup(self) -> None:
        """initdb and a first start (pgserver), then a restart on the TCP port."""
        # Through the service's importer: it silences platformdirs' XDG_RUNTIME_DIR warning.
        from russian_poker.service.embedded import pgserver_module

        pgserver = pgserver_module()
        from pgserver._commands import POSTGRES_BIN_PATH

        self.root.mkdir(parents=True, exist_ok=True)
        server = pgserver.get_server(self.pgdata, cleanup_mode=None)
        info = server.get_postmaster_info()
        self.socket_dir = info.socket_dir
        self._user = server.system_user
        self._pg_ctl = Path(POSTGRES_BIN_PATH) / "pg_ctl"
        self._ctl("stop", "-m", "fast")
        self.start()
        self.restarts = 0

    def _ctl(self, *args: str, timeout: float = 120) -> None:
        assert self._pg_ctl is not None
        with tempfile.TemporaryFile() as out:
            subprocess.run(
                [str(self._pg_ctl), "-D", str(self.pgdata), "-w", "-t", "90", *args],
                check=True,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=out,
                user=self._user,
                cwd=tempfile.gettempdir(),
                timeout=timeout,
            )

    def start(self) -> None:
        self.up = True
        options = f"-h 127.0.0.1 -p {self.port} -k {self.socket_dir} -c max_connections=200"
        self._ctl("start", "-l", str(self.pgdata / "log"), "-o", options)

    def stop(self, mode: str = "fast") -> None:
        """``fast``: sessions are told the server is shutting down (a normal restart);
        ``immediate``: the server dies at once and recovers from WAL when started (a crash)."""
        self._ctl("stop", "-m", mode)
        self.up = False

    def restart(self, mode: str = "fast") -> None:
        self.stop(mode)
        self.start()
        self.restarts += 1

    async def accepts_connections(self) -> bool:
        try:
            conn = await asyncpg.connect(self.server_url, timeout=3)
        except (OSError, asyncpg.PostgresError, TimeoutError):
            return False
        await conn.close()
        return True

    def ensure_up(self) -> None:
        """After a test that stopped it: running again for the next one."""
        if not self.up:
            self.start()

    def log_text(self) -> str:
        """The server's log (every ERROR is in it: each lost version race, for one)."""
        try:
            return (self.pgdata / "log").read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def teardown(self) -> None:
        with contextlib.suppress(subprocess.SubprocessError, OSError):
            self._ctl("stop", "-m", "immediate")
        shutil.rmtree(self.root, ignore_errors=True)


_shared: PrivatePostgres | None = None
_shared_users = 0


@contextlib.contextmanager
def shared_private_postgres(root: Path) -> Iterator[PrivatePostgres]:
    """One private server per test process, however many packages' fixtures ask for it."""
    global _shared, _shared_users  # noqa: PLW0603 - one server per test process
    if _shared is None:
        server = PrivatePostgres(root / f"private-{os.getpid()}")
        server.setup()
        _shared = server
    _shared_users += 1
    try:
        yield _shared
    finally:
        _shared_users -= 1
        if _shared_users == 0:
            _shared.teardown()
            _shared = None


async def lock_holders(url: str, key: int) -> list[tuple[int, int | None]]:
    """``(backend pid, client port)`` of every session holding the advisory lock ``key``
    (a bigint key: pg_locks splits it into classid, objid, objsubid = 1)."""
    unsigned = key & 0xFFFF_FFFF_FFFF_FFFF
    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch(
            """
            SELECT l.pid, a.client_port FROM pg_locks AS l
            LEFT JOIN pg_stat_activity AS a ON a.pid = l.pid
            WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
              AND l.classid = $1::bigint::oid AND l.objid = $2::bigint::oid
              AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
            """,
            unsigned >> 32,
            unsigned & 0xFFFF_FFFF,
        )
    finally:
        await conn.close()
    return [(r["pid"], r["client_port"]) for r in rows]


async def leaders(
    url: str, services: Sequence[ServiceProcess], projection: str = "audit"
) -> list[ServiceProcess | None]:
    """Who holds the projection's leadership lock (``None``: a session of no service)."""
    from russian_poker.events.postgres.projections import advisory_key

    holders = await lock_holders(url, advisory_key(projection))
    return [owner_of(port, services) for _, port in holders]


def owner_of(client_port: int | None, services: Iterable[ServiceProcess]) -> ServiceProcess | None:
    """The service process whose TCP connection has this local port."""
    import psutil  # type: ignore[import-untyped]

    if client_port is None:
        return None
    for service in services:
        if not service.running or service.pid is None:
            continue
        with contextlib.suppress(psutil.Error):
            for connection in psutil.Process(service.pid).net_connections(kind="tcp"):
                if connection.laddr and connection.laddr.port == client_port:
                    return service
    return None


@contextlib.asynccontextmanager
async def service_on_fresh_database(
    server_url: str, name: str, data_dir: Path, env: Mapping[str, str] | None = None
) -> AsyncIterator[ServiceProcess]:
    """A real ``russian-poker serve``, ready, on a database of its own; both gone after."""
    url = await create_database(server_url, name.replace("-", "_"))
    service = ServiceProcess(name, url, data_dir, env=env)
    await service.start_ready()
    try:
        yield service
    finally:
        await service.terminate()
        await drop_database(server_url, url)


@contextlib.asynccontextmanager
async def held_streams(url: str, stream_ids: Sequence[str]) -> AsyncIterator[None]:
    """Hold the streams' rows locked (``FOR UPDATE``) in an open transaction: any command
    appending to them waits, in flight, until the block ends (or the database goes)."""
    conn = await asyncpg.connect(url)
    try:
        transaction = conn.transaction()
        await transaction.start()
        await conn.execute(
            "SELECT 1 FROM streams WHERE stream_id = ANY($1::text[]) FOR UPDATE", list(stream_ids)
        )
        yield
        with contextlib.suppress(OSError, asyncpg.PostgresError, asyncpg.InterfaceError):
            await transaction.rollback()
    finally:
        with contextlib.suppress(OSError, asyncpg.PostgresError, asyncpg.InterfaceError):
            await conn.close(timeout=5)


async def waiting_on_locks(url: str) -> int:
    """Sessions of the database waiting for a lock (commands held by :func:`held_streams`)."""
    conn = await asyncpg.connect(url)
    try:
        count: int = await conn.fetchval(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            " AND wait_event_type = 'Lock'"
        )
    finally:
        await conn.close()
    return count


class DatabaseProxy:
    """A TCP proxy to PostgreSQL, on its own thread and event loop (the test's loop may be
    busy, or blocked in ``pg_ctl``), so the service's database traffic never waits on it."""

    def __init__(self, upstream_port: int, upstream_host: str = "127.0.0.1") -> None:
        self.upstream = (upstream_host, upstream_port)
        self.port = free_port()
        self.attempts = 0
        """Connections the proxy accepted."""
        self.refused_upstream = 0
        """Accepted connections it could not pass on (the database was down)."""
        self.cuts = 0
        self.silent = False
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._server: asyncio.Server | None = None
        self._pipes: set[asyncio.StreamWriter] = set()

    def url(self, database: str) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def _run(self, coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(30)

    def start(self) -> None:
        self._thread.start()
        self._run(self._listen())

    async def _listen(self) -> None:
        self._server = await asyncio.start_server(self._accepted, "127.0.0.1", self.port)

    async def _accepted(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.attempts += 1
        if self.silent:
            # A host that went silent: the connection is taken and never answered.
            self._pipes.add(writer)
            try:
                await _swallow(reader)
            finally:
                self._pipes.discard(writer)
                writer.transport.abort()
            return
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.upstream)
        except OSError:
            self.refused_upstream += 1
            writer.transport.abort()
            return
        self._pipes.update((writer, up_writer))
        try:
            await asyncio.gather(_pipe(reader, up_writer, self), _pipe(up_reader, writer, self))
        finally:
            for side in (writer, up_writer):
                self._pipes.discard(side)
                side.transport.abort()

    def cut(self) -> None:
        """The database becomes unreachable: every connection reset, new ones refused."""
        self._run(self._cut())
        self.cuts += 1

    async def _cut(self) -> None:
        if self._server is not None:
            self._server.close()
            self._server = None
        for side in list(self._pipes):
            side.transport.abort()
        self._pipes.clear()

    def restore(self) -> None:
        self._run(self._listen())

    def silence(self) -> None:
        """The database goes silent, as a powered-off machine or a partition leaves it:
        nothing more passes either way, yet every connection stays open and new ones are
        taken, never answered (nothing is refused or reset)."""
        self.silent = True

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._run(self._cut())
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)


async def _swallow(reader: asyncio.StreamReader) -> None:
    with contextlib.suppress(OSError, asyncio.IncompleteReadError):
        while await reader.read(65536):
            pass


async def _pipe(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, proxy: DatabaseProxy
) -> None:
    try:
        while data := await reader.read(65536):
            if proxy.silent:
                continue  # lost on the way, as to a host that went silent
            writer.write(data)
            await writer.drain()
    except (OSError, asyncio.IncompleteReadError):
        pass
    finally:
        writer.transport.abort()
