"""One command's writes in one statement: its events and every row kept in step with them.

:func:`commit` turns a :class:`~russian_poker.events.writes.CommandWrite` into the append
statement of :func:`~russian_poker.events.postgres.store.append` with one data-modifying CTE
per kind of row. Each CTE reads the CTE ``appended``, so it runs after the append has taken
its stream locks (every writer locks streams first, in one order), and writes only if the
append did. The statement is atomic: a failed check anywhere (a version, ``balance >= 0``)
writes nothing at all.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from russian_poker.events.postgres.store import AnyConnection, SideWrites, append
from russian_poker.events.records import RecordedEvent
from russian_poker.events.writes import (
    CommandWrite,
    CommittedBets,
    LedgerMove,
    OpenedWallet,
    SettledRound,
    TableNotice,
    TableRow,
    TimerRow,
    UsedTestDeck,
    WinsQueued,
)

__all__ = ["KEPT_CHECKPOINTS", "commit", "side_writes"]

KEPT_CHECKPOINTS: Final = 20
"""Round-start states kept per table for catching up live clients."""


async def commit(conn: AnyConnection, write: CommandWrite) -> list[RecordedEvent]:
    """Append the command's events and write its rows, in one statement; the events as
    recorded. Raises what :func:`~russian_poker.events.postgres.store.append` raises.
    Listeners are not notified here: the caller wakes them after commit, many commands per
    ``NOTIFY``."""
    return await append(
        conn,
        write.appends,
        command_id=write.command_id,
        command_result=write.result,
        notify=False,
        side_writes=side_writes(write),
    )


def side_writes(write: CommandWrite) -> SideWrites:
    """The CTEs of ``write``'s rows, in a fixed order."""
    writes = SideWrites()
    if write.table is not None:
        _table(writes, write.table)
    if write.timers is not None and write.table is not None:
        _timers(writes, write.table.table_id, write.timers)
    if write.opened_wallets:
        _opened_wallets(writes, write.opened_wallets)
    if write.ledger:
        _ledger(writes, write.ledger)
    if write.settled is not None:
        _settled(writes, write.settled)
    if write.bets is not None:
        _committed_bets(writes, write.bets)
    if write.wins is not None:
        _wins(writes, write.wins)
    for number, notice in enumerate(write.notices):
        _notice(writes, number, notice)
    if write.used_test_deck is not None:
        _used_test_deck(writes, write.used_test_deck)
    if write.session_id is not None:
        writes.guard_session(write.session_id)
    return writes


def _table(writes: SideWrites, row: TableRow) -> None:
    p = writes.param
    table = p(row.table_id)
    name, game, status, currency = p(row.name), p(row.game), p(row.status), p(row.currency)
    if row.state is None:
        # Only a command that changed the summary (a closing, a ruleset) writes; the others
        # find the row as it is and leave it unlocked and unwritten.
        writes.add(
            "saved_summary",
            f"""
            UPDATE table_states SET name = {name}, game = {game}, status = {status},
                currency = {currency}, updated_at = now()
            WHERE table_id = {table} AND EXISTS (SELECT FROM appended)
              AND (name, game, status, currency)
                  IS DISTINCT FROM ({name}::text, {game}::text, {status}::text, {currency}::text)
            """,
        )
        return
    at, encoded = p(row.version), p(row.state)
    # Whose the table is never changes: written with the first row, never updated.
    owner, shared = p(row.operator_id), p(row.shared)
    writes.add(
        "saved_state",
        f"""
        INSERT INTO table_states (table_id, version, name, game, status, currency, state,
                                  operator_id, shared)
        SELECT {table}, {at}, {name}, {game}, {status}, {currency}, {encoded}, {owner}, {shared}
        WHERE EXISTS (SELECT FROM appended)
        ON CONFLICT (table_id) DO UPDATE SET
            version = excluded.version, name = excluded.name, game = excluded.game,
            status = excluded.status, currency = excluded.currency, state = excluded.state,
            updated_at = now()
        WHERE table_states.version < excluded.version
        """,
    )
    if not row.checkpoint:
        return
    writes.add(
        "added_checkpoint",
        f"""
        INSERT INTO table_checkpoints (table_id, version, state)
        SELECT {table}, {at}, {encoded} WHERE EXISTS (SELECT FROM appended)
        ON CONFLICT DO NOTHING
        RETURNING version
        """,
    )
    # The new row is not in the statement's snapshot: keep one old row fewer if it was added.
    writes.add(
        "pruned_checkpoints",
        f"""
        DELETE FROM table_checkpoints WHERE table_id = {table} AND version < (
            SELECT min(version) FROM (
                SELECT version FROM table_checkpoints WHERE table_id = {table}
                ORDER BY version DESC
                LIMIT {p(KEPT_CHECKPOINTS)} - (SELECT count(*) FROM added_checkpoint)
            ) AS kept
        )
        """,
    )


