"""Checkpoints made in the background by the serving instances, one at a time.

Every instance runs a :class:`Checkpointer`; each tick tries the checkpoint lock without
waiting (a transaction-level advisory lock, so a crashed holder releases it), so at most
one instance makes each checkpoint and the others skip that tick.
"""

from __future__ import annotations

import asyncio

import structlog
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from russian_poker.events.postgres.chain import ChainStore
from russian_poker.events.postgres.pool import DATABASE_GONE
from russian_poker.service.background import BackgroundLoop
from russian_poker.service.chain.checkpoints import Checkpoint, make_checkpoint

__all__ = ["Checkpointer"]

_log = structlog.get_logger(__name__)


class Checkpointer(BackgroundLoop):
    """Checkpoints the chain every ``every_s`` seconds, skipping a tick when nothing changed."""

    name = "chain-checkpoints"

    def __init__(self, store: ChainStore, key: Ed25519PrivateKey, *, every_s: float) -> None:
        self._store = store
        self._key = key
        self._every_s = every_s

    async def tick(self) -> Checkpoint | None:
        """Make the next checkpoint if something changed and no one else is making it."""
        checkpoint = await make_checkpoint(self._store, self._key, wait=False)
        if checkpoint is not None:
            _log.info("chain_checkpoint", seq=checkpoint.seq, leaves=checkpoint.leaf_count)
        return checkpoint

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self._every_s)
            try:
                await self.tick()
            except DATABASE_GONE as error:
                _log.warning("chain checkpoint failed", error=str(error))
