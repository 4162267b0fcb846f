"""``replay --verify`` and ``reconcile`` say what they counted, and their counts add up.

Replay counts settled rounds (split into rounds with bets and rounds called off before any
ante) and names the rounds still in play it could not replay; reconcile counts every round
opened, settled or still in play. Played here: a few bot rounds on two tables, a round left
in play on each (dealt, with bets), and a third table closed before any bet (a settled
round without a bet) and reopened (a round in play without a bet).
"""

from __future__ import annotations

import asyncio
import re

import asyncpg
from click.testing import CliRunner, Result

from russian_poker.events.commands import CloseTable, OpenTable, ReopenTable
from russian_poker.service.bootstrap import command_service, transfer_service
from russian_poker.service.cli import main
from russian_poker.service.rules.presets import make_ruleset
from tests.audit.bots import OPERATOR, default_plans, fund_players, play_tables
from tests.audit.bots import leave_rounds_open as leave_open

_COUNTS = """
WITH opened AS (
    SELECT stream_id, data->'round' AS round FROM events WHERE event_type = 'RoundOpened'
), facts AS (
    SELECT EXISTS (SELECT 1 FROM events AS s WHERE s.event_type = 'RoundSettled'
                   AND s.stream_id = o.stream_id AND s.data->'round' = o.round) AS settled,
           EXISTS (SELECT 1 FROM events AS a WHERE a.event_type = 'AntePlaced'
                   AND a.stream_id = o.stream_id AND a.data->'round' = o.round) AS bets
    FROM opened AS o
)
SELECT count(*) AS opened,
       count(*) FILTER (WHERE settled) AS settled,
       count(*) FILTER (WHERE settled AND bets) AS settled_with_bets,
       count(*) FILTER (WHERE bets) AS with_bets,
       (SELECT count(DISTINCT (stream_id, data->'round', data->'box')) FROM events
        WHERE event_type = 'AntePlaced') AS boxes,
       (SELECT count(*) FROM ledger) AS ledger_rows,
       (SELECT count(*) FROM ledger WHERE round IS NOT NULL) AS round_ledger_rows,
       (SELECT count(*) FROM streams WHERE starts_with(stream_id, 'wallet-')) AS wallets
FROM facts
"""


def _numbers(pattern: str, output: str) -> list[int]:
    found = re.search(pattern, output)
    assert found, f"{pattern!r} not in:\n{output}"
    return [int(group.replace(",", "")) for group in found.groups()]


def _cli(url: str, *args: str) -> Result:
    return CliRunner().invoke(main, list(args), env={"DATABASE_URL": url})


async def test_replay_and_reconcile_counts_add_up(
    database_url: str, db: asyncpg.Pool[asyncpg.Record]
) -> None:
    plans = default_plans(2, prefix="c")
    await fund_players(transfer_service(db), plans)
    handler = command_service(db)
    await play_tables(handler, db, plans, 4)
    in_play_with_bets = await leave_open(handler, db, plans)
    # A table closed before anyone bet: its round settles without a bet; reopened, its next
    # round waits in play, also without a bet.
    rules = make_ruleset("russian", {})
    await handler.execute("c-idle", OpenTable(ruleset=rules, name="idle"), OPERATOR)
    await handler.execute("c-idle", CloseTable(), OPERATOR)
    await handler.execute("c-idle", ReopenTable(), OPERATOR)

    facts = await db.fetchrow(_COUNTS)
    assert facts is not None
    in_play = facts["opened"] - facts["settled"]
    assert in_play == len(in_play_with_bets) + 1
    assert facts["settled"] - facts["settled_with_bets"] >= 1, "no settled round without a bet"

    replayed = await asyncio.to_thread(_cli, database_url, "replay", "--verify", "--all")
    assert replayed.exit_code == 0, replayed.output
    out = replayed.output
    settled, with_bets, without = _numbers(
        r"settled rounds replayed: ([\d,]+) \(([\d,]+) with bets, ([\d,]+) without a bet", out
    )
    assert (settled, with_bets) == (facts["settled"], facts["settled_with_bets"])
    assert with_bets + without == settled
    [not_replayed] = _numbers(r"rounds not replayed: ([\d,]+) still in play", out)
    assert not_replayed == in_play
    # The summary line keeps its shape.
    assert f"verified {settled} of {settled} round(s)" in out
    assert "0 difference(s) in 0 round(s)" in out

    reconciled = await asyncio.to_thread(_cli, database_url, "reconcile")
    assert reconciled.exit_code == 0, reconciled.output
    out = reconciled.output
    opened, r_settled, r_in_play, r_with_bets, boxes, r_without = _numbers(
        r"rounds opened: ([\d,]+) \(([\d,]+) settled, ([\d,]+) still in play; "
        r"([\d,]+) with bets on ([\d,]+) boxes, ([\d,]+) without a bet\)",
        out,
    )
    assert (opened, r_with_bets, boxes) == (facts["opened"], facts["with_bets"], facts["boxes"])
    # The two commands agree: reconcile's settled rounds are the ones replay verified, and
    # the rounds replay could not replay are the ones reconcile finds still in play.
    assert r_settled == settled and r_in_play == not_replayed
    assert r_settled + r_in_play == opened and r_with_bets + r_without == opened
    rows, of_rounds, transfers = _numbers(
        r"ledger rows: ([\d,]+) \(([\d,]+) of rounds, ([\d,]+) deposits and withdrawals\)", out
    )
    assert (rows, of_rounds) == (facts["ledger_rows"], facts["round_ledger_rows"])
    assert of_rounds + transfers == rows and transfers == facts["wallets"]
    [wallets] = _numbers(r"wallets: ([\d,]+) \(balances checked over all time\)", out)
    assert wallets == facts["wallets"]
    assert (
        f"reconciled {wallets} wallets, {rows} ledger rows, {opened} rounds ({boxes} boxes)" in out
    )


async def test_replay_of_one_round_in_play_says_so(
    database_url: str, db: asyncpg.Pool[asyncpg.Record]
) -> None:
    plans = default_plans(1, prefix="s")
    await fund_players(transfer_service(db), plans)
    handler = command_service(db)
    await play_tables(handler, db, plans, 1)
    [(table_id, number)] = await leave_open(handler, db, plans)

    replayed = await asyncio.to_thread(
        _cli, database_url, "replay", "--verify", "--round", f"{table_id}:{number}"
    )
    assert replayed.exit_code == 1, replayed.output
    assert f"round {table_id}:{number} is not settled yet" in replayed.output
    assert _numbers(r"settled rounds replayed: ([\d,]+)", replayed.output) == [0]
    assert _numbers(r"rounds not replayed: ([\d,]+) still in play", replayed.output) == [1]
    assert "verified 0 of 0 round(s)" in replayed.output
