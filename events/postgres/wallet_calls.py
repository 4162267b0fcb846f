"""Every money call the game makes or owes to a seamless operator's wallet: one row each in
``wallet_transactions``, which is the outbox, the recovery log and the operator's
reconciliation list at once (docs/integration.md).

The locks are PostgreSQL advisory locks, session-level, on the caller's connection:
- a **player's lock** (two-key form, class :data:`PLAYER_LOCK`), held by whoever sends that
  player's calls, so they go one at a time and in order (docs/wallet-protocol.md §3.5);
- an **attempt's lock** (one key, 64 bits of the attempt's id), held by the command attempt
  that recorded the intent of its bets, until it committed or undid them: recovery takes
  it only once the attempt's owner finished or died.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any, Final

from russian_poker.service.application.ports import BetIntent, Head, Prepared

__all__ = [
    "PLAYER_LOCK",
    "CallsOnConnection",
    "Head",
    "WalletCallsStore",
    "abandoned_attempts",
    "attempt_key",
    "count_manual",
    "delivered",
    "heads",
    "lock_player",
    "lock_players_first",
    "owed_of_round",
    "record_intent",
    "release",
    "retry_later",
    "take",
    "try_lock_attempt",
    "try_lock_player",
    "undo",
    "unlock_attempt",
    "unlock_player",
    "unlock_players",
]

PLAYER_LOCK: Final = 0x5EA3
"""Class id of the players' advisory locks (two-key form, apart from attempts' locks)."""


def attempt_key(attempt_id: uuid.UUID) -> int:
    """The advisory lock of an attempt: 64 bits of its id."""
    return int.from_bytes(attempt_id.bytes[:8], "big", signed=True)


_PREPARE: Final = """
SELECT pg_advisory_lock($1, hashtext($2)) IS NULL AS locked,
       (SELECT coalesce(result, 'null')::text FROM commands WHERE command_id = $3) AS stored,
       EXISTS (SELECT FROM wallet_transactions
               WHERE status = 'queued' AND operator_id = $4 AND player_id = $5
                 AND table_id = $6 AND round = $7) AS owed,
       $8::text IS NULL OR game_session_is_open($8) AS open
"""


async def lock_players_first(
    conn: Any,
    player: str,
    command_id: str,
    operator_id: str,
    player_id: str,
    table_id: str,
    round_number: int,
    *,
    session_id: str | None,
) -> Prepared:
    """Take ``player``'s lock (waiting for it); whether the command was recorded, whether
    a call of that player's round is owed and whether ``session_id`` is still open."""
    row = await conn.fetchrow(
        _PREPARE,
        PLAYER_LOCK,
        player,
        command_id,
        operator_id,
        player_id,
        table_id,
        round_number,
        session_id,
    )
    stored = row["stored"]
    return Prepared(stored.encode() if stored is not None else None, row["owed"], row["open"])


async def lock_player(conn: Any, player: str) -> None:
    await conn.execute("SELECT pg_advisory_lock($1, hashtext($2))", PLAYER_LOCK, player)


async def try_lock_player(conn: Any, player: str) -> bool:
    locked: bool = await conn.fetchval(
        "SELECT pg_try_advisory_lock($1, hashtext($2))", PLAYER_LOCK, player
    )
    return locked


async def unlock_player(conn: Any, player: str) -> None:
    await conn.execute("SELECT pg_advisory_unlock($1, hashtext($2))", PLAYER_LOCK, player)


async def unlock_players(conn: Any, players: Sequence[str]) -> None:
    await conn.execute(
        "SELECT pg_advisory_unlock($1, hashtext(k)) FROM unnest($2::text[]) AS k",
        PLAYER_LOCK,
        list(players),
    )


_INTENT: Final = """
WITH locked AS (SELECT pg_advisory_lock($13))
INSERT INTO wallet_transactions
    (operator_id, transaction_id, kind, player_id, session_id, currency, amount, reason,
     table_id, round, box, command_id, attempt_id, status)
SELECT o, t, 'bet', p, s, c, a, r, tb, rn, bx, $11, $12, 'pending'
FROM locked, unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[],
                    $7::text[], $8::text[], $9::int[], $10::int[])
    AS u(o, t, p, s, c, a, r, tb, rn, bx)
WHERE NOT EXISTS (
    SELECT FROM wallet_transactions w
    WHERE w.status = 'queued' AND w.operator_id = o AND w.player_id = p
      AND w.table_id = tb AND w.round = rn)
"""
"""The attempt's lock and its intent in one statement: the lock is held (for the session)
before the rows it guards are visible to anyone. Nothing is recorded while a call of the
player's round is still owed (a rollback of an earlier attempt): its bets would overtake it."""


