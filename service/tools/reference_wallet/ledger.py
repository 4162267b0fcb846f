"""The operator's ledger, in PostgreSQL: players' balances and every money call applied.

Each call is one database transaction that starts by locking the player's row
(``SELECT … FOR UPDATE``): two deliveries of one call, however close together, are applied
one after the other, and the second finds the first's row and answers what it answered.
Everything lives in the ``reference_wallet`` schema, so the ledger can share a database
with anything else.

What is recorded, and why:

* a money call that was **applied** is a row of ``transactions`` with the answer it got;
  a repeat of its ``transaction_id`` gets that answer again (docs/wallet-protocol.md §3.1);
* a **refusal** (insufficient funds, a blocked player, …) is not recorded: nothing was
  applied, so a later send of the same id is judged afresh;
* a **rollback of a bet never seen** is recorded (a tombstone, §3.3): the bet, should it
  still arrive, is refused with ``transaction_rolled_back``.
"""

from __future__ import annotations

import datetime
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Final, Literal, TypeAlias, TypeVar

import asyncpg
import msgspec

from russian_poker.service.tools.conformance.kit import TABLE as CONFORMANCE_TABLE
from russian_poker.service.tools.reference_wallet.faults import Broken
from russian_poker.service.wallet.protocol import (
    Answer,
    BalanceCall,
    BetCall,
    Call,
    RollbackCall,
    WinCall,
    money_fields,
)

__all__ = ["SCHEMA", "ExportRow", "Ledger", "Player"]

SCHEMA: Final = """
CREATE SCHEMA IF NOT EXISTS reference_wallet;

CREATE TABLE IF NOT EXISTS reference_wallet.players (
    player_id text PRIMARY KEY,
    currency text NOT NULL,
    balance bigint NOT NULL CHECK (balance >= 0),
    blocked boolean NOT NULL DEFAULT false
);

CREATE SEQUENCE IF NOT EXISTS reference_wallet.operator_transaction_ids;

CREATE TABLE IF NOT EXISTS reference_wallet.transactions (
    operator_id text NOT NULL,
    transaction_id text NOT NULL,
    kind text NOT NULL CHECK (kind IN ('bet', 'win', 'rollback')),
    player_id text NOT NULL,
    amount bigint NOT NULL,
    currency text NOT NULL,
    round_id text NOT NULL,
    reason text NOT NULL,
    -- rollbacks only: the bet undone
    reference_transaction_id text,
    -- what makes the call the call it is (all but request_id), to tell a repeat from a
    -- different call reusing the id
    payload jsonb NOT NULL,
    answer jsonb NOT NULL,
    operator_transaction_id text NOT NULL UNIQUE,
    -- 'ok', or 'tombstone' for a rollback of a bet this ledger never saw
    outcome text NOT NULL CHECK (outcome IN ('ok', 'tombstone')),
    -- bets only: undone by a rollback
    rolled_back boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now(),
    -- the order calls were applied in, for the export
    seq bigserial NOT NULL,
    PRIMARY KEY (operator_id, transaction_id)
);

CREATE INDEX IF NOT EXISTS transactions_rollback_of
    ON reference_wallet.transactions (operator_id, reference_transaction_id)
    WHERE kind = 'rollback';

CREATE TABLE IF NOT EXISTS reference_wallet.ended_sessions (
    session_id text PRIMARY KEY,
    ended_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE IF NOT EXISTS reference_wallet.deliveries (
    id bigserial PRIMARY KEY,
    call text NOT NULL,
    transaction_id text,
    received_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX IF NOT EXISTS deliveries_of
    ON reference_wallet.deliveries (transaction_id);
"""

_SCHEMA_LOCK: Final = 0x7265_665F_7761_6C6C  # "ref_wall": instances starting together
_RETRIES: Final = 2

if TYPE_CHECKING:
    from asyncpg.pool import PoolConnectionProxy

    Connection: TypeAlias = PoolConnectionProxy[asyncpg.Record]

Kind = Literal["bet", "win", "rollback"]
_T = TypeVar("_T")
_encode = msgspec.json.Encoder().encode
_answer = msgspec.json.Decoder(Answer).decode


