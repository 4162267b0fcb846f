"""Liveness and readiness for load balancers and orchestrators."""

from __future__ import annotations

from typing import Final

from litestar import Controller, get
from litestar.exceptions import ServiceUnavailableException

from russian_poker.service.app.dependencies import Store
from russian_poker.service.app.policy import access
from russian_poker.service.app.responses import public

__all__ = ["READY_WITHIN_S", "HealthController"]

READY_WITHIN_S: Final = 0.9
"""The readiness probe's answer comes within a second, whatever the database does."""


class HealthController(Controller):
    opt = access()
    path = "/health"
    tags = ("health",)

    @get(
        "/live",
        summary="The process is up",
        description="200 while the process serves requests; it does not look at the database.",
        operation_id="checkLiveness",
    )
    async def live(self) -> dict[str, str]:
        return {"status": "ok"}

    @get(
        "/ready",
        summary="The database answers",
        responses=public(503),
        description=(
            "200 when the database answers within 0.9 s, else 503 (within a second, "
            "whatever the database does): a load balancer sends traffic only to ready "
            "instances."
        ),
        operation_id="checkReadiness",
    )
    async def ready(self, store: Store) -> dict[str, str]:
        if not await store.answers(timeout_s=READY_WITHIN_S):
            raise ServiceUnavailableException(
                "the database does not answer", headers={"Retry-After": "2"}
            )
        return {"status": "ready"}
