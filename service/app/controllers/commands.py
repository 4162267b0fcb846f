"""The command route: every rule of the game a player acts by, one idempotent POST."""

from __future__ import annotations

from typing import Annotated, Any, Final

from litestar import Controller, Request, Response, post
from litestar.exceptions import NotFoundException
from litestar.params import HeaderParameter
from litestar.status_codes import HTTP_200_OK

from russian_poker.events.commands import (
    BuyCard,
    CancelBets,
    Deal,
    DeclineDealerExchange,
    Exchange,
    Fold,
    Insure,
    LeaveTable,
    PlaceAnte,
    Play,
    PlayerCommand,
    RepeatBets,
    RequestDealerExchange,
    SitDown,
)
from russian_poker.service.app.dependencies import ActingPlayer
from russian_poker.service.app.params import TableId, json_body
from russian_poker.service.app.policy import access
from russian_poker.service.app.problems import problem
from russian_poker.service.app.replays import REPLAYED_HEADER, encoded_answer
from russian_poker.service.app.responses import problems
from russian_poker.service.app.schemas import CommandResponse
from russian_poker.service.app.seen import actor_of, load_view, seen_by, table_version, viewer_of
from russian_poker.service.application.idempotency import player_command_id
from russian_poker.service.application.results import UnknownTable
from russian_poker.service.observability import request_id_of
from russian_poker.service.rules.cards import CardError, parse_cards

__all__ = ["CommandController"]

_COMMANDS: Final = (
    SitDown(seat=1),
    LeaveTable(),
    PlaceAnte(box=1, ante=100, bonus=100, client_seed="my lucky seed"),
    CancelBets(box=1),
    RepeatBets(),
    Deal(),
    BuyCard(box=1),
    Exchange(box=1, cards=["2c", "7d"]),
    Play(box=1),
    Insure(box=1, amount=200),
    Fold(box=1),
    RequestDealerExchange(box=1),
    DeclineDealerExchange(box=1),
)
"""One example body per player command; the OpenAPI test checks none is missing."""

_CommandBody = Annotated[
    PlayerCommand, json_body(*((str(c.__struct_config__.tag), c) for c in _COMMANDS))
]


def _check_card_names(cards: list[str]) -> None:
    """The API's card grammar, strictly: the rules also read the looser names exchanges
    recorded before 0.2.0 carry, so that replays decide those as they were decided."""
    try:
        parse_cards(cards)
    except CardError as exc:
        raise problem("invalid_cards", 422, str(exc)) from None


class CommandController(Controller):
    path = "/v1/tables"
    tags = ("tables",)

    @post(
        "/{table_id:str}/commands",
        status_code=HTTP_200_OK,
        summary="Send a player command (tagged union on `type`)",
        description=(
            "Every rule of the game is a command: SitDown, LeaveTable, PlaceAnte, CancelBets, "
            "RepeatBets, Deal, BuyCard, Exchange, Play, Insure, Fold, RequestDealerExchange, "
            "DeclineDealerExchange. `Idempotency-Key` is required: a retry with the same key "
            "and body is answered without acting twice. `If-Match` (the table's version) "
            "makes the command conditional."
        ),
        responses=problems(404, 409, 412, 413, 422, 428),
        response_headers=[REPLAYED_HEADER],
        opt=access("player", scope="table"),
        operation_id="sendCommand",
    )
    async def command(
        self,
        table_id: TableId,
        data: _CommandBody,
        request: Request[Any, Any, Any],
        acting: ActingPlayer,
        idempotency_key: Annotated[
            str | None,
            HeaderParameter(
                name="Idempotency-Key",
                required=False,
                max_length=200,
                description=(
                    "Required: the client's id for this command, at most 200 characters. A "
                    "retry with the same key and body is answered as the first time, without "
                    "acting twice; the same key with another body is refused."
                ),
            ),
        ] = None,
        if_match: Annotated[
            str | None,
            HeaderParameter(
                name="If-Match",
                required=False,
                description=(
                    "The table's version (`version` of the last view) the command is meant "
                    "for: if the table has moved on, the command is refused with 412."
                ),
            ),
        ] = None,
    ) -> Response[CommandResponse]:
        if not idempotency_key:
            raise problem("idempotency_key_required", 428, "an Idempotency-Key header is required")
        if isinstance(data, Exchange):
            _check_card_names(data.cards)
        expected = table_version(if_match)
        principal = acting.principal
        try:
            result, after = await acting.commands.execute_with_state(
                table_id,
                data,
                actor_of(principal),
                command_id=player_command_id(table_id, principal.subject, idempotency_key),
                expected_version=expected,
                request_id=request_id_of(request),
                must_exist=True,
                session=acting.session,
            )
        except UnknownTable:
            raise NotFoundException(f"no table {table_id!r}") from None
        viewer = viewer_of(principal)
        # The state the command left, as it committed; a duplicate's is gone, so load it.
        # No deadlines either way (null): reading the timers would cost the hot path a
        # query; the stream's event of this version and GET carry them.
        view = (
            seen_by(after, result.version, viewer)
            if after is not None
            else await load_view(acting.tables, table_id, viewer, deadlines=False)
        )
        body = CommandResponse(
            version=result.version, events=result.events, duplicate=result.duplicate, table=view
        )
        return encoded_answer(body, replayed=result.duplicate)
