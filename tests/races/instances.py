"""Service instances as separate OS processes: ``russian-poker serve`` on a test database.

Two of them on one database are two instances of the service behind a load balancer: they
share nothing but PostgreSQL, so whatever they agree on, the store made them agree on.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Final

import httpx

from tests.api.conftest import SECRET
from tests.api.live_server import free_port

__all__ = ["Instance", "instance"]

_SERVE: Final = Path(sys.executable).parent / "russian-poker"


class Instance:
    def __init__(self, url: str, log: Path, process: subprocess.Popen[bytes]) -> None:
        self.url = url
        self.log = log
        self.process = process

    def log_text(self) -> str:
        return self.log.read_text(errors="replace")


@contextlib.asynccontextmanager
async def instance(
    database_url: str, data_dir: Path, name: str, **settings: str
) -> AsyncIterator[Instance]:
    """``russian-poker serve`` with the tests' JWT secret, test mode, no clock and no rate
    limit unless ``settings`` (``RUSSIAN_POKER_*`` names without the prefix) say otherwise."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RUSSIAN_POKER_", "PYTEST"))}
    env.update(
        DATABASE_URL=database_url,
        RUSSIAN_POKER_DATA_DIR=str(data_dir),
        RUSSIAN_POKER_JWT_SECRET=SECRET,
        RUSSIAN_POKER_TEST_MODE="true",
        RUSSIAN_POKER_CLOCK="false",
        RUSSIAN_POKER_RATE_LIMIT="0",
        RUSSIAN_POKER_LOG_LEVEL="warning",
        PYTHONUNBUFFERED="1",
    )
    env.update({f"RUSSIAN_POKER_{k.upper()}": v for k, v in settings.items()})
    data_dir.mkdir(parents=True, exist_ok=True)
    log = data_dir / f"{name}.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [str(_SERVE), "serve", "--host", "127.0.0.1", "--port", str(port)],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    started = Instance(f"http://127.0.0.1:{port}", log, process)
    try:
        await _ready(started)
        yield started
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                await asyncio.to_thread(process.wait, 30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(10)


async def _ready(started: Instance, bound_s: float = 60.0) -> None:
    """Until ``/health/ready`` answers 200 (a bound for a stuck start, not a measurement)."""
    deadline = time.monotonic() + bound_s
    async with httpx.AsyncClient(base_url=started.url, timeout=5) as client:
        while True:
            if started.process.poll() is not None:
                raise AssertionError(f"the instance exited:\n{started.log_text()[-3000:]}")
            with contextlib.suppress(httpx.HTTPError):
                if (await client.get("/health/ready")).status_code == 200:
                    return
            if time.monotonic() > deadline:
                raise AssertionError(f"the instance did not start:\n{started.log_text()[-3000:]}")
            await asyncio.sleep(0.1)
