"""The regulator's tools over seamless players: rounds at a shared table where a seamless
operator's player (money at the reference wallet, a separate process; money events in
``seamless-<id>``) plays beside an internal operator's player (``wallet-<id>``, balance and
ledger at the game). Replay re-decides the rounds and finds the recorded debits and credits
of both, reconciliation balances, the audit trail shows both players' stakes and wins — and
a tampered seamless amount, or a money event moved to the other kind of stream, is named."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import asyncpg
import msgspec
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from russian_poker.events.postgres.bundle import BundleStore
from russian_poker.events.postgres.rebuild import RebuildStore
from russian_poker.events.postgres.reconcile import ReconcileStore
from russian_poker.events.postgres.replay import ReplayStore
from russian_poker.projections.rebuild import rebuild
from russian_poker.projections.redaction import round_of
from russian_poker.service.audit.bundle.verify import verify_bundle
from russian_poker.service.audit.bundle.write import write_bundle
from russian_poker.service.audit.reconcile import reconcile
from russian_poker.service.audit.replay import select_rounds, verify_rounds
from russian_poker.service.software import installed
from tests.audit.tampering import resign_bundle, rolled_back
from tests.operators.casino import Casino, Player, staff
from tests.operators.conftest import casino, reference_wallet, reference_wallet_factory
from tests.processes import eventually
from tests.rules.scenario import deck_for
from tests.wallet.reference import ReferenceWallet

# The operator suites' fixtures, used here by name (listed so they count as used).
__all__ = ["casino", "reference_wallet", "reference_wallet_factory"]

TABLE = "s1"
ALICE = "Qs Qd Qh 5c 7d"  # trips: beats the dealer
BOB = "2c 4d 6h 8s Jc"  # jack high: loses to the dealer
DEALER = "9s 9c Ah Kd 2h"  # a pair of nines: the dealer qualifies
START = 100_000
DEPOSIT = 50_000
AUDITOR = staff("auditor", name="regulator")


class Shared(msgspec.Struct, kw_only=True):
    alice: Player  # acme's, seamless
    bob: Player  # bank's, internal
    rounds: list[int]


async def _play_round(casino: Casino, shared: Shared) -> int:
    """One round: both ante, deal, both play; the settled round's number."""
    for player, box in ((shared.alice, 1), (shared.bob, 2)):
        await casino.send(player, TABLE, "PlaceAnte", box=box, ante=100)
    for player in (shared.alice, shared.bob):
        await casino.send(player, TABLE, "Deal")
    await casino.send(shared.alice, TABLE, "Play", box=1)
    settled = await casino.send(shared.bob, TABLE, "Play", box=2)
    previous = settled["previous_round"]
    assert previous["phase"] == "settled"
    number: int = previous["number"]
    return number


@pytest.fixture
async def shared(casino: Casino, reference_wallet: ReferenceWallet) -> Shared:
    """Two settled rounds at a shared table: acme's alice (seamless) on box 1, bank's bob
    (internal) on box 2; the outbox has delivered every credit to acme's wallet."""
    await reference_wallet.set_player("alice", "EUR", START)
    await casino.register("acme", reference_wallet)
    await casino.register("bank")
    r = await casino.client.post(
        "/v1/wallets",
        json={"wallet_id": "bob", "currency": "EUR"},
        headers=staff("operator", "bank"),
    )
    assert r.status_code == 201, r.text
    r = await casino.client.post(
        "/v1/wallets/bob/deposits",
        json={"transfer_id": "fund-bob", "amount": DEPOSIT},
        headers=staff("operator", "bank"),
    )
    assert r.status_code == 200, r.text
    alice = await casino.launch("acme", "alice")
    bob = await casino.launch("bank", "bob")
    deck = deck_for([ALICE, BOB], DEALER)
    await casino.open_table(TABLE, "russian", deck)  # shared: opened by the admin
    for player in (alice, bob):
        await casino.send(player, TABLE, "SitDown")
    played = Shared(alice=alice, bob=bob, rounds=[])
    for _ in range(2):
        await casino.next_deck(TABLE, deck)
        played.rounds.append(await _play_round(casino, played))
    await casino.delivered()
    return played


