"""Settled rounds: a player's game recall, and the operator's per-round report."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

import msgspec
from litestar import Controller, get
from litestar.params import QueryParameter

from russian_poker.projections.fields import Commitment
from russian_poker.projections.history import BoxRecord
from russian_poker.service.app.dependencies import Caller, Pool
from russian_poker.service.app.params import PlayerId
from russian_poker.service.app.policy import access
from russian_poker.service.app.responses import problems
from russian_poker.service.tenancy import DEFAULT_OPERATOR

__all__ = ["HistoryController", "RoundRecord"]


class RoundRecord(msgspec.Struct, frozen=True, kw_only=True):
    """One settled round: its seed, the dealer's hand, its money and its boxes."""

    table_id: Annotated[str, msgspec.Meta(description="The table's id.")]
    round: Annotated[int, msgspec.Meta(description="The round's number at that table.")]
    settled_at: Annotated[
        datetime, msgspec.Meta(description="When the round was settled (ISO 8601).")
    ]
    commitment: Commitment
    seed: Annotated[
        str,
        msgspec.Meta(
            description=(
                "The revealed seed in hex: sha256(bytes.fromhex(seed)) == commitment;"
                " the deck can be recomputed."
            )
        ),
    ]
    dealer_cards: Annotated[
        list[str],
        msgspec.Meta(description="The dealer's final cards in text notation (`As`, `Td`)."),
    ]
    dealer_hand: Annotated[
        str | None,
        msgspec.Meta(
            description="The dealer's final hand category; null if the dealer was never dealt."
        ),
    ]
    staked: Annotated[
        int,
        msgspec.Meta(
            description=(
                "Everything the boxes staked in the round, in minor units of the table's currency."
            )
        ),
    ]
    paid_back: Annotated[
        int,
        msgspec.Meta(
            description=(
                "Everything credited to the boxes, stakes back plus winnings, in "
                "minor units of the table's currency."
            )
        ),
    ]
    house_result: Annotated[
        int,
        msgspec.Meta(
            description=(
                "`staked - paid_back`: the house's result on the round (negative: a "
                "loss), in minor units of the table's currency."
            )
        ),
    ]
    boxes: Annotated[
        list[BoxRecord], msgspec.Meta(description="The round's boxes, as the caller may see them.")
    ]
    abandoned: Annotated[
        str | None,
        msgspec.Meta(
            description=(
                "Why the round was completed by the rules' defaults (`no activity for N s`:"
                " undecided boxes folded, dealer-draw offers declined, bets not yet dealt"
                " refunded); null for a round played to its end."
            )
        ),
    ] = None


class RoundPage(msgspec.Struct, frozen=True, kw_only=True):
    """A page of settled rounds."""

    rounds: Annotated[list[RoundRecord], msgspec.Meta(description="Settled rounds, newest first.")]
    next_cursor: Annotated[
        str | None,
        msgspec.Meta(
            description="Pass as `cursor` for the next (older) page; null on the last page."
        ),
    ]


_box_records = msgspec.json.Decoder(list[BoxRecord])

_PLAYER_ROUNDS = """
SELECT r.table_id, r.round, r.settled_at, r.commitment, r.seed, r.dealer_cards, r.dealer_hand,
       (SELECT a.reason FROM abandoned_rounds a
        WHERE a.table_id = r.table_id AND a.round = r.round) AS abandoned,
       sum(b.staked)::bigint AS staked, sum(b.paid_back)::bigint AS paid_back,
       json_agg(b.detail ORDER BY b.box)::text AS boxes
FROM round_boxes b JOIN rounds r USING (table_id, round)
WHERE b.player = $1 AND ($2::timestamptz IS NULL OR r.settled_at < $2)
GROUP BY r.table_id, r.round
ORDER BY r.settled_at DESC, r.table_id, r.round DESC
LIMIT $3
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
  AND ($4::timestamptz IS NULL OR r.settled_at < $4)
ORDER BY r.settled_at DESC, r.table_id, r.round DESC
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
  AND ($4::timestamptz IS NULL OR r.settled_at < $4)
ORDER BY r.settled_at DESC, r.table_id, r.round DESC
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
    more = len(rows) > limit
    return RoundPage(
        rounds=records, next_cursor=records[-1].settled_at.isoformat() if more else None
    )


RoundsCursor = Annotated[
    datetime | None,
    QueryParameter(
        required=False,
        description=(
            "`next_cursor` of the previous page: rounds settled before it; omit for the newest."
        ),
    ),
]
"""The page cursor of both round listings."""


class HistoryController(Controller):
    tags = ("history",)

    @get(
        "/v1/players/{player_id:str}/rounds",
        summary="Game recall: the player's settled rounds, newest first",
        description=(
            "A player recalls their own rounds; an operator, or its auditor, its own"
            " players' (anyone else is not found); admins and the game's auditors anyone's."
        ),
        responses=problems(404),
        opt=access("player", "operator", "auditor", "admin", scope="player"),
    )
    async def player_rounds(
        self,
        player_id: PlayerId,
        pool: Pool,
        limit: Annotated[
            int, QueryParameter(ge=1, le=100, description="Rounds per page, 1..100.")
        ] = 10,
        cursor: RoundsCursor = None,
    ) -> RoundPage:
        rows = await pool.fetch(_PLAYER_ROUNDS, player_id, cursor, limit + 1)
        return _page(rows, limit)

    @get(
        "/v1/reports/rounds",
        summary="Settled rounds with stakes, payouts and house result",
        description=(
            "An operator sees the rounds of its own tables, and at shared tables the rounds"
            " its players had boxes in, with only its own players' boxes (and their stakes"
            " and payouts); so does an auditor of the operator. Admins and the game's own"
            " auditors see every round."
        ),
        responses=problems(),
        opt=access("operator", "auditor", "admin", scope="listing"),
    )
    async def rounds(
        self,
        pool: Pool,
        principal: Caller,
        table_id: Annotated[
            str | None,
            QueryParameter(
                required=False,
                max_length=64,
                description="Only this table's rounds; omit for every table.",
            ),
        ] = None,
        since: Annotated[
            datetime | None,
            QueryParameter(
                name="from",
                required=False,
                description=(
                    "Only rounds settled at or after this time (ISO 8601); omit for no lower bound."
                ),
            ),
        ] = None,
        until: Annotated[
            datetime | None,
            QueryParameter(
                name="to",
                required=False,
                description=(
                    "Only rounds settled before this time (ISO 8601); omit for no upper bound."
                ),
            ),
        ] = None,
        limit: Annotated[
            int, QueryParameter(ge=1, le=500, description="Rounds per page, 1..500.")
        ] = 50,
        cursor: RoundsCursor = None,
    ) -> RoundPage:
        tenant = principal.tenant
        if tenant is not None:
            rows = await pool.fetch(
                _OPERATOR_ROUNDS,
                table_id,
                since,
                until,
                cursor,
                limit + 1,
                tenant,
                DEFAULT_OPERATOR,
            )
        else:
            rows = await pool.fetch(_ROUNDS, table_id, since, until, cursor, limit + 1)
        return _page(rows, limit)