def _timers(writes: SideWrites, table_id: str, timers: Sequence[TimerRow]) -> None:
    """Drop the timers no longer pending, add those newly pending (an existing one keeps its
    deadline, so a command that changes nothing about a wait does not extend it). The two
    touch disjoint keys, so they cannot collide."""
    table = writes.param(table_id)
    keys = writes.param([t.key for t in timers])
    writes.add(
        "dropped_timers",
        f"DELETE FROM timers WHERE table_id = {table} AND NOT (timer_key = ANY({keys}))"
        " AND EXISTS (SELECT FROM appended)",
    )
    seconds = writes.param([t.seconds for t in timers])
    commands = writes.param([t.command.decode() for t in timers])
    writes.add(
        "added_timers",
        f"""
        INSERT INTO timers (timer_key, table_id, due_at, command)
        SELECT k, {table}, now() + make_interval(secs => s), c::jsonb
        FROM unnest({keys}::text[], {seconds}::int[], {commands}::text[]) AS t(k, s, c)
        WHERE EXISTS (SELECT FROM appended)
        ON CONFLICT (timer_key) DO NOTHING
        """,
    )


def _opened_wallets(writes: SideWrites, opened: Sequence[OpenedWallet]) -> None:
    ids = writes.param([o.event_id for o in opened])
    wallet_ids = writes.param([o.wallet_id for o in opened])
    currencies = writes.param([o.currency for o in opened])
    writes.add(
        "opened_wallets",
        f"""
        INSERT INTO wallets (wallet_id, currency, balance, version)
        SELECT o.wallet_id, o.currency, 0, a.stream_version
        FROM unnest({ids}::uuid[], {wallet_ids}::text[], {currencies}::text[])
            AS o(event_id, wallet_id, currency)
        JOIN appended a USING (event_id)
        """,
    )


_MOVE_COLUMNS: Final = (
    ("event_id", "uuid"),
    ("wallet_id", "text"),
    ("event_type", "text"),
    ("signed", "bigint"),
    ("reason", "text"),
    ("table_id", "text"),
    ("round", "int"),
    ("box", "int"),
    ("transfer_id", "text"),
)


def _ledger(writes: SideWrites, moves: Sequence[LedgerMove]) -> None:
    """Balances and the ledger: every wallet is updated once, by the sum of its moves, and
    every ledger row gets the balance after it. As if the moves were applied one by one, a
    balance that would go below zero on the way fails ``CHECK (balance >= 0)`` (it is
    written as -1), and a move for a wallet without a row fails the ledger's ``NOT NULL``.
    A wallet opened in the same statement cannot be moved in it (the statement does not see
    the new row)."""
    columns = ", ".join(
        f"{writes.param([getattr(m, name) for m in moves])}::{kind}[]"
        for name, kind in _MOVE_COLUMNS
    )
    writes.add(
        "wallet_moves",
        f"""
        SELECT m.*, a.global_position, a.recorded_at, a.stream_version
        FROM unnest({columns}) WITH ORDINALITY
            AS m(event_id, wallet_id, event_type, amount, reason, table_id, round, box,
                 transfer_id, n)
        JOIN appended a USING (event_id)
        """,
    )
    writes.add(
        "moved_wallets",
        """
        UPDATE wallets w SET
            balance = CASE WHEN w.balance + t.lowest < 0 THEN -1 ELSE w.balance + t.amount END,
            version = t.version, updated_at = now()
        FROM (
            SELECT wallet_id, sum(amount) AS amount, min(running) AS lowest,
                   max(stream_version) AS version
            FROM (SELECT wallet_id, amount, stream_version,
                         sum(amount) OVER (PARTITION BY wallet_id ORDER BY n) AS running
                  FROM wallet_moves) AS r
            GROUP BY wallet_id
        ) AS t
        WHERE w.wallet_id = t.wallet_id
        RETURNING w.wallet_id, w.balance
        """,
    )
    writes.add(
        "ledger_entries",
        """
        INSERT INTO ledger (global_position, wallet_id, event_type, amount, reason, table_id,
                            round, box, transfer_id, balance_after, recorded_at)
        SELECT m.global_position, m.wallet_id, m.event_type, m.amount, m.reason, m.table_id,
               m.round, m.box, m.transfer_id,
               moved.balance - coalesce(sum(m.amount) OVER (
                   PARTITION BY m.wallet_id ORDER BY m.n
                   ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING), 0),
               m.recorded_at
        FROM wallet_moves m LEFT JOIN moved_wallets moved USING (wallet_id)
        """,
    )


