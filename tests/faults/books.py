"""After a fault: nothing acknowledged lost, nothing half applied, and the books agree.

:func:`check_books` is the whole verdict on a database the service processes wrote to:

* every command that got a 2xx is in the ``commands`` table (``"{player}:{key}"``);
* no command is half applied: each recorded command has all the events its result counts
  (its own and those of the round it opened, ``{id}/open-round``), and no event belongs to
  a command that was not recorded;
* the read models written in the command's transaction are at their stream's version
  (``wallets``), or for ``table_states`` (a snapshot written at round boundaries) at most
  there, never ahead of it or missing;
* the audit projection (run by the service's leader) catches up with every event, and a
  rebuild of each read model (tables, wallets, audit) equals the live one;
* replay verifies every settled round, reconciliation finds nothing;
* money is conserved to the unit: the balances are the deposits less what the house won
  (by the ledger), and the house's result by the audit trail is the same figure, with what
  it won from seamless operators' players (committed bets less wins, by the game's record of
  its calls).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import asyncpg

from russian_poker.events.postgres.rebuild import RebuildStore
from russian_poker.events.postgres.reconcile import ReconcileStore
from russian_poker.events.postgres.replay import ReplayStore
from russian_poker.events.streams import table_stream
from russian_poker.projections.rebuild import NAMES, rebuild
from russian_poker.service.audit.reconcile import reconcile
from russian_poker.service.audit.replay import select_rounds, verify_rounds
from tests.faults.load import Journal, Watcher
from tests.processes import eventually

__all__ = ["Books", "audit_caught_up", "check_books", "check_watchers"]

_BEHIND: Final = """
SELECT (SELECT count(*) FROM projection_checkpoints WHERE name = 'audit') AS checkpoints,
       (SELECT count(*) FROM events AS e, projection_checkpoints AS c
        WHERE c.name = 'audit'
          AND (e.tx_id, e.global_position) > (c.tx_id, c.global_position)) AS behind
"""

_HALF_APPLIED: Final = r"""
WITH recorded AS (
    SELECT regexp_replace(metadata->>'command_id', '/open-round$', '') AS command_id,
           count(*) AS n
    FROM events GROUP BY 1
)
SELECT command_id, c.result->>'events' AS expected, r.n AS recorded,
       c.command_id IS NULL AS unrecorded
FROM commands AS c FULL JOIN recorded AS r USING (command_id)
WHERE c.command_id IS NULL
   OR (c.result ? 'events' AND coalesce(r.n, 0) <> (c.result->>'events')::int)
   OR (NOT c.result ? 'events' AND NOT c.result ? 'refused' AND r.n IS NULL)
   OR (c.result ? 'refused' AND r.n IS NOT NULL)
"""

_STALE_TABLES: Final = """
SELECT s.stream_id, s.version, t.version AS read_model
FROM streams AS s FULL JOIN table_states AS t ON s.stream_id = 'table-' || t.table_id
WHERE (s.stream_id LIKE 'table-%' OR s.stream_id IS NULL)
  AND (s.version IS NULL OR t.version IS NULL OR t.version > s.version)
"""

_STALE_WALLETS: Final = """
SELECT s.stream_id, s.version, w.version AS read_model
FROM streams AS s FULL JOIN wallets AS w ON s.stream_id = 'wallet-' || w.wallet_id
WHERE (s.stream_id LIKE 'wallet-%' OR s.stream_id IS NULL)
  AND s.version IS DISTINCT FROM w.version
"""

_MONEY: Final = """
SELECT
  (SELECT coalesce(sum((data->>'amount')::bigint), 0) FROM events
   WHERE event_type = 'FundsDeposited') AS deposited,
  (SELECT coalesce(sum((data->>'amount')::bigint), 0) FROM events
   WHERE event_type = 'FundsWithdrawn') AS withdrawn,
  (SELECT coalesce(sum(balance), 0) FROM wallets) AS balances,
  (SELECT coalesce(-sum(amount), 0) FROM ledger WHERE table_id IS NOT NULL) AS house_ledger,
  (SELECT coalesce(sum((record->'totals'->>'house')::bigint), 0) FROM audit_rounds)
      AS house_audit,
  (SELECT coalesce(sum(amount) FILTER (WHERE kind = 'bet' AND status = 'committed'), 0)
        - coalesce(sum(amount) FILTER (WHERE kind = 'win'), 0)
   FROM wallet_transactions) AS house_seamless
