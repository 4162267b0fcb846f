"""Liveness and readiness for load balancers and orchestrators."""

from __future__ import annotations

from litestar import Controller, get
from litestar.exceptions import ServiceUnavailableException

from russian_poker.service.app.dependencies import Store
from russian_poker.service.app.policy import access
from russian_poker.service.app.responses import public

__all__ = ["HealthController"]


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
            "200 when the database answers within the probe's time, else 503: a load "
            "balancer sends traffic only to ready instances."
        ),
        operation_id="checkReadiness",
    )
    async def ready(self, store: Store) -> dict[str, str]:
        if not await store.answers(timeout_s=2):
            raise ServiceUnavailableException(
                "the database does not answer", headers={"Retry-After": "2"}
            )
        return {"status": "ready"}
