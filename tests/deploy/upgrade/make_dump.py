"""Make ``before-0016.sql``: a database as the code before migration 0016 left it, for
``tests/deploy/test_upgrade.py`` to upgrade. Run by hand, once, against that code:

    git archive 9b253b9 | tar -x -C /tmp/before     # the last commit before 0016
    .venv/bin/python -m tests.deploy.upgrade.make_dump --source-root /tmp/before

It creates a database on the local server, serves it with the old tree's own CLI (a
subprocess, ``PYTHONPATH`` the old tree), plays through HTTP what a casino does — an
internal operator (wallets, deposits, an API key, sessions, two players, rounds settled,
won, folded and cancelled, one left mid-decision) and a seamless one against the reference
wallet (rounds settled and delivered, one left with a bet placed) — then stops the server
and writes the database with ``pg_dump --inserts``. The figures the test checks it keeps
(balances, rounds) are read from the dump itself, not from here.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Final

import asyncpg
import httpx

from tests.operators.harness import staff_of
from tests.processes import free_port
from tests.rules.scenario import deck_for
from tests.wallet.reference import ReferenceWallet

SECRET: Final = "upgrade-fixture-secret-0123456789abcdef"
"""The JWT secret the dump's server ran with (nothing signed with it is in the dump)."""
SERVER: Final = "postgresql://postgres@127.0.0.1:5432"
OUT: Final = Path(__file__).with_name("before-0016.sql")
TRIPS, JACKS, DEALER = "Qs Qd Qh 5c 7d", "Js Jd Jh 4c 8d", "9s 9c Ah Kd 2h"


def _admin() -> dict[str, str]:
    return staff_of(SECRET, "admin", "default", "root")


def _operator(operator_id: str) -> dict[str, str]:
    return staff_of(SECRET, "operator", operator_id, "staff")


class Driver:
    def __init__(self, client: httpx.AsyncClient) -> None:
        self.client = client
        self.keys = 0

    async def ok(self, method: str, path: str, headers: dict[str, str], **body: Any) -> Any:
        r = await self.client.request(method, path, headers=headers, json=body or None)
        assert r.status_code in (200, 201), (path, r.status_code, r.text)
        return r.json()

    async def player(self, operator_id: str, player_id: str) -> dict[str, str]:
        launched = await self.ok(
            "POST", "/v1/sessions", _operator(operator_id), player_id=player_id, currency="EUR"
        )
        return {"Authorization": f"Bearer {launched['session_token']}"}

    async def send(self, who: dict[str, str], table: str, kind: str, **fields: Any) -> Any:
        self.keys += 1
        r = await self.client.post(
            f"/v1/tables/{table}/commands",
            json={"type": kind, **fields},
            headers={**who, "Idempotency-Key": f"k{self.keys}"},
        )
        assert r.status_code == 200, (kind, r.text)
        return r.json()["table"]

    async def deck(self, table: str, cards: tuple[str, ...]) -> None:
        await self.ok("PUT", f"/v1/tables/{table}/test-deck", _admin(), cards=list(cards))


