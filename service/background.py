"""One shape for the serve process's background loops (clock, outbox, notifier, checkpoints).

Each loop is started by the app's lifespan and cancelled when the instance stops; a loop
that swallowed its cancellation would hold the shutdown, so stopping waits for it to end.
"""

from __future__ import annotations

import asyncio
import contextlib

__all__ = ["BackgroundLoop"]


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