class Player(msgspec.Struct, frozen=True, kw_only=True):
    """A player's account, as the admin endpoints show it."""

    player_id: str
    currency: str
    balance: int
    blocked: bool = False


class ExportRow(msgspec.Struct, frozen=True, kw_only=True):
    """One money call applied, as the operator's export for ``reconcile --theirs`` has it."""

    transaction_id: str
    kind: Kind
    amount: int
    currency: str
    status: Literal["ok", "rolled_back", "tombstone"]
    operator_id: str
    player_id: str
    round_id: str
    reason: str
    operator_transaction_id: str
    created_at: datetime.datetime
    source: Literal["game", "conformance"]
    """``conformance`` for a ``wallet-check`` run's calls (its own table), else ``game``."""


class Ledger:
    """The four protocol calls against PostgreSQL, plus what the admin endpoints need."""

    def __init__(self, database_url: str, *, broken: Broken | None = None) -> None:
        self._url = database_url
        self._broken = broken
        self._pool: asyncpg.Pool[asyncpg.Record] | None = None

    async def open(self) -> None:
        """Connect and create the tables that are missing."""
        self._pool = await asyncpg.create_pool(self._url, min_size=1, max_size=16)
        async with self._pool.acquire() as conn, conn.transaction():
            # CREATE … IF NOT EXISTS is not safe against itself run concurrently.
            await conn.execute("SELECT pg_advisory_xact_lock($1)", _SCHEMA_LOCK)
            await conn.execute(SCHEMA)

    async def close(self) -> None:
        if self._pool is not None:
            await self._pool.close()
            self._pool = None

    @property
    def pool(self) -> asyncpg.Pool[asyncpg.Record]:
        assert self._pool is not None, "the ledger is not open"
        return self._pool

    # -- the protocol calls -------------------------------------------------------------

    async def balance(self, call: BalanceCall) -> Answer:
        player = await self.player(call.player_id)
        if player is None:
            return Answer(status="invalid_session", message="unknown player")
        if player.currency != call.currency:
            return _wrong_currency(player)
        return Answer(status="ok", balance=player.balance)

    async def bet(self, call: BetCall) -> Answer:
        return await self._in_transaction(lambda conn: self._bet(conn, call))

    async def win(self, call: WinCall) -> Answer:
        return await self._in_transaction(lambda conn: self._win(conn, call))

    async def rollback(self, call: RollbackCall) -> Answer:
        return await self._in_transaction(lambda conn: self._rollback(conn, call))

    async def _in_transaction(self, apply: Callable[[Connection], Awaitable[_T]]) -> _T:
        # Two deliveries of one id naming different players lock different rows; the
        # second insert then fails on the primary key, and its retry finds the first's row.
        for attempt in range(_RETRIES):
            try:
                async with self.pool.acquire() as conn, conn.transaction():
                    return await apply(conn)
            except asyncpg.UniqueViolationError:
                if attempt + 1 == _RETRIES:
                    raise
        raise AssertionError("unreachable")

    async def _bet(self, conn: Connection, call: BetCall) -> Answer:
        player = await _lock_player(conn, call.player_id)
        if player is None:
            return Answer(status="invalid_session", message="unknown player")
        if (earlier := await self._earlier(conn, call, "bet")) is not None:
            return earlier
        if self._broken != "forgets_rollbacks" and await _rolled_back_before(conn, call):
            return Answer(
                status="transaction_rolled_back",
                message="this bet was rolled back before it arrived",
            )
        if await _ended(conn, call.session_id):
            return Answer(status="invalid_session", message="the session has ended")
        if player.currency != call.currency:
            return _wrong_currency(player)
        if player.blocked:
            return Answer(status="player_blocked")
        if call.amount > player.balance:
            return Answer(status="insufficient_funds", balance=player.balance)
        return await self._apply(conn, call, "bet", player.balance - call.amount)

    async def _win(self, conn: Connection, call: WinCall) -> Answer:
        player = await _lock_player(conn, call.player_id)
        if player is None:
            return Answer(status="invalid_session", message="unknown player")
        if (earlier := await self._earlier(conn, call, "win")) is not None:
            return earlier
        # No session or blocked check: a credit is money already owed to the player
        # (§2, §3.5), paid however the session ended.
        if player.currency != call.currency:
            return _wrong_currency(player)
        return await self._apply(conn, call, "win", player.balance + call.amount)

    async def _rollback(self, conn: Connection, call: RollbackCall) -> Answer:
        player = await _lock_player(conn, call.player_id)
        if player is None:
            return Answer(status="invalid_session", message="unknown player")
        if (earlier := await self._earlier(conn, call, "rollback")) is not None:
            return earlier
        bet = await conn.fetchrow(
            "SELECT kind, player_id, currency, amount, rolled_back"
            " FROM reference_wallet.transactions"
            " WHERE operator_id = $1 AND transaction_id = $2 FOR UPDATE",
            call.operator_id,
            call.reference_transaction_id,
        )
        if bet is None or bet["kind"] != "bet":
            not_found = Answer(
                status="transaction_not_found",
                message="no such bet: recorded, the bet will be refused if it arrives",
            )
            if self._broken == "forgets_rollbacks":
                return not_found
            await self._record(conn, call, "rollback", not_found, outcome="tombstone")
            return not_found
        if (bet["player_id"], bet["currency"], bet["amount"]) != (
            call.player_id,
            call.currency,
            call.amount,
        ):
            # Not a rollback of that bet: a fault of the caller's for a human to look at.
            # `unknown` keeps the game sending it (and flagging it after 24 hours, §3.3).
            return Answer(
                status="unknown",
                message="the rollback's player, currency or amount differ from its bet's",
            )
        balance = player.balance
        if not bet["rolled_back"]:
            balance += call.amount
            await conn.execute(
                "UPDATE reference_wallet.transactions SET rolled_back = true"
                " WHERE operator_id = $1 AND transaction_id = $2",
                call.operator_id,
                call.reference_transaction_id,
            )
        return await self._apply(conn, call, "rollback", balance)

    async def _earlier(
        self,
        conn: Connection,
        call: BetCall | WinCall | RollbackCall,
        kind: Kind,
    ) -> Answer | None:
        """The answer owed to a repeat of an applied call, or None for a new one."""
        if self._broken == "no_idempotency":
            return None
        row = await conn.fetchrow(
            "SELECT kind, payload = $3::jsonb AS same, answer, rolled_back"
            " FROM reference_wallet.transactions"
            " WHERE operator_id = $1 AND transaction_id = $2",
            call.operator_id,
            call.transaction_id,
            _payload(call),
        )
        if row is None:
            return None
        repeat = row["kind"] == kind and row["same"]
        if not repeat and self._broken != "no_duplicate_check":
            return Answer(
                status="duplicate_transaction",
                message="this transaction_id was used for another call",
            )
        if repeat and kind == "bet" and row["rolled_back"]:
            return Answer(status="transaction_rolled_back", message="this bet was rolled back")
        return _answer(row["answer"])

    async def _apply(
        self,
        conn: Connection,
        call: BetCall | WinCall | RollbackCall,
        kind: Kind,
        balance: int,
    ) -> Answer:
        """Set the player's new balance and record the call with its ``ok`` answer."""
        await conn.execute(
            "UPDATE reference_wallet.players SET balance = $2 WHERE player_id = $1",
            call.player_id,
            balance,
        )
        operator_id = await _next_operator_transaction_id(conn)
        answer = Answer(status="ok", balance=balance, operator_transaction_id=operator_id)
        await self._record(conn, call, kind, answer, outcome="ok", operator_id=operator_id)
        return answer

    async def _record(
        self,
        conn: Connection,
        call: BetCall | WinCall | RollbackCall,
        kind: Kind,
        answer: Answer,
        *,
        outcome: Literal["ok", "tombstone"],
        operator_id: str | None = None,
    ) -> None:
        # The no_idempotency variant applies a repeat again; the ledger's row stays the
        # first one's (the primary key), which is what its export then shows.
        conflict = " ON CONFLICT DO NOTHING" if self._broken == "no_idempotency" else ""
        await conn.execute(
            "INSERT INTO reference_wallet.transactions (operator_id, transaction_id, kind,"
            " player_id, amount, currency, round_id, reason, reference_transaction_id,"
            " payload, answer, operator_transaction_id, outcome)"
            " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11::jsonb, $12, $13)"
            + conflict,
            call.operator_id,
            call.transaction_id,
            kind,
            call.player_id,
            call.amount,
            call.currency,
            call.round_id,
            call.reason,
            call.reference_transaction_id if isinstance(call, RollbackCall) else None,
            _payload(call),
            _encode(answer).decode(),
            operator_id or await _next_operator_transaction_id(conn),
            outcome,
        )

    # -- what the admin endpoints need ---------------------------------------------------

    async def record_delivery(self, call: str, transaction_id: str | None) -> None:
        await self.pool.execute(
            "INSERT INTO reference_wallet.deliveries (call, transaction_id) VALUES ($1, $2)",
            call,
            transaction_id,
        )

    async def deliveries(self, transaction_id: str) -> dict[str, int]:
        rows = await self.pool.fetch(
            "SELECT call, count(*) AS n FROM reference_wallet.deliveries"
            " WHERE transaction_id = $1 GROUP BY call ORDER BY call",
            transaction_id,
        )
        return {row["call"]: row["n"] for row in rows}

    async def set_player(self, player: Player) -> Player:
        await self.pool.execute(
            "INSERT INTO reference_wallet.players (player_id, currency, balance, blocked)"
            " VALUES ($1, $2, $3, $4) ON CONFLICT (player_id) DO UPDATE"
            " SET currency = excluded.currency, balance = excluded.balance,"
            " blocked = excluded.blocked",
            player.player_id,
            player.currency,
            player.balance,
            player.blocked,
        )
        return player

    async def player(self, player_id: str) -> Player | None:
        row = await self.pool.fetchrow(
            "SELECT player_id, currency, balance, blocked FROM reference_wallet.players"
            " WHERE player_id = $1",
            player_id,
        )
        return None if row is None else Player(**dict(row))

    async def end_session(self, session_id: str) -> None:
        await self.pool.execute(
            "INSERT INTO reference_wallet.ended_sessions (session_id) VALUES ($1)"
            " ON CONFLICT DO NOTHING",
            session_id,
        )

    async def export(self, operator_id: str | None = None) -> list[ExportRow]:
        """Every money call applied, of one operator or of all."""
        rows = await self.pool.fetch(
            "SELECT transaction_id, kind, amount, currency,"
            " CASE WHEN rolled_back THEN 'rolled_back' ELSE outcome END AS status,"
            " operator_id, player_id, round_id, reason, operator_transaction_id, created_at,"
            " CASE WHEN round_id LIKE $2 THEN 'conformance' ELSE 'game' END AS source"
            " FROM reference_wallet.transactions"
            " WHERE $1::text IS NULL OR operator_id = $1 ORDER BY seq",
            operator_id,
            f"{CONFORMANCE_TABLE}:%",
        )
        return [ExportRow(**dict(row)) for row in rows]


