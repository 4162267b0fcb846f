"""The Litestar application factory."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from litestar import Litestar
from litestar.config.cors import CORSConfig
from litestar.exceptions import ValidationException
from litestar.middleware.rate_limit import RateLimitConfig
from litestar.plugins.prometheus import PrometheusController

from russian_poker.events.postgres.live import LiveStore
from russian_poker.events.postgres.pool import close_pool, create_pool
from russian_poker.events.postgres.projections import ProjectionStore
from russian_poker.events.postgres.storage import Storage
from russian_poker.events.postgres.timers import TimerStore
from russian_poker.events.postgres.watch import ServerWatch
from russian_poker.projections.audit import AuditProjection
from russian_poker.projections.availability import AvailabilityProjection
from russian_poker.projections.runner import ProjectionRunner
from russian_poker.service import bootstrap
from russian_poker.service.app.auth import TokenVerifier, keyring, rate_limit_key
from russian_poker.service.app.bodies import check_body
from russian_poker.service.app.controllers.audit import AuditController
from russian_poker.service.app.controllers.audit_reports import AuditReportsController
from russian_poker.service.app.controllers.availability import AvailabilityController
from russian_poker.service.app.controllers.chain import ChainController
from russian_poker.service.app.controllers.commands import CommandController
from russian_poker.service.app.controllers.credentials import CredentialController
from russian_poker.service.app.controllers.fairness import FairnessController
from russian_poker.service.app.controllers.health import HealthController
from russian_poker.service.app.controllers.history import HistoryController
from russian_poker.service.app.controllers.me import MeController
from russian_poker.service.app.controllers.operator_reports import OperatorReportsController
from russian_poker.service.app.controllers.operators import OperatorController
from russian_poker.service.app.controllers.problems import ProblemsController
from russian_poker.service.app.controllers.round_viewer import RoundViewerController
from russian_poker.service.app.controllers.sessions import SessionController
from russian_poker.service.app.controllers.tables import TableController
from russian_poker.service.app.controllers.wallets import WalletController
from russian_poker.service.app.dependencies import DEPENDENCIES
from russian_poker.service.app.docs_assets import docs_router, swagger_assets_router, swagger_plugin
from russian_poker.service.app.lifecycle import (
    STOP_STEP_S,
    bounded,
    die_with_supervisor,
    unless_stopped,
)
from russian_poker.service.app.middleware import request_middleware, security_headers
from russian_poker.service.app.openapi import openapi_config
from russian_poker.service.app.policy import TableOwners, access, check_policies, enforce
from russian_poker.service.app.problems import (
    BODY_LIMIT,
    problem_details_plugin,
    validation_refusal,
)
from russian_poker.service.app.reads import Reads
from russian_poker.service.app.state import Services, config, initial_state, start
from russian_poker.service.application.cache import CommittedCache
from russian_poker.service.availability.notices import NOTICE_PATH, notice_of
from russian_poker.service.chain.background import Checkpointer
from russian_poker.service.chain.keys import signing_key
from russian_poker.service.chain.notices import (
    CHECKPOINT_DECLINED,
    CHECKPOINT_PATH,
    checkpoint_notice_of,
)
from russian_poker.service.client import client_router
from russian_poker.service.clock import Clock
from russian_poker.service.database import database_url, migrated, wait_for_database
from russian_poker.service.live import LiveHub
from russian_poker.service.notifier import Channel, OperatorNotifier
from russian_poker.service.observability import (
    SSE_CONNECTIONS,
    configure_logging,
    watch_projection_lag,
)
from russian_poker.service.office.routes import office_router
from russian_poker.service.reports.monitor import RtpMonitor
from russian_poker.service.reports.theory import TheoryCache
from russian_poker.service.settings import ConfigurationError, Settings, load_settings
from russian_poker.service.software import installed

__all__ = ["create_app"]

API_VERSION = "0.2.0"
"""The HTTP contract's version, the package's own while it is 0.x (SemVer §4: before 1.0.0 a
minor release may break; CHANGELOG.md names every break). The paths' `/v1` is the first
stable major to come, kept from the start so clients never change their URLs for it."""


class MetricsController(PrometheusController):
    path = "/metrics"
    include_in_schema = False
    opt = access()


def create_app(settings: Settings | None = None) -> Litestar:
    """The service. Start-up resolves the database, applies migrations (once, however many
    instances start together) and opens the pool; shut-down closes it."""
    settings = settings or load_settings()
    die_with_supervisor()
    if settings.environment == "production" and settings.test_mode:
        # load_settings refuses this; settings built in code must not get around it.
        raise ConfigurationError(
            "RUSSIAN_POKER_TEST_MODE: test mode (fixed decks) is refused in production"
        )

    configure_logging(settings.log_level)

    @asynccontextmanager
    async def database(app: Litestar) -> AsyncIterator[None]:
        key = signing_key(settings)  # before anything opens: production refuses without it
        url = settings.database_url or database_url()
        # A stop asked for while the database does not answer yet ends the start-up.
        stop = config(app.state).stop_asked
        await unless_stopped(stop, wait_for_database(url, settings.database_wait_s))
        await unless_stopped(stop, migrated(url))
        pooled = settings.pooled_database_url
        # Straight to the server: everything, or, behind a transaction pooler, what holds
        # session state (a seamless player's bets, the outbox, the notifier).
        direct = await unless_stopped(
            stop,
            create_pool(
                url,
                min_size=2,
                max_size=max(2, settings.pool_size // 2) if pooled else settings.pool_size,
                command_timeout=settings.database_command_timeout_s,
            ),
        )
        pool = direct
        if pooled:
            pool = await unless_stopped(
                stop,
                create_pool(
                    pooled,
                    min_size=2,
                    max_size=settings.pool_size,
                    command_timeout=settings.database_command_timeout_s,
                    pooler=True,
                ),
            )
        replica = None
        if settings.read_database_url:
            replica = await unless_stopped(
                stop,
                create_pool(
                    settings.read_database_url,
                    min_size=1,
                    max_size=settings.pool_size,
                    command_timeout=settings.database_command_timeout_s,
                    application_name="russian-poker-reads",
                ),
            )
        watch = ServerWatch(url)
        operators = bootstrap.operators(pool)
        outbox = bootstrap.outbox(
            direct,
            operators,
            retry_for_s=settings.wallet_retry_for_s,
            backoff_max_s=settings.wallet_backoff_max_s,
            # Each delivery holds a connection for the operator's answer: commands keep the
            # rest of the pool even when a slow operator is owed by many players.
            parallel=max(1, settings.pool_size // 4),
        )
        commands = bootstrap.command_service(
            pool,
            sessions=direct,
            attempts=settings.command_attempts,
            test_mode=settings.test_mode,
            cache=CommittedCache(
                tables=settings.cached_tables, wallets=16 * settings.cached_tables
            ),
            operators=operators,
            owed=outbox.wake,
            deliver_owed=outbox.deliver_owed,
        )
        storage = Storage(pool, sessions=direct)
        hub = LiveHub(LiveStore(pool, url))
        clock = Clock(TimerStore(pool), commands)
        projections = ProjectionStore(url, pool)
        audit = ProjectionRunner(AuditProjection(), projections)
        availability = ProjectionRunner(AvailabilityProjection(), projections)
        notifier = OperatorNotifier(
            [
                Channel("table_notice", storage.notices, NOTICE_PATH, notice_of),
                Channel(
                    "checkpoint_notice",
                    storage.checkpoint_notices,
                    CHECKPOINT_PATH,
                    checkpoint_notice_of,
                    declined_by=CHECKPOINT_DECLINED,
                ),
            ],
            operators,
            retry_for_s=settings.wallet_retry_for_s,
            backoff_max_s=settings.wallet_backoff_max_s,
        )
        checkpointer = Checkpointer(storage.chain, key, every_s=settings.checkpoint_every_s)
        theory = TheoryCache()
        gauges = RtpMonitor(storage.rtp, theory, every_s=settings.rtp_refresh_s)
        start(
            app.state,
            Services(
                pool=pool,
                storage=storage,
                reads=Reads(storage, Storage(replica) if replica is not None else None),
                commands=commands,
                transfers=bootstrap.transfer_service(pool),
                sessions=bootstrap.sessions(pool, operators),
                hub=hub,
                operators=operators,
                outbox=outbox,
                credentials=bootstrap.credentials(pool),
                table_owners=TableOwners(storage.tables),
                theory=theory,
                software=installed(),
                checkpoint_public_key=key.public_key(),
            ),
        )
        watch.start()
        await hub.start()
        if settings.outbox:
            outbox.start()
            notifier.start()
        SSE_CONNECTIONS.set_function(lambda: hub.connections)
        if settings.clock:
            clock.start()
        if settings.projections:
            await audit.start()
            await availability.start()
        checkpointer.start()
        if settings.rtp_refresh_s > 0:
            gauges.start()
        lag = asyncio.create_task(watch_projection_lag(projections, [audit.projection.name]))
        _settle_heap()
        try:
            yield
        finally:
            lag.cancel()
            # Stop taking time-outs, hand projection leadership over and close live streams
            # before the pool goes; each step bounded, so a silent database cannot hold
            # the stop.
            for step in (
                clock.stop,
                outbox.stop,
                notifier.stop,
                commands.close,
                operators.aclose,
                audit.stop,
                availability.stop,
                checkpointer.stop,
                gauges.stop,
                hub.stop,
                watch.stop,
            ):
                await bounded(step, STOP_STEP_S)
            await close_pool(pool)
            if pool is not direct:
                await close_pool(direct)
            if replica is not None:
                await close_pool(replica)

    app = Litestar(
        route_handlers=[
            TableController,
            CommandController,
            WalletController,
            OperatorController,
            OperatorReportsController,
            CredentialController,
            SessionController,
            MeController,
            HistoryController,
            AuditController,
            RoundViewerController,
            AvailabilityController,
            FairnessController,
            AuditReportsController,
            ChainController,
            HealthController,
            MetricsController,
            ProblemsController,
            swagger_assets_router(),
            client_router(),
            office_router(),
        ],
        dependencies=DEPENDENCIES,
        middleware=[
            # The request id and the request metrics, by route template: one series per
            # route, however many tables and wallets there are; a path no route matches is
            # not counted at all.
            request_middleware,
            *_rate_limit(settings),
        ],
        lifespan=[database],
        before_send=[security_headers],
        # One guard for every route: its declared access policy (service.app.policy).
        guards=[enforce],
        before_request=check_body,
        plugins=[problem_details_plugin()],
        # Before the plugin's handler for every HTTP error: a 400 names the API's fields.
        exception_handlers={ValidationException: validation_refusal},
        openapi_config=openapi_config(API_VERSION, [swagger_plugin()], docs_router()),
        cors_config=_cors(settings),
        state=initial_state(
            settings,
            TokenVerifier(
                keyring(settings.jwt_secret, settings.jwt_previous_secrets),
                production=settings.environment == "production",
            ),
        ),
        request_max_body_size=BODY_LIMIT,
        debug=False,
    )
    check_policies(app)
    return app


def _settle_heap() -> None:
    """What start-up allocated lives as long as the process: the collector need not walk it
    again. A command allocates thousands of short-lived objects and hardly any cycle, so
    the youngest generation is collected less often than Python's default (every 700)."""
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)


