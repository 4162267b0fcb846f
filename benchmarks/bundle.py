"""Audit bundles: `audit bundle` and `audit verify-bundle` throughput (rounds/s), against the
live audit of the same rounds measured in the same run (replay --verify and reconcile on the
database), on a synthetic day of bot play.

    PYTHONPATH=. .venv/bin/python benchmarks/bundle.py [--url URL] [--tables 20] \
        [--rounds 5000] [--repeat 3] [--keep DIR] [--keep-database | --database NAME]

A scratch database is created on the server at ``--url`` (default: the local server,
``synchronous_commit = off``: durability is not what is measured), ``--tables`` tables play
``--rounds`` rounds each with the audit tests' bots (every preset, exchanges, sixth cards,
insurance, dealer draws, paytable changes), and one checkpoint is signed. Then, ``--repeat``
times: the bundle is written (a fresh directory each time), verified from its files, and
the same rounds are replayed and reconciled on the database. Reported: medians, rounds/s,
and verify-bundle's time over the live replay + reconcile's. The database is dropped,
unless ``--keep-database``: a later run then measures it again with ``--database NAME``
(nothing played), so a long day is played once and measured on a quiet machine. The
checkpoint key is derived from the database's name (a benchmark's key, nothing to keep).
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import logging
import shutil
import statistics
import tempfile
import time
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import structlog
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from russian_poker.events.postgres.bundle import BundleStore
from russian_poker.events.postgres.chain import ChainStore
from russian_poker.events.postgres.migrate import migrate
from russian_poker.events.postgres.pool import create_pool
from russian_poker.events.postgres.reconcile import ReconcileStore
from russian_poker.events.postgres.replay import ReplayStore
from russian_poker.service.audit.bundle.verify import verify_bundle
from russian_poker.service.audit.bundle.write import write_bundle
from russian_poker.service.audit.reconcile import reconcile
from russian_poker.service.audit.replay import select_rounds, verify_rounds
from russian_poker.service.bootstrap import command_service, transfer_service
from russian_poker.service.chain.checkpoints import make_checkpoint
from russian_poker.service.software import installed
from tests.audit.bots import default_plans, fund_players, play_tables

DEFAULT_URL = "postgresql://postgres@127.0.0.1:5432/postgres"


def _with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{name}"))


def _key(name: str) -> Ed25519PrivateKey:
    return Ed25519PrivateKey.from_private_bytes(hashlib.sha256(name.encode()).digest())


async def _play(url: str, name: str, args: argparse.Namespace) -> None:
    """A fresh database ``name`` with a day of bot play and one checkpoint over it."""
    admin = await asyncpg.connect(url)
    await admin.execute(f'CREATE DATABASE "{name}"')
    await admin.execute(f'ALTER DATABASE "{name}" SET synchronous_commit = off')
    await admin.close()
    conn = await asyncpg.connect(_with_database(url, name))
    await migrate(conn)
    await conn.close()
    pool = await create_pool(_with_database(url, name), min_size=2, max_size=16)
    plans = default_plans(args.tables)
    await fund_players(transfer_service(pool), plans)
    started = time.perf_counter()
    rounds, commands = await play_tables(command_service(pool), pool, plans, args.rounds)
    took = time.perf_counter() - started
    print(f"played {rounds:,} rounds ({commands:,} commands) in {took:.0f} s into {name}")
    await make_checkpoint(ChainStore(pool), _key(name), allow_empty=True)
    await pool.close()


async def main(args: argparse.Namespace) -> None:
    name = args.database or f"bench_bundle_{uuid.uuid4().hex[:8]}"
    root = Path(args.keep or tempfile.mkdtemp(prefix="bundle-bench-"))
    try:
        if not args.database:
            await _play(args.url, name, args)
        await _measure(args, name, root)
    finally:
        if not (args.database or args.keep_database):
            admin = await asyncpg.connect(args.url)
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            await admin.close()
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)


async def _measure(args: argparse.Namespace, name: str, root: Path) -> None:
    key = _key(name)
    # The audit tools' own limit (service.database.on_the_store): reconciliation folds in
    # Python between the statements of one snapshot, longer than the service's 10 s allow.
    pool = await create_pool(
        _with_database(args.url, name),
        min_size=2,
        max_size=16,
        idle_in_transaction_timeout=3600,
        command_timeout=None,
    )
    try:
        async with pool.acquire() as c:
            rounds = sum(len(n) for n in (await select_rounds(ReplayStore(c)))[0].values())
        written, verified, live = [], [], []
        for attempt in range(args.repeat):
            out = root / f"bundle-{attempt}"
            t0 = time.perf_counter()
            summary = await write_bundle(
                BundleStore(pool), key, out, start=None, end=None, software=installed()
            )
            t1 = time.perf_counter()
            report = await verify_bundle(out, [key.public_key()])
            t2 = time.perf_counter()
            async with pool.acquire() as c:
                selection, _ = await select_rounds(ReplayStore(c))
                replayed = await verify_rounds(ReplayStore(c), selection)
            books = await reconcile(ReconcileStore(pool))
            t3 = time.perf_counter()
            assert not report.findings and not replayed.differences and not books.mismatches
            written.append(t1 - t0)
            verified.append(t2 - t1)
            live.append(t3 - t2)
            size = sum(p.stat().st_size for p in out.iterdir())
            print(
                f"run {attempt + 1}: bundle {t1 - t0:.1f} s ({summary.events:,} events,"
                f" {size / 2**20:.0f} MiB), verify-bundle {t2 - t1:.1f} s,"
                f" live replay + reconcile {t3 - t2:.1f} s"
            )
            if not args.keep:
                shutil.rmtree(out)
        w, v, b = (statistics.median(x) for x in (written, verified, live))
        print(
            f"medians of {args.repeat}: {rounds:,} rounds; bundle {w:.1f} s ({rounds / w:,.0f}"
            f" rounds/s), verify-bundle {v:.1f} s ({rounds / v:,.0f} rounds/s), live replay +"
            f" reconcile {b:.1f} s ({rounds / b:,.0f} rounds/s); verify-bundle / live"
            f" {v / b:.2f}"
        )
    finally:
        await pool.close()


if __name__ == "__main__":
    # A log line per command would be most of what the play phase measures.
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default=DEFAULT_URL)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=5000, help="rounds per table")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--keep", help="keep the bundles in this directory")
    kept = parser.add_mutually_exclusive_group()
    kept.add_argument("--keep-database", action="store_true", help="leave the played database")
    kept.add_argument("--database", help="measure this kept database (nothing is played)")
    asyncio.run(main(parser.parse_args()))
