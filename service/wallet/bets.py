"""Seamless debits of one command attempt (WALLET-PROTOCOL §3.2): intent, bets, and undo.

A command whose events debit a seamless player is accepted only when the operator accepted
every debit. The attempt first takes an advisory lock named after itself and records its
bets (``pending``) — durably, before the first call — then sends them one by one, in event
order. The command's own append marks them ``committed`` in the same statement
(:func:`commit_writes`). Anything else — a refusal, an unknown outcome, a lost race, a
crash — ends with :func:`undo`: every bet of the attempt not committed is marked
``rolled_back`` and its rollback queued in the outbox, in one statement.

The lock is what makes recovery safe across instances: while the attempt runs, its
connection holds the lock; an instance that finds ``pending`` bets can take it only once the
attempt's owner finished or died, and the undo statement itself touches only bets not
committed. So a crash at any point leaves a state the outbox finishes: the bets that reached
the operator are rolled back, and the game recorded nothing of the command.
"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Final, NamedTuple

from russian_poker.events.postgres.store import DuplicateCommand, SideWrites
from russian_poker.events.wallet import WalletDebited
from russian_poker.service.rules.errors import RuleViolation
from russian_poker.service.tenancy import PlayerRef, operator_of
from russian_poker.service.wallet.port import UnknownOutcome, WalletPort
from russian_poker.service.wallet.protocol import Answer, BetCall, round_id

__all__ = [
    "PLAYER_LOCK",
    "REFUSED_STATUSES",
    "Bet",
    "PlacedBets",
    "WalletRefused",
    "WalletUnavailable",
    "attempt_key",
    "commit_writes",
    "place_bets",
    "player_key",
    "release",
    "undo",
]

REFUSED_STATUSES: Final = {
    "insufficient_funds": "insufficient_funds",
    "invalid_session": "session_ended",
    "session_expired": "session_ended",
    "player_blocked": "player_blocked",
    "limit_reached": "limit_reached",
    "wrong_currency": "currency_mismatch",
}
"""The operator's refusals of a bet, and the game's refusal code for each. Any other status
(``duplicate_transaction``, ``transaction_rolled_back``, …) cannot be an answer to a bet
the service sends once, so it is taken as an unknown outcome."""


class WalletRefused(RuleViolation):
    """The operator refused a debit; nothing of the command is recorded."""

    def __init__(self, code: str, message: str, *, balance: int | None) -> None:
        super().__init__(code, message)
        self.balance = balance


class WalletUnavailable(Exception):
    """The outcome of a debit is unknown; its bets are being rolled back (503)."""

    retry_after_s = 2


DeliverOwed = Callable[[Any, str, str, str, int], Awaitable[bool]]
"""Delivers a player's owed calls of a round on the given connection (the outbox's)."""


class Bet(NamedTuple):
    transaction_id: str
    debit: WalletDebited
    player: PlayerRef
    session_id: str
    currency: str


class PlacedBets(NamedTuple):
    """The bets of one attempt, all accepted by the operator."""

    attempt_id: uuid.UUID
    bets: list[Bet]
    answers: list[Answer]
    players: tuple[str, ...] = ()
    """The players' locks held until the command is recorded (:func:`release`)."""


def attempt_key(attempt_id: uuid.UUID) -> int:
    """The advisory lock of an attempt: 64 bits of its id."""
    return int.from_bytes(attempt_id.bytes[:8], "big", signed=True)


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

PLAYER_LOCK: Final = 0x5EA3
"""Class id of the players' advisory locks (two-key form, apart from attempts' locks): held
by whoever sends a player's calls, so they go one at a time (§3.5)."""


def player_key(player: PlayerRef) -> str:
    return f"{player.operator_id}/{player.player_id}"


async def place_bets(
    conn: Any,
    wallets: dict[str, WalletPort],
    debits: Sequence[WalletDebited],
    *,
    sessions: dict[str, tuple[str, str]],
    command_id: str,
    deliver_owed: DeliverOwed | None = None,
) -> PlacedBets:
    """Send one ``bet`` per debit, in order, after recording the intent. ``wallets`` maps
    operator ids to their adapters, ``sessions`` game player ids to (session id, currency).
    Raises :class:`WalletRefused` or :class:`WalletUnavailable` after undoing the attempt,
    and ``DuplicateCommand`` before any call if ``command_id`` is already recorded."""
    refs = sorted({operator_of(d.wallet_id) for d in debits})
    players = tuple(player_key(r) for r in refs)  # in one order: no two commands deadlock
    first = debits[0]
    # The first player's lock, the command-id look-up and whether a call of the round is
    # owed, in one round trip (the intent checks again what is owed, after the lock).
    prepared = await conn.fetchrow(
        _PREPARE, PLAYER_LOCK, players[0], command_id, *refs[0], first.table_id, first.round
    )
    try:
        for key in players[1:]:
            await conn.execute("SELECT pg_advisory_lock($1, hashtext($2))", PLAYER_LOCK, key)
        if prepared["stored"] is not None:
            # A retry of a command already answered (accepted, or refused by the rules or
            # the operator), decided on the cached table, which skips the load that finds
            # it: answered from memory, without bets sent only to be undone.
            raise DuplicateCommand(command_id, prepared["stored"].encode())
        if deliver_owed is not None and (prepared["owed"] or len(players) > 1):
            for debit in dict.fromkeys((d.wallet_id, d.table_id, d.round) for d in debits):
                ref = operator_of(debit[0])
                if not await deliver_owed(conn, ref.operator_id, ref.player_id, *debit[1:]):
                    raise WalletUnavailable("an earlier call of the player's round is still owed")
        placed = await _place_bets(conn, wallets, debits, sessions, command_id)
    except BaseException:
        await _unlock_players(conn, players)
        raise
    return placed._replace(players=players)


