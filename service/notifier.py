"""Delivering the notifications owed to operators: table-status changes
(``service.availability.notices``) and signed checkpoints (``service.chain.notices``).

Every instance of the service runs a notifier (``serve``, with the wallet outbox). Each
notification has one deliverer at a time (its lock, ``events.postgres.notices``), and no
transaction stays open while the operator answers. Only the oldest notification still owed
on each line is sent (per table and operator; per operator for checkpoints), so none
overtakes the one before it. Anything but a 2xx (a time-out, a broken connection, a non-2xx
status) is sent again with exponential backoff, with the same ``notification_id``; after
``retry_for_s`` the notification is flagged ``manual`` (logged), as a money call is
(docs/wallet-protocol.md §3.3).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import msgspec
import structlog

from russian_poker.events.postgres.notices import (
    NoticesOnConnection,
    NoticeStore,
    QueuedCheckpoint,
    QueuedNotice,
)
from russian_poker.service.application.operators import OperatorRegistry
from russian_poker.service.background import BackgroundLoop, Backoff
from russian_poker.service.wallet.http import CallFailed, OperatorHttp
from russian_poker.service.wallet.signing import HEADER, sign

__all__ = ["Channel", "OperatorNotifier"]

_log = structlog.get_logger("notifier")

_encoder = msgspec.json.Encoder()

T = TypeVar("T", QueuedNotice, QueuedCheckpoint)


@dataclass(frozen=True)
class Channel(Generic[T]):
    """One kind of notification: where its rows are owed, the path it is posted to under
    the operator's wallet URL, and its body (``None``, with why, when none can be made)."""

    kind: str
    """The prefix of its log events: ``table_notice``, ``checkpoint_notice``."""
    store: NoticeStore[T]
    path: str
    body: Callable[[T], msgspec.Struct | str]
    declined_by: frozenset[int] = frozenset()
    """Answers that mean "this wallet does not take these" (the endpoint is absent): the
    notification ends ``declined`` instead of being sent again, so one operator that keeps
    no checkpoints does not hold a growing queue. Empty: every non-2xx is retried."""


class OperatorNotifier(BackgroundLoop):
    """Sends the owed notifications of every channel, in the background."""

    name = "operator-notifier"

    def __init__(
        self,
        channels: Sequence[Channel[Any]],
        operators: OperatorRegistry,
        *,
        retry_for_s: float = 86_400,
        backoff_max_s: float = 60,
        poll_s: float = 0.5,
    ) -> None:
        self._channels = channels
        self._operators = operators
        self._retry_for_s = retry_for_s
        self._backoff_max_s = backoff_max_s
        self._poll_s = poll_s
        self._http = OperatorHttp(user_agent="russian-poker-notices/1", connections=100)

    async def _closed(self) -> None:
        await self._http.aclose()

    async def _run(self) -> None:
        backoff = Backoff(first=self._poll_s)
        while True:
            delivered = 0
            try:
                delivered = await self.deliver_due()
            except asyncio.CancelledError:
                raise
            except Exception as error:  # the database went away: try again later
                _log.warning("notifier_failed", error=type(error).__name__)
                await backoff.wait()
                continue
            backoff.succeeded()
            if not delivered:
                # Polled: closings and checkpoints are rare, and half a second late is soon.
                await asyncio.sleep(self._poll_s)

    async def deliver_due(self) -> int:
        """One pass: the oldest owed notification of each line of every channel, if due;
        returns how many were acknowledged."""
        results = []
        for channel in self._channels:
            heads = [h for h in await channel.store.heads() if h.due]
            results += await asyncio.gather(
                *(self._deliver(channel, h.operator_id, h.notification_id) for h in heads)
            )
        return sum(results)

    async def _deliver(self, channel: Channel[T], operator_id: str, notification_id: str) -> bool:
        async with channel.store.connection() as notices:
            if not await notices.try_lock(operator_id, notification_id):
                return False  # another instance is sending it
            try:
                row = await notices.take(operator_id, notification_id, self._retry_for_s)
                if row is None:
                    return False  # delivered meanwhile
                return await self._deliver_row(channel, notices, row)
            finally:
                await notices.unlock(operator_id, notification_id)

    async def _deliver_row(
        self, channel: Channel[T], notices: NoticesOnConnection[T], row: T
    ) -> bool:
        body = channel.body(row)
        status, error = (
            (None, body) if isinstance(body, str) else await self._send(channel, row, body)
        )
        fields = {"operator": row.operator_id, "notification_id": row.notification_id}
        if status is not None and 200 <= status < 300:
            await notices.delivered(row.operator_id, row.notification_id, status)
            _log.info(f"{channel.kind}_delivered", **fields, attempts=row.attempts + 1)
            return True
        if status in channel.declined_by:
            await notices.declined(row.operator_id, row.notification_id, status)
            _log.warning(f"{channel.kind}_declined", **fields, status=status)
            return False
        manual = bool(row.expired)
        await notices.retry_later(
            row.operator_id,
            row.notification_id,
            status,
            (error or f"HTTP {status}")[:500],
            self._backoff(row.attempts + 1),
            manual,
        )
        (_log.error if manual else _log.info)(
            f"{channel.kind}_manual" if manual else f"{channel.kind}_retry",
            **fields,
            attempts=row.attempts + 1,
            error=error or f"HTTP {status}",
        )
        return False

    def _backoff(self, attempts: int) -> float:
        delay: float = min(self._backoff_max_s, 0.25 * 2 ** min(attempts, 20))
        return delay * random.uniform(0.8, 1.2)

    async def _send(
        self, channel: Channel[T], row: T, notice: msgspec.Struct
    ) -> tuple[int | None, str | None]:
        """POST the notification; the HTTP status, or None and why there was none."""
        operator = await self._operators.get(row.operator_id)
        wallet = operator.wallet if operator is not None else None
        if wallet is None or not wallet.url or not wallet.secret:
            return None, "the operator has no wallet url and secret (any more)"
        body = _encoder.encode(notice)
        headers = {"content-type": "application/json", HEADER: sign(wallet.secret, body)}
        try:
            reply = await self._http.post(
                f"{wallet.url.rstrip('/')}/{channel.path}",
                body,
                headers,
                timeout_s=wallet.timeout_ms / 1000,
            )
        except CallFailed as failed:
            return None, str(failed)
        return reply.status, None
