"""Seamless credits, queued by the command that earned them (WALLET-PROTOCOL §3.4).

Every credit a round produces is a game event first; its ``win`` call is a row of the
outbox written in the same statement as the event, so neither exists without the other.
The transaction id is derived from the event's own id, so it can never be queued twice.
The round closes at settlement: the player's last credit of the round carries
``round_closed``, and a player who had bets but nothing to be paid gets a ``win`` of 0.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Final, NamedTuple

from russian_poker.events.postgres.store import SideWrites
from russian_poker.events.wallet import WalletCredited
from russian_poker.service.tenancy import PlayerRef, operator_of

__all__ = ["CREDIT_REASON", "Credit", "queue_credits"]

CREDIT_REASON: Final = {"refund": "stake_returned", "bonus": "bonus_win", "settlement": "win"}
"""The game's credit reasons as the protocol names them."""


class Credit(NamedTuple):
    event_id: uuid.UUID
    credit: WalletCredited


def queue_credits(
    writes: SideWrites,
    credits: Sequence[Credit],
    *,
    table_id: str,
    currency: str,
    settled_round: int | None,
    attempt_id: uuid.UUID | None,
) -> None:
    """Queue the ``win`` calls of ``credits`` (seamless players' only) and, when the
    statement settles ``settled_round``, close that round for every player of it."""
    last: dict[PlayerRef, int] = {}
    for index, item in enumerate(credits):
        last[operator_of(item.credit.wallet_id)] = index
    closing = set(last.values()) if settled_round is not None else set()
    bets_of = (
        f"b.table_id = {writes.param(table_id)} AND b.kind = 'bet'"
        f" AND (b.status = 'committed' OR b.attempt_id = {writes.param(attempt_id)})"
    )
    currency_p = writes.param(currency)
    if credits:
        refs = [operator_of(c.credit.wallet_id) for c in credits]
        columns = ", ".join(
            f"{writes.param(values)}::{kind}[]"
            for values, kind in (
                ([r.operator_id for r in refs], "text"),
                ([r.player_id for r in refs], "text"),
                ([str(c.event_id) for c in credits], "text"),
                ([c.credit.amount for c in credits], "bigint"),
                ([CREDIT_REASON.get(c.credit.reason, "win") for c in credits], "text"),
                ([c.credit.round for c in credits], "int"),
                ([c.credit.box for c in credits], "int"),
                ([i in closing for i in range(len(credits))], "bool"),
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
                   {currency_p}, c.a, c.r, {writes.param(table_id)}, c.rn, c.bx, c.closed,
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
    if settled_round is None:
        return
    credited = list(last)
    writes.add(
        "closed_rounds",
        f"""
        INSERT INTO wallet_transactions
            (operator_id, transaction_id, kind, player_id, session_id, currency, amount,
             reason, table_id, round, box, round_closed, reference_transaction_ids, status)
        SELECT g.operator_id, 'win-close-' || g.table_id || ':' || g.round || ':' || g.player_id,
               'win', g.player_id, g.session_id, {currency_p}, 0, 'win', g.table_id, g.round,
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
            WHERE {bets_of} AND b.round = {writes.param(settled_round)}
            GROUP BY b.operator_id, b.player_id, b.table_id, b.round
        ) AS g
        WHERE NOT EXISTS (
            SELECT FROM unnest({writes.param([r.operator_id for r in credited])}::text[],
                               {writes.param([r.player_id for r in credited])}::text[])
                AS k(o, p)
            WHERE k.o = g.operator_id AND k.p = g.player_id)
          AND EXISTS (SELECT FROM appended)
        """,
    )
