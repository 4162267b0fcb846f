"""Game sessions launched by an operator (WALLET-PROTOCOL §2).

A session binds a player's bearer token to one operator, player and currency. Ending or
expiry refuses the player's new commands; it never stops what the game owes the player:
credits and rollbacks are delivered whatever the session's state (§3.5).
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any, Final, Protocol

import msgspec

from russian_poker.service.rules.errors import RuleViolation
from russian_poker.service.rules.tenancy import operator_of

__all__ = [
    "Session",
    "bound_session",
    "check_bound",
    "end_session",
    "get_session",
    "launch_session",
]


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


_COLUMNS: Final = (
    "session_id, operator_id, player_id, currency, table_id, language, lobby_url,"
    " created_at, expires_at, ended_at"
)


def _session(row: Any) -> Session:
    return Session(**dict(row))


async def launch_session(
    conn: Any,
    *,
    operator_id: str,
    player_id: str,
    currency: str,
    ttl_s: int,
    table_id: str | None = None,
    language: str | None = None,
    lobby_url: str | None = None,
) -> Session:
    session_id = "s-" + secrets.token_hex(12)
    expires = datetime.now(UTC) + timedelta(seconds=ttl_s)
    row = await conn.fetchrow(
        f"""
        INSERT INTO game_sessions (session_id, operator_id, player_id, currency, table_id,
                                   language, lobby_url, expires_at)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING {_COLUMNS}
        """,
        session_id,
        operator_id,
        player_id,
        currency,
        table_id,
        language,
        lobby_url,
        expires,
    )
    return _session(row)


async def get_session(conn: Any, operator_id: str, session_id: str) -> Session | None:
    row = await conn.fetchrow(
        f"SELECT {_COLUMNS} FROM game_sessions WHERE session_id = $1 AND operator_id = $2",
        session_id,
        operator_id,
    )
    return _session(row) if row else None


async def end_session(conn: Any, operator_id: str, session_id: str) -> Session | None:
    """End it (once: ending again keeps the first time); None if the operator has none such."""
    row = await conn.fetchrow(
        f"""
        UPDATE game_sessions SET ended_at = coalesce(ended_at, now())
        WHERE session_id = $1 AND operator_id = $2 RETURNING {_COLUMNS}
        """,
        session_id,
        operator_id,
    )
    return _session(row) if row else None


async def check_bound(
    conn: Any, session_id: str, *, operator_id: str, player_id: str, currency: str | None
) -> None:
    """Refuse a command unless ``session_id`` is a live session of this very operator, player
    and currency (the token's): ended or expired is ``session_ended``, anyone else's is
    ``session_invalid``."""
    row = await conn.fetchrow(
        "SELECT operator_id, player_id, currency,"
        " ended_at IS NOT NULL OR expires_at <= now() AS ended"
        " FROM game_sessions WHERE session_id = $1",
        session_id,
    )
    if row is None or (row["operator_id"], row["player_id"], row["currency"]) != (
        operator_id,
        player_id,
        currency,
    ):
        raise RuleViolation("session_invalid", "the token's session is not this player's")
    if row["ended"]:
        raise RuleViolation("session_ended", "the game session has ended; launch a new one")


class _Registry(Protocol):
    async def seamless(self, operator_id: str) -> bool: ...


async def bound_session(pool: Any, operators: _Registry, principal: Any) -> tuple[str, str] | None:
    """The acting player's launched session (id, currency), checked live and bound to the
    token, before any of their commands runs; ``None`` for a development token of an
    internal operator's player. A seamless operator's player plays with a session only:
    their money moves at the operator, which knows them only through it."""
    player = operator_of(principal.subject)
    if principal.session_id is None:
        if await operators.seamless(player.operator_id):
            raise RuleViolation(
                "session_required",
                "a seamless operator's player plays with a launched session's token",
            )
        return None
    async with pool.acquire() as conn:
        await check_bound(
            conn,
            principal.session_id,
            operator_id=principal.operator,
            player_id=player.player_id,
            currency=principal.currency,
        )
    return principal.session_id, principal.currency or ""
