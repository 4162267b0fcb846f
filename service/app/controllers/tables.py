"""Tables: the lobby, creating and running tables, each viewer's view, and commands."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from typing import Annotated, Final

import msgspec
from litestar import Controller, get, post, put
from litestar.exceptions import NotFoundException, PermissionDeniedException
from litestar.params import HeaderParameter, QueryParameter
from litestar.response import ServerSentEvent
from litestar.response.sse import ServerSentEventMessage
from litestar.status_codes import HTTP_200_OK, HTTP_201_CREATED

from russian_poker.events.commands import (
    ChangeRuleset,
    CloseTable,
    OpenTable,
    ReopenTable,
    StackDeck,
)
from russian_poker.events.postgres.tables import TableStore
from russian_poker.projections.views import TableView, boxes_in_play, free_boxes
from russian_poker.service.app.auth import Principal
from russian_poker.service.app.controllers.availability import (
    CloseTableBody,
    ReopenTableBody,
    RulesetChangeBody,
)
from russian_poker.service.app.dependencies import (
    AppSettings,
    Caller,
    Commands,
    Hub,
    ReadStores,
    Store,
)
from russian_poker.service.app.overrides import RulesetOverrides, overridden
from russian_poker.service.app.params import TableId, json_body
from russian_poker.service.app.policy import access
from russian_poker.service.app.problems import problem
from russian_poker.service.app.reads import MinVersion, read_your_writes
from russian_poker.service.app.responses import problems
from russian_poker.service.app.schemas import (
    CreateTable,
    LobbyEntry,
    StackedDeck,
    TestDeck,
)
from russian_poker.service.app.seen import actor_of, load_view, seen_by, table_version, viewer_of
from russian_poker.service.application.commands import CommandService
from russian_poker.service.rules.cards import CardError, parse_cards
from russian_poker.service.rules.errors import RuleViolation
from russian_poker.service.rules.presets import PRESETS, make_ruleset, override
from russian_poker.service.rules.state import Table
from russian_poker.service.settings import Settings
from russian_poker.service.tenancy import TABLE_ID_RULE, game_table_id

__all__ = ["TableController"]

RECONNECT_MS: Final = 3000
"""The stream's ``retry:``: how long a client waits before reconnecting after a drop."""

_EXAMPLE_DECK: Final = "As Kd 2c Ah Kc 3d Ad Kh 4s Ac Ks 6h Qd Qh 9c".split()  # noqa: SIM905
"""Top of a test deck for two boxes in play and the dealer, dealt one card at a time."""

_CreateTableBody = Annotated[
    CreateTable,
    json_body(
        (
            "A land-casino Russian table with a higher minimum ante",
            CreateTable(table_id="vip-1", name="VIP", overrides=RulesetOverrides(ante_min=500)),
        )
    ),
]
_CloseBody = Annotated[
    CloseTableBody,
    json_body(("Closed for maintenance", CloseTableBody(reason="dealer shuffler maintenance"))),
]
_ReopenBody = Annotated[
    ReopenTableBody | None,
    json_body(("Back after maintenance", ReopenTableBody(reason="maintenance done"))),
]
_RulesetBody = Annotated[
    RulesetChangeBody,
    json_body(
        (
            "A straight pays 5 to 1 from the next round",
            RulesetChangeBody(
                overrides=RulesetOverrides(bet_paytable={"straight": 5}),
                reason="regulator-approved paytable",
            ),
        )
    ),
]
_TestDeckBody = Annotated[
    TestDeck,
    json_body(
        (
            "Two boxes in play: four aces, four kings, and a dealer with no game",
            TestDeck(cards=list(_EXAMPLE_DECK)),
        )
    ),
]


async def _table(tables: TableStore, table_id: str) -> Table:
    seen = await tables.seen(table_id)
    if seen.version == 0:
        raise NotFoundException(f"no table {table_id!r}")
    return seen.state


