"""Dependency providers: the pool, the handlers and the authenticated principal."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

import asyncpg
from litestar import Request
from litestar.datastructures import State
from litestar.di import NamedDependency

from russian_poker.events.postgres.storage import Storage
from russian_poker.service.app.auth import Principal, principal_in
from russian_poker.service.application.commands import CommandService
from russian_poker.service.application.sessions import Sessions as SessionService
from russian_poker.service.application.transfers import TransferService
from russian_poker.service.live import LiveHub

__all__ = [
    "Caller",
    "Sessions",
    "Store",
    "Commands",
    "DbPool",
    "Hub",
    "Pool",
    "Wallets",
    "provide_commands",
    "provide_hub",
    "provide_pool",
    "provide_principal",
    "provide_sessions",
    "provide_storage",
    "provide_wallets",
]

if TYPE_CHECKING:
    DbPool: TypeAlias = asyncpg.Pool[asyncpg.Record]
else:
    DbPool = asyncpg.Pool  # Litestar resolves annotations at run time; Pool[...] is not real


def provide_pool(state: State) -> DbPool:
    pool: DbPool = state.pool
    return pool


def provide_commands(state: State) -> CommandService:
    handler: CommandService = state.commands
    return handler


def provide_wallets(state: State) -> TransferService:
    handler: TransferService = state.wallets
    return handler


def provide_principal(request: Request[object, object, State]) -> Principal:
    """The caller, as the access guard verified it (service.app.policy)."""
    return principal_in(request)


def provide_sessions(state: State) -> SessionService:
    sessions: SessionService = state.sessions
    return sessions


def provide_storage(state: State) -> Storage:
    storage: Storage = state.storage
    return storage


def provide_hub(state: State) -> LiveHub:
    hub: LiveHub = state.hub
    return hub


Pool = NamedDependency[DbPool]
Commands = NamedDependency[CommandService]
Wallets = NamedDependency[TransferService]
Hub = NamedDependency[LiveHub]
Caller = NamedDependency[Principal]
Sessions = NamedDependency[SessionService]
Store = NamedDependency[Storage]