def _settled(writes: SideWrites, settled: SettledRound) -> None:
    p = writes.param
    table, number = p(settled.table_id), p(settled.round)
    boxes = settled.boxes
    writes.add(
        "settled_round",
        f"""
        INSERT INTO rounds (table_id, round, commitment, seed, dealer_cards, dealer_hand,
                            staked, paid_back, players, ruleset_fingerprint)
        SELECT {table}, {number}, {p(settled.commitment)}, {p(settled.seed)},
               {p(list(settled.dealer_cards))}::text[], {p(settled.dealer_hand)}::text,
               {p(settled.staked)}::bigint, {p(settled.paid_back)}::bigint,
               {p(list(settled.players))}::text[], {p(settled.ruleset_fingerprint)}::text
        WHERE EXISTS (SELECT FROM appended)
        ON CONFLICT DO NOTHING
        """,
    )
    writes.add(
        "settled_boxes",
        f"""
        INSERT INTO round_boxes (table_id, round, box, player, detail, staked, paid_back)
        SELECT {table}, {number}, b, pl, d::jsonb, s, r
        FROM unnest({p([b.box for b in boxes])}::int[], {p([b.player for b in boxes])}::text[],
                    {p([b.detail.decode() for b in boxes])}::text[],
                    {p([b.staked for b in boxes])}::bigint[],
                    {p([b.paid_back for b in boxes])}::bigint[]) AS t(b, pl, d, s, r)
        WHERE EXISTS (SELECT FROM appended)
        ON CONFLICT DO NOTHING
        """,
    )
    abandoned = settled.abandoned
    if abandoned is None:
        return
    # Why the round was completed by the rules' defaults, beside its row: recall never
    # reads the round without it.
    writes.add(
        "abandoned_round",
        f"""
        INSERT INTO abandoned_rounds (table_id, round, reason, after_s, phase)
        SELECT {table}, {number}, {p(abandoned.reason)}, {p(abandoned.after_s)},
               {p(abandoned.phase)}
        WHERE EXISTS (SELECT FROM appended)
        ON CONFLICT DO NOTHING
        """,
    )


def _committed_bets(writes: SideWrites, bets: CommittedBets) -> None:
    p = writes.param
    writes.add(
        "committed_bets",
        f"""
        UPDATE wallet_transactions w SET
            status = 'committed', answer_status = 'ok', attempts = 1,
            operator_transaction_id = u.otid, balance_after = u.balance, updated_at = now()
        FROM unnest({p(list(bets.transaction_ids))}::text[],
                    {p(list(bets.operator_transaction_ids))}::text[],
                    {p(list(bets.balances))}::bigint[])
            AS u(tid, otid, balance)
        WHERE w.attempt_id = {p(bets.attempt_id)} AND w.transaction_id = u.tid
          AND w.status = 'pending' AND EXISTS (SELECT FROM appended)
        """,
    )