async def _streams(casino: Casino) -> set[str]:
    rows = await casino.pool.fetch(
        "SELECT DISTINCT stream_id FROM events WHERE event_type IN "
        "('WalletDebited', 'WalletCredited')"
    )
    return {r["stream_id"] for r in rows}


async def test_replay_and_reconcile_find_nothing_wrong(casino: Casino, shared: Shared) -> None:
    # Each player's money is where its kind says: the seamless one's has no balance row.
    assert await _streams(casino) == {"seamless-acme:alice", "wallet-bank:bob"}
    assert await casino.pool.fetchval("SELECT count(*) FROM wallets") == 1
    async with casino.pool.acquire() as conn:
        selection, unsettled = await select_rounds(ReplayStore(conn))
        replayed = await verify_rounds(ReplayStore(conn), selection)
        books = await reconcile(ReconcileStore(conn))
    assert not unsettled and selection == {TABLE: shared.rounds}
    assert [str(d) for d in replayed.differences] == []
    assert replayed.rounds == replayed.verified == 2
    # Table events, plus every debit and credit of both players, were compared.
    money = await casino.pool.fetchval(
        "SELECT count(*) FROM events WHERE event_type IN ('WalletDebited', 'WalletCredited')"
    )
    round_events = await casino.pool.fetchval(
        "SELECT count(*) FROM events WHERE stream_id = $1 AND (data->>'round')::int = ANY($2)",
        f"table-{TABLE}",
        shared.rounds,
    )
    assert replayed.events >= round_events + money
    assert [str(m) for m in books.mismatches] == []
    assert books.wallets == 1 and books.boxes >= 4

    # The same through the auditor's API.
    r = await casino.client.post(
        "/v1/audit/replay", json={"table_id": TABLE, "round": shared.rounds[0]}, headers=AUDITOR
    )
    assert r.status_code == 200, r.text
    assert (r.json()["verified"], r.json()["differences"]) == (1, [])
    r = await casino.client.get("/v1/audit/reconciliation", headers=AUDITOR)
    assert r.status_code == 200, r.text
    assert r.json()["mismatches"] == []


async def _record(casino: Casino, number: int) -> dict[str, Any]:
    """The round's audit record, once the service's own audit runner has every event."""

    async def caught_up() -> bool:
        behind: int = await casino.pool.fetchval(
            """
            SELECT count(*) FROM events AS e
            WHERE NOT EXISTS (SELECT 1 FROM projection_checkpoints AS c WHERE c.name = 'audit'
                              AND (c.tx_id, c.global_position) >= (e.tx_id, e.global_position))
            """
        )
        return behind == 0

    await eventually(caught_up, message="the audit projection caught up")
    r = await casino.client.get(f"/v1/audit/rounds/{TABLE}/{number}", headers=AUDITOR)
    assert r.status_code == 200, r.text
    found: dict[str, Any] = r.json()
    assert found["seed"] is not None
    return found