_PREPARE: Final = """
SELECT pg_advisory_lock($1, hashtext($2)) IS NULL AS locked,
       (SELECT coalesce(result, 'null')::text FROM commands WHERE command_id = $3) AS stored,
       EXISTS (SELECT FROM wallet_transactions
               WHERE status = 'queued' AND operator_id = $4 AND player_id = $5
                 AND table_id = $6 AND round = $7) AS owed
"""


async def _unlock_players(conn: Any, players: Sequence[str]) -> None:
    await conn.execute(
        "SELECT pg_advisory_unlock($1, hashtext(k)) FROM unnest($2::text[]) AS k",
        PLAYER_LOCK,
        list(players),
    )


async def _place_bets(
    conn: Any,
    wallets: dict[str, WalletPort],
    debits: Sequence[WalletDebited],
    sessions: dict[str, tuple[str, str]],
    command_id: str,
) -> PlacedBets:
    attempt_id = uuid.uuid4()
    bets = []
    for index, debit in enumerate(debits):
        session_id, currency = sessions[debit.wallet_id]
        bets.append(
            Bet(
                f"bet-{attempt_id.hex}-{index}",
                debit,
                operator_of(debit.wallet_id),
                session_id,
                currency,
            )
        )
    try:
        recorded = await conn.execute(
            _INTENT,
            [b.player.operator_id for b in bets],
            [b.transaction_id for b in bets],
            [b.player.player_id for b in bets],
            [b.session_id for b in bets],
            [b.currency for b in bets],
            [b.debit.amount for b in bets],
            [b.debit.reason for b in bets],
            [b.debit.table_id for b in bets],
            [b.debit.round for b in bets],
            [b.debit.box for b in bets],
            command_id,
            attempt_id,
            attempt_key(attempt_id),
        )
        if recorded.rsplit(" ", 1)[-1] != str(len(bets)):
            await undo(conn, attempt_id, "not sent: an earlier call of the round is owed")
            raise WalletUnavailable("an earlier call of the player's round is still owed")
        answers: list[Answer] = []
        for bet in bets:
            try:
                answer = await wallets[bet.player.operator_id].bet(_call(bet))
            except UnknownOutcome as unknown:
                await undo(conn, attempt_id, f"bet {bet.transaction_id}: {unknown}")
                raise WalletUnavailable(str(unknown)) from None
            if answer.status == "ok":
                answers.append(answer)
                continue
            refusal = REFUSED_STATUSES.get(answer.status)
            if refusal is None:
                await undo(conn, attempt_id, f"bet {bet.transaction_id}: {answer.status}")
                raise WalletUnavailable(f"the operator answered {answer.status}")
            await undo(
                conn,
                attempt_id,
                f"refused: {answer.status}",
                refused=(bet.transaction_id, answer.status),
            )
            raise WalletRefused(
                refusal, _message(answer.status, answer.balance), balance=answer.balance
            )
    except BaseException:
        await release(conn, attempt_id)
        raise
    return PlacedBets(attempt_id, bets, answers)


def _message(status: str, balance: int | None) -> str:
    if status == "insufficient_funds":
        return f"the operator's wallet holds {balance} and refused the bet"
    return f"the operator refused the bet ({status})"


def _call(bet: Bet) -> BetCall:
    debit = bet.debit
    return BetCall(
        request_id=uuid.uuid4().hex,
        operator_id=bet.player.operator_id,
        player_id=bet.player.player_id,
        session_id=bet.session_id,
        currency=bet.currency,
        transaction_id=bet.transaction_id,
        amount=debit.amount,
        round_id=round_id(debit.table_id, debit.round),
        table_id=debit.table_id,
        box=debit.box,
        reason=debit.reason,
    )


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


def commit_writes(writes: SideWrites, placed: PlacedBets) -> None:
    """In the command's append: its bets are the game's now."""
    writes.add(
        "committed_bets",
        f"""
        UPDATE wallet_transactions w SET
            status = 'committed', answer_status = 'ok', attempts = 1,
            operator_transaction_id = u.otid, balance_after = u.balance, updated_at = now()
        FROM unnest({writes.param([b.transaction_id for b in placed.bets])}::text[],
                    {writes.param([a.operator_transaction_id for a in placed.answers])}::text[],
                    {writes.param([a.balance for a in placed.answers])}::bigint[])
            AS u(tid, otid, balance)
        WHERE w.attempt_id = {writes.param(placed.attempt_id)} AND w.transaction_id = u.tid
          AND w.status = 'pending' AND EXISTS (SELECT FROM appended)
        """,
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
