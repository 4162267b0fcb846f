"""The storage port of the command path: what one command attempt reads and writes.

The application layer names no table and writes no SQL: it asks these protocols for typed
values and hands them typed writes (``events.writes.CommandWrite``). The adapter the
product runs is PostgreSQL's (``events.postgres.commands``); its contract suite is
``tests/store``. A unit is one connection: the seamless bets' advisory locks live on it, so
the attempt that takes them appends (and releases them) on the same one.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, NamedTuple, Protocol

from russian_poker.events.records import RecordedEvent
from russian_poker.events.writes import CommandWrite
from russian_poker.projections.wallets import HeldWallet
from russian_poker.service.rules.state import Table

__all__ = [
    "BetIntent",
    "CallsConnection",
    "CommandStorage",
    "CommandUnit",
    "Head",
    "Loaded",
    "Prepared",
]


class Loaded(NamedTuple):
    """What the command path reads before it decides, in one round trip."""

    recorded: bytes | None
    """The answer stored under the command's id, if it was recorded already (the table is
    then not read)."""
    state: Table
    version: int
    wallets: dict[str, HeldWallet]


class Prepared(NamedTuple):
    """What a betting attempt learns with its first player's lock."""

    stored: bytes | None
    owed: bool
    session_open: bool
    """The acting player's launched session is still open (True when there is none)."""


class BetIntent(NamedTuple):
    """One bet a seamless attempt is about to send, recorded before it is sent."""

    operator_id: str
    transaction_id: str
    player_id: str
    session_id: str
    currency: str
    amount: int
    reason: str
    table_id: str
    round: int
    box: int


class Head(NamedTuple):
    """A player's oldest owed call, and whether it is due."""

    seq: int
    operator_id: str
    player_id: str
    due: bool


class CallsConnection(Protocol):
    """Owed wallet calls, on one connection (a player's lock is held on it while they go)."""

    async def try_lock_player(self, player: str) -> bool: ...
    async def unlock_player(self, player: str) -> None: ...
    async def take(self, seq: int, retry_for_s: float) -> Any | None: ...
    async def owed_of_round(
        self, operator_id: str, player_id: str, table_id: str, round_number: int, retry_for_s: float
    ) -> list[Any]: ...
    async def delivered(
        self, seq: int, status: str, operator_transaction_id: str | None, balance: int | None
    ) -> None: ...
    async def retry_later(
        self, seq: int, status: str | None, error: str, delay_s: float, manual: bool
    ) -> None: ...
    async def try_lock_attempt(self, attempt_id: uuid.UUID) -> bool: ...
    async def unlock_attempt(self, attempt_id: uuid.UUID) -> None: ...
    async def undo_bets(
        self, attempt_id: uuid.UUID, why: str, *, refused: tuple[str, str] | None = None
    ) -> int: ...


class CommandUnit(CallsConnection, Protocol):
    """One command attempt's connection: its reads, its seamless bets and its one write."""

    async def load(self, table_id: str, command_id: str, wallet_ids: Sequence[str]) -> Loaded:
        """The answer recorded under ``command_id``, or the table and the named wallets."""
        ...

    async def wallets(self, wallet_ids: Sequence[str]) -> dict[str, HeldWallet]: ...

    async def test_deck(self, table_id: str) -> tuple[str, ...]:
        """Test mode: the deck set for the table's next round."""
        ...

    async def latest_session(self, operator_id: str, player_id: str) -> tuple[str, str] | None:
        """The player's newest session (id, currency)."""
        ...

    async def commit(self, write: CommandWrite) -> list[RecordedEvent]:
        """Everything the command writes, in one statement; the events as recorded."""
        ...

    async def lock_first_player(
        self,
        player: str,
        command_id: str,
        first: tuple[str, str, str, int],
        session_id: str | None,
    ) -> Prepared:
        """Take ``player``'s lock; whether the command was recorded already, whether a
        call of ``first``'s round (operator, player, table, round) is still owed, and
        whether ``session_id`` is still open."""
        ...

    async def lock_player(self, player: str) -> None: ...
    async def unlock_players(self, players: Sequence[str]) -> None: ...

    async def record_intent(
        self, bets: Sequence[BetIntent], command_id: str, attempt_id: uuid.UUID
    ) -> int:
        """Take the attempt's lock and record its bets before any is sent; how many were
        recorded (fewer when a call of a player's round is still owed)."""
        ...

    async def release_bets(self, attempt_id: uuid.UUID, players: Sequence[str]) -> None:
        """Let recovery see the attempt, and the players' other calls go."""
        ...


class CommandStorage(Protocol):
    """Where the command path reads and writes."""

    def unit(self, *, locks: bool = False) -> AbstractAsyncContextManager[CommandUnit]:
        """A connection for one attempt; with ``locks``, one that keeps session locks across
        its statements (a seamless player's bets), never a transaction pooler's."""
        ...

    async def remember_refusal(
        self, command_id: str, stream_id: str, record: bytes
    ) -> bytes | None:
        """Record a refusal under the command's id; ``None`` if it was recorded, else the
        answer another attempt recorded first."""
        ...
