"""The embedded PostgreSQL lives as long as what uses it: ``serve`` without DATABASE_URL
starts it and stops it when it stops; ``db status`` shows it, ``db stop`` ends it.

Real processes all through: ``russian-poker serve`` and the ``db`` commands as the
operator runs them, a fresh data directory each (under the system temporary directory: as
root, pgserver runs PostgreSQL as an unprivileged user who must reach it).
"""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import psutil  # type: ignore[import-untyped]
import pytest

from tests.processes import SECRET, ServiceProcess, eventually

RUSSIAN_POKER = str(Path(sys.executable).parent / "russian-poker")


@pytest.fixture
def data_dir() -> Iterator[Path]:
    root = Path(tempfile.mkdtemp(prefix="russian-poker-db-", dir=tempfile.gettempdir()))
    root.chmod(0o755)
    try:
        yield root
    finally:
        _russian_poker(root, "db", "stop", "--force")  # whatever a failed test left running
        shutil.rmtree(root, ignore_errors=True)


def _environment(data_dir: Path) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("RUSSIAN_POKER_", "PYTEST_")) and k != "DATABASE_URL"
    }
    env.update(RUSSIAN_POKER_DATA_DIR=str(data_dir), RUSSIAN_POKER_JWT_SECRET=SECRET)
    return env


def _russian_poker(data_dir: Path, *args: str, status: int = 0) -> str:
    done = subprocess.run(
        [RUSSIAN_POKER, *args],
        env=_environment(data_dir),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == status, done.stdout + done.stderr
    return done.stdout + done.stderr


def _postmasters(pgdata: Path) -> list[int]:
    """Pids of the postgres processes serving ``pgdata`` (the postmaster and its children)."""
    found = []
    for proc in psutil.process_iter(attrs=["name", "cmdline"]):
        if proc.info["name"] == "postgres" and str(pgdata) in (proc.info["cmdline"] or []):
            found.append(proc.pid)
    return found


def _status(data_dir: Path) -> str:
    return _russian_poker(data_dir, "db", "status")


async def test_serve_stops_the_embedded_server_it_started(data_dir: Path) -> None:
    pgdata = data_dir / "pgdata"
    # An empty DATABASE_URL is no DATABASE_URL: serve starts the embedded server.
    service = ServiceProcess("embedded", "", data_dir, env={"DATABASE_URL": ""})
    try:
        await service.start_ready()
        log = service.log_text()
        assert f"using the embedded PostgreSQL in {pgdata}" in log, log
        assert "stops when serve stops" in log and "russian-poker db status" in log, log

        status = await asyncio.to_thread(_status, data_dir)
        assert "embedded PostgreSQL: running" in status, status
        assert f"data directory: {pgdata}" in status, status
        assert f"url: postgresql://postgres@/postgres?host={pgdata}" in status, status
        assert ":@" not in status, "a URL with a password part"
        assert f"used by pids: {service.pid} " in status, status
        assert _postmasters(pgdata)

        code = await service.terminate()
    finally:
        service.stop_now()
    assert code == 128 + 15, service.log_tail()
    assert "embedded PostgreSQL: stopped" in await asyncio.to_thread(_status, data_dir)
    # pg_ctl stop waits for the postmaster; its children may take a moment longer.
    await eventually(lambda: not _postmasters(pgdata), message="postgres processes gone")


async def test_db_stop_stops_a_server_someone_else_started(data_dir: Path) -> None:
    pgdata = data_dir / "pgdata"
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time\n"
            "from russian_poker.service.database import database_url\n"
            "database_url()\n"
            "print('up', flush=True)\n"
            "time.sleep(600)\n",
        ],
        env=_environment(data_dir),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert holder.stdout is not None
        line = await asyncio.to_thread(holder.stdout.readline)
        assert line.strip() == "up", line
        status = await asyncio.to_thread(_status, data_dir)
        assert "embedded PostgreSQL: running" in status, status
        assert f"used by pids: {holder.pid} " in status, status

        refused = await asyncio.to_thread(_russian_poker, data_dir, "db", "stop", status=1)
        assert f"is in use by pids {holder.pid}" in refused, refused
        assert "--force" in refused, refused
        assert "embedded PostgreSQL: running" in await asyncio.to_thread(_status, data_dir)

        stopped = await asyncio.to_thread(_russian_poker, data_dir, "db", "stop", "--force")
        assert f"embedded PostgreSQL in {pgdata} stopped" in stopped, stopped
        assert f"in use by pids {holder.pid}" in stopped, stopped
        assert "embedded PostgreSQL: stopped" in await asyncio.to_thread(_status, data_dir)
        await eventually(lambda: not _postmasters(pgdata), message="postgres processes gone")
        again = await asyncio.to_thread(_russian_poker, data_dir, "db", "stop")
        assert "was not running" in again, again
    finally:
        holder.kill()
        holder.wait(30)


async def test_a_killed_user_does_not_keep_the_server_running(data_dir: Path) -> None:
    """A process killed outright never removes itself from pgserver's list of users; the
    next one to start forgets it, so the server still stops with the last live user."""
    pgdata = data_dir / "pgdata"
    snippet = (
        "from russian_poker.service.database import database_url\n"
        "database_url()\n"
        "print('up', flush=True)\n"
        "import sys; sys.stdin.read()\n"  # until the test closes stdin
    )
    processes = []
    for _ in range(2):
        process = subprocess.Popen(
            [sys.executable, "-c", snippet],
            env=_environment(data_dir),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        processes.append(process)
        assert process.stdout is not None
        assert (await asyncio.to_thread(process.stdout.readline)).strip() == "up"
        if len(processes) == 1:
            process.kill()  # no exit hook: its pid stays recorded
            process.wait(30)
    try:
        survivor = processes[1]
        status = await asyncio.to_thread(_status, data_dir)
        assert f"used by pids: {survivor.pid} " in status, status
        assert survivor.stdin is not None
        survivor.stdin.close()  # it exits normally: the last live user
        assert await asyncio.to_thread(survivor.wait, 60) == 0
        assert "embedded PostgreSQL: stopped" in await asyncio.to_thread(_status, data_dir)
        await eventually(lambda: not _postmasters(pgdata), message="postgres processes gone")
    finally:
        for process in processes:
            process.kill()
            process.wait(30)


async def test_serve_comes_back_by_itself_after_db_stop_force(data_dir: Path) -> None:
    """`db stop --force` takes the database from under a running `serve`: it answers 503
    meanwhile, and once the embedded server is back (any command that needs it starts it
    again) serves again without a restart."""
    service = ServiceProcess("embedded", "", data_dir, env={"DATABASE_URL": ""})
    try:
        await service.start_ready()
        await asyncio.to_thread(_russian_poker, data_dir, "db", "stop", "--force")
        await eventually(lambda: not _postmasters(data_dir / "pgdata"), message="postgres gone")
        assert not await service.ready()  # /health/ready: the database is away

        # Any command that uses the database starts the server again; serve is still one
        # of its users, so it keeps running after that command exits.
        await asyncio.to_thread(_russian_poker, data_dir, "migrate")
        await service.wait_ready(timeout=60)
        assert service.running
        assert "embedded PostgreSQL: running" in await asyncio.to_thread(_status, data_dir)
    finally:
        service.stop_now()
