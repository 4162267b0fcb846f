"""Game sessions as stored (``game_sessions``)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Final

from russian_poker.service.application.sessions import Binding, Session

__all__ = ["Binding", "SessionStore", "binding", "end", "get", "insert", "latest"]

_COLUMNS: Final = (
    "session_id, operator_id, player_id, currency, table_id, language, lobby_url,"
    " created_at, expires_at, ended_at"
)


def _session(row: Any) -> Session:
    return Session(**dict(row))


async def insert(
    conn: Any,
    *,
    session_id: str,
    operator_id: str,
    player_id: str,
    currency: str,
    expires_at: datetime,
    table_id: str | None,
    language: str | None,
    lobby_url: str | None,
) -> Session:
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
        expires_at,
    )
    return _session(row)


async def get(conn: Any, operator_id: str, session_id: str) -> Session | None:
    row = await conn.fetchrow(
        f"SELECT {_COLUMNS} FROM game_sessions WHERE session_id = $1 AND operator_id = $2",
        session_id,
        operator_id,
    )
    return _session(row) if row else None


async def end(conn: Any, operator_id: str, session_id: str) -> Session | None:
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


async def binding(conn: Any, session_id: str) -> Binding | None:
    row = await conn.fetchrow(
        "SELECT operator_id, player_id, currency,"
        " NOT game_session_is_open(session_id) AS ended"
        " FROM game_sessions WHERE session_id = $1",
        session_id,
    )
    if row is None:
        return None
    return Binding(row["operator_id"], row["player_id"], row["currency"], row["ended"])


async def latest(conn: Any, operator_id: str, player_id: str) -> tuple[str, str] | None:
    """The player's newest session (id, currency), whatever its state."""
    row = await conn.fetchrow(
        "SELECT session_id, currency FROM game_sessions WHERE operator_id = $1 AND player_id = $2"
        " ORDER BY created_at DESC LIMIT 1",
        operator_id,
        player_id,
    )
    return (row["session_id"], row["currency"]) if row else None


class SessionStore:
    """The sessions on a pool (each call its own statement)."""

    def __init__(self, pool: Any) -> None:
        self._pool = pool

    async def insert(self, **session: Any) -> Session:
        async with self._pool.acquire() as conn:
            return await insert(conn, **session)

    async def get(self, operator_id: str, session_id: str) -> Session | None:
        async with self._pool.acquire() as conn:
            return await get(conn, operator_id, session_id)

    async def end(self, operator_id: str, session_id: str) -> Session | None:
        async with self._pool.acquire() as conn:
            return await end(conn, operator_id, session_id)

    async def binding(self, session_id: str) -> Binding | None:
        async with self._pool.acquire() as conn:
            return await binding(conn, session_id)