async def record_intent(
    conn: Any, bets: Sequence[BetIntent], command_id: str, attempt_id: uuid.UUID
) -> int:
    """Take the attempt's lock and record its bets ``pending``; how many were recorded
    (fewer than asked when a call of a player's round is still owed)."""
    columns = [list(column) for column in zip(*bets, strict=True)]
    status = await conn.execute(_INTENT, *columns, command_id, attempt_id, attempt_key(attempt_id))
    return int(status.rsplit(" ", 1)[-1])


async def release(conn: Any, attempt_id: uuid.UUID, players: Sequence[str] = ()) -> None:
    """Let recovery see the attempt (it is finished, one way or the other), and let the
    players' other calls go."""
    await conn.execute(
        "SELECT pg_advisory_unlock($1),"
        " (SELECT count(pg_advisory_unlock($2, hashtext(k))) FROM unnest($3::text[]) AS k)",
        attempt_key(attempt_id),
        PLAYER_LOCK,
        list(players),
    )


_UNDO: Final = """
WITH undone AS (
    UPDATE wallet_transactions SET
        status = CASE WHEN transaction_id = $3 THEN 'refused' ELSE 'rolled_back' END,
        answer_status = CASE WHEN transaction_id = $3 THEN $4 ELSE answer_status END,
        last_error = $2, updated_at = now()
    WHERE attempt_id = $1 AND status IN ('pending', 'accepted')
    RETURNING *
)
INSERT INTO wallet_transactions
    (operator_id, transaction_id, kind, player_id, session_id, currency, amount, reason,
     table_id, round, box, reference_transaction_id, status)
SELECT operator_id, 'rollback-' || transaction_id, 'rollback', player_id, session_id,
       currency, amount, reason, table_id, round, box, transaction_id, 'queued'
FROM undone WHERE status = 'rolled_back'
ORDER BY seq
"""


async def undo(
    conn: Any, attempt_id: uuid.UUID, why: str, *, refused: tuple[str, str] | None = None
) -> int:
    """Roll back every bet of the attempt that is not committed (the refused one, which the
    operator did not apply, is only marked refused). Safe to run any number of times, from
    any instance: committed bets are never touched. Returns the rollbacks queued."""
    transaction_id, answered = refused or (None, None)
    status = await conn.execute(_UNDO, attempt_id, why[:500], transaction_id, answered)
    return int(status.rsplit(" ", 1)[-1])


_ABANDONED: Final = """
SELECT DISTINCT attempt_id FROM wallet_transactions
WHERE status IN ('pending', 'accepted') AND created_at < now() - make_interval(secs => $1)
"""


async def abandoned_attempts(conn: Any, older_than_s: float) -> list[uuid.UUID]:
    """Attempts with bets neither committed nor undone, older than ``older_than_s``."""
    return [row["attempt_id"] for row in await conn.fetch(_ABANDONED, older_than_s)]


async def try_lock_attempt(conn: Any, attempt_id: uuid.UUID) -> bool:
    locked: bool = await conn.fetchval("SELECT pg_try_advisory_lock($1)", attempt_key(attempt_id))
    return locked


async def unlock_attempt(conn: Any, attempt_id: uuid.UUID) -> None:
    await conn.execute("SELECT pg_advisory_unlock($1)", attempt_key(attempt_id))


_HEADS: Final = """
SELECT DISTINCT ON (operator_id, player_id)
    seq, operator_id, player_id, next_attempt_at <= now() AS due
FROM wallet_transactions WHERE status = 'queued'
ORDER BY operator_id, player_id, seq
"""


async def heads(conn: Any) -> list[Head]:
    """Every player's oldest owed call."""
    return [
        Head(r["seq"], r["operator_id"], r["player_id"], r["due"]) for r in await conn.fetch(_HEADS)
    ]


_TAKE: Final = """
SELECT *, now() - created_at > make_interval(secs => $2) AS expired
FROM wallet_transactions WHERE seq = $1 AND status = 'queued'
  AND NOT EXISTS (SELECT FROM wallet_transactions e
                  WHERE e.operator_id = wallet_transactions.operator_id
                    AND e.player_id = wallet_transactions.player_id
                    AND e.status = 'queued' AND e.seq < $1)
"""


