"""``russian-poker serve``."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from types import FrameType
from typing import Any

import click
import uvicorn

from russian_poker.service.settings import ConfigurationError, Settings, load_settings

__all__ = ["GracefulServer", "proxy_options", "serve"]


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535))
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64))
def serve(host: str, port: int, workers: int) -> None:
    """Run the HTTP service (embedded PostgreSQL unless DATABASE_URL is set)."""
    try:
        settings = load_settings()
    except ConfigurationError as exc:
        raise click.ClickException(str(exc)) from None
    if not settings.database_url:
        _start_embedded()
    if workers > 1:
        uvicorn.run(
            "russian_poker.service.app:create_app",
            factory=True,
            host=host,
            port=port,
            workers=workers,
            log_level=settings.log_level,
            access_log=_access_log(settings.log_level),
            timeout_graceful_shutdown=settings.shutdown_grace_s,
            **proxy_options(settings),
        )
        return
    from russian_poker.service.app import create_app

    app = create_app(settings)
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=settings.log_level,
        access_log=_access_log(settings.log_level),
        timeout_graceful_shutdown=settings.shutdown_grace_s,
        **proxy_options(settings),
    )
    GracefulServer(config, app).run()


def proxy_options(settings: Settings) -> dict[str, Any]:
    """uvicorn's handling of ``X-Forwarded-For``/``-Proto``: believed from the configured
    proxies only (``RUSSIAN_POKER_TRUSTED_PROXIES``). uvicorn's own default believes any
    loopback peer, so every local process could pose as any address (and get a fresh rate
    limit with each)."""
    if not settings.trusted_proxies:
        return {"proxy_headers": False}
    return {"proxy_headers": True, "forwarded_allow_ips": list(settings.trusted_proxies)}


def _start_embedded() -> None:
    """Start (or join) the embedded server once, here, and hand workers its URL.

    This process is the one pgserver records as using it, so the server stops when serve
    stops; workers only get ``DATABASE_URL`` and never start or stop it themselves.
    """
    from russian_poker.service.database import database_url, embedded_pgdata

    pgdata = embedded_pgdata()
    click.echo(
        f"no DATABASE_URL: using the embedded PostgreSQL in {pgdata}; it stops when serve "
        "stops (or with the last russian-poker process using it); see "
        "`russian-poker db status` and `russian-poker db stop`",
        err=True,
    )
    os.environ["DATABASE_URL"] = database_url()
    # uvicorn ends a graceful stop by raising the signal again with the handler it found;
    # SIGTERM's default handler kills the process without running its exit hooks, and the
    # one that stops the embedded server with them. Exiting instead runs them.
    signal.signal(signal.SIGTERM, _exit_on_signal)


def _exit_on_signal(signum: int, frame: FrameType | None) -> None:
    """Exit as a shell reports a process ended by this signal (128 + its number)."""
    raise SystemExit(128 + signum)


def _access_log(log_level: str) -> bool:
    """uvicorn's line per request, at debug level only: every command is logged anyway (with
    its request id, outcome and time), and a line per request costs the hot path ~3 % CPU."""
    return log_level == "debug"


class GracefulServer(uvicorn.Server):
    """Ends live streams as soon as a stop is asked for.

    uvicorn lets in-flight requests finish before it shuts the app down, but a live stream
    never finishes by itself: without this, every SSE client would hold the shutdown until
    the grace period ran out and then be cut off. Closed cleanly, clients reconnect (to
    another instance) with ``Last-Event-ID`` and miss nothing.
    """

    def __init__(self, config: uvicorn.Config, app: Any) -> None:
        super().__init__(config)
        self._app = app

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        from russian_poker.service.app.state import config, started

        running = started(self._app.state)
        if running is not None:
            running.hub.close_streams()
        # uvicorn waits for the start-up to end before it looks at a stop: one still
        # waiting for the database is told here, from the signal handler, through the loop.
        stop = config(self._app.state).stop_asked
        with contextlib.suppress(RuntimeError):  # no loop running yet: nothing to tell
            asyncio.get_running_loop().call_soon_threadsafe(stop.set)
        super().handle_exit(sig, frame)
