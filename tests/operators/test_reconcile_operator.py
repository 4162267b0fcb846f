"""``russian-poker reconcile --operator ID --theirs FILE`` (docs/wallet-protocol.md §5): the game's
calls to a seamless operator against the operator's own export, transaction by transaction.

The command runs as a real child process on the test database, after real rounds with the
reference wallet; its export (``GET /_admin/transactions``) is the operator's file, as it
is and tampered with. The comparison's rules are also checked one by one on the pure
function (``service.wallet.reconcile``)."""

from __future__ import annotations

import asyncio
import csv
import json
import os
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from russian_poker.service.wallet.reconcile import (
    ExportError,
    OurTransaction,
    TheirTransaction,
    compare,
    in_scope,
    parse_export,
)
from tests.operators.casino import Casino
from tests.operators.play import deck, play_round
from tests.wallet.reference import ReferenceWallet

RUSSIAN_POKER = str(Path(sys.executable).parent / "russian-poker")
START = 100_000
FIELDS = ("transaction_id", "kind", "amount", "currency", "status")


async def reconcile(database_url: str, *args: str) -> tuple[int, list[str]]:
    """Run the command; its exit code and its output lines (stdout, then stderr)."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("RUSSIAN_POKER_", "PYTEST_")) and k != "DATABASE_URL"
    }
    env["DATABASE_URL"] = database_url
    process = await asyncio.create_subprocess_exec(
        RUSSIAN_POKER,
        "reconcile",
        *args,
        env=env,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(process.communicate(), timeout=120)
    assert process.returncode is not None
    return process.returncode, (out.decode() + err.decode()).splitlines()


def write_lines(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path


def write_csv(path: Path, rows: list[dict[str, Any]]) -> Path:
    with path.open("w", newline="") as file:
        writer = csv.DictWriter(file, fieldnames=[*FIELDS, "round_id"], extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)
    return path


async def played(casino: Casino, wallet: ReferenceWallet) -> None:
    """Acme's players: Alice plays two rounds; a bet of Bob's is applied, its answer lost,
    and rolled back; one of Carol's never reaches the wallet and is rolled back unseen."""
    for player in ("alice", "bob", "carol"):
        await wallet.set_player(player, "EUR", START)
    await casino.register("acme", wallet)
    alice = await casino.launch("acme", "alice")
    bob = await casino.launch("acme", "bob")
    carol = await casino.launch("acme", "carol")
    for table in ("acme.t1", "acme.t2", "acme.t3"):
        await casino.open_table(table, "russian", deck(), operator_id="acme")
    await play_round(casino, alice, "acme.t1")
    await play_round(casino, alice, "acme.t1", ante=200, sit=False)
    await casino.send(bob, "acme.t2", "SitDown")
    await wallet.fault("drop_after_apply", calls=["bet"])
    assert (await casino.post(bob, "acme.t2", "PlaceAnte", box=1, ante=300)).status_code == 503
    await casino.send(carol, "acme.t3", "SitDown")
    await wallet.fault("drop_before_apply", calls=["bet"])
    assert (await casino.post(carol, "acme.t3", "PlaceAnte", box=1, ante=400)).status_code == 503
    await casino.delivered()


async def test_a_clean_export_reconciles(
    casino: Casino, reference_wallet: ReferenceWallet, database_url: str, tmp_path: Path
) -> None:
    await played(casino, reference_wallet)
    ours = await casino.calls(operator_id="acme")
    statuses = {(c["kind"], c["status"]) for c in ours}
    assert statuses == {
        ("bet", "committed"),
        ("bet", "rolled_back"),
        ("win", "delivered"),
        ("rollback", "delivered"),
    }
    theirs = await reference_wallet.export()
    assert {t["status"] for t in theirs} == {"ok", "rolled_back", "tombstone"}

    for export in (
        write_lines(tmp_path / "acme.jsonl", theirs),
        write_csv(tmp_path / "acme.csv", theirs),
    ):
        code, lines = await reconcile(database_url, "--operator", "acme", "--theirs", str(export))
        assert code == 0, lines
        assert lines == [f"reconciled {len(ours)} transactions"]

    # A window: only the calls recorded in it are compared; the export's others are the
    # game's too (outside the window), not "missing on ours".
    code, lines = await reconcile(
        database_url,
        "--operator",
        "acme",
        "--theirs",
        str(tmp_path / "acme.jsonl"),
        "--from",
        "2999-01-01T00:00:00Z",
    )
    assert (code, lines) == (0, ["reconciled 0 transactions"])


