"""Dependency providers: the pool, the handlers and the authenticated principal."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

import asyncpg
from litestar import Request
from litestar.datastructures import State
from litestar.di import NamedDependency

from russian_poker.service.app.auth import Principal, principal_in
from russian_poker.service.handling import CommandHandler, WalletHandler
from russian_poker.service.live import LiveHub

__all__ = [
    "Caller",
    "Commands",
    "DbPool",
    "Hub",
    "Pool",
    "Wallets",
    "provide_commands",
    "provide_hub",
    "provide_pool",
    "provide_principal",
    "provide_wallets",
]

if TYPE_CHECKING:
    DbPool: TypeAlias = asyncpg.Pool[asyncpg.Record]
else:
    DbPool = asyncpg.Pool  # Litestar resolves annotations at run time; Pool[...] is not real


def provide_pool(state: State) -> DbPool:
    pool: DbPool = state.pool
    return pool


def provide_commands(state: State) -> CommandHandler:
    handler: CommandHandler = state.commands
    return handler


def provide_wallets(state: State) -> WalletHandler:
    handler: WalletHandler = state.wallets
    return handler


def provide_principal(request: Request[object, object, State]) -> Principal:
    """The caller, as the access guard verified it (service.app.policy)."""
    return principal_in(request)


def provide_hub(state: State) -> LiveHub:
    hub: LiveHub = state.hub
    return hub


Pool = NamedDependency[DbPool]
Commands = NamedDependency[CommandHandler]
Wallets = NamedDependency[WalletHandler]
Hub = NamedDependency[LiveHub]
Caller = NamedDependency[Principal]
