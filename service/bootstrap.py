"""Wires the application layer to the adapters the product runs: PostgreSQL for storage, the
operators' registry and HTTP wallets for money.

Everything that needs a pool is built here, once per process (the app's lifespan, a CLI
command, a test): the application layer itself never names an adapter.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import asyncpg

from russian_poker.events.postgres.commands import PostgresCommands
from russian_poker.events.postgres.credentials import CredentialStore
from russian_poker.events.postgres.notify import Notifier
from russian_poker.events.postgres.operators import OperatorStore
from russian_poker.events.postgres.sessions import SessionStore
from russian_poker.events.postgres.wallet_calls import WalletCallsStore
from russian_poker.events.postgres.wallets import WalletStore
from russian_poker.service.application.cache import CommittedCache
from russian_poker.service.application.commands import CommandService
from russian_poker.service.application.credentials import Credentials
from russian_poker.service.application.money.internal import InternalMoney
from russian_poker.service.application.money.router import Money
from russian_poker.service.application.money.seamless import DeliverOwed, SeamlessMoney
from russian_poker.service.application.operators import OperatorRegistry
from russian_poker.service.application.outbox import Outbox
from russian_poker.service.application.sessions import Sessions
from russian_poker.service.application.transfers import TransferService
from russian_poker.service.wallet.port import WalletPort

__all__ = [
    "command_service",
    "credentials",
    "operators",
    "outbox",
    "sessions",
    "transfer_service",
]

Pool = asyncpg.Pool


async def _no_wallet(operator_id: str) -> WalletPort | None:
    return None


async def _internal(operator_id: str) -> bool:
    return False


def command_service(
    pool: Pool,
    *,
    sessions: Pool | None = None,
    operators: OperatorRegistry | None = None,
    cache: CommittedCache | None = None,
    attempts: int = 8,
    test_mode: bool = False,
    owed: Callable[[], None] = lambda: None,
    deliver_owed: DeliverOwed | None = None,
) -> CommandService:
    """The command path on ``pool``. Without ``operators`` every player is the default
    operator's (internal wallets). ``sessions``: a pool straight to the server for the
    attempts that hold session locks, when ``pool`` is a transaction pooler's."""
    cache = cache or CommittedCache()
    notifier = Notifier(pool)
    wallets: Callable[[str], Awaitable[WalletPort | None]] = (
        operators.wallet if operators is not None else _no_wallet
    )
    seamless: Callable[[str], Awaitable[bool]] = (
        operators.seamless if operators is not None else _internal
    )
    money = Money(
        InternalMoney(cache),
        SeamlessMoney(wallets, deliver_owed=deliver_owed, owed=owed),
        seamless,
    )
    return CommandService(
        PostgresCommands(pool, sessions),
        money,
        cache=cache,
        wake=notifier.notify,
        attempts=attempts,
        test_mode=test_mode,
        owed=owed,
        close=notifier.close,
    )


def operators(pool: Pool) -> OperatorRegistry:
    return OperatorRegistry(OperatorStore(pool))


def credentials(pool: Pool) -> Credentials:
    return Credentials(CredentialStore(pool))


def transfer_service(pool: Pool) -> TransferService:
    return TransferService(WalletStore(pool))


def sessions(pool: Pool, operators: OperatorRegistry) -> Sessions:
    return Sessions(SessionStore(pool), operators)


def outbox(pool: Pool, operators: OperatorRegistry, **options: Any) -> Outbox:
    return Outbox(WalletCallsStore(pool), operators.wallet, **options)


async def bundled_read_models_caught_up(url: str) -> None:
    """Fold every event so far into the catch-up read models an audit bundle ships (the
    round records and the availability log). Safe beside a running service: each batch
    holds its projection's checkpoint row, so the two never apply one twice."""
    from russian_poker.events.postgres.projections import ProjectionStore
    from russian_poker.projections.audit import AuditProjection
    from russian_poker.projections.availability import AvailabilityProjection
    from russian_poker.projections.runner import ProjectionRunner

    store = ProjectionStore(url)
    try:
        for projection in (AuditProjection(), AvailabilityProjection()):
            await ProjectionRunner(projection, store).run_until_caught_up()
    finally:
        await store.close()
