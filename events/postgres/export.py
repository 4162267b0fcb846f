"""The regulator's export's reads: the audit trail's settled round records in a window,
streamed in one read-only snapshot together with the count that says whether the trail
has caught up with the rounds the game settled."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager
from datetime import datetime
from typing import Any, Final

import msgspec

from russian_poker.service.reports.export import Caught

__all__ = ["SettledRecords"]

_SETTLED_IN: Final = """
SELECT table_id, round, game, ruleset_fingerprint, commitment, seed, opened_at, settled_at,
       opened_position, settled_position, players, record::text AS record_text
FROM audit_rounds
WHERE seed IS NOT NULL AND settled_at IS NOT NULL
  AND ($1::timestamptz IS NULL OR settled_at >= $1)
  AND ($2::timestamptz IS NULL OR settled_at < $2)
ORDER BY settled_position, table_id, round
"""
# The settling command writes ``rounds`` itself; the audit trail follows a moment later.
_CAUGHT: Final = """
SELECT (SELECT count(*) FROM rounds
        WHERE ($1::timestamptz IS NULL OR settled_at >= $1)
          AND ($2::timestamptz IS NULL OR settled_at < $2)) AS settled,
       (SELECT count(*) FROM audit_rounds
        WHERE seed IS NOT NULL AND settled_at IS NOT NULL
          AND ($1::timestamptz IS NULL OR settled_at >= $1)
          AND ($2::timestamptz IS NULL OR settled_at < $2)) AS recorded
"""


class SettledRecords:
    """On one connection: a long window is streamed through a cursor, which lives in a
    transaction (:meth:`snapshot`)."""

    def __init__(self, conn: Any) -> None:
        self._conn = conn

    def snapshot(self) -> AbstractAsyncContextManager[Any]:
        """One read-only, repeatable-read snapshot for what follows inside it."""
        transaction: AbstractAsyncContextManager[Any] = self._conn.transaction(
            isolation="repeatable_read", readonly=True
        )
        return transaction

    async def caught(self, start: datetime | None, end: datetime | None) -> Caught:
        row = await self._conn.fetchrow(_CAUGHT, start, end)
        return Caught(row["settled"], row["recorded"])

    async def records(
        self, start: datetime | None, end: datetime | None
    ) -> AsyncIterator[dict[str, Any]]:
        """The records settled in ``[start, end)`` in settlement order, columns by name and
        the ``record`` decoded (as stored: redaction is the reader's)."""
        async for row in self._conn.cursor(_SETTLED_IN, start, end):
            found = {k: v for k, v in dict(row).items() if k != "record_text"}
            found["record"] = msgspec.json.decode(row["record_text"])
            yield found
