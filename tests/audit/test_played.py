"""A thousand random rounds through the real command path, then the regulator's tools:
the audit trail covers every round, rebuilt read models equal the live ones, replay
verifies every round, the books reconcile — and one tampered event is caught and named."""

from __future__ import annotations

import asyncio
import base64
import hashlib
from collections import Counter
from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import asyncpg
import msgspec
import pytest
from click.testing import CliRunner, Result

from russian_poker.events.postgres.audit import AuditStore
from russian_poker.events.postgres.projections import ProjectionStore
from russian_poker.events.postgres.rebuild import RebuildStore
from russian_poker.events.postgres.reconcile import ReconcileStore
from russian_poker.events.postgres.replay import ReplayStore
from russian_poker.projections.audit import AuditProjection
from russian_poker.projections.audit_feed import audit_feed, round_record
from russian_poker.projections.availability import AvailabilityProjection
from russian_poker.projections.rebuild import NAMES, rebuild
from russian_poker.projections.redaction import HIDDEN
from russian_poker.projections.runner import ProjectionRunner
from russian_poker.service.audit.reconcile import reconcile
from russian_poker.service.audit.replay import select_rounds, verify_rounds
from russian_poker.service.cli import main
from tests.audit.conftest import ROUNDS_PER_TABLE, TABLES, Played, catch_up_fully
from tests.audit.tampering import rolled_back

Connection = asyncpg.Connection


@pytest.fixture
async def tampering(
    played: Played,
) -> AsyncIterator[asyncpg.pool.PoolConnectionProxy[asyncpg.Record]]:
    """A connection inside a transaction that is rolled back afterwards."""
    async with rolled_back(played.pool) as conn:
        yield conn


async def test_bots_played_every_kind_of_move(played: Played) -> None:
    assert played.rounds == TABLES * ROUNDS_PER_TABLE >= 1000
    kinds = Counter(
        {
            r["event_type"]: r["n"]
            for r in await played.pool.fetch(
                "SELECT event_type, count(*) AS n FROM events GROUP BY event_type"
            )
        }
    )
    for kind in (
        "AntePlaced",
        "BetsCancelled",
        "CardsDealt",
        "BonusSettled",
        "SixthCardBought",
        "CardsExchanged",
        "BoxPlayed",
        "BoxFolded",
        "DealerExchangeRequested",
        "DealerExchangeDeclined",
        "DealerCardReplaced",
        "BoxSettled",
        "RoundAbandoned",
        "RoundSettled",
        "TableClosed",
        "TableReopened",
        "RulesetChanged",
        "PlayerLeft",
        "WalletDebited",
        "WalletCredited",
    ):
        assert kinds[kind] > 0, f"the bots never caused a {kind}"
    facts = await played.pool.fetchrow(
        """
        SELECT count(*) FILTER (WHERE event_type = 'BoxPlayed' AND (data->>'insurance')::int > 0)
                   AS insured,
               count(*) FILTER (WHERE event_type = 'AntePlaced' AND (data->>'dark')::bool) AS dark,
               count(*) FILTER (WHERE event_type = 'BonusSettled' AND (data->>'won')::int > 0)
                   AS bonus_won,
               count(*) FILTER (WHERE event_type = 'BoxFolded' AND (data->>'timed_out')::bool)
                   AS timed_out,
               count(*) FILTER (WHERE (data->>'capped')::int > 0)
                   AS capped
        FROM events
        """
    )
    assert facts is not None
    # "capped": max_payout cut a win (about one round in a hundred, on the capped tables).
    kinds_of_fact = ("insured", "dark", "bonus_won", "timed_out", "capped")
    assert all(facts[k] > 0 for k in kinds_of_fact), dict(facts)


