"""Dependency providers: each service of the running app (``service.app.state``), the
settings, and the authenticated principal. A handler names what it needs by parameter
(``store: Store``); nothing reads the app's state by key."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from litestar import Request
from litestar.datastructures import State
from litestar.di import NamedDependency, Provide

from russian_poker.events.postgres.storage import Storage
from russian_poker.events.postgres.tables import TableStore
from russian_poker.service.app.auth import Principal, principal_in
from russian_poker.service.app.policy import TableOwners
from russian_poker.service.app.reads import Reads
from russian_poker.service.app.state import config, services
from russian_poker.service.application.commands import CommandService
from russian_poker.service.application.credentials import Credentials as CredentialService
from russian_poker.service.application.operators import OperatorRegistry
from russian_poker.service.application.sessions import SessionRef
from russian_poker.service.application.sessions import Sessions as SessionService
from russian_poker.service.application.transfers import TransferService
from russian_poker.service.live import LiveHub
from russian_poker.service.reports.theory import TheoryCache
from russian_poker.service.settings import Settings
from russian_poker.service.software import SoftwareManifest

__all__ = [
    "DEPENDENCIES",
    "Acting",
    "ActingPlayer",
    "AppSettings",
    "Caller",
    "CheckpointKey",
    "Commands",
    "CredentialKeys",
    "Hub",
    "Operators",
    "Owners",
    "Sessions",
    "Software",
    "Store",
    "Theories",
    "Wallets",
]


def _principal(request: Request[Any, Any, State]) -> Principal:
    """The caller, as the access guard verified it (service.app.policy)."""
    return principal_in(request)


@dataclass(frozen=True, slots=True)
class Acting:
    """A player about to send a table command: who, under which launched session (bound to
    the token; the command's statements check it is still open), and what the command route
    runs it with.

    One dependency that builds on the caller's, rather than four side by side: Litestar
    resolves the dependencies of one level concurrently, in a task group per request, and on
    the command route (the hot path) that was 9 % of the server's profile samples
    (docs/benchmarks.md, "Issue 22: the shell redesigned")."""

    principal: Principal
    session: SessionRef | None
    commands: CommandService
    tables: TableStore


async def _acting(principal: Caller, state: State) -> Acting:
    running = services(state)
    return Acting(
        principal=principal,
        session=await running.sessions.bound(principal),
        commands=running.commands,
        tables=running.storage.tables,
    )


def _store(state: State) -> Storage:
    return services(state).storage


def _reads(state: State) -> Reads:
    return services(state).reads


def _commands(state: State) -> CommandService:
    return services(state).commands


def _wallets(state: State) -> TransferService:
    return services(state).transfers


def _sessions(state: State) -> SessionService:
    return services(state).sessions


def _hub(state: State) -> LiveHub:
    return services(state).hub


def _operators(state: State) -> OperatorRegistry:
    return services(state).operators


def _credentials(state: State) -> CredentialService:
    return services(state).credentials


def _owners(state: State) -> TableOwners:
    return services(state).table_owners


def _theory(state: State) -> TheoryCache:
    return services(state).theory


def _software(state: State) -> SoftwareManifest:
    return services(state).software


def _checkpoint_key(state: State) -> Ed25519PublicKey:
    return services(state).checkpoint_public_key


def _settings(state: State) -> Settings:
    return config(state).settings


DEPENDENCIES: Final = {
    "acting": Provide(_acting),
} | {
    name: Provide(provider, sync_to_thread=False)
    for name, provider in (
        ("principal", _principal),
        ("store", _store),
        ("reads", _reads),
        ("commands", _commands),
        ("wallets", _wallets),
        ("sessions", _sessions),
        ("hub", _hub),
        ("operators", _operators),
        ("credentials", _credentials),
        ("owners", _owners),
        ("theory", _theory),
        ("software", _software),
        ("checkpoint_key", _checkpoint_key),
        ("settings", _settings),
    )
}
"""The app's dependencies, by the parameter name a handler gives them."""

Caller = NamedDependency[Principal]
ActingPlayer = NamedDependency[Acting]
Store = NamedDependency[Storage]
ReadStores = NamedDependency[Reads]
Commands = NamedDependency[CommandService]
Wallets = NamedDependency[TransferService]
Sessions = NamedDependency[SessionService]
Hub = NamedDependency[LiveHub]
Operators = NamedDependency[OperatorRegistry]
CredentialKeys = NamedDependency[CredentialService]
Owners = NamedDependency[TableOwners]
Theories = NamedDependency[TheoryCache]
Software = NamedDependency[SoftwareManifest]
CheckpointKey = NamedDependency[Ed25519PublicKey]
AppSettings = NamedDependency[Settings]