async def take(conn: Any, seq: int, retry_for_s: float) -> Any | None:
    """The owed call ``seq`` if it is still owed and its player's oldest (with ``expired``:
    older than ``retry_for_s``)."""
    return await conn.fetchrow(_TAKE, seq, retry_for_s)


_OWED_OF_ROUND: Final = """
SELECT *, now() - created_at > make_interval(secs => $5) AS expired
FROM wallet_transactions
WHERE status = 'queued' AND operator_id = $1 AND player_id = $2 AND table_id = $3 AND round = $4
ORDER BY seq
"""


async def owed_of_round(
    conn: Any,
    operator_id: str,
    player_id: str,
    table_id: str,
    round_number: int,
    retry_for_s: float,
) -> list[Any]:
    """The player's calls of this round still owed, oldest first."""
    rows: list[Any] = await conn.fetch(
        _OWED_OF_ROUND, operator_id, player_id, table_id, round_number, retry_for_s
    )
    return rows


_DONE: Final = """
UPDATE wallet_transactions SET status = 'delivered', answer_status = $2,
    operator_transaction_id = $3, balance_after = $4, attempts = attempts + 1,
    last_error = NULL, updated_at = now()
WHERE seq = $1
"""


async def delivered(
    conn: Any, seq: int, status: str, operator_transaction_id: str | None, balance: int | None
) -> None:
    await conn.execute(_DONE, seq, status, operator_transaction_id, balance)


_AGAIN: Final = """
UPDATE wallet_transactions SET
    status = CASE WHEN $5 THEN 'manual' ELSE 'queued' END,
    answer_status = $2, last_error = $3, attempts = attempts + 1,
    next_attempt_at = now() + make_interval(secs => $4), updated_at = now()
WHERE seq = $1
"""


async def retry_later(
    conn: Any, seq: int, status: str | None, error: str, delay_s: float, manual: bool
) -> None:
    """Not final: send the call again after ``delay_s``, or give it up to people (manual)."""
    await conn.execute(_AGAIN, seq, status, error[:500], delay_s, manual)


async def count_manual(conn: Any) -> int:
    """Calls given up after the retry period (no index covers them: a scan)."""
    count: int = await conn.fetchval(
        "SELECT count(*) FROM wallet_transactions WHERE status = 'manual'"
    )
    return count


class CallsOnConnection:
    """Owed wallet calls on one connection (``ports.CallsConnection``)."""

    def __init__(self, conn: Any) -> None:
        self._conn = conn

    async def try_lock_player(self, player: str) -> bool:
        return await try_lock_player(self._conn, player)

    async def unlock_player(self, player: str) -> None:
        await unlock_player(self._conn, player)

    async def take(self, seq: int, retry_for_s: float) -> Any | None:
        return await take(self._conn, seq, retry_for_s)

    async def owed_of_round(
        self, operator_id: str, player_id: str, table_id: str, round_number: int, retry_for_s: float
    ) -> list[Any]:
        return await owed_of_round(
            self._conn, operator_id, player_id, table_id, round_number, retry_for_s
        )

    async def delivered(
        self, seq: int, status: str, operator_transaction_id: str | None, balance: int | None
    ) -> None:
        await delivered(self._conn, seq, status, operator_transaction_id, balance)

    async def retry_later(
        self, seq: int, status: str | None, error: str, delay_s: float, manual: bool
    ) -> None:
        await retry_later(self._conn, seq, status, error, delay_s, manual)

    async def try_lock_attempt(self, attempt_id: uuid.UUID) -> bool:
        return await try_lock_attempt(self._conn, attempt_id)

    async def unlock_attempt(self, attempt_id: uuid.UUID) -> None:
        await unlock_attempt(self._conn, attempt_id)

    async def undo_bets(
        self, attempt_id: uuid.UUID, why: str, *, refused: tuple[str, str] | None = None
    ) -> int:
        return await undo(self._conn, attempt_id, why, refused=refused)


class WalletCallsStore:
    """The owed calls on a pool, for the outbox."""

    def __init__(self, pool: Any) -> None:
        self._pool = pool

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[CallsOnConnection]:
        """A connection for one delivery or one recovery: the locks live on it."""
        async with self._pool.acquire() as conn:
            yield CallsOnConnection(conn)

    async def heads(self) -> list[Head]:
        async with self._pool.acquire() as conn:
            return await heads(conn)

    async def abandoned_attempts(self, older_than_s: float) -> list[uuid.UUID]:
        async with self._pool.acquire() as conn:
            return await abandoned_attempts(conn, older_than_s)

    async def count_manual(self) -> int:
        async with self._pool.acquire() as conn:
            return await count_manual(conn)