async def test_audit_trail_covers_every_round(played: Played) -> None:
    runner = ProjectionRunner(AuditProjection(), ProjectionStore(played.url, played.pool))
    await catch_up_fully(runner, played.pool)
    pool = played.pool
    opened = await pool.fetchval("SELECT count(*) FROM events WHERE event_type = 'RoundOpened'")
    settled = await pool.fetchval("SELECT count(*) FROM events WHERE event_type = 'RoundSettled'")
    assert await pool.fetchval("SELECT count(*) FROM audit_rounds") == opened
    assert (
        await pool.fetchval("SELECT count(*) FROM audit_rounds WHERE seed IS NOT NULL") == settled
    )
    assert settled >= played.rounds
    rows = await pool.fetch("SELECT *, record::text AS text FROM audit_rounds")
    fingerprints = {r["table_id"]: r["ruleset_fingerprint"] for r in rows}
    assert len(set(fingerprints.values())) > 1 and all(fingerprints.values())
    # Every command that left an event in a round, table or wallet stream, is in its record.
    commands = await pool.fetch(
        """
        SELECT coalesce(data->>'table_id', substr(stream_id, 7)) AS table_id,
               (data->>'round')::int AS round,
               array_agg(DISTINCT metadata->>'command_id') AS ids
        FROM events WHERE data ? 'round' GROUP BY 1, 2
        """
    )
    expected = {(c["table_id"], c["round"]): set(c["ids"]) for c in commands}
    money = await pool.fetch(
        "SELECT table_id, round, -sum(amount) AS house FROM ledger WHERE table_id IS NOT NULL "
        "GROUP BY 1, 2"
    )
    house = {(m["table_id"], m["round"]): m["house"] for m in money}
    for row in rows:
        key = (row["table_id"], row["round"])
        record = msgspec.json.decode(row["text"])
        recorded = [c["command_id"] for c in record["commands"]]
        assert len(recorded) == len(set(recorded))
        assert set(recorded) == expected[key], key
        assert [c["position"] for c in record["commands"]] == sorted(
            c["position"] for c in record["commands"]
        )
        assert record["totals"]["house"] == house.get(key, 0), key
        assert row["players"] == list(dict.fromkeys(b["player"] for b in record["boxes"]))
        if row["seed"] is not None:
            assert hashlib.sha256(bytes.fromhex(row["seed"])).hexdigest() == row["commitment"]
            assert row["settled_at"] >= row["opened_at"]
        for wallet, moves in record["wallets"].items():
            assert moves["before"] >= 0 and moves["after"] >= 0
            # Players named "...c" also play at a neighbouring table at the same time.
            if not wallet.endswith("c"):
                assert moves["after"] - moves["before"] == moves["credited"] - moves["debited"]


async def test_rebuilt_read_models_equal_the_live_ones(played: Played) -> None:
    for projection in (AuditProjection(), AvailabilityProjection()):
        runner = ProjectionRunner(projection, ProjectionStore(played.url, played.pool))
        await catch_up_fully(runner, played.pool)
    async with played.pool.acquire() as conn:
        for name in NAMES:
            report = await rebuild(RebuildStore(conn), name)
            assert not report.differed, (name, report.details)
            assert report.events > 0 and report.rows > 0
            print(f"rebuild {name}: {report.events} events, {report.events_per_second:,.0f}/s")


async def test_replay_verifies_every_round(played: Played) -> None:
    async with played.pool.acquire() as conn:
        selection, unsettled = await select_rounds(ReplayStore(conn))
        report = await verify_rounds(ReplayStore(conn), selection)
        settled = await conn.fetchval(
            "SELECT count(*) FROM events WHERE event_type = 'RoundSettled'"
        )
    assert not unsettled
    assert [str(d) for d in report.differences] == []
    assert report.rounds == report.verified == settled >= played.rounds
    print(
        f"replay: {report.rounds} rounds, {report.events} events, {report.events_per_second:,.0f}/s"
    )


async def test_books_reconcile(played: Played) -> None:
    async with played.pool.acquire() as conn:
        report = await reconcile(ReconcileStore(conn))
    assert [str(m) for m in report.mismatches] == []
    assert report.rounds >= played.rounds and report.boxes > report.rounds
    assert report.wallets == len({p for plan in played.plans for p in plan.players})


async def _pick(conn: Any, query: str) -> asyncpg.Record:
    row: asyncpg.Record | None = await conn.fetchrow(query)
    assert row is not None
    return row


async def _table_rounds(conn: Any, table_id: str) -> dict[str, list[int]]:
    selection, _ = await select_rounds(ReplayStore(conn))
    return {table_id: selection[table_id]}