async def test_the_audit_trail_shows_seamless_stakes_and_wins(
    casino: Casino, shared: Shared, reference_wallet: ReferenceWallet
) -> None:
    alice_moved = bob_moved = 0
    for number in shared.rounds:
        row = await _record(casino, number)
        record = row["record"]
        assert row["players"] == ["acme:alice", "bank:bob"]
        calls = await casino.calls(operator_id="acme", player_id="alice", round=number)
        staked = sum(c["amount"] for c in calls if c["kind"] == "bet")
        won = sum(c["amount"] for c in calls if c["kind"] == "win")
        assert staked > 0 and won > staked  # trips won
        alice = record["wallets"]["acme:alice"]
        # What the operator was asked to move is what the regulator's record says moved.
        assert (alice["debited"], alice["credited"]) == (staked, won)
        assert alice["seamless"] is True
        assert alice["before"] is None and alice["after"] is None  # the operator's balance
        bob = record["wallets"]["bank:bob"]
        assert "seamless" not in bob
        assert bob["debited"] > 0 and bob["credited"] == 0  # jack high lost
        assert bob["after"] - bob["before"] == -bob["debited"]
        totals = record["totals"]
        assert totals["staked"] == alice["debited"] + bob["debited"]
        assert totals["paid"] == alice["credited"]
        assert totals["house"] == totals["staked"] - totals["paid"]
        assert {c["actor"]["id"] for c in record["commands"] if c["actor"]} >= {
            "acme:alice",
            "bank:bob",
        }
        alice_moved += won - staked
        bob_moved -= bob["debited"]
    # The record agrees with both ledgers: the operator's for alice, the game's for bob.
    assert await reference_wallet.balance_of("alice") == START + alice_moved
    balance = await casino.pool.fetchval("SELECT balance FROM wallets WHERE wallet_id = 'bank:bob'")
    assert balance == DEPOSIT + bob_moved
    # A rebuild of the trail from the events gives the same rows.
    async with casino.pool.acquire() as conn:
        rebuilt = await rebuild(RebuildStore(conn), "audit")
    assert not rebuilt.differed, rebuilt.details


async def _below_horizon(casino: Casino) -> bool:
    """Whether every event is below the xid8 horizon, which the feed reads up to: a
    transaction open anywhere on the server (another xdist worker's) holds it back."""
    below: bool = await casino.pool.fetchval(
        "SELECT coalesce(max(tx_id), '0'::xid8) < pg_snapshot_xmin(pg_current_snapshot())"
        " FROM events"
    )
    return below


async def test_the_feed_places_seamless_money_in_its_round(casino: Casino, shared: Shared) -> None:
    await eventually(lambda: _below_horizon(casino), message="the events below the horizon")
    r = await casino.client.get("/v1/audit/feed", params={"limit": 1000}, headers=AUDITOR)
    assert r.status_code == 200, r.text
    seamless = [i for i in r.json()["items"] if i["stream_id"] == "seamless-acme:alice"]
    assert {i["event_type"] for i in seamless} == {"WalletDebited", "WalletCredited"}
    rounds = {round_of(i["stream_id"], i["data"]) for i in seamless}
    assert rounds == {(TABLE, n) for n in shared.rounds}


@pytest.fixture
async def tampering(
    casino: Casino, shared: Shared
) -> AsyncIterator[asyncpg.pool.PoolConnectionProxy[asyncpg.Record]]:
    """A connection inside a transaction that is rolled back afterwards."""
    async with rolled_back(casino.pool) as conn:
        yield conn


async def _money_event(conn: Any, where: str) -> asyncpg.Record:
    row: asyncpg.Record | None = await conn.fetchrow(
        "SELECT global_position, stream_id, (data->>'round')::int AS round, "
        "data->>'wallet_id' AS wallet, (data->>'amount')::int AS amount FROM events "
        f"WHERE {where} ORDER BY global_position LIMIT 1"
    )
    assert row is not None
    return row


async def test_a_tampered_seamless_amount_fails_replay_and_reconcile(tampering: Any) -> None:
    conn = tampering
    row = await _money_event(
        conn, "stream_id = 'seamless-acme:alice' AND event_type = 'WalletCredited'"
    )
    await conn.execute(
        "UPDATE events SET data = jsonb_set(data, '{amount}', "
        "to_jsonb((data->>'amount')::int + 1)) WHERE global_position = $1",
        row["global_position"],
    )
    selection, _ = await select_rounds(ReplayStore(conn))
    replayed = await verify_rounds(ReplayStore(conn), selection)
    assert replayed.failed == 1
    assert {(d.table_id, d.round) for d in replayed.differences} == {(TABLE, row["round"])}
    amount = [d for d in replayed.differences if "WalletCredited.amount" in d.field]
    assert len(amount) == 1 and amount[0].field.startswith("seamless-acme:alice ")
    assert (amount[0].expected, amount[0].recorded) == (
        str(row["amount"]),
        str(row["amount"] + 1),
    )

    books = await reconcile(ReconcileStore(conn))
    assert {(m.table_id, m.round) for m in books.mismatches} == {(TABLE, row["round"])}
    # A seamless player has no balance or ledger at the game: only the money check can see it.
    assert {m.check for m in books.mismatches} == {"money"}
    assert any(
        "acme:alice" in m.detail and str(row["amount"] + 1) in m.detail for m in books.mismatches
    )