"""


@dataclass(frozen=True)
class Books:
    commands: int
    """Commands recorded in the store (player, operator, wallet and time-out commands)."""
    acknowledged: int
    """Of which the test's clients got a 2xx for."""
    events: int
    rounds: int
    """Settled rounds, each verified by replay."""
    house: int


async def audit_caught_up(url: str) -> bool:
    conn = await asyncpg.connect(url)
    try:
        row = await conn.fetchrow(_BEHIND)
    finally:
        await conn.close()
    assert row is not None
    return bool(row["checkpoints"] == 1 and row["behind"] == 0)


async def check_books(url: str, journal: Journal, *, catch_up_timeout: float = 90.0) -> Books:
    # The service's own leader must catch up; nothing here applies the projection for it.
    await eventually(
        lambda: audit_caught_up(url),
        timeout=catch_up_timeout,
        interval=0.2,
        message="the audit projection catching up",
    )
    conn = await asyncpg.connect(url)
    try:
        acknowledged = list(journal.acknowledged)
        stored = {
            r["command_id"]
            for r in await conn.fetch(
                "SELECT command_id FROM commands WHERE command_id = ANY($1::text[])", acknowledged
            )
        }
        lost = sorted(set(acknowledged) - stored)
        assert not lost, f"{len(lost)} acknowledged commands are not in the store: {lost[:10]}"

        half = await conn.fetch(_HALF_APPLIED)
        assert not half, [dict(r) for r in half[:10]]
        stale = [*await conn.fetch(_STALE_TABLES), *await conn.fetch(_STALE_WALLETS)]
        assert not stale, [dict(r) for r in stale[:10]]

        for name in NAMES:
            report = await rebuild(RebuildStore(conn), name)
            assert not report.differed, (name, report.details)

        selection, _ = await select_rounds(ReplayStore(conn))
        replay = await verify_rounds(ReplayStore(conn), selection)
        assert [str(d) for d in replay.differences] == []
        settled = await conn.fetchval(
            "SELECT count(*) FROM events WHERE event_type = 'RoundSettled'"
        )
        assert replay.rounds == replay.verified == settled

        books = await reconcile(ReconcileStore(conn))
        assert [str(m) for m in books.mismatches] == []

        money = await conn.fetchrow(_MONEY)
        assert money is not None
        assert money["balances"] == (
            money["deposited"] - money["withdrawn"] - money["house_ledger"]
        ), dict(money)
        # Seamless players' money is at their operators: the game's record of its calls.
        assert money["house_ledger"] + money["house_seamless"] == money["house_audit"], dict(money)

        commands = await conn.fetchval("SELECT count(*) FROM commands")
        events = await conn.fetchval("SELECT count(*) FROM events")
    finally:
        await conn.close()
    return Books(
        commands=commands,
        acknowledged=len(acknowledged),
        events=events,
        rounds=settled,
        house=money["house_ledger"],
    )


_BOUNDARIES: Final = """
SELECT max(stream_version) AS version FROM events WHERE stream_id = $1
GROUP BY tx_id ORDER BY 1
"""


async def check_watchers(url: str, watchers: Sequence[Watcher], timeout: float = 90.0) -> int:
    """Every live-stream client saw every state: from the state it started at, the version
    after each transaction of the table's stream (one command each), in order, no gap, no
    repeat and no reset. Returns how many states they saw in all."""
    conn = await asyncpg.connect(url)
    try:
        finals = {
            w.table_id: await conn.fetchval(
                "SELECT version FROM streams WHERE stream_id = $1", table_stream(w.table_id)
            )
            for w in watchers
        }
        await eventually(
            lambda: all(w.last >= finals[w.table_id] for w in watchers),
            timeout=timeout,
            message="every live client reaching its table's last version",
        )
        seen = 0
        for watcher in watchers:
            boundaries = [
                r["version"] for r in await conn.fetch(_BOUNDARIES, table_stream(watcher.table_id))
            ]
            first = watcher.versions[0]
            assert first in boundaries, (watcher.table_id, first)
            expected = [v for v in boundaries if v >= first]
            assert watcher.versions == expected, (
                watcher.table_id,
                watcher.connections,
                sorted(set(expected) - set(watcher.versions))[:20],
            )
            assert set(watcher.kinds) == {"table"}, watcher.kinds
            assert watcher.mismatched == []
            seen += len(watcher.versions)
    finally:
        await conn.close()
    return seen
