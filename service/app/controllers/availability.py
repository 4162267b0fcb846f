"""The availability log over HTTP, and the bodies of the commands that change availability.

``GET /v1/audit/availability`` lists every opening, closing, reopening and ruleset change
of the tables the caller may audit, oldest first (docs/audit.md, "Availability and change
log"): the game's auditors and admins every table; an operator's tokens (operator, or an
auditor of that operator) its own tables only, another operator's being answered 404.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

import msgspec
from litestar import Controller, get
from litestar.exceptions import NotFoundException
from litestar.params import QueryParameter

from russian_poker.events.commands import Reason
from russian_poker.projections.availability import AvailabilityPage
from russian_poker.projections.paging import read_serial
from russian_poker.service.app.dependencies import Caller, Store
from russian_poker.service.app.overrides import RulesetOverrides
from russian_poker.service.app.params import PageCursor
from russian_poker.service.app.policy import access
from russian_poker.service.app.responses import problems
from russian_poker.service.app.window import time_window

__all__ = [
    "AvailabilityController",
    "CloseTableBody",
    "ReopenTableBody",
    "RulesetChangeBody",
]


class CloseTableBody(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Close (disable) a table: a reason is required."""

    reason: Annotated[
        Reason,
        msgspec.Meta(
            description=(
                "Why the table is closed, 1-500 characters: recorded in the availability log"
                " and sent to the operator in its table-status notification."
            )
        ),
    ]


class ReopenTableBody(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Reopen a closed table; the reason is optional."""

    reason: Annotated[
        Reason | None,
        msgspec.Meta(
            description="Why the table is reopened, 1-500 characters (optional), for the log."
        ),
    ] = None


class RulesetChangeBody(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A new ruleset for the table: its current one (or a preset) plus overrides."""

    preset: Annotated[
        Literal["russian", "russian-online", "oasis"] | None,
        msgspec.Meta(
            description=(
                "Start from this preset (keeping the table's currency) instead of the table's"
                " current ruleset; null (the default) starts from the current ruleset."
            )
        ),
    ] = None
    overrides: Annotated[
        RulesetOverrides,
        msgspec.Meta(
            description=(
                "Ruleset parameters that replace the starting ruleset's, by name, e.g."
                ' `{"bet_paytable": {"straight": 5}}`; a paytable override prices the'
                " combinations it names and keeps the rest. The currency and the number of"
                " boxes cannot change."
            )
        ),
    ] = msgspec.field(default_factory=RulesetOverrides)
    reason: Annotated[
        Reason,
        msgspec.Meta(description="Why the ruleset changes, 1-500 characters (required)."),
    ]


class AvailabilityController(Controller):
    path = "/v1/audit/availability"
    tags = ("audit",)

    @get(
        "/",
        summary="The availability and change log: tables opened, closed, reopened, re-ruled",
        description=(
            "Every opening, closing, reopening and ruleset (paytable) change of a table, with"
            " who made it (role and id), why, when, and the ruleset version in force after it"
            " (with the ruleset itself for openings and changes), oldest first. Pass"
            " `next_cursor` back as `cursor` for the next page. Admins and the game's"
            " auditors read every table; an operator's tokens (operator, or an auditor of"
            " that operator) its own tables only: another operator's table or operator id is"
            " answered 404. The log is a projection: a change appears within moments of the"
            " command that made it."
        ),
        responses=problems(404, 422),
        opt=access("operator", "auditor", "admin", scope="listing"),
        operation_id="listAvailabilityChanges",
    )
    async def changes(
        self,
        store: Store,
        principal: Caller,
        table_id: Annotated[
            str | None,
            QueryParameter(required=False, max_length=64, description="Only this table's changes."),
        ] = None,
        operator_id: Annotated[
            str | None,
            QueryParameter(
                required=False,
                max_length=64,
                description="Only the tables of this operator.",
            ),
        ] = None,
        since: Annotated[
            datetime | None,
            QueryParameter(
                name="from",
                required=False,
                description=(
                    "Only changes recorded at or after this time (ISO 8601; without a zone:"
                    " UTC). Omit for no lower bound."
                ),
            ),
        ] = None,
        until: Annotated[
            datetime | None,
            QueryParameter(
                name="to",
                required=False,
                description=(
                    "Only changes recorded before this time (ISO 8601; without a zone: UTC)."
                    " Omit for no upper bound."
                ),
            ),
        ] = None,
        cursor: PageCursor = None,
        limit: Annotated[
            int, QueryParameter(ge=1, le=1000, description="Changes per page, 1..1000.")
        ] = 100,
    ) -> AvailabilityPage:
        tenant = principal.tenant
        if tenant is not None:
            # An operator's tokens: its own tables, whatever else was asked for.
            if operator_id is not None and operator_id != tenant:
                raise NotFoundException(f"no operator {operator_id!r}")
            operator_id = tenant
            if table_id is not None:
                owner = await store.tables.owner(table_id)
                if owner is None or owner.operator_id != tenant:
                    raise NotFoundException(f"no table {table_id!r}")
        window = time_window(since, until)
        after = read_serial(cursor)
        return await store.availability.page(
            table_id=table_id,
            operator_id=operator_id,
            start=window.start,
            end=window.end,
            cursor=after,
            limit=limit,
        )
