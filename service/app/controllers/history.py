"""Settled rounds: a player's game recall, and the operator's per-round report."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from litestar import Controller, get
from litestar.params import QueryParameter

from russian_poker.projections.history import RoundPage, RoundPosition
from russian_poker.projections.paging import read_cursor
from russian_poker.service.app.dependencies import Caller, ReadStores
from russian_poker.service.app.params import PageCursor, PlayerId
from russian_poker.service.app.policy import access
from russian_poker.service.app.responses import problems
from russian_poker.service.app.window import time_window

__all__ = ["HistoryController"]


class HistoryController(Controller):
    tags = ("history",)

    @get(
        "/v1/players/{player_id:str}/rounds",
        summary="Game recall: the player's settled rounds, newest first",
        description=(
            "A player recalls their own rounds; an operator, or its auditor, its own"
            " players' (anyone else is not found); admins and the game's auditors anyone's."
        ),
        responses=problems(404, 422),
        opt=access("player", "operator", "auditor", "admin", scope="player"),
        operation_id="listPlayerRounds",
    )
    async def player_rounds(
        self,
        player_id: PlayerId,
        reads: ReadStores,
        limit: Annotated[
            int, QueryParameter(ge=1, le=100, description="Rounds per page, 1..100.")
        ] = 10,
        cursor: PageCursor = None,
    ) -> RoundPage:
        return await reads.replica.history.player_rounds(
            player_id, read_cursor(cursor, RoundPosition), limit
        )

    @get(
        "/v1/reports/rounds",
        summary="Settled rounds with stakes, payouts and house result",
        description=(
            "An operator sees the rounds of its own tables, and at shared tables the rounds"
            " its players had boxes in, with only its own players' boxes (and their stakes"
            " and payouts); so does an auditor of the operator. Admins and the game's own"
            " auditors see every round."
        ),
        responses=problems(422),
        opt=access("operator", "auditor", "admin", scope="listing"),
        operation_id="listRounds",
    )
    async def rounds(
        self,
        reads: ReadStores,
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
        cursor: PageCursor = None,
    ) -> RoundPage:
        window = time_window(since, until)
        return await reads.replica.history.rounds(
            tenant=principal.tenant,
            table_id=table_id,
            since=window.start,
            until=window.end,
            cursor=read_cursor(cursor, RoundPosition),
            limit=limit,
        )