async def _lock_player(conn: Connection, player_id: str) -> Player | None:
    row = await conn.fetchrow(
        "SELECT player_id, currency, balance, blocked FROM reference_wallet.players"
        " WHERE player_id = $1 FOR UPDATE",
        player_id,
    )
    return None if row is None else Player(**dict(row))


async def _rolled_back_before(conn: Connection, call: BetCall) -> bool:
    """Whether a rollback of this bet arrived before the bet itself (a tombstone)."""
    found = await conn.fetchval(
        "SELECT EXISTS (SELECT 1 FROM reference_wallet.transactions"
        " WHERE kind = 'rollback' AND operator_id = $1 AND reference_transaction_id = $2)",
        call.operator_id,
        call.transaction_id,
    )
    return bool(found)


async def _ended(conn: Connection, session_id: str) -> bool:
    found = await conn.fetchval(
        "SELECT EXISTS (SELECT 1 FROM reference_wallet.ended_sessions WHERE session_id = $1)",
        session_id,
    )
    return bool(found)


async def _next_operator_transaction_id(conn: Connection) -> str:
    number = await conn.fetchval("SELECT nextval('reference_wallet.operator_transaction_ids')")
    return f"RW-{number}"


def _payload(call: Call) -> str:
    # Compared as jsonb: key order and spacing never make two equal payloads differ.
    return _encode(money_fields(call)).decode()


def _wrong_currency(player: Player) -> Answer:
    return Answer(status="wrong_currency", message=f"the player's currency is {player.currency}")
