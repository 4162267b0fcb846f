"""Appends per second: single-event appends from N concurrent connections.

    PYTHONPATH=. .venv/bin/python benchmarks/event_store_append.py \
        [--url URL] [--connections 8] [--seconds 5] [--mode MODE ...]

Runs against a scratch database created on the server at ``--url`` (default: the local
server) and dropped afterwards. Each connection appends to its own stream with an exact
expected version, the common case for a table's command path. Modes:

- ``autocommit``: ``append`` outside a transaction; it notifies after its commit.
- ``in-transaction``: inside a caller's transaction, notifying from it (the default there).
- ``notify-after``: inside a caller's transaction with ``notify=False``, then ``notify``.
- ``silent``: outside a transaction, no notification at all (the floor).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
import uuid
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from russian_poker.events.postgres.migrate import migrate
from russian_poker.events.postgres.pool import create_pool
from russian_poker.events.postgres.store import NewEvent, StreamAppend, append, notify

DEFAULT_URL = "postgresql://postgres@127.0.0.1:5432/postgres"
PAYLOAD = b'{"box":1,"action":"raise","amount":{"units":2000,"currency":"EUR"}}'
MODES = ("autocommit", "in-transaction", "notify-after", "silent")


async def _appender(
    pool: asyncpg.Pool[asyncpg.Record],
    mode: str,
    stream_id: str,
    deadline: float,
    latencies: list[float],
) -> int:
    version = 0
    async with pool.acquire() as conn:
        while time.perf_counter() < deadline:
            event = NewEvent(
                event_id=uuid.uuid4(), event_type="BoxRaised", schema_version=1, data=PAYLOAD
            )
            appends = [StreamAppend(stream_id=stream_id, expected_version=version, events=[event])]
            started = time.perf_counter()
            if mode in ("autocommit", "silent"):
                await append(conn, appends, notify=mode == "autocommit")
            else:
                async with conn.transaction():
                    await append(conn, appends, notify=mode == "in-transaction")
                if mode == "notify-after":
                    await notify(conn, [stream_id])
            latencies.append(time.perf_counter() - started)
            version += 1
    return version


async def _measure(url: str, mode: str, connections: int, seconds: float) -> None:
    pool = await create_pool(url, min_size=connections, max_size=connections)
    try:
        latencies: list[float] = []
        deadline = time.perf_counter() + seconds
        started = time.perf_counter()
        counts = await asyncio.gather(
            *(_appender(pool, mode, f"{mode}-{i}", deadline, latencies) for i in range(connections))
        )
        elapsed = time.perf_counter() - started
    finally:
        await pool.close()
    total = sum(counts)
    quantiles = statistics.quantiles(latencies, n=100)
    print(
        f"{mode:>15}: {connections} connections, {total:6d} appends in {elapsed:.1f} s = "
        f"{total / elapsed:7,.0f}/s; latency p50 {quantiles[49] * 1000:5.2f} ms, "
        f"p99 {quantiles[98] * 1000:5.2f} ms"
    )


async def run(url: str, modes: list[str], connections: int, seconds: float) -> None:
    name = f"bench_{uuid.uuid4().hex[:12]}"
    admin = await asyncpg.connect(url)
    await admin.execute(f'CREATE DATABASE "{name}"')
    try:
        target = urlunsplit(urlsplit(url)._replace(path=f"/{name}"))
        conn = await asyncpg.connect(target)
        await migrate(conn)
        await conn.close()
        for mode in modes:
            await _measure(target, mode, connections, seconds)
    finally:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default=DEFAULT_URL)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--mode", choices=MODES, action="append", dest="modes")
    args = parser.parse_args()
    asyncio.run(run(args.url, args.modes or list(MODES), args.connections, args.seconds))


if __name__ == "__main__":
    main()
