"""The command path: every table command, exactly once, in one statement.

:class:`CommandService` runs a command's :class:`~russian_poker.service.application.attempt.Attempt`
on a storage unit, one command at a time per table in this process, and tries again from a
fresh load when the attempt lost a race (an expected version), up to a bound. A refusal
decided on a guess is confirmed on a fresh load before it is answered, and then remembered
under the command's id, as the answer of an accepted command is.
"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable

import structlog

from russian_poker.events.commands import Actor, Command
from russian_poker.events.records import DuplicateCommand, SessionEnded, WrongExpectedVersion
from russian_poker.events.streams import table_stream
from russian_poker.service.application.attempt import Attempt, Outcome, Request
from russian_poker.service.application.cache import CommittedCache
from russian_poker.service.application.idempotency import (
    IdempotencyKeyReused,
    ReplayedRefusal,
    answer,
    refusal_record,
)
from russian_poker.service.application.money.router import Money
from russian_poker.service.application.money.seamless import WalletRefused, WalletUnavailable
from russian_poker.service.application.ports import CommandStorage
from russian_poker.service.application.results import (
    CommandResult,
    Conflict,
    UnknownTable,
    VersionMismatch,
)
from russian_poker.service.application.sessions import SessionRef
from russian_poker.service.observability import observe_command
from russian_poker.service.rules.errors import RuleViolation
from russian_poker.service.rules.state import Table

__all__ = ["CommandService", "Wake"]

_log = structlog.get_logger("commands")

Wake = Callable[[list[str]], None]
"""Wakes the listeners of the streams a committed command appended to."""


class CommandService:
    """Runs table commands. Any instance may run any command: what it caches is checked by
    every write, never trusted."""

    def __init__(
        self,
        storage: CommandStorage,
        money: Money,
        *,
        cache: CommittedCache,
        wake: Wake,
        attempts: int = 8,
        test_mode: bool = False,
        owed: Callable[[], None] = lambda: None,
        close: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self._storage = storage
        self._money = money
        self._cache = cache
        self._wake = wake
        self._close = close
        self._attempts = attempts
        self._attempt = Attempt(cache, money, test_mode=test_mode, owed=owed)

    async def close(self) -> None:
        """Send the wake-ups still pending (before the pool closes)."""
        if self._close is not None:
            await self._close()

    async def execute(
        self,
        table_id: str,
        command: Command,
        actor: Actor,
        *,
        command_id: str | None = None,
        expected_version: int | None = None,
        request_id: str | None = None,
        session: SessionRef | None = None,
    ) -> CommandResult:
        """Run ``command``; raises ``RuleViolation``, ``VersionMismatch`` or ``Conflict``."""
        result, _ = await self.execute_with_state(
            table_id,
            command,
            actor,
            command_id=command_id,
            expected_version=expected_version,
            request_id=request_id,
            session=session,
        )
        return result

    async def execute_with_state(
        self,
        table_id: str,
        command: Command,
        actor: Actor,
        *,
        command_id: str | None = None,
        expected_version: int | None = None,
        request_id: str | None = None,
        must_exist: bool = False,
        session: SessionRef | None = None,
    ) -> tuple[CommandResult, Table | None]:
        """:meth:`execute`, also returning the table's state right after the command, so the
        caller can answer with it without loading the table again (``None`` for a duplicate:
        the state it left is gone). With ``must_exist``, a table that was never opened
        raises :class:`UnknownTable` before the rules see the command. ``session`` is the
        acting player's launched session, for a seamless operator's bets."""
        request = Request(
            table_id=table_id,
            command=command,
            actor=actor,
            command_id=command_id or str(uuid.uuid4()),
            expected_version=expected_version,
            request_id=request_id,
            must_exist=must_exist,
            session=session,
        )
        with observe_command(type(command).__name__, table_id) as facts:
            try:
                result, state = await self._execute(request)
            except UnknownTable:
                facts.update(outcome="unknown_table")
                raise
            except RuleViolation as refusal:
                replayed = isinstance(refusal, ReplayedRefusal)
                facts.update(outcome="refused", code=refusal.code, replayed=replayed)
                raise
            except IdempotencyKeyReused:
                facts.update(outcome="refused", code="idempotency_key_reused")
                raise
            except VersionMismatch:
                facts.update(outcome="version_mismatch")
                raise
            except Conflict:
                facts.update(outcome="conflict")
                raise
            except WalletUnavailable as unknown:
                # Why the outcome was unknown (a time-out, an answer refused): never a secret.
                facts.update(outcome="wallet_unavailable", why=str(unknown))
                raise
            facts.update(
                outcome="duplicate" if result.duplicate else "accepted",
                round=result.round,
                version=result.version,
            )
            return result, state

    async def _execute(self, request: Request) -> tuple[CommandResult, Table | None]:
        # The first attempt may decide on what this process committed last (no load, no
        # decoding); anything that guess gets wrong is found by the write's expected
        # versions, and everything after it starts from a fresh load.
        reload: str | None = None  # why the next attempt must load; None: it may guess
        table_id = request.table_id
        # A seamless player's own command may bet, and its attempt then holds the player's
        # lock across statements: it needs a session of its own, not a pooler's.
        locks = request.actor.role == "player" and await self._money.seamless(request.actor.id)
        async with self._cache.turn(table_id):
            for _ in range(self._attempts):
                try:
                    async with self._storage.unit(locks=locks) as unit:
                        outcome: Outcome = await self._attempt.run(unit, request, reload=reload)
                    # Woken only after commit, and many commands per NOTIFY.
                    self._wake(outcome.streams)
                    return outcome.result, outcome.state
                except WrongExpectedVersion as stale:
                    self._cache.forget(table_id, stale.stream_id)
                    reload = "stale"
                except DuplicateCommand as duplicate:
                    return answer(duplicate.result, request.command), None
                except SessionEnded:
                    # Checked by the command's own statements, not a round trip before them.
                    raise RuleViolation(
                        "session_ended", "the game session has ended; launch a new one"
                    ) from None
                except WalletRefused as refusal:
                    # The operator's answer, not a guess of ours: asking it again would only
                    # send new bets. Remembered like the rules' refusals.
                    return await self._refused(request, refusal), None
                except (RuleViolation, VersionMismatch) as refusal:
                    if reload is None:
                        # Decided on a guess: a refusal is only answered from a fresh load.
                        self._cache.forget(table_id)
                        reload = "refusal"
                        continue
                    if isinstance(refusal, VersionMismatch):
                        raise
                    return await self._refused(request, refusal), None
                except BaseException:
                    self._cache.forget(table_id)
                    raise
            raise Conflict(f"table {table_id} is too busy; try again")

    async def _refused(self, request: Request, refusal: RuleViolation) -> CommandResult:
        """Record the refusal under the command id, so a retry gets the same answer, and
        raise it; if the id was recorded meanwhile (a concurrent retry won), that answer."""
        stored = await self._storage.remember_refusal(
            request.command_id,
            table_stream(request.table_id),
            refusal_record(request.command, refusal),
        )
        if stored is None:
            raise refusal
        return answer(stored, request.command)
