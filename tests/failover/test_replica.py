"""Reads from a real streaming replica (``RUSSIAN_POKER_READ_DATABASE_URL``), with reading
one's own writes by version: the standby's WAL replay is paused, so what it answers is
provably its own (older) state; a read naming the version just written is answered from the
primary. When replay resumes the replica catches up, and its audit feed (the xid8 reader on
a hot standby) equals the primary's, item for item."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import asyncpg
import httpx
import msgspec

from russian_poker.events.postgres.audit import AuditStore
from russian_poker.projections.audit_feed import audit_feed
from tests.failover.cluster import Replicated
from tests.faults.load import OPERATOR, open_casino, tables_of
from tests.processes import ServiceProcess, eventually, token_headers, with_database

DATABASE = "replicated_reads"
PLAYER = token_headers("player", "t0p0")
AUDITOR = token_headers("auditor", "lab")


async def _sql(url: str, query: str) -> Any:
    conn = await asyncpg.connect(url)
    try:
        return await conn.fetchval(query)
    finally:
        await conn.close()


async def _command(http: httpx.AsyncClient, base: str, key: str, body: object) -> int:
    r = await http.post(
        f"{base}/v1/tables/t0/commands", json=body, headers={**PLAYER, "Idempotency-Key": key}
    )
    assert r.status_code == 200, r.text
    version: int = r.json()["table"]["version"]
    return version


async def test_reads_come_from_the_replica_and_your_writes_from_the_primary(
    replicated: Replicated, spawn: Callable[..., ServiceProcess], http: httpx.AsyncClient
) -> None:
    await _sql(replicated.primary.server_url, f'CREATE DATABASE "{DATABASE}"')
    primary = replicated.primary.url(DATABASE)
    standby = with_database(replicated.standby_url, DATABASE)
    service = spawn("reads", primary, env={"RUSSIAN_POKER_READ_DATABASE_URL": standby})
    await service.start_ready()
    base = service.url
    await open_casino(base, http, tables_of(1, 1))
    first = await _command(http, base, "sit", {"type": "SitDown"})

    async def replica_at(version: int) -> bool:
        r = await http.get(f"{base}/v1/tables/t0", headers=PLAYER)
        return r.status_code == 200 and r.json()["version"] >= version

    await eventually(lambda: replica_at(first), message="the replica replaying the sit-down")

    # The standby stops replaying: what it answers from now on is its own, older state.
    await _sql(standby, "SELECT pg_wal_replay_pause()")
    try:
        latest = await _command(http, base, "bet", {"type": "PlaceAnte", "box": 1, "ante": 100})
        deposit = await http.post(
            f"{base}/v1/wallets/t0p0/deposits",
            json={"transfer_id": "more", "amount": 500},
            headers=OPERATOR,
        )
        assert deposit.status_code == 200, deposit.text
        stale = (await http.get(f"{base}/v1/tables/t0", headers=PLAYER)).json()
        assert stale["version"] == first < latest  # the replica's
        fresh = await http.get(
            f"{base}/v1/tables/t0", params={"min_version": latest}, headers=PLAYER
        )
        assert fresh.json()["version"] == latest  # the primary's: the caller's own write
        assert fresh.json()["round"]["boxes"][0]["ante"] == 100

        wallet = (await http.get(f"{base}/v1/wallets/t0p0", headers=OPERATOR)).json()
        written = await http.get(
            f"{base}/v1/wallets/t0p0",
            params={"min_version": wallet["version"] + 2},
            headers=OPERATOR,
        )
        assert written.json()["balance"] == wallet["balance"] - 100 + 500
        ledger = await http.get(
            f"{base}/v1/wallets/t0p0/ledger",
            params={"min_version": wallet["version"] + 2},
            headers=OPERATOR,
        )
        assert [e["kind"] for e in ledger.json()["items"][:2]] == [
            "FundsDeposited",
            "WalletDebited",
        ]
        lobby = (await http.get(f"{base}/v1/tables", headers=OPERATOR)).json()
        assert [t["table_id"] for t in lobby] == ["t0"]
    finally:
        await _sql(standby, "SELECT pg_wal_replay_resume()")

    await eventually(lambda: replica_at(latest), message="the replica catching up")

    # The audit feed read on the hot standby is the primary's, item for item.
    async def same_feed() -> bool:
        served = (await http.get(f"{base}/v1/audit/feed?limit=1000", headers=AUDITOR)).json()
        conn = await asyncpg.connect(primary)
        try:
            own = await audit_feed(AuditStore(conn), None, 1000)
        finally:
            await conn.close()
        mine = msgspec.json.decode(msgspec.json.encode(own))
        return bool(served["items"]) and served["items"] == mine["items"]

    await eventually(same_feed, message="the replica's feed equal to the primary's")
    assert "Exception in ASGI application" not in service.log_text()
