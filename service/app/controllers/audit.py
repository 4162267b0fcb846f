"""The auditor's API: the audit feed, a round's regulator record, replay verification,
seed reveals, and the reconciliation report of the whole books (auditors)."""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Annotated

import msgspec
from litestar import Controller, get, post
from litestar.exceptions import NotFoundException
from litestar.params import QueryParameter
from litestar.status_codes import HTTP_200_OK

from russian_poker.events.postgres.tables import Owner
from russian_poker.projections.audit import AuditRow
from russian_poker.projections.audit_feed import AuditPage, audit_feed, round_record
from russian_poker.projections.fields import Commitment
from russian_poker.service.app.dependencies import Caller, Owners, ReadStores, Store
from russian_poker.service.app.params import RoundNumber, TableId, json_body
from russian_poker.service.app.policy import access
from russian_poker.service.app.problems import problem
from russian_poker.service.app.responses import problems
from russian_poker.service.app.window import time_window
from russian_poker.service.audit.reconcile import ReconcileReport, reconcile
from russian_poker.service.audit.replay import ReplayReport, select_rounds, verify_rounds

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


def _owns(owner: Owner | None, tenant: str) -> bool:
    """Whether a table is the tenant's own: not another's, and not shared by all."""
    return owner is not None and not owner.shared and owner.operator_id == tenant


class AuditController(Controller):
    path = "/v1/audit"
    tags = ("audit",)

    @get(
        "/feed",
        summary="Every event in commit order, secrets of open rounds hidden",
        description=(
            "An operator's auditor reads its operator's part: its tables' events and its"
            " players' money events (at shared tables too), not other operators' tables,"
            " shared ones included. A page then may hold fewer items than `limit` (none,"
            " even) while `next_cursor` moves on: read on until it stops moving."
        ),
        responses=problems(422),
        opt=access("auditor", "admin", scope="listing"),
        operation_id="readAuditFeed",
    )
    async def feed(
        self,
        reads: ReadStores,
        principal: Caller,
        cursor: Annotated[
            str | None,
            QueryParameter(
                required=False,
                max_length=60,
                description=(
                    "The previous page's `next_cursor` (or an item's `position`), exactly as"
                    " given: events after it; omit to start from the first event."
                ),
            ),
        ] = None,
        limit: Annotated[
            int, QueryParameter(ge=1, le=1000, description="Events per page, 1..1000.")
        ] = 100,
    ) -> AuditPage:
        return await audit_feed(reads.replica.audit, cursor, limit, tenant=principal.tenant)

    @get(
        "/rounds/{table_id:str}/{number:int}",
        summary="A round's regulator record",
        description=(
            "At a shared table an operator's auditor sees its own players' part of the"
            " record: their boxes, money and commands."
        ),
        responses=problems(404),
        opt=access("auditor", "admin", scope="table"),
        operation_id="getRoundRecord",
    )
    async def record(
        self, table_id: TableId, number: RoundNumber, reads: ReadStores, principal: Caller
    ) -> AuditRow:
        found = await round_record(reads.replica.audit, table_id, number, tenant=principal.tenant)
        if found is None:
            raise NotFoundException(f"no audit record for {table_id}:{number} (yet)")
        return found

    @get(
        "/rounds/{table_id:str}/{number:int}/seed",
        summary="The seed of a settled round",
        responses=problems(404, 409),
        opt=access("operator", "auditor", "admin", scope="table"),
        description=(
            "The secret seed of a settled round, with its commitment, so the deck can be "
            "derived again (docs/fairness.md); 404 until the round is settled."
        ),
        operation_id="getRoundSeed",
    )
    async def seed(self, table_id: TableId, number: RoundNumber, store: Store) -> SeedReveal:
        found = await store.history.seed(table_id, number)
        if found is None:
            raise NotFoundException(f"round {table_id}:{number} is not settled, or unknown")
        commitment, seed = found
        verified = hashlib.sha256(bytes.fromhex(seed)).hexdigest() == commitment
        return SeedReveal(
            table_id=table_id, round=number, commitment=commitment, seed=seed, verified=verified
        )

    @post(
        "/replay",
        status_code=HTTP_200_OK,
        summary="Re-run the rules over recorded rounds",
        description=(
            "An operator's auditor replays its operator's own tables' rounds (another's"
            " table is not found; a window covers its own tables only)."
        ),
        responses=problems(404, 413, 422),
        opt=access("auditor", "admin", scope="listing"),
        operation_id="replayEvents",
    )
    async def replay(
        self,
        data: _ReplayBody,
        store: Store,
        owners: Owners,
        principal: Caller,
    ) -> ReplaySummary:
        if (data.table_id is None) != (data.round is None):
            raise problem(
                "invalid_replay_request",
                422,
                "give table_id and round together, or a from/to range",
            )
        tenant = principal.tenant
        if (
            tenant is not None
            and data.table_id is not None
            and not _owns(await owners.of(data.table_id), tenant)
        ):
            raise NotFoundException(f"table {data.table_id} has no round {data.round}")
        window = time_window(data.since, data.until)
        try:
            selection, skipped = await select_rounds(
                store.replay,
                table_round=(data.table_id, data.round)
                if data.table_id is not None and data.round is not None
                else None,
                start=window.start,
                end=window.end,
            )
        except LookupError as exc:
            raise NotFoundException(str(exc)) from None
        if tenant is not None:
            selection = {
                table_id: rounds
                for table_id, rounds in selection.items()
                if _owns(await owners.of(table_id), tenant)
            }
        report: ReplayReport = await verify_rounds(store.replay, selection)
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
        description=(
            "The whole books of every operator: admins and the game's own auditors. An"
            " operator reconciles its own calls with `GET /v1/operators/{id}/transactions`."
        ),
        responses=problems(422),
        opt=access("auditor", "admin", unbound_only=True),
        operation_id="getReconciliation",
    )
    async def reconciliation(
        self,
        store: Store,
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
        window = time_window(since, until)
        return await reconcile(store.reconcile, start=window.start, end=window.end)
