"""Delivering the table-status notifications queued in ``table_notifications``.

Every instance of the service runs a notifier (``serve``, with the wallet outbox). Each
notification has one deliverer at a time: an advisory lock named after it, held on the
connection that records the answer, and no transaction stays open while the operator
answers (a long transaction would hold back every reader of the global order). Per table
and operator only the oldest notification still owed is sent, so a reopening never
overtakes the closing before it. Anything but a 2xx (a time-out, a broken connection, a
non-2xx status) is sent again with exponential backoff, with the same
``notification_id``; after ``retry_for_s`` the notification is flagged ``manual`` (logged),
as a money call is (WALLET-PROTOCOL §3.3).
"""

from __future__ import annotations

import asyncio
import random
import uuid
from datetime import UTC, datetime
from typing import Any, Final

import httpx
import msgspec
import structlog

from russian_poker.service.application.operators import OperatorRegistry
from russian_poker.service.availability.notices import NOTICE_PATH, NoticeActor, TableStatusNotice
from russian_poker.service.background import BackgroundLoop
from russian_poker.service.wallet.signing import HEADER, sign

__all__ = ["NOTICE_LOCK", "TableNotifier"]

_log = structlog.get_logger("availability.notifier")

NOTICE_LOCK: Final = 0x7461_626C  # "tabl": the advisory lock class of a notification

_HEADS: Final = """
SELECT DISTINCT ON (operator_id, table_id)
    operator_id, notification_id, next_attempt_at <= now() AS due
FROM table_notifications WHERE state = 'queued'
ORDER BY operator_id, table_id, occurred_at, notification_id
"""
_TAKE: Final = """
SELECT *, now() - created_at > make_interval(secs => $3) AS expired
FROM table_notifications
WHERE operator_id = $1 AND notification_id = $2 AND state = 'queued'
"""
_DONE: Final = """
UPDATE table_notifications SET state = 'delivered', http_status = $3, attempts = attempts + 1,
    last_error = NULL, delivered_at = now()
WHERE operator_id = $1 AND notification_id = $2
"""
_AGAIN: Final = """
UPDATE table_notifications SET
    state = CASE WHEN $6 THEN 'manual' ELSE 'queued' END,
    http_status = $3, last_error = $4, attempts = attempts + 1,
    next_attempt_at = now() + make_interval(secs => $5)
WHERE operator_id = $1 AND notification_id = $2
"""

_encoder = msgspec.json.Encoder()


class TableNotifier(BackgroundLoop):
    """Sends the owed table-status notifications, in the background."""

    name = "table-notifier"

    def __init__(
        self,
        pool: Any,
        operators: OperatorRegistry,
        *,
        retry_for_s: float = 86_400,
        backoff_max_s: float = 60,
        poll_s: float = 0.5,
    ) -> None:
        self._pool = pool
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
        async with self._pool.acquire() as conn:
            heads = await conn.fetch(_HEADS)
        due = [h for h in heads if h["due"]]
        results = await asyncio.gather(
            *(self._deliver(h["operator_id"], h["notification_id"]) for h in due)
        )
        return sum(results)

    async def _deliver(self, operator_id: str, notification_id: str) -> bool:
        key = f"{operator_id}/{notification_id}"
        async with self._pool.acquire() as conn:
            locked = await conn.fetchval(
                "SELECT pg_try_advisory_lock($1, hashtext($2))", NOTICE_LOCK, key
            )
            if not locked:
                return False  # another instance is sending it
            try:
                row = await conn.fetchrow(_TAKE, operator_id, notification_id, self._retry_for_s)
                if row is None:
                    return False  # delivered meanwhile
                return await self._deliver_row(conn, row)
            finally:
                await conn.execute("SELECT pg_advisory_unlock($1, hashtext($2))", NOTICE_LOCK, key)

    async def _deliver_row(self, conn: Any, row: Any) -> bool:
        status, error = await self._send(row)
        if status is not None and 200 <= status < 300:
            await conn.execute(_DONE, row["operator_id"], row["notification_id"], status)
            _log.info(
                "table_notice_delivered",
                operator=row["operator_id"],
                table_id=row["table_id"],
                notification_id=row["notification_id"],
                attempts=row["attempts"] + 1,
            )
            return True
        manual = bool(row["expired"])
        await conn.execute(
            _AGAIN,
            row["operator_id"],
            row["notification_id"],
            status,
            (error or f"HTTP {status}")[:500],
            self._backoff(row["attempts"] + 1),
            manual,
        )
        (_log.error if manual else _log.info)(
            "table_notice_manual" if manual else "table_notice_retry",
            operator=row["operator_id"],
            table_id=row["table_id"],
            notification_id=row["notification_id"],
            attempts=row["attempts"] + 1,
            error=error or f"HTTP {status}",
        )
        return False

    def _backoff(self, attempts: int) -> float:
        delay: float = min(self._backoff_max_s, 0.25 * 2 ** min(attempts, 20))
        return delay * random.uniform(0.8, 1.2)

    async def _send(self, row: Any) -> tuple[int | None, str | None]:
        """POST the notification; the HTTP status, or None and why there was none."""
        operator = await self._operators.get(row["operator_id"])
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


def notice_of(row: Any) -> TableStatusNotice:
    """The wire body of a queued notification (a new ``request_id`` for this attempt)."""
    occurred: datetime = row["occurred_at"]
    return TableStatusNotice(
        notification_id=row["notification_id"],
        request_id=uuid.uuid4().hex,
        operator_id=row["operator_id"],
        table_id=row["table_id"],
        status=row["status"],
        reason=row["reason"],
        actor=NoticeActor(role=row["actor_role"], id=row["actor_id"]),
        time=occurred.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
    )