class TableController(Controller):
    path = "/v1/tables"
    tags = ("tables",)

    @get(
        "/",
        summary="The lobby: tables with their game, limits and free places",
        description=(
            "The tables the caller may see: its operator's and the shared ones (admins and"
            " the game's own auditors: every table)."
        ),
        responses=problems(),
        opt=access("player", "operator", "auditor", "admin", scope="listing"),
        operation_id="listTables",
    )
    async def lobby(self, reads: ReadStores, principal: Caller) -> list[LobbyEntry]:
        tables = await reads.replica.tables.lobby(principal.tenant)
        return [lobby_entry(state) for state in tables]

    @post(
        "/",
        status_code=HTTP_201_CREATED,
        summary="Open a table from a preset plus overrides",
        description=(
            "An operator's table is named in its own namespace: operator `acme` asking for"
            " `vip-1` opens `acme.vip-1` (the answer's `table_id`), so operators never"
            " compete for names. The default operator's and shared tables keep the name"
            " asked for."
        ),
        responses=problems(400, 409, 413, 422),
        opt=access("operator", "admin", scope="own"),
        operation_id="createTable",
    )
    async def create(
        self,
        data: _CreateTableBody,
        store: Store,
        commands: Commands,
        principal: Caller,
        settings: AppSettings,
    ) -> TableView:
        if data.shared and principal.role != "admin":
            raise PermissionDeniedException("shared tables are opened by an admin")
        requested = data.table_id if data.table_id is not None else uuid.uuid4().hex[:12]
        table_id = game_table_id(principal.operator, requested)
        if table_id is None:
            raise problem("invalid_table_id", 400, f"table_id: {TABLE_ID_RULE}")
        ruleset = make_ruleset(data.preset, overridden(data.overrides))
        if data.test_deck is not None:
            await store.tables.stack_next_round(table_id, _test_deck(settings, data.test_deck))
        command = OpenTable(
            ruleset=ruleset,
            name=data.name,
            private_for=data.private_for,
            operator_id=principal.operator,
            shared=data.shared,
            reason=data.reason,
        )
        await commands.execute(table_id, command, actor_of(principal))
        return await load_view(store.tables, table_id, viewer_of(principal))

    @get(
        "/{table_id:str}",
        summary="The table in the caller's own view",
        responses=problems(404),
        opt=access("player", "operator", "auditor", "admin", scope="table"),
        description=(
            "The table as the caller may see it (a player without a seat here watches as "
            "an observer): the dealer's hidden cards, the deck and the round's seed never "
            "before the rules show them. `version` is what `If-Match` and the live "
            "stream's `Last-Event-ID` name; `deadlines` lists the waits the table times "
            "now."
        ),
        operation_id="getTable",
    )
    async def show(
        self,
        table_id: TableId,
        reads: ReadStores,
        principal: Caller,
        min_version: MinVersion = None,
    ) -> TableView:
        viewer = viewer_of(principal)
        return await read_your_writes(
            reads, min_version, lambda store: load_view(store.tables, table_id, viewer)
        )

    @post(
        "/{table_id:str}/close",
        status_code=HTTP_200_OK,
        summary="Close (disable) the table: stop opening rounds",
        description=(
            "A round not yet dealt is called off (bets refunded); a round with cards out must"
            " be played to the end first (409). The reason is required: it goes into the"
            " availability log (`GET /v1/audit/availability`) and into the table-status"
            " notification sent to the operator (docs/integration.md)."
        ),
        responses=problems(403, 404, 409, 413),
        opt=access("operator", "admin", scope="table", runs=True),
        operation_id="closeTable",
    )
    async def close(
        self,
        table_id: TableId,
        data: _CloseBody,
        store: Store,
        commands: Commands,
        principal: Caller,
    ) -> TableView:
        command = CloseTable(reason=data.reason)
        return await _operate(store.tables, commands, principal, table_id, command)

    @post(
        "/{table_id:str}/reopen",
        status_code=HTTP_200_OK,
        summary="Open a closed table",
        description="The reason (optional) goes into the availability log.",
        responses=problems(403, 404, 409, 413),
        opt=access("operator", "admin", scope="table", runs=True),
        operation_id="reopenTable",
    )
    async def reopen(
        self,
        table_id: TableId,
        store: Store,
        commands: Commands,
        principal: Caller,
        data: _ReopenBody = None,
    ) -> TableView:
        command = ReopenTable(reason=data.reason if data is not None else None)
        return await _operate(store.tables, commands, principal, table_id, command)

    @put(
        "/{table_id:str}/ruleset",
        status_code=HTTP_200_OK,
        summary="Change the ruleset (paytables, limits, options) between rounds",
        description=(
            "The table's current ruleset (or `preset`, keeping the table's currency) with"
            " `overrides` applied, from now on: only between rounds, i.e. no round with cards"
            " out and no bet placed in the round taking bets (else 409"
            " `/problems/ruleset_locked`). The round taking bets, empty, plays by the new"
            " ruleset. The ruleset's version goes up by one (the view's `ruleset_version`);"
            " the change, with its reason, is in the availability log. A ruleset equal to the"
            " current one records nothing. The currency and the number of boxes cannot"
            " change (422). For the table's operator, or an admin (a shared table: an admin)."
        ),
        responses=problems(403, 404, 409, 413, 422),
        opt=access("operator", "admin", scope="table", runs=True),
        operation_id="changeRuleset",
    )
    async def change_ruleset(
        self,
        table_id: TableId,
        data: _RulesetBody,
        store: Store,
        commands: Commands,
        principal: Caller,
    ) -> TableView:
        current = (await _table(store.tables, table_id)).rules
        if data.preset is None:
            ruleset = override(current, overridden(data.overrides))
        else:
            kept = {"currency": current.currency}
            ruleset = override(PRESETS[data.preset], {**kept, **overridden(data.overrides)})
        if ruleset != current:
            command = ChangeRuleset(ruleset=ruleset, reason=data.reason)
            await commands.execute(table_id, command, actor_of(principal))
        return await load_view(store.tables, table_id, viewer_of(principal))

    @get(
        "/{table_id:str}/stream",
        summary="Live table: every new state in the caller's view (Server-Sent Events)",
        description=(
            "Each event is `table` (or `reset`, when the server no longer holds the states "
            "after the client's version) with `id` = the table's version and the caller's "
            "view as data, its `deadlines` included (a state caught up on shows only its "
            "waits still pending). Reconnect with `Last-Event-ID` (or `?after=`) to catch "
            "up on every state missed, in order."
        ),
        # Documented as what it is: without this the 200 claims application/json.
        media_type="text/event-stream",
        responses=problems(404),
        opt=access("player", "operator", "auditor", "admin", scope="table"),
        operation_id="streamTable",
    )
    async def stream(
        self,
        table_id: TableId,
        hub: Hub,
        principal: Caller,
        settings: AppSettings,
        last_event_id: Annotated[
            str | None,
            HeaderParameter(
                name="Last-Event-ID",
                required=False,
                max_length=20,
                description=(
                    "The `id` (table version) of the last event received: the stream resumes "
                    "with every state after it. Browsers send it on reconnect."
                ),
            ),
        ] = None,
        after: Annotated[
            int | None,
            QueryParameter(
                ge=0,
                le=2**63 - 1,
                required=False,
                description=(
                    "Table version to resume after, like `Last-Event-ID` (which it overrides); "
                    "omit to start with the current state."
                ),
            ),
        ] = None,
    ) -> ServerSentEvent:
        viewer = viewer_of(principal)
        since = after if after is not None else table_version(last_event_id)

        async def updates() -> AsyncIterator[ServerSentEventMessage]:
            # How long a client waits before it reconnects (with Last-Event-ID), first.
            yield ServerSentEventMessage(data=None, comment="live", retry=RECONNECT_MS)
            idle_s = settings.stream_keepalive_s
            async for update in hub.subscribe(table_id, since, idle_s=idle_s):
                if update is None:
                    yield ServerSentEventMessage(data=None, comment="keep-alive")
                    continue
                view = seen_by(update.state, update.version, viewer, update.timers)
                yield ServerSentEventMessage(
                    data=msgspec.json.encode(view).decode(),
                    event="reset" if update.reset else "table",
                    id=update.version,
                )

        return ServerSentEvent(updates(), headers={"Cache-Control": "no-store"})

    @put(
        "/{table_id:str}/test-deck",
        status_code=HTTP_200_OK,
        summary="Test mode only: script a round's deck, top first",
        description=(
            "While the round taking bets has nothing dealt, the deck is that round's; once "
            "cards are out, it is the next round's (used once). The answer says which. "
            "How the cards map to boxes, draws and the dealer: docs/test-mode.md."
        ),
        responses=problems(403, 404, 413, 422),
        opt=access("operator", "admin", scope="table", runs=True),
        operation_id="stackTestDeck",
    )
    async def test_deck(
        self,
        table_id: TableId,
        data: _TestDeckBody,
        store: Store,
        commands: Commands,
        principal: Caller,
        settings: AppSettings,
    ) -> StackedDeck:
        cards = _test_deck(settings, data.cards)
        table = await _table(store.tables, table_id)
        current = table.round
        if current is not None and current.phase == "betting":
            try:
                await commands.execute(table_id, StackDeck(deck=cards), actor_of(principal))
            except RuleViolation as refusal:
                if refusal.code != "betting_closed":
                    raise
                # Dealt meanwhile: the deck is the next round's after all.
            else:
                return StackedDeck(round=current.number, applies_to="current")
        await store.tables.stack_next_round(table_id, cards)
        number = current.number + 1 if current else table.rounds_opened + 1
        return StackedDeck(round=number, applies_to="next")


