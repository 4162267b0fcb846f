"""The hash chain's cost: append throughput with the chain trigger and without, same run.

    PYTHONPATH=. .venv/bin/python benchmarks/chain.py \
        [--url URL] [--writers 8] [--seconds 5] [--rounds 5] [--events 2] \
        [--synchronous-commit on|off]

Two scratch databases are created on the server at ``--url`` (default: the local server)
and dropped afterwards, both fully migrated; in the second the ``events_chain`` trigger is
disabled (``ALTER TABLE events DISABLE TRIGGER events_chain``, and the hash columns made
nullable), which is the store as it was before migration 0010. Each round measures both,
alternating which goes first, with ``--writers`` connections appending ``--events`` events
per append to a stream of their own (exact expected version, the command path's case).
Reported: the median over the rounds of appends/s and events/s, their ratio, and the
median of each round's ratio (both measured a few seconds apart: robust to a machine
whose load drifts). Then
``verify-chain`` over everything the chained database holds (events/s) and one checkpoint.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
import uuid
from urllib.parse import urlsplit, urlunsplit

import asyncpg
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from russian_poker.events.postgres.chain import ChainStore
from russian_poker.events.postgres.migrate import migrate
from russian_poker.events.postgres.pool import create_pool
from russian_poker.events.postgres.store import NewEvent, StreamAppend, append
from russian_poker.service.chain.checkpoints import make_checkpoint
from russian_poker.service.chain.verify import verify_chain

DEFAULT_URL = "postgresql://postgres@127.0.0.1:5432/postgres"
PAYLOAD = b'{"box":1,"action":"raise","amount":{"units":2000,"currency":"EUR"}}'
_UNCHAIN = """
ALTER TABLE events DISABLE TRIGGER events_chain;
ALTER TABLE events ALTER COLUMN prev_hash DROP NOT NULL, ALTER COLUMN hash DROP NOT NULL;
"""


async def _writer(
    pool: asyncpg.Pool[asyncpg.Record], stream: str, events: int, deadline: float
) -> int:
    version = 0
    async with pool.acquire() as conn:
        while time.perf_counter() < deadline:
            batch = [
                NewEvent(
                    event_id=uuid.uuid4(), event_type="BoxRaised", schema_version=1, data=PAYLOAD
                )
                for _ in range(events)
            ]
            await append(
                conn,
                [StreamAppend(stream_id=stream, expected_version=version, events=batch)],
                notify=False,
            )
            version += events
    return version // events


async def _measure(url: str, label: str, writers: int, events: int, seconds: float) -> float:
    """Appends per second from ``writers`` connections over ``seconds``."""
    pool = await create_pool(url, min_size=writers, max_size=writers)
    try:
        run = uuid.uuid4().hex[:8]
        started = time.perf_counter()
        deadline = started + seconds
        counts = await asyncio.gather(
            *(_writer(pool, f"{label}-{run}-{i}", events, deadline) for i in range(writers))
        )
        return sum(counts) / (time.perf_counter() - started)
    finally:
        await pool.close()


async def _database(admin: asyncpg.Connection[asyncpg.Record], url: str, sync: str) -> str:
    name = f"bench_chain_{uuid.uuid4().hex[:12]}"
    await admin.execute(f'CREATE DATABASE "{name}"')
    await admin.execute(f'ALTER DATABASE "{name}" SET synchronous_commit = {sync}')
    target = urlunsplit(urlsplit(url)._replace(path=f"/{name}"))
    conn = await asyncpg.connect(target)
    try:
        await migrate(conn)
    finally:
        await conn.close()
    return name


_LOOP = """
DO $$ BEGIN
    FOR v IN 1..5000 LOOP
        INSERT INTO events (stream_id, stream_version, event_id, event_type, schema_version, data)
        VALUES ('%s', v, gen_random_uuid(), 'BoxRaised', 1, '%s');
    END LOOP;
