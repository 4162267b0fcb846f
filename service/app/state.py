"""The application's state, typed: what ``create_app`` knows before start-up (the settings,
the token verifier) and what start-up builds once the database is there (the services).

Handlers get each part by dependency injection (``service.app.dependencies``); the few
places Litestar's injection does not reach — the access guard and the bearer
authentication — read it through :func:`services` and :func:`config`, never by key.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from litestar.datastructures import State

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    from russian_poker.events.postgres.storage import Storage
    from russian_poker.service.app.auth import TokenVerifier
    from russian_poker.service.app.policy import TableOwners
    from russian_poker.service.app.reads import Reads
    from russian_poker.service.application.commands import CommandService
    from russian_poker.service.application.credentials import Credentials
    from russian_poker.service.application.operators import OperatorRegistry
    from russian_poker.service.application.outbox import Outbox
    from russian_poker.service.application.sessions import Sessions
    from russian_poker.service.application.transfers import TransferService
    from russian_poker.service.live import LiveHub
    from russian_poker.service.reports.theory import TheoryCache
    from russian_poker.service.settings import Settings
    from russian_poker.service.software import SoftwareManifest

__all__ = ["Config", "Services", "config", "initial_state", "services", "start", "started"]

_CONFIG = "config"
_SERVICES = "services"


@dataclass(frozen=True, slots=True, kw_only=True)
class Config:
    """Known when the app is created."""

    settings: Settings
    tokens: TokenVerifier
    stop_asked: asyncio.Event = field(default_factory=asyncio.Event)
    """Set when the process is told to stop (``SIGTERM``), whether start-up ended or not."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Services:
    """Built at start-up, on the database; gone at shut-down."""

    pool: Any
    storage: Storage
    reads: Reads
    """Where the read-only routes read: a replica, if one is configured."""
    commands: CommandService
    transfers: TransferService
    sessions: Sessions
    hub: LiveHub
    operators: OperatorRegistry
    outbox: Outbox
    credentials: Credentials
    table_owners: TableOwners
    theory: TheoryCache
    software: SoftwareManifest
    checkpoint_public_key: Ed25519PublicKey


def initial_state(settings: Settings, tokens: TokenVerifier) -> State:
    return State({_CONFIG: Config(settings=settings, tokens=tokens)})


def config(state: State) -> Config:
    found: Config = state[_CONFIG]
    return found


def services(state: State) -> Services:
    """The running app's services (a request never arrives before start-up made them)."""
    found: Services = state[_SERVICES]
    return found


def started(state: State) -> Services | None:
    """The services, or ``None`` before start-up made them (a stop asked for that early)."""
    found: Services | None = state.get(_SERVICES)
    return found


def start(state: State, built: Services) -> None:
    state[_SERVICES] = built
