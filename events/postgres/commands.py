"""The command path's storage (``service.application.ports``) on PostgreSQL: one connection
per attempt, its reads, its seamless bets' locks and intent, and its one statement."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager

import asyncpg

from russian_poker.events.postgres import command_write, sessions, tables, wallet_calls, wallets
from russian_poker.events.postgres.store import lookup_command
from russian_poker.events.postgres.wallet_calls import CallsOnConnection
from russian_poker.events.records import RecordedEvent
from russian_poker.events.writes import CommandWrite
from russian_poker.projections.wallets import HeldWallet
from russian_poker.service.application.ports import BetIntent, Loaded, Prepared

__all__ = ["PostgresCommands", "PostgresUnit"]


class PostgresUnit(CallsOnConnection):
    """One command attempt's connection (``ports.CommandUnit``)."""

    async def load(self, table_id: str, command_id: str, wallet_ids: Sequence[str]) -> Loaded:
        found = await tables.load_for_command(self._conn, table_id, command_id, wallet_ids)
        return Loaded(found.recorded, found.state, found.version, found.wallets)

    async def wallets(self, wallet_ids: Sequence[str]) -> dict[str, HeldWallet]:
        return await wallets.load(self._conn, wallet_ids)

    async def test_deck(self, table_id: str) -> tuple[str, ...]:
        return await tables.test_deck(self._conn, table_id)

    async def latest_session(self, operator_id: str, player_id: str) -> tuple[str, str] | None:
        return await sessions.latest(self._conn, operator_id, player_id)

    async def commit(self, write: CommandWrite) -> list[RecordedEvent]:
        return await command_write.commit(self._conn, write)

    async def lock_first_player(
        self,
        player: str,
        command_id: str,
        first: tuple[str, str, str, int],
        session_id: str | None,
    ) -> Prepared:
        return await wallet_calls.lock_players_first(
            self._conn, player, command_id, *first, session_id=session_id
        )

    async def lock_player(self, player: str) -> None:
        await wallet_calls.lock_player(self._conn, player)

    async def unlock_players(self, players: Sequence[str]) -> None:
        await wallet_calls.unlock_players(self._conn, players)

    async def record_intent(
        self, bets: Sequence[BetIntent], command_id: str, attempt_id: uuid.UUID
    ) -> int:
        return await wallet_calls.record_intent(self._conn, bets, command_id, attempt_id)

    async def release_bets(self, attempt_id: uuid.UUID, players: Sequence[str]) -> None:
        await wallet_calls.release(self._conn, attempt_id, players)


_REMEMBER = (
    "INSERT INTO commands (command_id, stream_id, result) VALUES ($1, $2, $3::jsonb)"
    " ON CONFLICT (command_id) DO NOTHING RETURNING 1"
)


class PostgresCommands:
    """The command path's storage on a pool (``ports.CommandStorage``)."""

    def __init__(
        self,
        pool: asyncpg.Pool[asyncpg.Record],
        sessions: asyncpg.Pool[asyncpg.Record] | None = None,
    ) -> None:
        """``sessions``: a pool straight to the server for units that hold session locks
        (``pool`` may be a transaction pooler's); ``pool`` itself when none is given."""
        self._pool = pool
        self._sessions = pool if sessions is None else sessions

    @asynccontextmanager
    async def unit(self, *, locks: bool = False) -> AsyncIterator[PostgresUnit]:
        # No transaction: the reads are checked by the append's expected versions, and the
        # append writes the read models in its own statement.
        async with (self._sessions if locks else self._pool).acquire() as conn:
            yield PostgresUnit(conn)

    async def remember_refusal(
        self, command_id: str, stream_id: str, record: bytes
    ) -> bytes | None:
        async with self._pool.acquire() as conn:
            if await conn.fetchval(_REMEMBER, command_id, stream_id, record.decode()):
                return None
            return await lookup_command(conn, command_id)
