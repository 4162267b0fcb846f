"""The Litestar application factory."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from litestar import Litestar
from litestar.datastructures import State
from litestar.di import Provide
from litestar.openapi import OpenAPIConfig
from litestar.openapi.plugins import SwaggerRenderPlugin

from events.pool import create_pool
from service.app.controllers.health import HealthController
from service.app.controllers.tables import TableController
from service.app.controllers.wallets import WalletController
from service.app.dependencies import (
    provide_commands,
    provide_pool,
    provide_principal,
    provide_wallets,
)
from service.app.problems import problem_details_plugin
from service.database import database_url, migrated
from service.handling import CommandHandler, WalletHandler
from service.settings import Settings, load_settings

__all__ = ["create_app"]

API_VERSION = "1.0.0"


def create_app(settings: Settings | None = None) -> Litestar:
    """The service. Start-up resolves the database, applies migrations (once, however many
    instances start together) and opens the pool; shut-down closes it."""
    settings = settings or load_settings()

    @asynccontextmanager
    async def database(app: Litestar) -> AsyncIterator[None]:
        url = settings.database_url or database_url()
        await migrated(url)
        pool = await create_pool(url, min_size=2, max_size=20)
        app.state.pool = pool
        app.state.commands = CommandHandler(
            pool, attempts=settings.command_attempts, test_mode=settings.test_mode
        )
        app.state.wallets = WalletHandler(pool)
        try:
            yield
        finally:
            await pool.close()

    return Litestar(
        route_handlers=[TableController, WalletController, HealthController],
        dependencies={
            "pool": Provide(provide_pool, sync_to_thread=False),
            "commands": Provide(provide_commands, sync_to_thread=False),
            "wallets": Provide(provide_wallets, sync_to_thread=False),
            "principal": Provide(provide_principal, sync_to_thread=False),
        },
        lifespan=[database],
        plugins=[problem_details_plugin()],
        openapi_config=OpenAPIConfig(
            title="Russian Poker backend",
            version=API_VERSION,
            description="Event-sourced Russian Poker and Oasis Poker tables, wallets and audit.",
            path="/schema",
            render_plugins=[SwaggerRenderPlugin()],
        ),
        state=State({"settings": settings}),
        request_max_body_size=64 * 1024,
        debug=False,
    )