async def test_a_tampered_card_fails_replay_and_reconcile(tampering: Any) -> None:
    conn = tampering
    row = await _pick(
        conn,
        """
        SELECT global_position, substr(stream_id, 7) AS table_id, (data->>'round')::int AS round,
               data->'hands'->0->'cards'->>1 AS card, data::text AS data
        FROM events WHERE event_type = 'CardsDealt' AND stream_id = 'table-t2'
        ORDER BY stream_version OFFSET 20 LIMIT 1
        """,
    )
    data = msgspec.json.decode(row["data"])
    used = {c for h in data["hands"] for c in h["cards"]} | set(data["dealer_cards"])
    other = next(c for c in ("As", "Kh", "Qd", "Jc", "Ts", "9h") if c not in used)
    await conn.execute(
        "UPDATE events SET data = jsonb_set(data, '{hands,0,cards,1}', to_jsonb($2::text)) "
        "WHERE global_position = $1",
        row["global_position"],
        other,
    )
    replayed = await verify_rounds(ReplayStore(conn), await _table_rounds(conn, "t2"))
    assert replayed.failed == 1 and replayed.differences
    assert {(d.table_id, d.round) for d in replayed.differences} == {("t2", row["round"])}
    first = replayed.differences[0]
    assert "CardsDealt.hands[0].cards[1]" in first.field
    assert (first.expected, first.recorded) == (f'"{row["card"]}"', f'"{other}"')

    books = await reconcile(ReconcileStore(conn))
    assert books.mismatches
    assert {(m.table_id, m.round) for m in books.mismatches} == {("t2", row["round"])}
    assert all(m.check == "cards" for m in books.mismatches)


async def test_a_dealt_card_changed_into_a_card_exchanged_in_fails_reconcile(
    tampering: Any,
) -> None:
    """The tamper the settled cards alone cannot show: the box then holds, dealt, the card
    it received later, and the card it gave back was never dealt to it."""
    conn = tampering
    row = await _pick(
        conn,
        """
        WITH exchanged AS (
            SELECT d.global_position, substr(d.stream_id, 7) AS table_id,
                   (d.data->>'round')::int AS round, x.data->'discarded'->>0 AS gave,
                   x.data->'received'->>0 AS got, hs.i - 1 AS hand,
                   (SELECT c.i - 1 FROM jsonb_array_elements_text(hs.h->'cards')
                           WITH ORDINALITY AS c(card, i)
                    WHERE c.card = x.data->'discarded'->>0) AS at, x.global_position AS x_at
            FROM events x
            JOIN events d ON d.stream_id = x.stream_id AND d.event_type = 'CardsDealt'
                 AND d.data->'round' = x.data->'round'
            CROSS JOIN LATERAL jsonb_array_elements(d.data->'hands') WITH ORDINALITY AS hs(h, i)
            WHERE x.event_type = 'CardsExchanged' AND hs.h->'box' = x.data->'box'
              AND EXISTS (SELECT 1 FROM events s WHERE s.stream_id = x.stream_id
                          AND s.event_type = 'RoundSettled' AND s.data->'round' = x.data->'round')
        )
        SELECT * FROM exchanged WHERE at IS NOT NULL ORDER BY x_at LIMIT 1
        """,
    )
    await conn.execute(
        "UPDATE events SET data = jsonb_set(data, $2::text[], to_jsonb($3::text))"
        " WHERE global_position = $1",
        row["global_position"],
        ["hands", str(row["hand"]), "cards", str(row["at"])],
        row["got"],
    )
    books = await reconcile(ReconcileStore(conn))
    cards = [m for m in books.mismatches if m.check == "cards"]
    assert {(m.table_id, m.round) for m in cards} == {(row["table_id"], row["round"])}
    assert any(f"exchanged {row['gave']}, which it did not hold" in m.detail for m in cards)


async def test_a_tampered_amount_fails_replay_and_reconcile(tampering: Any) -> None:
    conn = tampering
    row = await _pick(
        conn,
        """
        SELECT global_position, data->>'table_id' AS table_id, (data->>'round')::int AS round,
               data->>'wallet_id' AS wallet
        FROM events WHERE event_type = 'WalletCredited' AND data->>'table_id' = 't4'
          AND data->>'reason' = 'settlement'
        ORDER BY global_position OFFSET 30 LIMIT 1
        """,
    )
    await conn.execute(
        "UPDATE events SET data = jsonb_set(data, '{amount}', "
        "to_jsonb((data->>'amount')::int + 1)) WHERE global_position = $1",
        row["global_position"],
    )
    replayed = await verify_rounds(ReplayStore(conn), await _table_rounds(conn, "t4"))
    assert {(d.table_id, d.round) for d in replayed.differences} == {("t4", row["round"])}
    assert any("WalletCredited.amount" in d.field for d in replayed.differences)

    books = await reconcile(ReconcileStore(conn))
    named = {(m.table_id, m.round) for m in books.mismatches if m.table_id}
    assert named == {("t4", row["round"])}
    checks = {m.check for m in books.mismatches}
    assert checks == {"balances", "ledger", "money"}, [str(m) for m in books.mismatches]
    balance = next(m for m in books.mismatches if m.check == "balances")
    assert row["wallet"] in balance.subject