def _wins(writes: SideWrites, queued: WinsQueued) -> None:
    """The ``win`` calls of the command's credits, and the closing ``win`` of 0 for each
    player of the settled round who was credited nothing (docs/wallet-protocol.md §3.4)."""
    p = writes.param
    bets_of = (
        f"b.table_id = {p(queued.table_id)} AND b.kind = 'bet'"
        f" AND (b.status = 'committed' OR b.attempt_id = {p(queued.attempt_id)})"
    )
    currency = p(queued.currency)
    wins = queued.wins
    if wins:
        columns = ", ".join(
            f"{p(values)}::{kind}[]"
            for values, kind in (
                ([w.operator_id for w in wins], "text"),
                ([w.player_id for w in wins], "text"),
                ([str(w.event_id) for w in wins], "text"),
                ([w.amount for w in wins], "bigint"),
                ([w.reason for w in wins], "text"),
                ([w.round for w in wins], "int"),
                ([w.box for w in wins], "int"),
                ([w.closes_round for w in wins], "bool"),
            )
        )
        writes.add(
            "queued_wins",
            f"""
            INSERT INTO wallet_transactions
                (operator_id, transaction_id, kind, player_id, session_id, currency, amount,
                 reason, table_id, round, box, round_closed, reference_transaction_ids, status)
            SELECT c.o, 'win-' || c.eid, 'win', c.p,
                   coalesce(
                       (SELECT b.session_id FROM wallet_transactions b
                        WHERE {bets_of} AND b.operator_id = c.o AND b.player_id = c.p
                          AND b.round = c.rn ORDER BY b.seq DESC LIMIT 1),
                       (SELECT s.session_id FROM game_sessions s
                        WHERE s.operator_id = c.o AND s.player_id = c.p
                        ORDER BY s.created_at DESC LIMIT 1),
                       ''),
                   {currency}, c.a, c.r, {p(queued.table_id)}, c.rn, c.bx, c.closed,
                   coalesce(
                       (SELECT array_agg(b.transaction_id ORDER BY b.seq)
                        FROM wallet_transactions b
                        WHERE {bets_of} AND b.operator_id = c.o AND b.player_id = c.p
                          AND b.round = c.rn),
                       '{{}}'),
                   'queued'
            FROM unnest({columns}) WITH ORDINALITY AS c(o, p, eid, a, r, rn, bx, closed, n)
            WHERE EXISTS (SELECT FROM appended)
            ORDER BY c.n
            """,
        )
    if queued.settled_round is None:
        return
    credited = list(dict.fromkeys((w.operator_id, w.player_id) for w in wins))
    writes.add(
        "closed_rounds",
        f"""
        INSERT INTO wallet_transactions
            (operator_id, transaction_id, kind, player_id, session_id, currency, amount,
             reason, table_id, round, box, round_closed, reference_transaction_ids, status)
        SELECT g.operator_id, 'win-close-' || g.table_id || ':' || g.round || ':' || g.player_id,
               'win', g.player_id, g.session_id, {currency}, 0, 'win', g.table_id, g.round,
               g.box, true, g.refs, 'queued'
        FROM (
            -- On the player's first box in play order (§3.4): the larger ante first, equal
            -- antes by box number, among the boxes whose ante was not taken back (a box
            -- cancelled is not in play; its refund came after its ante).
            SELECT b.operator_id, b.player_id, b.table_id, b.round,
                   coalesce(
                       (array_agg(b.box ORDER BY b.amount DESC, b.box) FILTER (
                           WHERE b.reason = 'ante' AND NOT EXISTS (
                               SELECT FROM wallet_transactions r
                               WHERE r.table_id = b.table_id AND r.round = b.round
                                 AND r.operator_id = b.operator_id
                                 AND r.player_id = b.player_id AND r.box = b.box
                                 AND r.kind = 'win' AND r.reason = 'stake_returned'
                                 AND r.seq > b.seq)))[1],
                       min(b.box)) AS box,
                   (array_agg(b.session_id ORDER BY b.seq DESC))[1] AS session_id,
                   array_agg(b.transaction_id ORDER BY b.seq) AS refs
            FROM wallet_transactions b
            WHERE {bets_of} AND b.round = {p(queued.settled_round)}
            GROUP BY b.operator_id, b.player_id, b.table_id, b.round
        ) AS g
        WHERE NOT EXISTS (
            SELECT FROM unnest({p([o for o, _ in credited])}::text[],
                               {p([pl for _, pl in credited])}::text[])
                AS k(o, p)
            WHERE k.o = g.operator_id AND k.p = g.player_id)
          AND EXISTS (SELECT FROM appended)
        """,
    )


def _notice(writes: SideWrites, number: int, notice: TableNotice) -> None:
    """Queue the notification of a closing or a reopening, with the event or not at all."""
    p = writes.param
    writes.add(
        f"table_notice_{number}",
        f"""
        INSERT INTO table_notifications (operator_id, notification_id, table_id,
            status, reason, actor_role, actor_id, occurred_at)
        SELECT o.operator_id, a.event_id::text, {p(notice.table_id)},
               {p(notice.status)}, {p(notice.reason)}::text,
               {p(notice.actor_role)}, {p(notice.actor_id)}, a.recorded_at
        FROM appended a
        JOIN operators o ON o.wallet_url IS NOT NULL AND o.wallet_secret IS NOT NULL
          AND (o.operator_id = {p(notice.operator_id)} OR {p(notice.shared)}::boolean)
        WHERE a.event_id = {p(notice.event_id)}::uuid
        ON CONFLICT DO NOTHING
        """,
    )


def _used_test_deck(writes: SideWrites, used: UsedTestDeck) -> None:
    p = writes.param
    writes.add(
        "used_test_deck",
        f"DELETE FROM test_decks WHERE table_id = {p(used.table_id)}"
        f" AND deck = {p(list(used.deck))}::text[] AND EXISTS (SELECT FROM appended)",
    )