END $$
"""


async def _per_insert(url: str, rounds: int) -> None:
    """The trigger's own cost: 5,000 single-row INSERTs in one DO block (no round trips, no
    commits), with the trigger and without, alternating; best of ``rounds``."""
    conn = await asyncpg.connect(url)
    try:
        best = {"ENABLE": float("inf"), "DISABLE": float("inf")}
        for number in range(rounds):
            for mode in ("ENABLE", "DISABLE"):
                await conn.execute(f"ALTER TABLE events {mode} TRIGGER events_chain")
                started = time.perf_counter()
                await conn.execute(_LOOP % (f"loop-{mode}-{number}", PAYLOAD.decode()))
                best[mode] = min(best[mode], (time.perf_counter() - started) / 5000)
        await conn.execute("ALTER TABLE events DISABLE TRIGGER events_chain")
    finally:
        await conn.close()
    with_, without = best["ENABLE"] * 1e6, best["DISABLE"] * 1e6
    print(
        f"per insert: {with_:.1f} µs with the trigger, {without:.1f} µs without "
        f"(+{with_ - without:.1f} µs)"
    )


async def run(url: str, writers: int, seconds: float, rounds: int, events: int, sync: str) -> None:
    admin = await asyncpg.connect(url)
    names = [await _database(admin, url, sync), await _database(admin, url, sync)]
    targets = [urlunsplit(urlsplit(url)._replace(path=f"/{n}")) for n in names]
    try:
        plain = await asyncpg.connect(targets[1])
        await plain.execute(_UNCHAIN)
        await plain.close()
        rates: dict[str, list[float]] = {"chain": [], "no chain": []}
        for number in range(rounds):
            order = [("chain", targets[0]), ("no chain", targets[1])]
            for label, target in order if number % 2 == 0 else order[::-1]:
                rate = await _measure(target, label.replace(" ", ""), writers, events, seconds)
                rates[label].append(rate)
            print(
                f"round {number + 1}: chain {rates['chain'][-1]:7,.0f} appends/s, "
                f"no chain {rates['no chain'][-1]:7,.0f} appends/s"
            )
        medians = {label: statistics.median(values) for label, values in rates.items()}
        for label, median in medians.items():
            print(
                f"{label:>9}: median {median:7,.0f} appends/s = {median * events:7,.0f} events/s "
                f"({writers} writers, {events} events per append, synchronous_commit={sync})"
            )
        paired = [c / n for c, n in zip(rates["chain"], rates["no chain"], strict=True)]
        print(
            f"    ratio: chain / no chain = {medians['chain'] / medians['no chain']:.3f} "
            f"(of the medians); median of the rounds' ratios {statistics.median(paired):.3f}"
        )

        await _per_insert(targets[1], rounds)
        conn = await asyncpg.connect(targets[0])
        try:
            key = Ed25519PrivateKey.generate()
            started = time.perf_counter()
            made = await make_checkpoint(ChainStore(conn), key)
            took = time.perf_counter() - started
            assert made is not None
            print(f"checkpoint: {made.leaf_count} stream heads in {took * 1000:.0f} ms")
            report = await verify_chain(ChainStore(conn), [key.public_key()])
            assert not report.findings, report.findings[:3]
            print(
                f"verify-chain: {report.events:,} events in {report.streams:,} streams in "
                f"{report.seconds:.2f} s = {report.events_per_second:,.0f} events/s"
            )
        finally:
            await conn.close()
    finally:
        for name in names:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default=DEFAULT_URL)
    parser.add_argument("--writers", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--events", type=int, default=2, help="events per append")
    parser.add_argument("--synchronous-commit", choices=("on", "off"), default="on")
    args = parser.parse_args()
    asyncio.run(
        run(
            args.url,
            args.writers,
            args.seconds,
            args.rounds,
            args.events,
            args.synchronous_commit,
        )
    )


if __name__ == "__main__":
    main()