@pytest.mark.parametrize(
    ("stream", "moved_to", "owner"),
    [
        ("seamless-acme:alice", "wallet-acme:alice", "a seamless player"),
        ("wallet-bank:bob", "seamless-bank:bob", "an internal wallet"),
    ],
)
async def test_money_in_the_wrong_kind_of_stream_fails_replay_and_reconcile(
    tampering: Any, stream: str, moved_to: str, owner: str
) -> None:
    conn = tampering
    row = await _money_event(conn, f"stream_id = '{stream}' AND event_type = 'WalletDebited'")
    # Same event, same version, in the stream of the other kind.
    await conn.execute(
        "UPDATE events SET stream_id = $2 WHERE global_position = $1",
        row["global_position"],
        moved_to,
    )
    selection, _ = await select_rounds(ReplayStore(conn))
    replayed = await verify_rounds(ReplayStore(conn), selection)
    assert replayed.failed == 1
    assert [(d.round, d.field, d.expected, d.recorded) for d in replayed.differences] == [
        (
            row["round"],
            f"WalletDebited at global position {row['global_position']}: stream",
            f"{stream} ({row['wallet']} is {owner})",
            moved_to,
        )
    ]

    books = await reconcile(ReconcileStore(conn))
    money = [m for m in books.mismatches if m.check == "money"]
    assert [(m.table_id, m.round) for m in money] == [(TABLE, row["round"])]
    assert f"stored in {moved_to}" in money[0].detail and owner in money[0].detail
    # The internal books see it too: a wallet- stream no wallet row sums, or a wallet
    # whose stream lost a debit its balance and ledger still hold.
    balances = [m for m in books.mismatches if m.check == "balances"]
    assert [m.subject for m in balances] == [f"wallet {row['wallet']}"]
    assert any(m.check == "ledger" for m in books.mismatches)


async def test_a_bundle_of_the_shared_rounds_reconciles_the_operators_calls(
    casino: Casino, shared: Shared, tmp_path: Any
) -> None:
    """The bundle carries acme's calls with their statuses: every committed bet is a debit
    of alice's and every win paid or owed a credit, to the unit; a call whose status was
    changed afterwards (a bet said rolled back) no longer reconciles."""
    key = Ed25519PrivateKey.generate()
    out = tmp_path / "bundle"
    await write_bundle(
        BundleStore(casino.pool), key, out, start=None, end=None, software=installed()
    )
    report = await verify_bundle(out, [key.public_key()])
    assert report.findings == []
    calls = [json.loads(line) for line in (out / "operator-calls.jsonl").read_text().splitlines()]
    assert report.calls == len(calls) >= 4  # two rounds of alice's: bets and wins
    assert {c["operator_id"] for c in calls} == {"acme"}
    assert report.boxes >= 4  # alice's and bob's boxes, seamless and internal

    bet = next(i for i, c in enumerate(calls) if c["kind"] == "bet")
    calls[bet]["status"] = "rolled_back"
    (out / "operator-calls.jsonl").write_text("".join(json.dumps(c) + "\n" for c in calls))
    resign_bundle(out, key)
    tampered = await verify_bundle(out, [key.public_key()])
    assert [x for x in tampered.findings if x.startswith("operator-calls.jsonl: acme:alice")], (
        tampered.findings
    )
