"""A primary and a synchronous standby of the tests' own: PostgreSQL's streaming replication,
set up as an operator would (``pg_basebackup -R``), with the primary killed or made silent
and the standby promoted at a test's command.

The binaries are pgserver's (the PostgreSQL the embedded server runs, so CI needs nothing
installed). The primary is a :class:`tests.processes.PrivatePostgres` of its own; the standby
is a base backup of it, streaming from it under the name ``standby1``, which the primary
names in ``synchronous_standby_names``: a commit is acknowledged only once the standby has
it, so a promoted standby holds every acknowledged command.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import subprocess
import tempfile
from pathlib import Path

import asyncpg

from tests.processes import PrivatePostgres, eventually, free_port

__all__ = ["Replicated"]

STANDBY_NAME = "standby1"


class Replicated:
    """``primary`` (writable) and ``standby`` (a hot standby until :meth:`promote`)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.primary = PrivatePostgres(root / "primary")
        self.standby_data = root / "standby" / "pgdata"
        self.standby_port = free_port()
        self._standby_up = False

    @property
    def standby_url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.standby_port}/postgres"

    def _bin(self, name: str) -> str:
        assert self.primary._pg_ctl is not None
        return str(self.primary._pg_ctl.parent / name)

    def _run(self, *args: str, timeout: float = 180) -> None:
        with tempfile.TemporaryFile() as out:
            done = subprocess.run(
                list(args),
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=out,
                user=self.primary._user,
                cwd=tempfile.gettempdir(),
                timeout=timeout,
                check=False,
            )
            if done.returncode:
                out.seek(0)
                raise AssertionError(f"{args[0]} failed: {out.read().decode(errors='replace')}")

    async def setup(self) -> None:
        self.primary.setup()
        await self._configure_primary()
        self.standby_data.parent.mkdir(parents=True, exist_ok=True)
        if self.primary._user:
            shutil.chown(self.standby_data.parent, self.primary._user)
        self._run(
            self._bin("pg_basebackup"),
            "-D",
            str(self.standby_data),
            "-h",
            "127.0.0.1",
            "-p",
            str(self.primary.port),
            "-U",
            "postgres",
            "-X",
            "stream",
            "-R",
            "-d",
            f"application_name={STANDBY_NAME}",
        )
        self.start_standby()
        await eventually(self._synchronous, timeout=60, message="the standby streaming in sync")

    async def _configure_primary(self) -> None:
        conn = await asyncpg.connect(self.primary.server_url)
        try:
            await conn.execute(f"ALTER SYSTEM SET synchronous_standby_names = '{STANDBY_NAME}'")
            await conn.execute("ALTER SYSTEM SET synchronous_commit = 'on'")
            await conn.execute("ALTER SYSTEM SET wal_keep_size = '256MB'")
            await conn.execute("SELECT pg_reload_conf()")
        finally:
            await conn.close()

    async def _synchronous(self) -> bool:
        conn = await asyncpg.connect(self.primary.server_url, timeout=5)
        try:
            state = await conn.fetchval(
                "SELECT sync_state FROM pg_stat_replication WHERE application_name = $1",
                STANDBY_NAME,
            )
        finally:
            await conn.close()
        return bool(state == "sync")

    def start_standby(self) -> None:
        socket_dir = self.standby_data.parent
        options = f"-h 127.0.0.1 -p {self.standby_port} -k {socket_dir} -c max_connections=200"
        self._run(
            self._bin("pg_ctl"),
            "-D",
            str(self.standby_data),
            "-w",
            "-t",
            "90",
            "start",
            "-l",
            str(self.standby_data / "log"),
            "-o",
            options,
        )
        self._standby_up = True

    def kill_primary(self) -> None:
        """``kill -9`` of the primary's postmaster: the machine is gone, nothing flushed
        that was not flushed already (its children die with it)."""
        pid = int((self.primary.pgdata / "postmaster.pid").read_text().split()[0])
        os.kill(pid, signal.SIGKILL)
        self.primary.up = False

    async def promote(self) -> None:
        """The standby becomes the primary (``pg_ctl promote`` waits until it is), alone:
        it stops waiting for a synchronous standby of its own, as Patroni's synchronous mode
        does when none is left (the base backup brought the old primary's setting along,
        and every commit would wait for a standby that does not exist)."""
        await asyncio.to_thread(
            self._run,
            self._bin("pg_ctl"),
            "-D",
            str(self.standby_data),
            "-w",
            "-t",
            "90",
            "promote",
        )
        conn = await asyncpg.connect(self.standby_url, timeout=10)
        try:
            await conn.execute("ALTER SYSTEM RESET synchronous_standby_names")
            await conn.execute("SELECT pg_reload_conf()")
        finally:
            await conn.close()

    async def standby_writable(self) -> bool:
        conn = await asyncpg.connect(self.standby_url, timeout=5)
        try:
            return not await conn.fetchval("SELECT pg_is_in_recovery()")
        finally:
            await conn.close()

    def standby_log(self) -> str:
        try:
            return (self.standby_data / "log").read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def teardown(self) -> None:
        if self._standby_up:
            with contextlib.suppress(AssertionError, subprocess.SubprocessError, OSError):
                self._run(
                    self._bin("pg_ctl"), "-D", str(self.standby_data), "stop", "-m", "immediate"
                )
        # The primary may be dead already (killed): pg_ctl stop then just fails.
        self.primary.teardown()
        shutil.rmtree(self.root, ignore_errors=True)