def lobby_entry(state: Table) -> LobbyEntry:
    rules = state.rules
    current = state.round
    bonus = rules.bonus_enabled
    return LobbyEntry(
        table_id=state.table_id,
        name=state.name,
        game=rules.game,
        status=state.status,
        private=state.private_for is not None,
        operator_id=state.operator_id,
        shared=state.shared,
        currency=rules.currency,
        ante_min=rules.ante_min,
        ante_max=rules.ante_max,
        bonus_min=rules.bonus_min if bonus else None,
        bonus_max=rules.bonus_limit if bonus else None,
        max_payout=rules.max_payout,
        bet_paytable=dict(rules.bet_paytable),
        bonus_paytable=dict(rules.bonus_paytable) if bonus else None,
        seats=len(state.seats),
        free_seats=sum(s is None for s in state.seats),
        boxes=rules.boxes,
        free_boxes=free_boxes(state),
        boxes_in_play=boxes_in_play(state),
        round=current.number if current else None,
        phase=current.phase if current else None,
    )


async def _operate(
    tables: TableStore,
    commands: CommandService,
    principal: Principal,
    table_id: str,
    command: CloseTable | ReopenTable,
) -> TableView:
    await commands.execute(table_id, command, actor_of(principal))
    return await load_view(tables, table_id, viewer_of(principal))


def _test_deck(settings: Settings, deck: list[str]) -> tuple[str, ...]:
    """The deck's cards, if test mode is on and they are distinct cards of the 52."""
    if not settings.test_mode:
        raise PermissionDeniedException("test mode is off")
    try:
        cards = parse_cards(deck)
    except CardError as exc:
        raise problem("invalid_deck", 422, str(exc)) from None
    return tuple(cards)
