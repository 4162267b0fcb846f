"""Liveness and readiness for load balancers and orchestrators."""

from __future__ import annotations

import asyncpg
from litestar import Controller, get
from litestar.exceptions import ServiceUnavailableException

from russian_poker.service.app.dependencies import Pool
from russian_poker.service.app.policy import access
from russian_poker.service.app.responses import public

__all__ = ["HealthController"]


class HealthController(Controller):
    opt = access()
    path = "/health"
    tags = ("health",)

    @get("/live", summary="The process is up")
    async def live(self) -> dict[str, str]:
        return {"status": "ok"}

    @get("/ready", summary="The database answers", responses=public(503))
    async def ready(self, pool: Pool) -> dict[str, str]:
        try:
            await pool.fetchval("SELECT 1", timeout=2)
        except (OSError, asyncpg.PostgresError, TimeoutError):
            raise ServiceUnavailableException(
                "the database does not answer", headers={"Retry-After": "2"}
            ) from None
        return {"status": "ready"}
