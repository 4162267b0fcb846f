"""Settled rounds as stored (``rounds``, ``round_boxes``, ``abandoned_rounds``): game recall,
the per-round reports, and a settled round's seed."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import msgspec

from russian_poker.projections.history import BoxRecord, RoundPage, RoundPosition, RoundRecord
from russian_poker.projections.paging import encode_cursor
from russian_poker.service.rules.tenancy import DEFAULT_OPERATOR

__all__ = ["HistoryStore"]

_box_records = msgspec.json.Decoder(list[BoxRecord])

_PLAYER_ROUNDS = """
SELECT r.table_id, r.round, r.settled_at, r.commitment, r.seed, r.dealer_cards, r.dealer_hand,
       (SELECT a.reason FROM abandoned_rounds a
        WHERE a.table_id = r.table_id AND a.round = r.round) AS abandoned,
       sum(b.staked)::bigint AS staked, sum(b.paid_back)::bigint AS paid_back,
       json_agg(b.detail ORDER BY b.box)::text AS boxes
FROM round_boxes b JOIN rounds r USING (table_id, round)
WHERE b.player = $1
  AND ($2::timestamptz IS NULL OR (r.settled_at, r.table_id, r.round) < ($2, $3, $4))
GROUP BY r.table_id, r.round
ORDER BY r.settled_at DESC, r.table_id DESC, r.round DESC
LIMIT $5
"""
_ROUNDS = """
SELECT r.table_id, r.round, r.settled_at, r.commitment, r.seed, r.dealer_cards, r.dealer_hand,
       (SELECT a.reason FROM abandoned_rounds a
        WHERE a.table_id = r.table_id AND a.round = r.round) AS abandoned,
       r.staked, r.paid_back,
       coalesce((SELECT json_agg(b.detail ORDER BY b.box) FROM round_boxes b
                 WHERE b.table_id = r.table_id AND b.round = r.round), '[]')::text AS boxes
FROM rounds r
WHERE ($1::text IS NULL OR r.table_id = $1)
  AND ($2::timestamptz IS NULL OR r.settled_at >= $2)
  AND ($3::timestamptz IS NULL OR r.settled_at < $3)
  AND ($4::timestamptz IS NULL OR (r.settled_at, r.table_id, r.round) < ($4, $6, $7))
ORDER BY r.settled_at DESC, r.table_id DESC, r.round DESC
LIMIT $5
"""
# An operator's report: the rounds of its own tables and the rounds its players had boxes
# in at shared tables, with only its own players' boxes and money. A table's owner is in
# its first event (TableOpened; without the fields, from before operators: the default's).
_OPERATOR_ROUNDS = """
SELECT r.table_id, r.round, r.settled_at, r.commitment, r.seed, r.dealer_cards, r.dealer_hand,
       (SELECT a.reason FROM abandoned_rounds a
        WHERE a.table_id = r.table_id AND a.round = r.round) AS abandoned,
       coalesce(mine.staked, 0)::bigint AS staked,
       coalesce(mine.paid_back, 0)::bigint AS paid_back,
       coalesce(mine.boxes, '[]')::text AS boxes
FROM rounds r
CROSS JOIN LATERAL (
    SELECT sum(b.staked) AS staked, sum(b.paid_back) AS paid_back,
           json_agg(b.detail ORDER BY b.box) AS boxes
    FROM round_boxes b
    WHERE b.table_id = r.table_id AND b.round = r.round
      AND CASE WHEN $6 = $7 THEN strpos(b.player, ':') = 0
               ELSE starts_with(b.player, $6 || ':') END
) AS mine
LEFT JOIN LATERAL (
    SELECT coalesce(e.data->>'operator_id', $7) AS owner,
           coalesce((e.data->>'shared')::boolean, false) AS shared
    FROM events e WHERE e.stream_id = 'table-' || r.table_id AND e.stream_version = 1
) AS opened ON true
WHERE (mine.boxes IS NOT NULL OR (opened.owner = $6 AND NOT opened.shared))
  AND ($1::text IS NULL OR r.table_id = $1)
  AND ($2::timestamptz IS NULL OR r.settled_at >= $2)
  AND ($3::timestamptz IS NULL OR r.settled_at < $3)
  AND ($4::timestamptz IS NULL OR (r.settled_at, r.table_id, r.round) < ($4, $8, $9))
ORDER BY r.settled_at DESC, r.table_id DESC, r.round DESC
LIMIT $5
"""


def _record(row: Any) -> RoundRecord:
    return RoundRecord(
        table_id=row["table_id"],
        round=row["round"],
        settled_at=row["settled_at"],
        commitment=row["commitment"],
        seed=row["seed"],
        dealer_cards=list(row["dealer_cards"]),
        dealer_hand=row["dealer_hand"],
        staked=row["staked"],
        paid_back=row["paid_back"],
        house_result=row["staked"] - row["paid_back"],
        boxes=_box_records.decode(row["boxes"]),
        abandoned=row["abandoned"],
    )


def _page(rows: list[Any], limit: int) -> RoundPage:
    records = [_record(r) for r in rows[:limit]]
    if len(rows) <= limit:
        return RoundPage(items=records, next_cursor=None)
    last = records[-1]
    position = RoundPosition(settled_at=last.settled_at, table_id=last.table_id, round=last.round)
    return RoundPage(items=records, next_cursor=encode_cursor(position))


def _after(cursor: RoundPosition | None) -> tuple[datetime | None, str | None, int | None]:
    if cursor is None:
        return None, None, None
    return cursor.settled_at, cursor.table_id, cursor.round


class HistoryStore:
    """Settled rounds on a pool."""

    def __init__(self, pool: Any) -> None:
        self._pool = pool

    async def player_rounds(
        self, player_id: str, cursor: RoundPosition | None, limit: int
    ) -> RoundPage:
        """The player's settled rounds, newest first, after ``cursor``."""
        after = _after(cursor)
        rows = await self._pool.fetch(_PLAYER_ROUNDS, player_id, *after, limit + 1)
        return _page(rows, limit)

    async def rounds(
        self,
        *,
        tenant: str | None,
        table_id: str | None,
        since: datetime | None,
        until: datetime | None,
        cursor: RoundPosition | None,
        limit: int,
    ) -> RoundPage:
        """Settled rounds, newest first; for a ``tenant``, the rounds of its own tables and
        the rounds its players had boxes in at shared tables, with only its players' boxes."""
        at, after_table, after_round = _after(cursor)
        window = (table_id, since, until, at, limit + 1)
        if tenant is not None:
            rows = await self._pool.fetch(
                _OPERATOR_ROUNDS, *window, tenant, DEFAULT_OPERATOR, after_table, after_round
            )
        else:
            rows = await self._pool.fetch(_ROUNDS, *window, after_table, after_round)
        return _page(rows, limit)

    async def seed(self, table_id: str, number: int) -> tuple[str, str] | None:
        """A settled round's commitment and revealed seed."""
        row = await self._pool.fetchrow(
            "SELECT commitment, seed FROM rounds WHERE table_id = $1 AND round = $2",
            table_id,
            number,
        )
        return (row["commitment"], row["seed"]) if row else None
