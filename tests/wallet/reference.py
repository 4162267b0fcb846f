"""The reference operator wallet as a child process, for tests of the seamless wallet.

:class:`ReferenceWallet` runs ``python -m russian_poker.service.tools.reference_wallet`` (the same
entry point an integrator runs), waits until it is ready, and talks to its ``/_admin``
endpoints:
players, ended sessions, faults, the ledger's export and the count of deliveries.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

import httpx

from tests.processes import answers_200, free_port

__all__ = ["REFERENCE_SECRET", "ReferenceWallet"]

REFERENCE_SECRET: Final[str] = "reference-wallet-secret-" + "w" * 32
"""The secret the game and the reference wallet share in tests."""


class ReferenceWallet:
    """One reference wallet process on its own port, with its own log file."""

    def __init__(
        self,
        database_url: str,
        log_dir: Path,
        *,
        secret: str = REFERENCE_SECRET,
        broken: str | None = None,
        port: int | None = None,
    ) -> None:
        self.database_url = database_url
        self.log_dir = log_dir
        self.secret = secret
        self.broken = broken
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.url = f"{self.base}/wallet"
        self.log_path = log_dir / f"reference-wallet-{self.port}.log"
        self.process: subprocess.Popen[bytes] | None = None
        self._registered = False

    def __repr__(self) -> str:
        variant = f" broken={self.broken}" if self.broken else ""
        return f"<reference wallet :{self.port}{variant}>"

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    # -- the process ---------------------------------------------------------------------

    def start(self) -> None:
        assert not self.running, f"{self} is already running"
        self.log_dir.mkdir(parents=True, exist_ok=True)
        command = [
            sys.executable,
            "-m",
            "russian_poker.service.tools.reference_wallet",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--database-url",
            self.database_url,
        ]
        if self.broken:
            command += ["--broken", self.broken]
        env = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith(("RUSSIAN_POKER_", "PYTEST_", "REFERENCE_WALLET_"))
        }
        # The secret through the environment, not the command line: ps shows the latter.
        env.update(REFERENCE_WALLET_SECRET=self.secret, PYTHONUNBUFFERED="1")
        with self.log_path.open("ab") as log:
            log.write(f"\n===== start {self} =====\n".encode())
            log.flush()
            self.process = subprocess.Popen(
                command,
                env=env,
                cwd=Path(__file__).resolve().parents[2],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # a Ctrl-C meant for pytest does not reach it
            )
        if not self._registered:
            atexit.register(self.stop_now)
            self._registered = True

    async def ready(self) -> bool:
        return await answers_200(f"{self.base}/_admin/ready")

    async def wait_ready(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while not await self.ready():
            if not self.running:
                code = self.process.poll() if self.process else None
                raise AssertionError(f"{self} exited with {code}:\n{self.log_tail()}")
            if time.monotonic() > deadline:
                raise AssertionError(f"{self} not ready within {timeout}s:\n{self.log_tail()}")
            await asyncio.sleep(0.05)

    async def start_ready(self) -> None:
        self.start()
        await self.wait_ready()

    async def kill(self) -> None:
        """SIGKILL: gone at once, as in a crash."""
        await self._signal_and_wait(signal.SIGKILL)

    async def stop(self) -> None:
        """SIGTERM: a graceful stop."""
        await self._signal_and_wait(signal.SIGTERM)

    async def _signal_and_wait(self, sig: int, timeout: float = 30) -> None:
        if not self.running:
            return
        assert self.process is not None
        self.process.send_signal(sig)
        deadline = time.monotonic() + timeout
        while self.process.poll() is None:
            if time.monotonic() > deadline:
                self.process.kill()
                raise AssertionError(f"{self} still running {timeout}s after {sig!r}")
            await asyncio.sleep(0.05)

    def stop_now(self) -> None:
        """Tear-down: make sure the process is gone (SIGKILL if need be)."""
        if self.running:
            assert self.process is not None
            self.process.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(10)

    def log_tail(self, lines: int = 60) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""
        return "\n".join(text.splitlines()[-lines:])

    # -- /_admin -------------------------------------------------------------------------

    async def _admin(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        async with httpx.AsyncClient(base_url=self.base, timeout=30) as client:
            response = await client.request(method, f"/_admin{path}", **kwargs)
        if response.is_error:
            raise AssertionError(f"{method} /_admin{path}: {response.status_code} {response.text}")
        return response

    async def set_player(
        self, player_id: str, currency: str, balance: int, *, blocked: bool = False
    ) -> None:
        body = {"currency": currency, "balance": balance, "blocked": blocked}
        await self._admin("PUT", f"/players/{player_id}", json=body)

    async def player(self, player_id: str) -> dict[str, Any]:
        response = await self._admin("GET", f"/players/{player_id}")
        player: dict[str, Any] = response.json()
        return player

    async def balance_of(self, player_id: str) -> int:
        return int((await self.player(player_id))["balance"])

    async def end_session(self, session_id: str) -> None:
        await self._admin("POST", f"/sessions/{session_id}/end")

    async def fault(
        self,
        mode: str,
        *,
        calls: Sequence[str] = (),
        times: int = 1,
        delay_ms: int | None = None,
        for_s: float | None = None,
    ) -> None:
        """Switch a fault on (``calls`` empty: every call); see
        ``russian_poker.service.tools.reference_wallet.faults``."""
        body: dict[str, Any] = {"mode": mode, "times": times}
        if calls:
            body["calls"] = list(calls)
        if delay_ms is not None:
            body["delay_ms"] = delay_ms
        if for_s is not None:
            body["for_s"] = for_s
        await self._admin("POST", "/faults", json=body)

    async def clear_faults(self) -> None:
        await self._admin("DELETE", "/faults")

    async def export(self, operator_id: str | None = None) -> list[dict[str, Any]]:
        """The ledger's export: one dict per money call applied (the JSON lines), of one
        operator if named."""
        params = {"operator_id": operator_id} if operator_id else {}
        response = await self._admin("GET", "/transactions", params=params)
        return [json.loads(line) for line in response.content.splitlines() if line.strip()]

    async def deliveries(self, transaction_id: str) -> dict[str, int]:
        """How many times each call with this ``transaction_id`` reached the wallet."""
        response = await self._admin(
            "GET", "/deliveries", params={"transaction_id": transaction_id}
        )
        counts: dict[str, int] = response.json()
        return counts
