"""What the README tests share: ``./dev serve`` as a newcomer starts it, and a ``curl`` that
notes every call's HTTP status.

The README's blocks are run literally with bash; these helpers give them a real service to
talk to and let the tests see afterwards what every call answered.
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import signal
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Final

import httpx

from tests.processes import free_port

__all__ = ["README", "ROOT", "curl_recorder", "dev_serve"]

ROOT: Final = Path(__file__).parents[2]
README: Final = (ROOT / "README.md").read_text()

_CURL_RECORDER: Final = """#!/usr/bin/env bash
exec {curl} "$@" --write-out '%{{stderr}}%{{http_code}} %{{method}} %{{url_effective}}\\n' \\
    2>>"$CURL_LOG"
"""


def curl_recorder(tmp_path: Path, what: str) -> tuple[Path, Path]:
    """A ``curl`` in a folder of its own that passes every call to the real one and appends
    ``<status> <method> <url>`` to ``$CURL_LOG``: the folder to put first on ``PATH``, and the
    log to name in ``CURL_LOG``."""
    tools = tmp_path / "bin"
    tools.mkdir()
    real_curl = shutil.which("curl")
    assert real_curl, f"curl is needed to run {what}"
    (tools / "curl").write_text(_CURL_RECORDER.format(curl=real_curl))
    (tools / "curl").chmod(0o755)
    return tools, tmp_path / "curl.log"


@contextlib.asynccontextmanager
async def dev_serve(env: dict[str, str], log_path: Path) -> AsyncIterator[str]:
    """``./dev serve`` on a free port with ``env``, its output in ``log_path``: its URL once
    it is ready; SIGTERM when done."""
    port = free_port()
    log = log_path.open("wb")
    process = subprocess.Popen(
        ["./dev", "serve", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        async with httpx.AsyncClient() as client:
            # Generous: the embedded PostgreSQL may be initialised on the first start.
            for _ in range(1200):
                assert process.poll() is None, log_path.read_text()
                try:
                    if (await client.get(f"{url}/health/ready")).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                await asyncio.sleep(0.1)
            else:
                raise AssertionError("./dev serve did not get ready")
        yield url
    finally:
        process.send_signal(signal.SIGTERM)
        await asyncio.to_thread(process.wait, 60)
        log.close()
