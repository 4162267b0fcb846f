"""Game sessions launched by an operator (docs/wallet-protocol.md, "Game sessions").

A session binds a player's bearer token to one operator, player and currency. Ending or
expiry refuses the player's new commands; it never stops what the game owes the player:
credits and rollbacks are delivered whatever the session's state.
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any, NamedTuple, Protocol

import msgspec
from cachetools import LRUCache

from russian_poker.service.rules.errors import RuleViolation
from russian_poker.service.rules.tenancy import operator_of

__all__ = ["Binding", "Session", "SessionRef", "Sessions"]


class Session(msgspec.Struct, frozen=True, kw_only=True):
    session_id: Annotated[str, msgspec.Meta(description="The session's id.")]
    operator_id: Annotated[str, msgspec.Meta(description="The operator that launched it.")]
    player_id: Annotated[str, msgspec.Meta(description="The operator's own id for the player.")]
    currency: Annotated[str, msgspec.Meta(description="The currency the player plays in.")]
    table_id: Annotated[str | None, msgspec.Meta(description="The table it launches into.")]
    language: Annotated[str | None, msgspec.Meta(description="The player's language.")]
    lobby_url: Annotated[
        str | None, msgspec.Meta(description="Where the client sends the player back to.")
    ]
    created_at: Annotated[datetime, msgspec.Meta(description="When it was launched.")]
    expires_at: Annotated[datetime, msgspec.Meta(description="When its token stops working.")]
    ended_at: Annotated[
        datetime | None, msgspec.Meta(description="When the operator ended it, if it did.")
    ] = None


class SessionRef(msgspec.Struct, frozen=True):
    """The session a player's money moves under: its id and currency."""

    session_id: str
    currency: str


class Binding(NamedTuple):
    """Whose a session is, and whether it has ended (or expired)."""

    operator_id: str
    player_id: str
    currency: str
    ended: bool


class SessionStore(Protocol):
    async def insert(self, **session: Any) -> Session: ...
    async def get(self, operator_id: str, session_id: str) -> Session | None: ...
    async def end(self, operator_id: str, session_id: str) -> Session | None: ...
    async def binding(self, session_id: str) -> Binding | None: ...


class Seamless(Protocol):
    async def seamless(self, operator_id: str) -> bool: ...


class Caller(Protocol):
    """A player's verified token, as far as sessions go."""

    @property
    def subject(self) -> str: ...
    @property
    def operator(self) -> str: ...
    @property
    def session_id(self) -> str | None: ...
    @property
    def currency(self) -> str | None: ...


class Sessions:
    """Launching, looking at and ending sessions, and binding a command to one."""

    def __init__(self, store: SessionStore, operators: Seamless) -> None:
        self._store = store
        self._operators = operators
        # Whose a session is never changes, and an ended one never reopens: both are kept.
        # Whether an open one is still open is checked by the command's own statements.
        self._bindings: LRUCache[str, Binding] = LRUCache(maxsize=65_536)

    async def launch(
        self,
        *,
        operator_id: str,
        player_id: str,
        currency: str,
        ttl_s: int,
        table_id: str | None = None,
        language: str | None = None,
        lobby_url: str | None = None,
    ) -> Session:
        return await self._store.insert(
            session_id="s-" + secrets.token_hex(12),
            operator_id=operator_id,
            player_id=player_id,
            currency=currency,
            expires_at=datetime.now(UTC) + timedelta(seconds=ttl_s),
            table_id=table_id,
            language=language,
            lobby_url=lobby_url,
        )

    async def get(self, operator_id: str, session_id: str) -> Session | None:
        return await self._store.get(operator_id, session_id)

    async def end(self, operator_id: str, session_id: str) -> Session | None:
        """End it (once: ending again keeps the first time); None if none such."""
        self._bindings.pop(session_id, None)
        return await self._store.end(operator_id, session_id)

    async def bound(self, caller: Caller) -> SessionRef | None:
        """The acting player's launched session, bound to the token, before any of their
        commands runs; ``None`` for a development token of an internal operator's player. A
        seamless operator's player plays with a session only: their money moves at the
        operator, which knows them only through it. Refuses anyone else's session
        (``session_invalid``) and one known to have ended (``session_ended``); whether an
        open one is still open when the command writes is checked by its statements (the
        bets' lock and the append), which refuse with ``session_ended`` too."""
        player = operator_of(caller.subject)
        if caller.session_id is None:
            if await self._operators.seamless(player.operator_id):
                raise RuleViolation(
                    "session_required",
                    "a seamless operator's player plays with a launched session's token",
                )
            return None
        found = self._bindings.get(caller.session_id)
        if found is None:
            found = await self._store.binding(caller.session_id)
            if found is not None:
                self._bindings[caller.session_id] = found
        if found is None or (found.operator_id, found.player_id, found.currency) != (
            caller.operator,
            player.player_id,
            caller.currency,
        ):
            raise RuleViolation("session_invalid", "the token's session is not this player's")
        if found.ended:
            raise RuleViolation("session_ended", "the game session has ended; launch a new one")
        return SessionRef(caller.session_id, caller.currency or "")
