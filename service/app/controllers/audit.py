"""The auditor's API: the audit feed, a round's regulator record, replay verification,
seed reveals, and the reconciliation report of the whole books (auditors)."""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Annotated, Any

import msgspec
from litestar import Controller, get, post
from litestar.exceptions import NotFoundException
from litestar.params import QueryParameter
from litestar.status_codes import HTTP_200_OK

from projections import tables
from projections.audit import AuditPage, audit_feed, round_record
from projections.fields import Commitment
from service.app.auth import require
from service.app.controllers.tables import may_see
from service.app.dependencies import Caller, Pool
from service.app.params import RoundNumber, TableId, json_body
from service.app.problems import problem
from service.app.responses import problems
from service.audit.reconcile import ReconcileReport, reconcile
from service.audit.replay import ReplayReport, select_rounds, verify_rounds

__all__ = ["AuditController", "ReplayRequest", "SeedReveal"]


class ReplayRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One round (``table_id`` and ``round``), or every round settled in ``[from, to)``."""

    table_id: Annotated[
        str | None,
        msgspec.Meta(
            description=(
                "The table of the one round to replay; give it with `round`, or leave"
                " both null to replay a window."
            )
        ),
    ] = None
    round: Annotated[
        int | None, msgspec.Meta(description="The number of the one round to replay at `table_id`.")
    ] = None
    since: Annotated[
        datetime | None,
        msgspec.Meta(
            description=(
                "Start of the window (inclusive, ISO 8601): replay every round "
                "settled from then on; null: from the beginning."
            )
        ),
    ] = msgspec.field(default=None, name="from")
    until: Annotated[
        datetime | None,
        msgspec.Meta(description="End of the window (exclusive, ISO 8601); null: up to now."),
    ] = msgspec.field(default=None, name="to")


class SeedReveal(msgspec.Struct, frozen=True, kw_only=True):
    """A settled round's seed, with the commitment it must hash to."""

    table_id: Annotated[str, msgspec.Meta(description="The table's id.")]
    round: Annotated[int, msgspec.Meta(description="The round's number at that table.")]
    commitment: Commitment
    seed: Annotated[
        str,
        msgspec.Meta(
            description=(
                "The round's secret seed in hex, revealed at settlement: "
                "sha256(bytes.fromhex(seed)) == commitment."
            )
        ),
    ]
    verified: Annotated[bool, msgspec.Meta(description="The server checked the commitment too.")]


class ReplaySummary(msgspec.Struct, frozen=True, kw_only=True):
    """What a replay counted and every difference it found."""

    rounds: Annotated[int, msgspec.Meta(description="Settled rounds replayed.")]
    verified: Annotated[
        int, msgspec.Meta(description="Of those, rounds that replayed exactly as recorded.")
    ]
    failed: Annotated[
        int, msgspec.Meta(description="Of those, rounds with at least one difference.")
    ]
    skipped: Annotated[
        list[str],
        msgspec.Meta(
            description=(
                "Selected rounds that could not be replayed (not settled yet, or not "
                "found), one line each."
            )
        ),
    ]
    commands: Annotated[int, msgspec.Meta(description="Commands re-run.")]
    events: Annotated[
        int,
        msgspec.Meta(description="Recorded events (table and wallet) compared with the replay's."),
    ]
    differences: Annotated[
        list[str],
        msgspec.Meta(
            description=(
                "Every difference found, one line each: table, round, command, field,"
                " expected and recorded value."
            )
        ),
    ]


_ReplayBody = Annotated[
    ReplayRequest,
    json_body(("Round 3 of table vip-1", ReplayRequest(table_id="vip-1", round=3))),
]


