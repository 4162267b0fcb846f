"""The service's clock: it sends the rules' time-outs when they fall due.

Every instance runs one. Each due timer is sent as a command whose id is the timer's key,
so however many instances pick it up, the store records it once; the command's own
transaction then drops the timer (it is no longer pending). A time-out the rules refuse
(the wait it was for is over) is dropped too. Nothing here reads the clock but PostgreSQL's
``now()``, so every instance agrees on what is due.
"""

from __future__ import annotations

import asyncio
from typing import Final

import msgspec
import structlog

from russian_poker.events.commands import (
    SYSTEM,
    BettingTimeUp,
    CompleteAbandonedRound,
    DecisionTimeUp,
)
from russian_poker.events.postgres.pool import DATABASE_GONE
from russian_poker.events.postgres.timers import TimerStore
from russian_poker.service.application.commands import CommandService
from russian_poker.service.application.results import Conflict
from russian_poker.service.background import BackgroundLoop, Backoff
from russian_poker.service.rules.errors import RuleViolation

__all__ = ["Clock"]

_log = structlog.get_logger(__name__)
_timeout: Final = msgspec.json.Decoder(BettingTimeUp | DecisionTimeUp | CompleteAbandonedRound)


class Clock(BackgroundLoop):
    name = "clock"

    def __init__(
        self,
        timers: TimerStore,
        commands: CommandService,
        *,
        interval_s: float = 0.5,
        batch: int = 100,
    ) -> None:
        self._timers = timers
        self._commands = commands
        self._interval_s = interval_s
        self._batch = batch

    async def tick(self) -> int:
        """Send every time-out that is due; returns how many were acted on."""
        sent = 0
        for due in await self._timers.due(self._batch):
            command = _timeout.decode(due.command)
            try:
                await self._commands.execute(
                    due.table_id, command, SYSTEM, command_id=f"timer:{due.key}"
                )
                sent += 1
            except RuleViolation:
                await self._timers.drop(due.key)
            except Conflict:
                continue  # the table is busy; the timer stays due and is tried next tick
        return sent

    async def _run(self) -> None:
        backoff = Backoff(first=self._interval_s)
        while True:
            try:
                await self.tick()
            except DATABASE_GONE as error:
                # The database went (a restart, a lost connection): keep ticking, or no
                # time-out would ever be sent from this instance again; but less often
                # while it stays gone.
                delay = backoff.next_delay()
                _log.warning(
                    "clock tick failed", error=str(error) or type(error).__name__, retry_in_s=delay
                )
                await asyncio.sleep(delay)
                continue
            backoff.succeeded()
            await asyncio.sleep(self._interval_s)
