"""PostgreSQL failover under load, with real processes: a primary and a synchronous standby
(streaming replication, ``pg_basebackup -R``), one ``russian-poker serve`` given libpq's
multi-host URL over both (``target_session_attrs=read-write``), players of the default
operator (internal wallets) and of a seamless operator (the reference wallet, another
process) at the tables, live-stream clients watching.

Then the primary is lost, and the standby promoted:

* **silent**: a relay of the test's own between the service and the primary stops passing
  anything while keeping every connection open and taking new ones (a powered-off machine, a
  partition): nothing is refused, nothing reset;
* **killed**: ``kill -9`` of the primary's postmaster (connections refused from then on).

Meanwhile the default operator pays into a wallet, one deposit after another. The verdict,
on the promoted node: every acknowledged command and deposit is there and none applied
twice, nothing half applied, every read model equal to a rebuild, replay and reconciliation
clean, money conserved to the unit; the operator's ledger equals the game's record call by
call (the outbox delivered every owed call, once); ``audit verify-chain`` passes with the
served key. The service came back by itself, the same process, without a 500. The time from
the promotion to the first acknowledged command is printed (the figures in
docs/reliability.md), never asserted.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Final

import asyncpg
import httpx
import pytest

from tests.failover.cluster import Replicated
from tests.faults.books import check_books, check_watchers
from tests.faults.load import OPERATOR as OPERATOR_HEADERS
from tests.faults.load import Journal, Player, Watcher, open_casino, tables_of
from tests.operators.harness import launch, register
from tests.operators.processes import ADMIN, Deployment, staff
from tests.processes import (
    DatabaseProxy,
    ServiceProcess,
    eventually,
    token_headers,
    with_database,
)
from tests.wallet.reference import ReferenceWallet

TABLES: Final = tables_of(2, 3)
OPERATOR: Final = "acme"
SEAMLESS_TABLE: Final = f"{OPERATOR}.s1"
SEAMLESS_PLAYERS: Final = ("ann", "bob", "cat")
START: Final = 1_000_000
ROUNDS: Final = 5
BEFORE_FAULT: Final = 40
"""Commands acknowledged before the primary is lost."""
DATABASE: Final = "failover"
RUSSIAN_POKER: Final = Path(sys.executable).parent / "russian-poker"


async def _seamless_casino(
    client: httpx.AsyncClient, wallet: ReferenceWallet, journal: Journal, urls: list[str]
) -> list[Player]:
    """The seamless operator, its table and its players, ready to play."""
    wallet_config = {"mode": "seamless", "url": wallet.url, "secret": wallet.secret}
    await register(client, ADMIN, OPERATOR, {**wallet_config, "timeout_ms": 5000}, ["EUR"])
    operator = staff("operator", OPERATOR)
    r = await client.post(
        "/v1/tables", json={"table_id": SEAMLESS_TABLE, "preset": "russian"}, headers=operator
    )
    assert r.status_code == 201, r.text
    bots = []
    for seed, name in enumerate(SEAMLESS_PLAYERS):
        await wallet.set_player(name, "EUR", START)
        launched = await launch(client, operator, OPERATOR, name, "EUR")
        bots.append(
            Player(
                launched.game_id,
                SEAMLESS_TABLE,
                urls,
                client,
                journal,
                7000 + seed,
                headers=launched.headers,
            )
        )
    return bots


class Cashier:
    """The default operator paying into a player's wallet while the game goes on: a deposit
    of one unit at a time, each sent with the same ``transfer_id`` until it is answered
    (a 503 or no answer: sent again, as an operator's system must)."""

    def __init__(self, url: str, client: httpx.AsyncClient, wallet_id: str) -> None:
        self.url = url
        self.client = client
        self.wallet_id = wallet_id
        self.acknowledged: list[str] = []

    async def run(self, stop: asyncio.Event) -> None:
        number = 0
        while not stop.is_set():
            number += 1
            transfer = {"transfer_id": f"cash-{number}", "amount": 1}
            while True:
                try:
                    r = await self.client.post(
                        f"{self.url}/v1/wallets/{self.wallet_id}/deposits",
                        json=transfer,
                        headers=OPERATOR_HEADERS,
                    )
                except httpx.TransportError:
                    await asyncio.sleep(0.1)
                    continue
                if r.status_code == 503:
                    await asyncio.sleep(0.1)
                    continue
                assert r.status_code == 200, r.text
                self.acknowledged.append(transfer["transfer_id"])
                break
            await asyncio.sleep(0.05)


async def _each_transfer_once(url: str, transfers: list[str]) -> None:
    conn = await asyncpg.connect(url)
    try:
        counted = {
            r["transfer_id"]: r["n"]
            for r in await conn.fetch(
                "SELECT data->>'transfer_id' AS transfer_id, count(*) AS n FROM events"
                " WHERE event_type = 'FundsDeposited'"
                " AND starts_with(data->>'transfer_id', 'cash-') GROUP BY 1"
            )
        }
    finally:
        await conn.close()
    assert [t for t in transfers if counted.get(t) != 1] == []
    assert all(n == 1 for n in counted.values()), counted


def _verify_chain(url: str, public_key: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("RUSSIAN_POKER_")}
    return subprocess.run(
        [str(RUSSIAN_POKER), "audit", "verify-chain", "--public-key", str(public_key)],
        check=False,
        env={**env, "DATABASE_URL": url},
        capture_output=True,
        text=True,
        timeout=120,
    )


def _first_acknowledged_after(journal: Journal, moment: float) -> float | None:
    answered = [
        a.answered_at
        for a in journal.acknowledged.values()
        if a.answered_at is not None and a.sent_at >= moment
    ]
    return min(answered) if answered else None


@pytest.mark.parametrize("loss", ["silent", "killed"])
async def test_failover_under_load_loses_nothing_and_applies_nothing_twice(
    loss: str,
    replicated: Replicated,
    spawn: Callable[..., ServiceProcess],
    http: httpx.AsyncClient,
    reference_wallet: ReferenceWallet,
    tmp_path: Path,
) -> None:
    admin = await asyncpg.connect(replicated.primary.server_url)
    try:
        await admin.execute(f'CREATE DATABASE "{DATABASE}"')
    finally:
        await admin.close()
    relay = DatabaseProxy(replicated.primary.port)
    relay.start()
    try:
        url = (
            f"postgresql://postgres@127.0.0.1:{relay.port},127.0.0.1:{replicated.standby_port}"
            f"/{DATABASE}?target_session_attrs=read-write&connect_timeout=2"
        )
        service = spawn(
            "ha",
            url,
            env={
                "RUSSIAN_POKER_WALLET_BACKOFF_MAX_S": "0.2",
                "RUSSIAN_POKER_CHECKPOINT_EVERY_S": "2",
            },
        )
        await service.start_ready()
        pid = service.pid
        urls = [service.url]
        await open_casino(service.url, http, TABLES)
        journal = Journal()
        async with httpx.AsyncClient(base_url=service.url, timeout=60) as client:
            bots = [
                Player(name, table_id, urls, http, journal, 10 * t + i)
                for t, (table_id, names) in enumerate(TABLES.items())
                for i, name in enumerate(names)
            ]
            bots += await _seamless_casino(client, reference_wallet, journal, urls)
            watchers = [Watcher(table_id, urls, http) for table_id in TABLES]
            for watcher in watchers:
                watcher.start()
            load = asyncio.ensure_future(asyncio.gather(*(bot.run(ROUNDS) for bot in bots)))
            cashier = Cashier(service.url, http, next(iter(TABLES.values()))[0])
            cashier_done = asyncio.Event()
            paying = asyncio.ensure_future(cashier.run(cashier_done))
            try:
                await eventually(
                    lambda: len(journal.acknowledged) >= BEFORE_FAULT or load.done(),
                    timeout=120,
                    message="load before the fault",
                )
                assert not load.done(), load.result()
                lost_at = time.monotonic()
                if loss == "silent":
                    relay.silence()
                else:
                    await asyncio.to_thread(replicated.kill_primary)
                # The players meet the loss (answers 503, or none) before the promotion.
                await eventually(
                    lambda: any(
                        a.sent_at >= lost_at and (a.status is None or a.status == 503)
                        for a in journal.attempts
                    ),
                    timeout=60,
                    message="the players meeting the loss",
                )
                await replicated.promote()
                promoted_at = time.monotonic()
                await eventually(
                    lambda: _first_acknowledged_after(journal, promoted_at) is not None,
                    timeout=60,
                    message="a command acknowledged after the promotion",
                )
                back_at = _first_acknowledged_after(journal, promoted_at)
                assert back_at is not None
                await asyncio.wait_for(load, 300)
                cashier_done.set()
                await asyncio.wait_for(paying, 60)
                # The same process, never restarted; no 500 along the way.
                assert service.running and service.pids == [pid]
                assert journal.server_errors() == [], journal.server_errors()[:5]
                promoted = with_database(replicated.standby_url, DATABASE)
                seen = await check_watchers(promoted, watchers)
            finally:
                load.cancel()
                paying.cancel()
                for watcher in watchers:
                    await watcher.stop()
            public = await client.get(
                "/v1/audit/checkpoints/public-key", headers=token_headers("auditor", "lab")
            )
            assert public.status_code == 200, public.text
        books = await check_books(promoted, journal)
        await _each_transfer_once(promoted, cashier.acknowledged)

        pool = await asyncpg.create_pool(promoted, min_size=1, max_size=2)
        try:
            casino = Deployment([service], reference_wallet, pool)
            await casino.delivered(timeout=120)
            operator_books = await casino.books(
                OPERATOR, {f"{name}": START for name in SEAMLESS_PLAYERS}
            )
        finally:
            await pool.close()
        assert operator_books.of("bet", "committed") and operator_books.of("win")

        key = tmp_path / "checkpoint.pub.pem"
        key.write_text(public.json()["pem"])
        chain = _verify_chain(promoted, key)
        assert chain.returncode == 0, (chain.stdout, chain.stderr)
        assert " 0 finding(s)" in chain.stdout, chain.stdout
        assert "Exception in ASGI application" not in service.log_text()
        print(
            f"primary {loss}: {journal.commands()} commands sent, {books.acknowledged} "
            f"acknowledged, {len(cashier.acknowledged)} deposits acknowledged, "
            f"{len(journal.unavailable())} clean 503s, "
            f"{len(journal.unanswered())} unanswered; players met the loss, promotion "
            f"{promoted_at - lost_at:.2f} s after it; first command acknowledged "
            f"{back_at - promoted_at:.2f} s after the promotion; {books.rounds} rounds "
            f"replayed; {len(operator_books.ours)} operator calls agree; {seen} live states "
            f"in order; statuses {dict(journal.statuses())}"
        )
    finally:
        relay.close()
