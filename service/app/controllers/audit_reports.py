"""Software authentication and RTP monitoring for auditors (docs/audit.md)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from litestar import Controller, get
from litestar.exceptions import NotFoundException
from litestar.params import QueryParameter

from russian_poker.service.app.dependencies import Caller, Software, Store, Theories
from russian_poker.service.app.policy import access
from russian_poker.service.app.responses import problems
from russian_poker.service.app.window import time_window
from russian_poker.service.reports.rtp import RtpReport, rtp_report
from russian_poker.service.software import SoftwareManifest

__all__ = ["AuditReportsController"]


class AuditReportsController(Controller):
    path = "/v1/audit"
    tags = ("audit",)

    @get(
        "/software",
        summary="The running software's version and the SHA-256 of every code file",
        description=(
            "Every file of the installed packages (code, migrations, assets; not bytecode"
            " caches), its SHA-256, and one digest over the `sha256sum` listing of them all,"
            " computed once when the service started. `russian-poker audit software --json`"
            " prints the same from the installation; `sha256sum` recomputes it (docs/audit.md,"
            " Software authentication). Auditors and admins."
        ),
        responses=problems(),
        opt=access("auditor", "admin"),
        operation_id="getSoftware",
    )
    async def software(self, software: Software) -> SoftwareManifest:
        return software

    @get(
        "/rtp",
        summary="Actual RTP per table, ruleset and UTC day, beside the theoretical RTP",
        description=(
            "Paid back / staked over the settled rounds of the window, per table, ruleset"
            " fingerprint and UTC day of settlement, for the main wager and the bonus apart,"
            " with a 99 % confidence interval (ratio estimator over rounds) and the"
            " ruleset's theoretical figure (docs/audit.md, RTP monitoring). A theoretical"
            " figure still being computed is null, and so is the band flag. Admins and the"
            " game's auditors read every operator's; an operator's tokens (operator, or its"
            " auditor) read its own players' boxes only."
        ),
        responses=problems(404, 422),
        opt=access("operator", "auditor", "admin", scope="listing"),
        operation_id="getRtpReport",
    )
    async def rtp(
        self,
        theory: Theories,
        store: Store,
        principal: Caller,
        since: Annotated[
            datetime | None,
            QueryParameter(
                name="from",
                required=False,
                description=(
                    "Rounds settled at or after this time (ISO 8601; without a zone: UTC)."
                    " Omit for no lower bound."
                ),
            ),
        ] = None,
        until: Annotated[
            datetime | None,
            QueryParameter(
                name="to",
                required=False,
                description=(
                    "Rounds settled before this time (ISO 8601; without a zone: UTC). Omit for"
                    " up to now."
                ),
            ),
        ] = None,
        table_id: Annotated[
            str | None,
            QueryParameter(required=False, max_length=64, description="Only this table."),
        ] = None,
        operator_id: Annotated[
            str | None,
            QueryParameter(
                required=False,
                max_length=64,
                description=(
                    "Only the boxes of this operator's players. An operator's token defaults"
                    " to its own and may name no other (404)."
                ),
            ),
        ] = None,
    ) -> RtpReport:
        tenant = principal.tenant
        if tenant is not None:
            if operator_id not in (None, tenant):
                raise NotFoundException(f"no operator {operator_id!r}")
            operator_id = tenant
        window = time_window(since, until)
        return await rtp_report(
            store.rtp,
            theory,
            start=window.start,
            end=window.end,
            table_id=table_id,
            operator_id=operator_id,
        )
