"""A database made by the code before migration 0016 upgrades, keeps every cent and every
round, passes the audit, and plays on.

``upgrade/before-0016.sql`` was written by ``tests/deploy/upgrade/make_dump.py`` with the
last commit before 0016 serving it (its docstring says how): two operators, one internal and
one seamless, rounds settled, a round left mid-decision and a bet left placed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Final

import asyncpg
import httpx
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from russian_poker.service.app import create_app
from russian_poker.service.settings import Settings
from tests.api.live_server import serving
from tests.deploy.upgrade.make_dump import SECRET
from tests.operators.harness import staff_of
from tests.processes import eventually

DUMP: Final = Path(__file__).parent / "upgrade" / "before-0016.sql"
RUSSIAN_POKER: Final = str(Path(sys.executable).parent / "russian-poker")


async def _restore(url: str) -> None:
    # psql's own meta-commands (\restrict) are not SQL.
    script = "\n".join(line for line in DUMP.read_text().splitlines() if not line.startswith("\\"))
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(script)
    finally:
        await conn.close()


async def _books(url: str) -> dict[str, Any]:
    """What an upgrade must keep: balances, ledger, events, rounds and money calls."""
    conn = await asyncpg.connect(url)
    try:
        return {
            "wallets": await conn.fetch("SELECT wallet_id, balance FROM wallets ORDER BY 1"),
            "ledger": await conn.fetchval("SELECT count(*) FROM ledger"),
            "events": await conn.fetchval("SELECT max(global_position) FROM events"),
            "rounds": await conn.fetch("SELECT table_id, round FROM rounds ORDER BY 1, 2"),
            "calls": await conn.fetch(
                "SELECT transaction_id, status FROM wallet_transactions ORDER BY seq"
            ),
        }
    finally:
        await conn.close()


def _cli(url: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("RUSSIAN_POKER_")}
    return subprocess.run(
        [RUSSIAN_POKER, *args],
        check=False,
        env={**env, "DATABASE_URL": url},
        capture_output=True,
        text=True,
        timeout=120,
    )


async def test_a_database_made_before_0016_upgrades_keeps_its_books_and_plays_on(
    scratch_database: str, tmp_path: Path
) -> None:
    url = scratch_database
    await _restore(url)
    before = await _books(url)
    assert before["rounds"] and before["calls"]  # the dump is what it says

    migrated = _cli(url, "migrate")
    assert migrated.returncode == 0, migrated.stderr
    for applied in ("0016_unused_tables", "0017_ruleset_theory", "0018_audit_record_refold"):
        assert applied in migrated.stdout
    assert await _books(url) == before
    conn = await asyncpg.connect(url)
    try:
        tables = {r["tablename"] for r in await conn.fetch("SELECT tablename FROM pg_tables")}
    finally:
        await conn.close()
    assert {"idempotency_keys", "snapshots"}.isdisjoint(tables)
    assert "ruleset_theory" in tables

    # The upgraded store passes the audit as it stands (it holds no signed checkpoint: any
    # key will do for the chain's links).
    key = tmp_path / "checkpoint.pub.pem"
    key.write_bytes(
        Ed25519PrivateKey.generate()
        .public_key()
        .public_bytes(Encoding.PEM, PublicFormat.SubjectPublicKeyInfo)
    )
    for check, said in (
        (("replay", "--verify", "--all"), "verified 4 of 4 round(s)"),
        (("reconcile",), " 0 mismatch(es)"),
        (("projections", "rebuild"), "identical to the live model"),
        (("audit", "verify-chain", "--public-key", str(key)), " 0 finding(s)"),
    ):
        done = _cli(url, *check)
        assert done.returncode == 0, (check, done.stdout, done.stderr)
        assert said in done.stdout, (check, done.stdout)

    # And the game plays on: the round left mid-decision settles, with its money.
    settings = Settings(
        database_url=url,
        jwt_secret=SECRET,
        test_mode=True,
        data_dir=str(tmp_path),
        clock=False,
        outbox=False,  # the seamless operator's wallet is not running any more
        rate_limit=0,
    )
    app = create_app(settings)
    admin = staff_of(SECRET, "admin", "default", "root")
    acme = staff_of(SECRET, "operator", "acme", "staff")
    async with serving(app) as base, httpx.AsyncClient(base_url=base, timeout=30) as client:
        lobby = (await client.get("/v1/tables", headers=admin)).json()
        assert {t["table_id"] for t in lobby} == {"acme.vip", "beta.main"}
        held = (await client.get("/v1/wallets/ann", headers=acme)).json()["balance"]
        launched = await client.post(
            "/v1/sessions", json={"player_id": "ann", "currency": "EUR"}, headers=acme
        )
        ann = {"Authorization": f"Bearer {launched.json()['session_token']}"}
        view = (await client.get("/v1/tables/acme.vip", headers=ann)).json()
        [box] = [b for b in view["round"]["boxes"] if b["yours"]]
        assert box["actions"] and box["ante"] == 100
        played = await client.post(
            "/v1/tables/acme.vip/commands",
            json={"type": "Play", "box": box["box"]},
            headers={**ann, "Idempotency-Key": "after-upgrade"},
        )
        assert played.status_code == 200, played.text
        [settled] = [b for b in played.json()["table"]["previous_round"]["boxes"] if b["yours"]]
        after = (await client.get("/v1/wallets/ann", headers=acme)).json()["balance"]
        # The ante was taken before the upgrade; the net counts it.
        assert after == held + settled["result"]["net"] + box["ante"]
        calls = (await client.get("/v1/operators/beta/transactions", headers=admin)).json()
        open_bet = calls["items"][-1]
        assert (open_bet["kind"], open_bet["status"]) == ("bet", "committed")

        # 0018 emptied the audit trail: the runner folds the events again, into records
        # that have what the old ones lacked (the order the boxes were dealt in).
        async def refolded() -> bool:
            r = await client.get("/v1/audit/rounds/acme.vip/1", headers=admin)
            return r.status_code == 200 and r.json()["record"]["deal"] == [2, 1]

        await eventually(refolded, message="the audit trail folded again")