def _cli(played: Played, *args: str) -> Result:
    return CliRunner().invoke(main, list(args), env={"DATABASE_URL": played.url})


async def test_cli_names_a_tampered_round_and_passes_once_repaired(played: Played) -> None:
    pool = played.pool
    row = await _pick(
        pool,
        """
        SELECT global_position, substr(stream_id, 7) AS table_id, (data->>'round')::int AS round,
               data::text AS data, recorded_at
        FROM events WHERE event_type = 'BoxSettled' AND (data->>'won')::int > 0
          AND stream_id = 'table-t5'
        ORDER BY stream_version OFFSET 5 LIMIT 1
        """,
    )
    name = f"{row['table_id']}:{row['round']}"
    try:
        await pool.execute(
            "UPDATE events SET data = jsonb_set(data, '{won}', to_jsonb((data->>'won')::int * 2)) "
            "WHERE global_position = $1",
            row["global_position"],
        )
        replayed = await asyncio.to_thread(_cli, played, "replay", "--verify", "--round", name)
        assert replayed.exit_code == 1, replayed.output
        assert f"table {row['table_id']} round {row['round']}" in replayed.output
        assert "BoxSettled.won" in replayed.output
        reconciled = await asyncio.to_thread(_cli, played, "reconcile")
        assert reconciled.exit_code == 1, reconciled.output
        assert f"table {row['table_id']} round {row['round']}" in reconciled.output
    finally:
        await pool.execute(
            "UPDATE events SET data = $2::jsonb WHERE global_position = $1",
            row["global_position"],
            row["data"],
        )
    replayed = await asyncio.to_thread(_cli, played, "replay", "--verify", "--round", name)
    assert replayed.exit_code == 0, replayed.output
    assert "verified 1 of 1 round(s)" in replayed.output
    # Every event of a transaction has the same recorded_at, and group commit may settle
    # rounds of other tables in the same statement: the window holds exactly those rounds.
    settled_at = row["recorded_at"]
    together = await pool.fetchval(
        "SELECT count(*) FROM events WHERE event_type = 'RoundSettled' AND recorded_at = $1",
        settled_at,
    )
    assert together >= 1
    window = await asyncio.to_thread(
        _cli,
        played,
        "replay",
        "--verify",
        "--from",
        settled_at.isoformat(),
        "--to",
        (settled_at + timedelta(microseconds=1)).isoformat(),
    )
    assert window.exit_code == 0, window.output
    assert f"verified {together} of {together} round(s)" in window.output
    reconciled = await asyncio.to_thread(_cli, played, "reconcile")
    assert reconciled.exit_code == 0, reconciled.output


async def test_cli_rebuild_reports_and_repairs_drifted_models(played: Played) -> None:
    runner = ProjectionRunner(AuditProjection(), ProjectionStore(played.url, played.pool))
    await catch_up_fully(runner, played.pool)
    pool = played.pool
    await pool.execute("UPDATE table_states SET status = 'closed' WHERE table_id = 't0'")
    ledger_row = await pool.fetchval("SELECT min(global_position) FROM ledger WHERE round = 3")
    await pool.execute(
        "UPDATE ledger SET amount = amount + 1 WHERE global_position = $1", ledger_row
    )
    await pool.execute(
        "UPDATE wallets SET balance = balance + 1 "
        "WHERE wallet_id = (SELECT min(wallet_id) FROM wallets)"
    )
    await pool.execute(
        "UPDATE audit_rounds SET record = jsonb_set(record, '{totals,house}', '12345') "
        "WHERE table_id = 't1' AND round = 7"
    )
    drifted = await asyncio.to_thread(_cli, played, "projections", "rebuild")
    assert drifted.exit_code == 1, drifted.output
    output = drifted.output
    assert 'tables: table t0: status: live "closed", events say "open"' in output
    assert "wallets [wallet_id=" in output
    assert f"ledger [global_position={ledger_row}]: amount" in output
    assert "audit_rounds [table_id=t1, round=7]: record.totals.house: live 12345" in output
    # The rebuild replaced the drifted rows (that a rebuild of a sound model changes
    # nothing is test_rebuilt_read_models_equal_the_live_ones).
    assert await pool.fetchval("SELECT status FROM table_states WHERE table_id = 't0'") == "open"
    assert await pool.fetchval(
        "SELECT record->'totals'->'house' <> '12345' FROM audit_rounds "
        "WHERE table_id = 't1' AND round = 7"
    )
    async with pool.acquire() as conn:
        books = await reconcile(ReconcileStore(conn))
    assert [str(m) for m in books.mismatches] == []


