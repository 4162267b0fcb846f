"""Start-up and shut-down that a silent database cannot hold: ``SIGTERM`` is honoured at
every moment of an instance's life.

Before start-up ends, uvicorn only notes a stop (it waits for the lifespan to finish), so
the start-up's waits race the stop asked for (:func:`unless_stopped`). At shut-down, each
step of the lifespan is given a few seconds (:func:`bounded`) and then left behind.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import multiprocessing
import os
import signal
import sys
from collections.abc import Awaitable, Callable
from typing import Any, Final, TypeVar

import structlog

__all__ = ["STOP_STEP_S", "StopAsked", "bounded", "die_with_supervisor", "unless_stopped"]

_log = structlog.get_logger(__name__)
T = TypeVar("T")

STOP_STEP_S: Final = 5.0
"""Seconds one step of the shut-down may take."""


class StopAsked(Exception):
    """The instance was told to stop before its start-up finished."""


async def unless_stopped(stop: asyncio.Event, work: Awaitable[T]) -> T:
    """``work``'s result, or :class:`StopAsked` as soon as ``stop`` is set (``work`` is then
    cancelled)."""
    task = asyncio.ensure_future(work)
    stopped = asyncio.ensure_future(stop.wait())
    try:
        await asyncio.wait({task, stopped}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stopped.cancel()
    if not task.done():
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
        raise StopAsked("stopped before start-up finished (the database did not answer yet)")
    return task.result()


async def bounded(step: Callable[[], Awaitable[Any]], seconds: float) -> None:
    """Run one shut-down step for at most ``seconds``; a step that fails or overruns is
    logged and left behind, so the next steps still run."""
    name = getattr(step, "__qualname__", repr(step))
    try:
        await asyncio.wait_for(step(), seconds)
    except TimeoutError:
        _log.warning("shut-down step overran; left behind", step=name, seconds=seconds)
    except Exception as error:  # the database went with the instance: carry on stopping
        _log.warning("shut-down step failed", step=name, error=type(error).__name__)


_PR_SET_PDEATHSIG: Final = 1


def die_with_supervisor() -> None:
    """In a worker of ``serve --workers N``: be told to stop (``SIGTERM``) when the process
    that started it dies, however it dies.

    uvicorn's supervisor stops its workers when it is stopped, but a supervisor killed
    (``kill -9``, the OOM killer) leaves them running, orphans holding their database
    connections, for good. Linux's parent-death signal ends them with it; elsewhere, or in
    a process nobody supervises, nothing changes."""
    supervisor = multiprocessing.parent_process()
    if supervisor is None or not sys.platform.startswith("linux"):
        return
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    if os.getppid() != supervisor.pid:
        # The supervisor died before the request took: nothing would signal us now.
        os.kill(os.getpid(), signal.SIGTERM)