def _cors(settings: Settings) -> CORSConfig | None:
    """Cross-origin calls from the browser frontends named in the settings, or none.

    Bearer tokens, not cookies, authenticate: credentials stay off. Litestar answers a
    preflight before routing, so neither authentication nor the rate limit sees it."""
    if not settings.cors_origins:
        return None
    return CORSConfig(
        allow_origins=list(settings.cors_origins),
        allow_methods=["GET", "POST", "PUT", "OPTIONS"],
        allow_headers=[
            "Authorization",
            "Content-Type",
            "Idempotency-Key",
            "If-Match",
            "Last-Event-ID",
            "X-Request-ID",
        ],
        expose_headers=[
            "Idempotent-Replayed",
            "X-Request-ID",
            "Retry-After",
            "RateLimit-Limit",
            "RateLimit-Remaining",
            "RateLimit-Reset",
            "RateLimit-Policy",
            "ETag",
        ],
        allow_credentials=False,
        max_age=600,
    )


def _rate_limit(settings: Settings) -> list[Any]:
    if not settings.rate_limit:
        return []
    config = RateLimitConfig(
        rate_limit=("second", settings.rate_limit),
        identifier_for_request=rate_limit_key,
        exclude=["/health", "/metrics", "/schema", "/problems", "/play"],
    )
    return [config.middleware]