async def play(client: httpx.AsyncClient, wallet: ReferenceWallet) -> None:
    d = Driver(client)
    await d.ok("POST", "/v1/operators", _admin(), operator_id="acme", name="Acme",
               currencies=["EUR"], wallet={"mode": "internal"})  # fmt: skip
    seamless = {"mode": "seamless", "url": wallet.url, "secret": wallet.secret, "timeout_ms": 5000}
    await d.ok("POST", "/v1/operators", _admin(), operator_id="beta", name="Beta",
               currencies=["EUR"], wallet=seamless)  # fmt: skip
    await d.ok(
        "POST", "/v1/operators/acme/credentials", _admin(), role="operator", label="back office"
    )
    for player, amount in (("ann", 50_000), ("bob", 20_000)):
        await d.ok("POST", "/v1/wallets", _operator("acme"), wallet_id=player, currency="EUR")
        await d.ok("POST", f"/v1/wallets/{player}/deposits", _operator("acme"),
                   transfer_id=f"fund-{player}", amount=amount)  # fmt: skip
    await d.ok("POST", "/v1/wallets/bob/withdrawals", _operator("acme"),
               transfer_id="cash-out-bob", amount=1_000)  # fmt: skip
    await wallet.set_player("cy", "EUR", 30_000)
    ann, bob, cy = (
        await d.player("acme", "ann"),
        await d.player("acme", "bob"),
        await d.player("beta", "cy"),
    )

    two = deck_for([TRIPS, JACKS], DEALER)
    one = deck_for([TRIPS], DEALER)
    await d.ok("POST", "/v1/tables", _operator("acme"), table_id="vip", preset="russian",
               test_deck=list(two))  # fmt: skip
    await d.ok("POST", "/v1/tables", _operator("beta"), table_id="main", preset="oasis",
               test_deck=list(one))  # fmt: skip
    await d.send(ann, "acme.vip", "SitDown")
    await d.send(bob, "acme.vip", "SitDown")
    await d.send(cy, "beta.main", "SitDown")

    # acme.vip: a round both play (bonus on one), a round with a fold and a cancel, then
    # one left mid-decision.
    await d.send(ann, "acme.vip", "PlaceAnte", box=2, ante=200, bonus=100)
    await d.send(bob, "acme.vip", "PlaceAnte", box=1, ante=100)
    await d.send(ann, "acme.vip", "Deal")
    await d.send(bob, "acme.vip", "Deal")
    await d.deck("acme.vip", two)
    await d.send(ann, "acme.vip", "Play", box=2)
    await d.send(bob, "acme.vip", "Play", box=1)
    await d.send(bob, "acme.vip", "PlaceAnte", box=3, ante=100)
    await d.send(bob, "acme.vip", "CancelBets", box=3)
    await d.send(ann, "acme.vip", "PlaceAnte", box=2, ante=100)
    await d.send(bob, "acme.vip", "PlaceAnte", box=1, ante=300)
    await d.send(ann, "acme.vip", "Deal")
    await d.send(bob, "acme.vip", "Deal")
    await d.deck("acme.vip", one)
    await d.send(ann, "acme.vip", "Fold", box=2)
    await d.send(bob, "acme.vip", "Play", box=1)
    await d.send(ann, "acme.vip", "PlaceAnte", box=1, ante=100)
    await d.send(ann, "acme.vip", "Deal")  # ann's box waits for her decision

    # beta.main: two rounds settled and delivered, then a bet left placed.
    for _ in range(2):
        await d.send(cy, "beta.main", "PlaceAnte", box=1, ante=100)
        await d.send(cy, "beta.main", "Deal")
        await d.deck("beta.main", one)
        await d.send(cy, "beta.main", "Play", box=1)
    await d.send(cy, "beta.main", "PlaceAnte", box=1, ante=100)
    await _delivered(d)


async def _delivered(d: Driver) -> None:
    for _ in range(200):
        page = await d.ok("GET", "/v1/operators/beta/transactions?limit=1000", _admin())
        if not [t for t in page["transactions"] if t["status"] in ("queued", "pending")]:
            return
        await asyncio.sleep(0.1)
    raise AssertionError("the outbox did not deliver")


async def main(source_root: Path) -> None:
    name = f"upgrade_fixture_{os.getpid()}"
    admin = await asyncpg.connect(f"{SERVER}/postgres")
    await admin.execute(f'CREATE DATABASE "{name}"')
    await admin.execute('DROP DATABASE IF EXISTS "upgrade_fixture_wallet" WITH (FORCE)')
    await admin.execute('CREATE DATABASE "upgrade_fixture_wallet"')
    url = f"{SERVER}/{name}"
    port = free_port()
    with tempfile.TemporaryDirectory() as scratch:
        env = {
            **{k: v for k, v in os.environ.items() if not k.startswith("RUSSIAN_POKER_")},
            "DATABASE_URL": url,
            "RUSSIAN_POKER_JWT_SECRET": SECRET,
            "RUSSIAN_POKER_TEST_MODE": "1",
            "RUSSIAN_POKER_RATE_LIMIT": "0",
            "RUSSIAN_POKER_DATA_DIR": scratch,
            "PYTHONPATH": str(source_root),
        }
        server = subprocess.Popen(
            [sys.executable, "-c", "from service.cli import main; main()",
             "serve", "--port", str(port)],
            cwd=source_root, env=env,
        )  # fmt: skip
        wallet = ReferenceWallet(f"{SERVER}/upgrade_fixture_wallet", Path(scratch))
        try:
            await wallet.start_ready()
            async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=30) as c:
                deadline = time.monotonic() + 60
                while (await _ready(c)) is False:
                    assert time.monotonic() < deadline, "the old server did not start"
                    await asyncio.sleep(0.2)
                await play(c, wallet)
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=30)
            await wallet.stop()
    dump = subprocess.run(
        ["pg_dump", "--inserts", "--no-owner", "--no-privileges", "--no-comments", url],
        check=True, capture_output=True, text=True,
    ).stdout  # fmt: skip
    OUT.write_text(dump)
    await admin.execute(f'DROP DATABASE "{name}"')
    await admin.execute('DROP DATABASE "upgrade_fixture_wallet"')
    await admin.close()
    print(f"wrote {OUT} ({len(dump):,} bytes)")


async def _ready(client: httpx.AsyncClient) -> bool:
    try:
        return (await client.get("/health/ready")).status_code == 200
    except httpx.TransportError:
        return False


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source-root", type=Path, required=True)
    asyncio.run(main(parser.parse_args().source_root))