async def test_each_discrepancy_is_listed(
    casino: Casino, reference_wallet: ReferenceWallet, database_url: str, tmp_path: Path
) -> None:
    await played(casino, reference_wallet)
    ours = {c["transaction_id"]: c for c in await casino.calls(operator_id="acme")}
    theirs = await reference_wallet.export()
    bet = next(t for t in theirs if t["kind"] == "bet" and t["status"] == "ok")
    win = next(t for t in theirs if t["kind"] == "win" and t["amount"] > 0)
    undone = next(t for t in theirs if t["status"] == "rolled_back")
    other = next(t for t in theirs if t["kind"] == "win" and t is not win)
    changes: dict[int, dict[str, Any]] = {
        id(win): {"amount": win["amount"] + 1},
        id(undone): {"status": "ok"},  # a rolled-back bet they still show applied
        id(other): {"currency": "USD", "kind": "bet"},
    }
    # The committed bet is dropped: they do not have it.
    tampered = [{**row, **changes.get(id(row), {})} for row in theirs if row is not bet]
    tampered.append(
        {
            "transaction_id": "op-9999",
            "kind": "win",
            "amount": 5000,
            "currency": "EUR",
            "status": "ok",
        }
    )
    export = write_csv(tmp_path / "tampered.csv", tampered)

    code, lines = await reconcile(database_url, "--operator", "acme", "--theirs", str(export))
    assert code == 1, lines
    listed = {(line.split(": ")[0], line.split(": ")[1]) for line in lines[:-1]}
    assert listed == {
        (bet["transaction_id"], "missing_theirs"),
        (win["transaction_id"], "amount_differs"),
        (undone["transaction_id"], "rolled_back_still_applied"),
        (other["transaction_id"], "currency_differs"),
        (other["transaction_id"], "kind_differs"),
        ("op-9999", "missing_ours"),
    }
    assert lines[-1].startswith(f"6 discrepancy(ies) between the game's {len(ours)}")
    assert f"ours is {win['amount']}, theirs {win['amount'] + 1}" in "\n".join(lines)


async def test_calls_still_owed_are_listed(
    casino: Casino, reference_wallet: ReferenceWallet, database_url: str, tmp_path: Path
) -> None:
    """The operator answers every win and rollback with a 500 for a while: the credits of a
    round and a bet's rollback stay queued at the game, and reconcile lists them until
    they are delivered."""
    await played(casino, reference_wallet)
    dave = await casino.launch("acme", "dave")
    erin = await casino.launch("acme", "erin")
    await reference_wallet.set_player("dave", "EUR", START)
    await reference_wallet.set_player("erin", "EUR", START)
    await casino.open_table("acme.t4", "russian", deck(), operator_id="acme")
    await casino.open_table("acme.t5", "russian", deck(), operator_id="acme")
    await reference_wallet.fault("error_500", calls=["win", "rollback"], times=0)
    await play_round(casino, dave, "acme.t4")
    await casino.send(erin, "acme.t5", "SitDown")
    await reference_wallet.fault("drop_after_apply", calls=["bet"])
    assert (await casino.post(erin, "acme.t5", "PlaceAnte", box=1, ante=100)).status_code == 503
    owed = await casino.calls(operator_id="acme", status="queued")
    assert {c["player_id"] for c in owed} == {"dave", "erin"}
    assert {c["kind"] for c in owed} == {"win", "rollback"}
    erins_bet = (await casino.calls(operator_id="acme", player_id="erin", kind="bet"))[0]

    export = write_lines(tmp_path / "acme.jsonl", await reference_wallet.export())
    code, lines = await reconcile(database_url, "--operator", "acme", "--theirs", str(export))
    assert code == 1, lines
    listed = {(line.split(": ")[0], line.split(": ")[1]) for line in lines[:-1]}
    expected = {
        (
            c["transaction_id"],
            "credit_not_delivered" if c["kind"] == "win" else "rollback_not_final",
        )
        for c in owed
    }
    # The wallet applied Erin's bet and never got its rollback: still applied there.
    expected.add((erins_bet["transaction_id"], "rolled_back_still_applied"))
    assert listed == expected

    await reference_wallet.clear_faults()
    await casino.delivered()
    export = write_lines(tmp_path / "later.jsonl", await reference_wallet.export())
    code, lines = await reconcile(database_url, "--operator", "acme", "--theirs", str(export))
    assert code == 0, lines
    assert lines[-1].startswith("reconciled ")


