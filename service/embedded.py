"""The embedded PostgreSQL (the ``pgserver`` package) of a data directory, and its life.

Without ``DATABASE_URL`` every command (``serve``, ``migrate``, ``replay`` ...) starts the
server of ``<data dir>/pgdata`` or joins the one already running. pgserver records each
process using it in ``pgdata/.handle_pids.json`` and, with ``cleanup_mode="stop"``, the
last of them to exit stops it: the server lives exactly as long as something uses it, and
no PostgreSQL is left behind, unseen, once ``serve`` is gone. ``russian-poker db status``
and ``db stop`` show and end it by hand.

pgserver is imported only here, and only when the embedded server is wanted (the
container image leaves it out). Importing it is noisy for no reason of ours: platformdirs
warns that ``XDG_RUNTIME_DIR`` is unset (normal for root, containers and CI), and its
logger writes a line per step at ``INFO``, which the root logger (configured by litestar)
prints — at interpreter exit, on a stream that may already be closed (pytest's capture),
which gives "--- Logging error --- ValueError: I/O operation on closed file". Both are
silenced in :func:`pgserver_module`; its warnings and errors still come through.
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import os
import tempfile
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any
from urllib.parse import urlsplit, urlunsplit

__all__ = [
    "EmbeddedStatus",
    "embedded_status",
    "pgserver_module",
    "public_url",
    "start_embedded",
    "stop_embedded",
]

_started: dict[Path, Any] = {}


def pgserver_module() -> ModuleType:
    """``pgserver``, imported without platformdirs' warning and with its logger quiet."""
    logging.getLogger("pgserver").setLevel(logging.WARNING)
    with warnings.catch_warnings():
        with contextlib.suppress(ImportError):
            from platformdirs import RuntimeDirWarning

            warnings.simplefilter("ignore", RuntimeDirWarning)
        return importlib.import_module("pgserver")


def public_url(url: str) -> str:
    """``url`` without a password (pgserver's has an empty one: ``postgres:@``)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.netloc.rpartition("@")[2]
    user = f"{parts.username}@" if parts.username else ""
    return urlunsplit(parts._replace(netloc=user + host))


def _resolved(pgdata: Path) -> Path:
    return pgdata.expanduser().resolve()


def _forget_dead_users(pgdata: Path) -> None:
    """Drop the pids of processes that died without their exit hook (SIGKILL, OOM) from
    pgserver's list of users; else the server would wait for them for ever and never stop."""
    pgserver = pgserver_module()
    import psutil  # type: ignore[import-untyped]  # pgserver's own dependency

    users = pgserver.utils.DiskList(pgdata / ".handle_pids.json")
    with pgserver.PostgresServer._lock:
        alive = [pid for pid in users.get() if psutil.pid_exists(pid)]
        if alive != users.get():
            users.put(alive)


def start_embedded(pgdata: Path) -> str:
    """Start (or join) the embedded server of ``pgdata``; its URL. It stops when the last
    process that started or joined it exits."""
    pgdata = _resolved(pgdata)
    server = _started.get(pgdata)
    if server is None:
        pgserver = pgserver_module()
        pgdata.mkdir(parents=True, exist_ok=True)
        if (pgdata / ".handle_pids.json").exists():
            _forget_dead_users(pgdata)
        server = pgserver.get_server(pgdata, cleanup_mode="stop")
        _started[pgdata] = server
    return str(server.get_uri())


@dataclass(frozen=True)
class EmbeddedStatus:
    """What ``db status`` shows of the embedded server of one data directory."""

    pgdata: Path
    running: bool
    pid: int | None = None
    url: str | None = None
    """Without any password."""
    users: list[int] = field(default_factory=list)
    """Live processes recorded as using it: it stops when the last of them exits."""


def _postmaster(pgdata: Path) -> Any:
    """pgserver's ``PostmasterInfo`` of a running server, else ``None``."""
    pgserver = pgserver_module()
    try:
        info = pgserver.utils.PostmasterInfo.read_from_pgdata(pgdata)
    except (AssertionError, ValueError, OSError):
        return None  # postmaster.pid half written: starting or stopping
    if info is None or not info.is_running() or info.status != "ready":
        return None
    return info


def embedded_status(pgdata: Path) -> EmbeddedStatus:
    """Whether the embedded server of ``pgdata`` runs, its URL and who uses it."""
    pgdata = _resolved(pgdata)
    if not (pgdata / "PG_VERSION").exists():
        return EmbeddedStatus(pgdata=pgdata, running=False)
    import psutil

    users = pgserver_module().utils.DiskList(pgdata / ".handle_pids.json").get()
    alive = [pid for pid in users if psutil.pid_exists(pid)]
    info = _postmaster(pgdata)
    if info is None:
        return EmbeddedStatus(pgdata=pgdata, running=False, users=alive)
    return EmbeddedStatus(
        pgdata=pgdata, running=True, pid=info.pid, url=public_url(info.get_uri()), users=alive
    )


def stop_embedded(pgdata: Path) -> bool:
    """Stop the embedded server of ``pgdata`` (fast: sessions are ended); whether it ran."""
    pgdata = _resolved(pgdata)
    if not (pgdata / "PG_VERSION").exists() or _postmaster(pgdata) is None:
        return False
    pgserver = pgserver_module()
    # As root, pgserver runs PostgreSQL as its own unprivileged user, and so must pg_ctl.
    user = "pgserver" if hasattr(os, "geteuid") and os.geteuid() == 0 else None
    with pgserver.PostgresServer._lock:
        pgserver.pg_ctl(
            ["-w", "-m", "fast", "stop"], pgdata=pgdata, user=user, cwd=tempfile.gettempdir()
        )
    _forget_dead_users(pgdata)
    return True
