"""Delivering the table-status notifications queued in ``table_notifications``.

Every instance of the service runs a notifier (``serve``, with the wallet outbox). Each
notification has one deliverer at a time (its lock, ``events.postgres.notices``), and no
transaction stays open while the operator answers. Per table and operator only the oldest
notification still owed is sent, so a reopening never overtakes the closing before it.
Anything but a 2xx (a time-out, a broken connection, a non-2xx status) is sent again with
exponential backoff, with the same ``notification_id``; after ``retry_for_s`` the
notification is flagged ``manual`` (logged), as a money call is (docs/wallet-protocol.md §3.3).
"""

from __future__ import annotations

import asyncio
import random
import uuid
from datetime import UTC, datetime

import httpx
import msgspec
import structlog

from russian_poker.events.postgres.notices import NoticesOnConnection, NoticeStore, QueuedNotice
from russian_poker.service.application.operators import OperatorRegistry
from russian_poker.service.availability.notices import NOTICE_PATH, NoticeActor, TableStatusNotice
from russian_poker.service.background import BackgroundLoop
from russian_poker.service.wallet.signing import HEADER, sign

__all__ = ["TableNotifier", "notice_of"]

_log = structlog.get_logger("availability.notifier")

_encoder = msgspec.json.Encoder()


class TableNotifier(BackgroundLoop):
    """Sends the owed table-status notifications, in the background."""

    name = "table-notifier"

    def __init__(
        self,
        store: NoticeStore,
        operators: OperatorRegistry,
        *,
        retry_for_s: float = 86_400,
        backoff_max_s: float = 60,
        poll_s: float = 0.5,
    ) -> None:
        self._store = store
        self._operators = operators
        self._retry_for_s = retry_for_s
        self._backoff_max_s = backoff_max_s
        self._poll_s = poll_s
        self._client = httpx.AsyncClient(headers={"user-agent": "russian-poker-notices/1"})

    async def _closed(self) -> None:
        await self._client.aclose()

    async def _run(self) -> None:
        while True:
            delivered = 0
            try:
                delivered = await self.deliver_due()
            except asyncio.CancelledError:
                raise
            except Exception as error:  # the database went away: try again later
                _log.warning("table_notifier_failed", error=type(error).__name__)
            if not delivered:
                # Polled: a closing is rare, and half a second late is soon enough for it.
                await asyncio.sleep(self._poll_s)

    async def deliver_due(self) -> int:
        """One pass: the oldest owed notification of each table and operator, if due;
        returns how many were acknowledged."""
        heads = await self._store.heads()
        due = [h for h in heads if h.due]
        results = await asyncio.gather(
            *(self._deliver(h.operator_id, h.notification_id) for h in due)
        )
        return sum(results)

    async def _deliver(self, operator_id: str, notification_id: str) -> bool:
        async with self._store.connection() as notices:
            if not await notices.try_lock(operator_id, notification_id):
                return False  # another instance is sending it
            try:
                row = await notices.take(operator_id, notification_id, self._retry_for_s)
                if row is None:
                    return False  # delivered meanwhile
                return await self._deliver_row(notices, row)
            finally:
                await notices.unlock(operator_id, notification_id)

    async def _deliver_row(self, notices: NoticesOnConnection, row: QueuedNotice) -> bool:
        status, error = await self._send(row)
        if status is not None and 200 <= status < 300:
            await notices.delivered(row.operator_id, row.notification_id, status)
            _log.info(
                "table_notice_delivered",
                operator=row.operator_id,
                table_id=row.table_id,
                notification_id=row.notification_id,
                attempts=row.attempts + 1,
            )
            return True
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
            "table_notice_manual" if manual else "table_notice_retry",
            operator=row.operator_id,
            table_id=row.table_id,
            notification_id=row.notification_id,
            attempts=row.attempts + 1,
            error=error or f"HTTP {status}",
        )
        return False

    def _backoff(self, attempts: int) -> float:
        delay: float = min(self._backoff_max_s, 0.25 * 2 ** min(attempts, 20))
        return delay * random.uniform(0.8, 1.2)

    async def _send(self, row: QueuedNotice) -> tuple[int | None, str | None]:
        """POST the notification; the HTTP status, or None and why there was none."""
        operator = await self._operators.get(row.operator_id)
        wallet = operator.wallet if operator is not None else None
        if wallet is None or not wallet.url or not wallet.secret:
            return None, "the operator has no wallet url and secret (any more)"
        body = _encoder.encode(notice_of(row))
        headers = {"content-type": "application/json", HEADER: sign(wallet.secret, body)}
        try:
            response = await self._client.post(
                f"{wallet.url.rstrip('/')}/{NOTICE_PATH}",
                content=body,
                headers=headers,
                timeout=wallet.timeout_ms / 1000,
            )
        except httpx.TimeoutException:
            return None, f"no answer within {wallet.timeout_ms} ms"
        except httpx.HTTPError as error:
            return None, type(error).__name__
        return response.status_code, None


def notice_of(row: QueuedNotice) -> TableStatusNotice:
    """The wire body of a queued notification (a new ``request_id`` for this attempt)."""
    occurred: datetime = row.occurred_at
    return TableStatusNotice(
        notification_id=row.notification_id,
        request_id=uuid.uuid4().hex,
        operator_id=row.operator_id,
        table_id=row.table_id,
        status=row.status,
        reason=row.reason,
        actor=NoticeActor(role=row.actor_role, id=row.actor_id),
        time=occurred.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
    )