async def test_usage_errors(database_url: str, tmp_path: Path) -> None:
    export = write_lines(tmp_path / "empty.jsonl", [])
    code, lines = await reconcile(database_url, "--operator", "acme")
    assert code == 2
    assert any("--operator and --theirs go together" in line for line in lines)
    code, lines = await reconcile(database_url, "--operator", "nobody", "--theirs", str(export))
    assert code == 1
    assert any("no operator 'nobody'" in line for line in lines)
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"transaction_id": "a", "kind": "bet", "amount": 1}\n')
    code, lines = await reconcile(database_url, "--operator", "default", "--theirs", str(broken))
    assert code == 1
    assert any("line 1: no currency, status" in line for line in lines)


# -- the comparison, rule by rule ------------------------------------------------------------


def ours(tid: str, kind: str, status: str, amount: int = 100) -> OurTransaction:
    return OurTransaction(
        transaction_id=tid, kind=kind, amount=amount, currency="EUR", status=status
    )


def theirs(tid: str, kind: str, status: str, amount: int = 100) -> TheirTransaction:
    return TheirTransaction(
        transaction_id=tid, kind=kind, amount=amount, currency="EUR", status=status
    )


def codes(mine: list[OurTransaction], other: list[TheirTransaction]) -> list[tuple[str, str]]:
    return [(d.transaction_id, d.code) for d in compare(mine, other)]


@pytest.mark.parametrize(
    ("mine", "other", "expected"),
    [
        # What agrees.
        ([ours("b", "bet", "committed")], [theirs("b", "bet", "ok")], []),
        ([ours("b", "bet", "rolled_back")], [theirs("b", "bet", "rolled_back")], []),
        ([ours("b", "bet", "rolled_back")], [], []),  # never reached them
        ([ours("b", "bet", "refused")], [], []),
        ([ours("w", "win", "delivered")], [theirs("w", "win", "ok")], []),
        ([ours("r", "rollback", "delivered")], [theirs("r", "rollback", "ok")], []),
        ([ours("r", "rollback", "delivered")], [theirs("r", "rollback", "tombstone")], []),
        # Missing on either side.
        ([ours("b", "bet", "committed")], [], [("b", "missing_theirs")]),
        ([ours("w", "win", "delivered")], [], [("w", "missing_theirs")]),
        ([ours("r", "rollback", "delivered")], [], [("r", "missing_theirs")]),
        ([], [theirs("x", "win", "ok")], [("x", "missing_ours")]),
        # Differences.
        (
            [ours("b", "bet", "committed")],
            [theirs("b", "bet", "ok", amount=101)],
            [("b", "amount_differs")],
        ),
        ([ours("b", "bet", "committed")], [theirs("b", "win", "ok")], [("b", "kind_differs")]),
        (
            [ours("b", "bet", "rolled_back")],
            [theirs("b", "bet", "ok")],
            [("b", "rolled_back_still_applied")],
        ),
        (
            [ours("b", "bet", "committed")],
            [theirs("b", "bet", "rolled_back")],
            [("b", "status_differs")],
        ),
        ([ours("b", "bet", "refused")], [theirs("b", "bet", "ok")], [("b", "status_differs")]),
        # Not final at the game, whatever they have.
        ([ours("w", "win", "queued")], [], [("w", "credit_not_delivered")]),
        ([ours("w", "win", "manual")], [theirs("w", "win", "ok")], [("w", "credit_not_delivered")]),
        ([ours("r", "rollback", "queued")], [], [("r", "rollback_not_final")]),
        ([ours("r", "rollback", "manual")], [], [("r", "rollback_not_final")]),
        ([ours("b", "bet", "pending")], [], [("b", "bet_not_final")]),
        # Their side's own oddities.
        (
            [ours("b", "bet", "committed")],
            [theirs("b", "bet", "ok"), theirs("b", "bet", "ok")],
            [("b", "duplicate_theirs")],
        ),
        (
            [ours("b", "bet", "committed")],
            [theirs("b", "bet", "applied")],
            [("b", "unknown_status")],
        ),
    ],
)
def test_the_rules(
    mine: list[OurTransaction], other: list[TheirTransaction], expected: list[tuple[str, str]]
) -> None:
    assert codes(mine, other) == expected