async def test_audit_feed_never_shows_an_open_rounds_secrets(played: Played) -> None:
    pool = played.pool
    secrets = await pool.fetch(
        "SELECT substr(stream_id, 7) AS table_id, (data->>'round')::int AS round, "
        "data->>'seed' AS seed FROM events WHERE event_type = 'RoundOpened'"
    )
    open_rounds = set(played.open_rounds)
    open_seeds = {r["seed"] for r in secrets if (r["table_id"], r["round"]) in open_rounds}
    assert len(open_seeds) == len(open_rounds) == TABLES
    seen: list[int] = []
    cursor: str | None = None
    checked = Counter[str]()
    async with pool.acquire() as conn:
        while True:
            page = await audit_feed(AuditStore(conn), cursor, limit=1000)
            if not page.items:
                break
            text = msgspec.json.encode(page).decode()
            for seed in open_seeds:
                assert seed not in text
                assert base64.b64decode(seed).hex() not in text
            for item in page.items:
                seen.append(item.global_position)
                key = (item.stream_id.removeprefix("table-"), item.data.get("round"))
                if item.stream_id.startswith("table-") and key in open_rounds:
                    checked[item.event_type] += 1
                    _assert_hidden(item.event_type, item.data, item.command)
                elif item.event_type == "CardsDealt":
                    assert HIDDEN not in msgspec.json.encode(item.data).decode()
            cursor = page.next_cursor
        total = await conn.fetchval("SELECT count(*) FROM events")
    assert len(seen) == len(set(seen)) == total, "the feed showed every event exactly once"
    assert checked["RoundOpened"] == checked["CardsDealt"] == TABLES
    assert checked["CardsExchanged"] + checked["SixthCardBought"] == TABLES


def _assert_hidden(event_type: str, data: dict[str, Any], command: Any) -> None:
    if event_type == "RoundOpened":
        assert data["seed"] is None and data["deck"] == []
    elif event_type == "CardsDealt":
        assert all(c == HIDDEN for h in data["hands"] for c in h["cards"])
        assert data["dealer_cards"][:4] == [HIDDEN] * 4 and data["dealer_cards"][4] != HIDDEN
    elif event_type == "SixthCardBought":
        assert data["card"] == HIDDEN
    elif event_type == "CardsExchanged":
        assert data["discarded"] == [HIDDEN] and data["received"] == [HIDDEN]
        assert command["type"] == "Exchange" and command["cards"] == [HIDDEN]


async def test_round_record_hides_an_open_rounds_cards(played: Played) -> None:
    runner = ProjectionRunner(AuditProjection(), ProjectionStore(played.url, played.pool))
    await catch_up_fully(runner, played.pool)
    async with played.pool.acquire() as conn:
        for table_id, number in played.open_rounds:
            record = await round_record(AuditStore(conn), table_id, number)
            assert record is not None and record.seed is None
            box = record.record.boxes[0]
            assert set(box.dealt) == set(box.cards) == {HIDDEN}
            assert record.record.dealer.dealt[:4] == [HIDDEN] * 4
            # The order of the draws, and the cards they moved, are as secret as the cards.
            for draw in record.record.draws:
                assert set(draw.discarded) | set(draw.received) <= {HIDDEN}
        settled = await round_record(AuditStore(conn), played.open_rounds[0][0], 5)
        assert settled is not None and settled.seed is not None
        assert HIDDEN not in msgspec.json.encode(settled.record).decode()
