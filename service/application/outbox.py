"""The outbox: every ``win`` and ``rollback`` owed to a seamless operator, delivered until
the operator acknowledges it (docs/wallet-protocol.md §3.3, §3.4), and the recovery of attempts
whose instance died mid-command.

Every instance runs a deliverer; each item has exactly one at a time. A deliverer takes a
player's oldest owed call only, under an advisory lock named after the player (the one the
command path holds while it bets), and holds it until the operator answered and the answer
is recorded. So calls of one player go one at a time and in order, whichever instance
sends them, and a crash mid-call releases the lock (with the connection) to the next
deliverer, which sends the same call again (the operator applies a transaction id once).
No transaction stays open while the operator answers. A call that is not
final is sent again with exponential backoff; after ``retry_for_s`` it is flagged
``manual`` for the operator's and our staff's attention (metric, log, reconciliation).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
import uuid
from collections.abc import Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Final, Protocol

import structlog

from russian_poker.service.application.money.seamless import player_key
from russian_poker.service.application.ports import CallsConnection, Head
from russian_poker.service.background import BackgroundLoop, Backoff
from russian_poker.service.observability import WALLET_CALLS, WALLET_MANUAL, WALLET_OWED
from russian_poker.service.rules.tenancy import PlayerRef
from russian_poker.service.wallet.port import UnknownOutcome, WalletPort
from russian_poker.service.wallet.protocol import (
    FINAL_ROLLBACK_STATUSES,
    Answer,
    RollbackCall,
    WinCall,
    round_id,
)

__all__ = ["CallsStore", "Outbox"]

_log = structlog.get_logger("wallet.outbox")

_RECOVER_EVERY_S: Final = 2.0
_MANUAL_EVERY_S: Final = 60.0
"""How often the manual gauge is counted again: no index covers manual calls, so the count
is a scan, not something for every pass (at once, though, after this instance flagged one)."""


class CallsStore(Protocol):
    """The owed calls, as the outbox reads them (``events.postgres.wallet_calls``)."""

    def connection(self) -> AbstractAsyncContextManager[CallsConnection]: ...
    async def heads(self) -> Sequence[Head]: ...
    async def abandoned_attempts(self, older_than_s: float) -> list[uuid.UUID]: ...
    async def count_manual(self) -> int: ...


class Outbox(BackgroundLoop):
    """Delivers owed calls and recovers abandoned attempts, in the background."""

    name = "wallet-outbox"

    def __init__(
        self,
        calls: CallsStore,
        wallets: Callable[[str], Awaitable[WalletPort | None]],
        *,
        retry_for_s: float = 86_400,
        backoff_max_s: float = 60,
        poll_s: float = 1.0,
        parallel: int = 16,
    ) -> None:
        self._calls = calls
        self._wallets = wallets
        self._retry_for_s = retry_for_s
        self._backoff_max_s = backoff_max_s
        self._poll_s = poll_s
        self._slots = asyncio.Semaphore(parallel)
        self._wake = asyncio.Event()
        self._manual_counted_at: float | None = None
        self._flagged = False

    def wake(self) -> None:
        """Something was queued: deliver now rather than at the next poll."""
        self._wake.set()

    async def _run(self) -> None:
        recovered_at = 0.0
        backoff = Backoff()
        while True:
            delivered = 0
            try:
                # Abandoned attempts are rare (a crash): looked for every few seconds, not
                # on every wake-up, which comes with every settlement.
                if time.monotonic() - recovered_at >= _RECOVER_EVERY_S:
                    recovered_at = time.monotonic()
                    await self.recover()
                delivered = await self.deliver_due()
            except asyncio.CancelledError:
                raise
            except Exception as error:  # the database went away: try again later
                _log.warning("wallet_outbox_failed", error=type(error).__name__)
                # Whatever wakes it meanwhile (every settlement does): a database that
                # fails at once must not make this a spin.
                await backoff.wait()
                continue
            backoff.succeeded()
            if delivered:
                # A pass sends each player's oldest call only: the next ones are due now,
                # not at the next poll (a round's credits would trickle one per poll).
                continue
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self._poll_s)
            self._wake.clear()

    async def recover(self, older_than_s: float = 1.0) -> int:
        """Undo the bets of attempts whose owner is gone (its lock is free); returns how
        many rollbacks that queued."""
        queued = 0
        async with self._calls.connection() as conn:
            for attempt_id in await self._calls.abandoned_attempts(older_than_s):
                if not await conn.try_lock_attempt(attempt_id):
                    continue  # still running somewhere
                try:
                    count = await conn.undo_bets(
                        attempt_id, "recovered: the command did not finish"
                    )
                finally:
                    await conn.unlock_attempt(attempt_id)
                if count:
                    _log.warning(
                        "wallet_attempt_recovered", attempt=str(attempt_id), rollbacks=count
                    )
                queued += count
        if queued:
            self.wake()
        return queued

    async def deliver_due(self) -> int:
        """One pass: the oldest owed call of every player that is due; returns how many
        were delivered (answered finally)."""
        heads = await self._calls.heads()
        WALLET_OWED.set(len(heads))
        results = await asyncio.gather(*(self._deliver(h) for h in heads if h.due))
        await self._count_manual()
        return sum(results)

    async def _count_manual(self) -> None:
        """The manual gauge (§3.3: a call given up on is flagged by a metric, too)."""
        now = time.monotonic()
        counted = self._manual_counted_at
        if not self._flagged and counted is not None and now - counted < _MANUAL_EVERY_S:
            return
        self._flagged = False
        self._manual_counted_at = now
        WALLET_MANUAL.set(await self._calls.count_manual())

    async def _deliver(self, head: Head) -> bool:
        # The player's lock, not a transaction, keeps one deliverer per player: a
        # transaction held open for the operator's answer would hold back every reader
        # of the global order (projections, the audit feed) for as long.
        player = player_key(PlayerRef(head.operator_id, head.player_id))
        async with self._slots, self._calls.connection() as conn:
            if not await conn.try_lock_player(player):
                return False
            try:
                row = await conn.take(head.seq, self._retry_for_s)
                if row is None:
                    return False
                return await self._deliver_row(conn, row)
            finally:
                await conn.unlock_player(player)

    async def deliver_owed(
        self,
        conn: CallsConnection,
        operator_id: str,
        player_id: str,
        table_id: str,
        round_number: int,
    ) -> bool:
        """Deliver the player's calls still owed for this round now, in order, on the
        command's own connection: the command path holds the player's lock, and its bets
        must not overtake them (§3.5). False if one of them is still not final."""
        rows = await conn.owed_of_round(
            operator_id, player_id, table_id, round_number, self._retry_for_s
        )
        for row in rows:
            if not await self._deliver_row(conn, row):
                return False
        return True

    async def _deliver_row(self, conn: CallsConnection, row: Any) -> bool:
        """Send one owed call (locked by the caller) and record the answer."""
        answer, error = await self._send(row)
        final = answer is not None and (
            answer.status == "ok"
            or (row["kind"] == "rollback" and answer.status in FINAL_ROLLBACK_STATUSES)
        )
        outcome = "final" if final else "again"
        WALLET_CALLS.labels(row["kind"], answer.status if answer else "unknown").inc()
        if final:
            assert answer is not None
            await conn.delivered(
                row["seq"], answer.status, answer.operator_transaction_id, answer.balance
            )
            return True
        manual = bool(row["expired"])
        await conn.retry_later(
            row["seq"],
            answer.status if answer else None,
            error or (answer.status if answer else ""),
            self._backoff(row["attempts"] + 1),
            manual,
        )
        self._flagged = self._flagged or manual
        log = _log.error if manual else _log.info
        log(
            "wallet_call_manual" if manual else "wallet_call_retry",
            kind=row["kind"],
            operator=row["operator_id"],
            transaction_id=row["transaction_id"],
            attempts=row["attempts"] + 1,
            outcome=outcome,
            error=error or (answer.status if answer else None),
        )
        return False

    def _backoff(self, attempts: int) -> float:
        delay: float = min(self._backoff_max_s, 0.25 * 2 ** min(attempts, 20))
        return delay * random.uniform(0.8, 1.2)

    async def _send(self, row: Any) -> tuple[Answer | None, str | None]:
        wallet = await self._wallets(row["operator_id"])
        if wallet is None:
            return None, "the operator has no seamless wallet (any more)"
        common = {
            "request_id": uuid.uuid4().hex,
            "operator_id": row["operator_id"],
            "player_id": row["player_id"],
            "session_id": row["session_id"],
            "currency": row["currency"],
            "transaction_id": row["transaction_id"],
            "amount": row["amount"],
            "round_id": round_id(row["table_id"], row["round"]),
            "table_id": row["table_id"],
            "box": row["box"],
            "reason": row["reason"],
            "round_closed": row["round_closed"],
        }
        try:
            if row["kind"] == "win":
                refs = tuple(row["reference_transaction_ids"] or ())
                return await wallet.win(WinCall(**common, reference_transaction_ids=refs)), None
            return await wallet.rollback(
                RollbackCall(**common, reference_transaction_id=row["reference_transaction_id"])
            ), None
        except UnknownOutcome as unknown:
            return None, str(unknown)