def test_a_currency_difference_and_the_window() -> None:
    mine = [ours("b", "bet", "committed")]
    other = [
        TheirTransaction(transaction_id="b", kind="bet", amount=100, currency="USD", status="ok"),
        theirs("old", "win", "ok"),
    ]
    assert codes(mine, other) == [("b", "currency_differs"), ("old", "missing_ours")]
    assert [d.code for d in compare(mine, other, ours_elsewhere={"old"})] == ["currency_differs"]
    (found,) = compare(mine, other, ours_elsewhere={"old"})
    assert str(found) == "b: currency_differs: ours is in EUR, theirs in USD"


def test_exports_in_either_format() -> None:
    lines = (
        '{"transaction_id": "t1", "kind": "bet", "amount": 5, "currency": "EUR",'
        ' "status": "ok", "x": 1}\n\n'
    )
    table = "transaction_id,kind,amount,currency,status\nt1,bet,5,EUR,ok\n\n"
    expected = [theirs("t1", "bet", "ok", amount=5)]
    assert parse_export(lines) == expected
    assert parse_export(table) == expected
    assert parse_export("") == []
    for bad, message in [
        ("transaction_id,kind,amount\nt1,bet,5\n", "line 1: the CSV header lacks currency, status"),
        ("transaction_id,kind,amount,currency,status\nt1,bet,five,EUR,ok\n", "line 2: amount"),
        ('{"transaction_id": "t1"\n', "line 1: not JSON"),
        (
            '{"transaction_id": "t1", "kind": "bet", "amount": 1.5, "currency": "EUR",'
            ' "status": "ok"}',
            "line 1: amount",
        ),
    ]:
        with pytest.raises(ExportError, match=message):
            parse_export(bad)


def test_their_side_is_read_within_the_window_without_the_kits_calls() -> None:
    export = (
        '{"transaction_id": "ours-late", "kind": "bet", "amount": 5, "currency": "EUR",'
        ' "status": "ok", "created_at": "2026-03-02T00:00:05+00:00"}\n'
        '{"transaction_id": "before", "kind": "bet", "amount": 5, "currency": "EUR",'
        ' "status": "ok", "created_at": "2026-02-28T23:59:59+00:00"}\n'
        '{"transaction_id": "inside", "kind": "bet", "amount": 5, "currency": "EUR",'
        ' "status": "ok", "created_at": "2026-03-01T12:00:00"}\n'
        '{"transaction_id": "kit", "kind": "bet", "amount": 5, "currency": "EUR",'
        ' "status": "ok", "created_at": "2026-03-01T12:00:00+00:00", "source": "conformance"}\n'
        '{"transaction_id": "undated", "kind": "win", "amount": 0, "currency": "EUR",'
        ' "status": "ok"}\n'
    )
    rows = parse_export(export)
    assert rows[2].at is not None and rows[2].at.utcoffset() is not None  # no zone: UTC
    march_1 = (datetime(2026, 3, 1, tzinfo=UTC), datetime(2026, 3, 2, tzinfo=UTC))
    kept = [row.transaction_id for row in in_scope(rows, {"ours-late"}, march_1)]
    # The game's own (whatever the operator's clock says), what the operator applied that
    # day, what it did not date; not the day before, not the conformance kit's.
    assert kept == ["ours-late", "inside", "undated"]
    assert [r.transaction_id for r in in_scope(rows, set(), (None, None))] == [
        "ours-late",
        "before",
        "inside",
        "undated",
    ]
    with pytest.raises(ExportError, match="line 1: created_at 'soon'"):
        parse_export(export.replace("2026-03-02T00:00:05+00:00", "soon"))