class AuditController(Controller):
    path = "/v1/audit"
    tags = ("audit",)

    @get(
        "/feed",
        summary="Every event in commit order, secrets of open rounds hidden",
        responses=problems(422),
    )
    async def feed(
        self,
        pool: Pool,
        principal: Caller,
        after: Annotated[
            str | None,
            QueryParameter(
                required=False,
                max_length=60,
                description=(
                    "`next_cursor` of the previous page (or an item's `position`): events after "
                    "it; omit to start from the first event."
                ),
            ),
        ] = None,
        limit: Annotated[
            int, QueryParameter(ge=1, le=1000, description="Events per page, 1..1000.")
        ] = 100,
    ) -> AuditPage:
        require(principal, "auditor")
        async with pool.acquire() as conn:
            try:
                return await audit_feed(conn, after, limit)
            except ValueError as exc:
                raise problem("invalid_cursor", 422, str(exc)) from None

    @get(
        "/rounds/{table_id:str}/{number:int}",
        summary="A round's regulator record",
        responses=problems(404),
    )
    async def record(
        self, table_id: TableId, number: RoundNumber, pool: Pool, principal: Caller
    ) -> dict[str, Any]:
        require(principal, "auditor")
        async with pool.acquire() as conn:
            found = await round_record(conn, table_id, number)
        if found is None:
            raise NotFoundException(f"no audit record for {table_id}:{number} (yet)")
        return found

    @get(
        "/rounds/{table_id:str}/{number:int}/seed",
        summary="The seed of a settled round",
        responses=problems(404, 409),
    )
    async def seed(
        self, table_id: TableId, number: RoundNumber, pool: Pool, principal: Caller
    ) -> SeedReveal:
        require(principal, "auditor", "operator")
        if principal.role == "operator":
            # Another operator's table is not found (its own and shared tables are).
            async with pool.acquire() as conn:
                state, version = await tables.load(conn, table_id)
            if not version or not may_see(principal, state):
                raise NotFoundException(f"round {table_id}:{number} is not settled, or unknown")
        row = await pool.fetchrow(
            "SELECT commitment, seed FROM rounds WHERE table_id = $1 AND round = $2",
            table_id,
            number,
        )
        if row is None:
            raise NotFoundException(f"round {table_id}:{number} is not settled, or unknown")
        verified = hashlib.sha256(bytes.fromhex(row["seed"])).hexdigest() == row["commitment"]
        return SeedReveal(
            table_id=table_id,
            round=number,
            commitment=row["commitment"],
            seed=row["seed"],
            verified=verified,
        )

    @post(
        "/replay",
        status_code=HTTP_200_OK,
        summary="Re-run the rules over recorded rounds",
        responses=problems(404, 413, 422),
    )
    async def replay(self, data: _ReplayBody, pool: Pool, principal: Caller) -> ReplaySummary:
        require(principal, "auditor")
        if (data.table_id is None) != (data.round is None):
            raise problem(
                "invalid_replay_request",
                422,
                "give table_id and round together, or a from/to range",
            )
        async with pool.acquire() as conn:
            try:
                selection, skipped = await select_rounds(
                    conn,
                    table_round=(data.table_id, data.round)
                    if data.table_id is not None and data.round is not None
                    else None,
                    start=data.since,
                    end=data.until,
                )
            except LookupError as exc:
                raise NotFoundException(str(exc)) from None
            report: ReplayReport = await verify_rounds(conn, selection)
        return ReplaySummary(
            rounds=report.rounds,
            verified=report.verified,
            failed=report.failed,
            skipped=[*skipped, *report.skipped],
            commands=report.commands,
            events=report.events,
            differences=[str(d) for d in report.differences],
        )

    @get(
        "/reconciliation",
        summary="Wallet events vs round events vs balances, to the unit",
        responses=problems(),
    )
    async def reconciliation(
        self,
        pool: Pool,
        principal: Caller,
        since: Annotated[
            datetime | None,
            QueryParameter(
                name="from",
                required=False,
                description=(
                    "Start of the window (inclusive, ISO 8601): rounds opened and ledger rows "
                    "recorded from then on; balances are always checked over all time. Omit for no"
                    " lower bound."
                ),
            ),
        ] = None,
        until: Annotated[
            datetime | None,
            QueryParameter(
                name="to",
                required=False,
                description="End of the window (exclusive, ISO 8601). Omit for up to now.",
            ),
        ] = None,
    ) -> ReconcileReport:
        # The whole books, every operator's wallets and rounds: the auditor's. An operator
        # reconciles its own calls with GET /v1/operators/{id}/transactions.
        require(principal, "auditor")
        async with pool.acquire() as conn:
            return await reconcile(conn, start=since, end=until)
