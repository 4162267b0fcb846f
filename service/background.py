"""One shape for the serve process's background loops (clock, outbox, notifier, checkpoints).

Each loop is started by the app's lifespan and cancelled when the instance stops; a loop
that swallowed its cancellation would hold the shutdown, so stopping waits for it to end.
After a failure every loop waits on a :class:`Backoff` before it tries again, whatever
wake-ups come meanwhile: a database that refuses at once must not turn a loop into a spin.
"""

from __future__ import annotations

import asyncio
import contextlib
import random

__all__ = ["BackgroundLoop", "Backoff"]


class Backoff:
    """Waits between failed attempts: ``first`` seconds, doubling up to ``most``, each with
    up to a fifth of jitter (instances that failed together do not retry in step); a success
    starts again from ``first``."""

    def __init__(self, first: float = 0.2, most: float = 5.0) -> None:
        self.first = first
        self.most = most
        self.failures = 0
        """Failures in a row since the last success."""

    def next_delay(self) -> float:
        """Count a failure; the seconds to wait before the next attempt."""
        self.failures += 1
        delay = min(self.most, self.first * float(2 ** min(self.failures - 1, 30)))
        return delay * (1 + random.random() / 5)

    async def wait(self) -> float:
        """Count a failure and sleep its delay; the delay slept."""
        delay = self.next_delay()
        await asyncio.sleep(delay)
        return delay

    def succeeded(self) -> None:
        self.failures = 0


class BackgroundLoop:
    """A task running :meth:`_run` until :meth:`stop`; subclasses give it a ``name``."""

    name: str = "background"
    _task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Run the loop on the current event loop."""
        self._task = asyncio.create_task(self._run(), name=self.name)

    async def stop(self) -> None:
        """Cancel the loop and wait until it has ended; then :meth:`_closed`."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        await self._closed()

    async def _run(self) -> None:
        raise NotImplementedError

    async def _closed(self) -> None:
        """Release what the loop held (a client, say) once it has stopped."""
