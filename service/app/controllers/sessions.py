"""Game sessions: an operator launches one for a player, and may end it (docs/wallet-protocol.md
§2)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated
from urllib.parse import quote

import msgspec
from litestar import Controller, delete, get, post
from litestar.exceptions import NotFoundException
from litestar.params import PathParameter
from litestar.status_codes import HTTP_200_OK, HTTP_201_CREATED

from russian_poker.service.app.auth import mint_token
from russian_poker.service.app.dependencies import AppSettings, Caller, Operators, Sessions
from russian_poker.service.app.params import json_body
from russian_poker.service.app.policy import access
from russian_poker.service.app.problems import problem
from russian_poker.service.app.responses import problems
from russian_poker.service.application.sessions import Session
from russian_poker.service.tenancy import PLAYER_ID_RULE, game_player_id, valid_player_id

__all__ = ["LaunchSession", "LaunchedSession", "SessionController"]

SessionId = Annotated[str, PathParameter(description="The session's id.")]


class LaunchSession(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Launch the game for one of the operator's players."""

    player_id: Annotated[
        str,
        msgspec.Meta(
            description=f"The operator's own id for the player: {PLAYER_ID_RULE}.",
            min_length=1,
            max_length=128,
        ),
    ]
    currency: Annotated[
        str, msgspec.Meta(description="One of the operator's currencies (ISO 4217).")
    ]
    table_id: Annotated[
        str | None, msgspec.Meta(description="The table to open the game at, if any.")
    ] = None
    language: Annotated[
        Annotated[str, msgspec.Meta(max_length=16)] | None,
        msgspec.Meta(description="The player's language, e.g. `en` or `ru`."),
    ] = None
    lobby_url: Annotated[
        Annotated[str, msgspec.Meta(max_length=2000)] | None,
        msgspec.Meta(description="Where the client sends the player back to."),
    ] = None


class LaunchedSession(msgspec.Struct, frozen=True, kw_only=True):
    """A launched session: its token is the player's bearer token for the API and stream."""

    session_id: Annotated[str, msgspec.Meta(description="The session's id.")]
    session_token: Annotated[
        str,
        msgspec.Meta(
            description="The player's bearer token, bound to operator, player and currency."
        ),
    ]
    player_id: Annotated[str, msgspec.Meta(description="The operator's own id for the player.")]
    game_player_id: Annotated[
        str, msgspec.Meta(description="The id the player has at the tables (`operator:player`).")
    ]
    currency: Annotated[str, msgspec.Meta(description="The session's currency.")]
    expires_at: Annotated[datetime, msgspec.Meta(description="When the token stops working.")]
    launch_url: Annotated[
        str,
        msgspec.Meta(
            description=(
                "The game client's address for this session: `/play/{table_id}` (or `/play/`)"
                " with the token in the fragment, `#token=…`, followed by `&lang=…` when the"
                " session has a language. Browsers never send a fragment to a server."
            )
        ),
    ]


_LaunchBody = Annotated[
    LaunchSession,
    json_body(
        (
            "Alice plays in euros at table vip-1",
            LaunchSession(player_id="alice", currency="EUR", table_id="vip-1", language="en"),
        )
    ),
]


class SessionController(Controller):
    path = "/v1/sessions"
    tags = ("sessions",)

    @post(
        "/",
        status_code=HTTP_201_CREATED,
        summary="Launch a game session for a player (operator)",
        responses=problems(404, 413, 422),
        opt=access("operator", scope="own"),
        description=(
            "Starts a player's game session: the answer's `session_token` is the player's "
            "bearer token for the API and the live stream, bound to this operator, player "
            "and currency, and `launch_url` opens the browser client at the table asked "
            "for. A seamless operator's players play only with a session."
        ),
        operation_id="launchSession",
    )
    async def launch(
        self,
        data: _LaunchBody,
        operators: Operators,
        sessions: Sessions,
        settings: AppSettings,
        principal: Caller,
    ) -> LaunchedSession:
        operator = await operators.get(principal.operator)
        if operator is None:
            raise NotFoundException(f"no operator {principal.operator!r}")
        if not valid_player_id(data.player_id):
            raise problem("invalid_player_id", 422, f"player_id: {PLAYER_ID_RULE}")
        if operator.currencies and data.currency not in operator.currencies:
            raise problem(
                "currency_not_allowed",
                422,
                f"currency: the operator plays in {', '.join(operator.currencies)}",
            )
        session = await sessions.launch(
            operator_id=operator.operator_id,
            player_id=data.player_id,
            currency=data.currency,
            ttl_s=settings.jwt_ttl_s,
            table_id=data.table_id,
            language=data.language,
            lobby_url=data.lobby_url,
        )
        player = game_player_id(operator.operator_id, data.player_id)
        token = mint_token(
            settings.jwt_secret,
            "player",
            player,
            settings.jwt_ttl_s,
            operator=operator.operator_id,
            session_id=session.session_id,
            currency=session.currency,
        )
        place = f"/play/{data.table_id}" if data.table_id else "/play/"
        fragment = f"token={token}"
        if session.language:
            fragment += f"&lang={quote(session.language, safe='')}"
        return LaunchedSession(
            session_id=session.session_id,
            session_token=token,
            player_id=data.player_id,
            game_player_id=player,
            currency=session.currency,
            expires_at=session.expires_at,
            launch_url=f"{place}#{fragment}",
        )

    @get(
        "/{session_id:str}",
        summary="A session of the operator's",
        responses=problems(404),
        opt=access("operator", scope="own"),
        description=(
            "A launched session: its player, currency, table, language, lobby address, "
            "creation, expiry and, once ended, when."
        ),
        operation_id="getSession",
    )
    async def show(self, session_id: SessionId, sessions: Sessions, principal: Caller) -> Session:
        session = await sessions.get(principal.operator, session_id)
        if session is None:
            raise NotFoundException(f"no session {session_id!r}")
        return session

    @delete(
        "/{session_id:str}",
        status_code=HTTP_200_OK,
        summary="End a session: its token's new commands are refused; what is owed is paid",
        responses=problems(404),
        opt=access("operator", scope="own"),
        description=(
            "Ends the session now: commands sent with its token are refused from then on "
            "(403 `session_ended`). Money the game owes the player is still paid through "
            "the operator's wallet."
        ),
        operation_id="endSession",
    )
    async def end(self, session_id: SessionId, sessions: Sessions, principal: Caller) -> Session:
        session = await sessions.end(principal.operator, session_id)
        if session is None:
            raise NotFoundException(f"no session {session_id!r}")
        return session
