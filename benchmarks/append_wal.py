"""WAL and PostgreSQL time of the command's append statement, by command type and by CTE.

    PYTHONPATH=. .venv/bin/python benchmarks/append_wal.py [--url URL] [--rounds 40] [--cte]

Plays ``--rounds`` rounds of 2 players at one table through the command service (antes,
both players' deal requests, plays, declined dealer draws) on a scratch database created
on the server at ``--url`` (default: the local one) and dropped afterwards. Every append
statement the command path sends is first run under ``EXPLAIN (ANALYZE, BUFFERS, WAL)`` in
a transaction that is rolled back, then for real. A statement's WAL is the sum of its CTEs'
(the commit record not included); statements that wrote a full-page image (a checkpoint
had just passed) are left out of the means, which they would measure instead of the
command. ``--cte`` lists each CTE of the last statement of every command type. Run by hand;
see docs/benchmarks.md, "Smaller writes (issue 15)". Other sessions' load changes the times,
not the WAL.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import statistics
import uuid
from collections import defaultdict
from dataclasses import dataclass
from typing import Any, ClassVar

import asyncpg
import structlog

from russian_poker.events.commands import (
    Actor,
    Deal,
    DeclineDealerExchange,
    OpenTable,
    PlaceAnte,
    Play,
    SitDown,
)
from russian_poker.events.postgres.migrate import migrate
from russian_poker.service.bootstrap import command_service, transfer_service
from russian_poker.service.rules.errors import RuleViolation
from russian_poker.service.rules.presets import make_ruleset
from russian_poker.service.rules.state import Table

DEFAULT_URL = "postgresql://postgres@127.0.0.1:5432/postgres"
OPERATOR = Actor(role="operator", id="operator")
PLAYERS = (Actor(role="player", id="p1"), Actor(role="player", id="p2"))
TYPES = ("PlaceAnte", "Deal", "Play", "DeclineDealerExchange")


@dataclass(frozen=True)
class Cte:
    name: str
    ms: float
    wal_bytes: int
    wal_records: int


@dataclass(frozen=True)
class Measured:
    execution_ms: float
    planning_ms: float
    wal_bytes: int
    wal_records: int
    full_page_images: int
    ctes: tuple[Cte, ...]


class _Recorder:
    label: ClassVar[str] = "setup"
    found: ClassVar[dict[str, list[Measured]]] = defaultdict(list)


class _Explaining(asyncpg.Connection):
    """Explains every append statement (rolled back) before running it."""

    async def fetch(  # type: ignore[override]  # one signature for asyncpg's overloads
        self, query: str, *args: Any, timeout: float | None = None
    ) -> Any:
        if "event_store_append" in query and not query.startswith("EXPLAIN"):
            transaction = self.transaction()
            await transaction.start()
            try:
                plan = await super().fetch(
                    "EXPLAIN (ANALYZE, BUFFERS, WAL, FORMAT JSON) " + query, *args
                )
            finally:
                await transaction.rollback()
            _Recorder.found[_Recorder.label].append(_measured(json.loads(plan[0][0])[0]))
        return await super().fetch(query, *args, timeout=timeout)


def _measured(explained: dict[str, Any]) -> Measured:
    top = explained["Plan"]
    # Every CTE is a child of the top node; their WAL counts include their own subtrees.
    ctes = tuple(
        Cte(
            name=node.get("Subplan Name", node["Node Type"]),
            ms=node.get("Actual Total Time", 0.0),
            wal_bytes=node.get("WAL Bytes", 0),
            wal_records=node.get("WAL Records", 0),
        )
        for node in top.get("Plans", [])
    ) or (Cte("statement", top["Actual Total Time"], top["WAL Bytes"], top["WAL Records"]),)
    return Measured(
        execution_ms=explained["Execution Time"],
        planning_ms=explained["Planning Time"],
        wal_bytes=sum(c.wal_bytes for c in ctes),
        wal_records=sum(c.wal_records for c in ctes),
        full_page_images=sum(n.get("WAL FPI", 0) for n in top.get("Plans", [top])),
        ctes=ctes,
    )


async def _play(pool: asyncpg.Pool[asyncpg.Record], rounds: int) -> None:
    handler, wallets = command_service(pool), transfer_service(pool)

    async def send(command: Any, actor: Actor) -> Table | None:
        _Recorder.label = type(command).__name__
        try:
            _, state = await handler.execute_with_state("t1", command, actor)
        except RuleViolation:
            return None
        return state

    for player in PLAYERS:
        await wallets.open(player.id, "EUR", actor=OPERATOR)
        await wallets.transfer(player.id, "deposit", f"d-{player.id}", 10**12, actor=OPERATOR)
    await send(OpenTable(ruleset=make_ruleset("russian")), OPERATOR)
    for player in PLAYERS:
        await send(SitDown(), player)
    for _ in range(rounds):
        for box, player in enumerate(PLAYERS, start=1):
            await send(PlaceAnte(box=box, ante=100), player)
        for player in PLAYERS:
            await send(Deal(), player)
        state = None
        for box, player in enumerate(PLAYERS, start=1):
            state = await send(Play(box=box), player) or state
        while state is not None and state.round is not None and state.round.phase != "betting":
            offered = state.round.awaiting_dealer_draw()
            if not offered:
                break
            for box_ in offered:
                state = await send(DeclineDealerExchange(box=box_.number), PLAYERS[box_.number - 1])
    await handler.close()


def _report(show_ctes: bool) -> None:
    every = [m for t in TYPES for m in _Recorder.found[t] if not m.full_page_images]
    print(f"{'command':22} {'n':>4} {'WAL B':>7} {'records':>7} {'exec ms':>8} {'plan ms':>8}")
    for name, found in [*((t, _Recorder.found[t]) for t in TYPES), ("all", every)]:
        clean = [m for m in found if not m.full_page_images]
        if not clean:
            continue
        print(
            f"{name:22} {len(clean):4} {statistics.mean(m.wal_bytes for m in clean):7.0f}"
            f" {statistics.mean(m.wal_records for m in clean):7.1f}"
            f" {statistics.median(m.execution_ms for m in clean):8.3f}"
            f" {statistics.median(m.planning_ms for m in clean):8.3f}"
        )
    if show_ctes:
        for name in TYPES:
            if _Recorder.found[name]:
                print(f"\n{name}, its last statement:")
                for cte in _Recorder.found[name][-1].ctes:
                    print(
                        f"  {cte.name:28} {cte.ms:7.3f} ms {cte.wal_bytes:6} B"
                        f" {cte.wal_records:3} records"
                    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default=DEFAULT_URL)
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--cte", action="store_true", help="list the CTEs of each type")
    args = parser.parse_args()
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))
    name = f"append_wal_{uuid.uuid4().hex[:8]}"
    admin = await asyncpg.connect(args.url)
    await admin.execute(f'CREATE DATABASE "{name}"')
    url = args.url.rsplit("/", 1)[0] + f"/{name}"
    try:
        conn = await asyncpg.connect(url)
        await migrate(conn)
        await conn.close()
        pool = await asyncpg.create_pool(url, min_size=1, max_size=2, connection_class=_Explaining)
        try:
            await _play(pool, args.rounds)
        finally:
            await pool.close()
        _report(args.cte)
    finally:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()


if __name__ == "__main__":
    asyncio.run(main())
