"""The peer: the same game on the Python ``eventsourcing`` library, driven like the service.

    .venv/bin/pip install -e '.[bench]'        # eventsourcing[postgres], psycopg[binary]
    .venv/bin/python benchmarks/peer_eventsourcing.py [--clients 32] [--tables 16]
                                        [--seconds 12] [--warmup 3] [--snapshot-interval 100]
                                        [--pool 20] [--turns]
    .venv/bin/python benchmarks/load.py --peer [--peer-turns] ...   # interleaved

Run by hand, not in CI. An ``eventsourcing.Application`` with its PostgreSQL persistence
module (``eventsourcing.postgres``, psycopg 3, its connection pool) on a fresh database of
the local server, ``synchronous_commit`` on. Two aggregates, as the library's docs build
them: a **table** whose command method runs our rules (``service.rules.decide``) and
triggers one library event per event of ours, applied by our ``evolve``; and a **wallet**
per player, whose debits and credits are checked by our ``check_funds`` and applied by our
``evolve_wallet``. A command saves the table and every wallet it moves money in with one
``save(table, *wallets)`` (one transaction, as our append), and a version conflict (the
library's ``IntegrityError`` on its ``(originator_id, originator_version)`` key) is
retried, at most 8 times as our handler does. The repository's aggregate cache is on
(``AGGREGATE_CACHE_MAXSIZE``) with the library's default fast-forwarding (every get reads
the events recorded since the cached version, so a retry sees the winner's events), and
aggregates are snapshotted every ``--snapshot-interval`` events. With ``--turns`` a
table's commands also take turns inside the process (a lock per table), as our handler's
do (``CommittedCache.turn``): fewer lost races, the same retry for the rest.

In-process and threaded (the library is synchronous): one thread per player, the same
players, tables, boxes and round loop as ``benchmarks/load.py`` (``next_move`` is shared),
a table's progress shared by its players from the state their own commands return, and a
read of the table after a refusal or a second without progress, counted apart as a query.
Commands per second and latency p50/p95/p99 over ``--seconds`` after ``--warmup``; the CPU
of this process (it plays the generator and the server: ``server``) and of the PostgreSQL
backends of its database. See docs/benchmarks.md, "The eventsourcing peer".
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import sys
import threading
import time
import uuid
from collections.abc import Iterable
from copy import copy
from pathlib import Path
from typing import Any, Final
from urllib.parse import urlsplit

import msgspec

ROOT: Final = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # run as a script

from eventsourcing.application import AggregateNotFoundError, Application  # noqa: E402
from eventsourcing.domain import Aggregate  # noqa: E402
from eventsourcing.persistence import IntegrityError, Transcoder, Transcoding  # noqa: E402

from benchmarks.load import (  # noqa: E402
    DEFAULT_URL,
    DEPOSIT,
    WAIT_S,
    _Box,
    _CpuWindow,
    _create_database,
    _drop_database,
    _line,
    _Recorder,
    _Round,
    _summary,
    _Table,
    next_move,
)
from russian_poker.events.codec import EVENT_TYPES, Event  # noqa: E402
from russian_poker.events.commands import SYSTEM, Actor, Command, OpenRound, OpenTable, SitDown  # noqa: E402
from russian_poker.events.game import RoundSettled  # noqa: E402
from russian_poker.events.wallet import WalletEvent  # noqa: E402
from russian_poker.service.rules.decide import decide  # noqa: E402
from russian_poker.service.rules.deck import new_seed  # noqa: E402
from russian_poker.service.rules.errors import RuleViolation  # noqa: E402
from russian_poker.service.rules.evolve import evolve, fold  # noqa: E402
from russian_poker.service.rules.funds import check_funds, check_seating, wallets_touched  # noqa: E402
from russian_poker.service.rules.presets import make_ruleset  # noqa: E402
from russian_poker.service.rules.state import Table  # noqa: E402
from russian_poker.service.rules.wallets import Wallet, deposit, evolve_wallet, open_wallet  # noqa: E402

__all__ = ["Casino", "TableAggregate", "WalletAggregate", "main", "measure"]

_NAMESPACE: Final = uuid.UUID("0b9e8f7a-5d3c-4e21-9a6b-7c8d9e0f1a2b")
ATTEMPTS: Final = 8
OPERATOR: Final = Actor(role="operator", id="default")


class _Shared:
    """Copied from the cache without copying the state: our states are frozen values, so
    only the library's own bookkeeping (version, pending events) needs a copy of its own.
    The library deep-copies what it takes from its cache so that a command's mutations
    cannot corrupt it; with immutable state a shallow copy gives the same guarantee."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        clone = copy(self)
        clone.__dict__["_pending_events"] = []
        return clone


class TableAggregate(_Shared, Aggregate):
    """One table: our ``Table`` state, changed only by our ``evolve``."""

    def __init__(self, table_id: str) -> None:
        self.state = Table()

    @staticmethod
    def create_id(table_id: str) -> uuid.UUID:
        return table_uuid(table_id)

    class Evolved(Aggregate.Event):
        """One event of ours, as the library's event of this aggregate."""

        event: Any

        def apply(self, aggregate: Any) -> None:
            aggregate.state = evolve(aggregate.state, self.event)

    def execute(self, command: Command, actor: Actor, table_id: str) -> list[Event]:
        """Our rules on the current state; the table's events are triggered here, every
        event (the wallets' too) is returned. The next round opens at once, as ours does."""
        events = decide(self.state, command, actor, table_id=table_id)
        state = fold(self.state, events)
        if state.needs_round:
            opened = decide(state, OpenRound(seed=new_seed(), deck=()), SYSTEM)
            events = [*events, *opened]
        for event in events:
            if not isinstance(event, WalletEvent):
                self.trigger_event(self.Evolved, event=event)
        return events


class WalletAggregate(_Shared, Aggregate):
    """One player's wallet: our ``Wallet`` state, changed only by our ``evolve_wallet``."""

    def __init__(self, wallet_id: str) -> None:
        self.wallet = Wallet()

    @staticmethod
    def create_id(wallet_id: str) -> uuid.UUID:
        return wallet_uuid(wallet_id)

    class Moved(Aggregate.Event):
        event: Any

        def apply(self, aggregate: Any) -> None:
            aggregate.wallet = evolve_wallet(aggregate.wallet, self.event)

    def record(self, events: Iterable[WalletEvent]) -> None:
        for event in events:
            self.trigger_event(self.Moved, event=event)

    def take(self, events: Iterable[Event]) -> bool:
        """Record this wallet's share of a command's events; whether there was any."""
        mine = [
            e for e in events if isinstance(e, WalletEvent) and e.wallet_id == self.wallet.wallet_id
        ]
        self.record(mine)
        return bool(mine)


def table_uuid(table_id: str) -> uuid.UUID:
    return uuid.uuid5(_NAMESPACE, f"table:{table_id}")


def wallet_uuid(wallet_id: str) -> uuid.UUID:
    return uuid.uuid5(_NAMESPACE, f"wallet:{wallet_id}")


class _StructAsDict(Transcoding):
    """One msgspec type of ours in the library's JSON: its builtins, converted back."""

    def __init__(self, kind: type[Any]) -> None:
        self.type = kind
        self.name = kind.__name__

    def encode(self, obj: Any) -> Any:
        return msgspec.to_builtins(obj)

    def decode(self, data: Any) -> Any:
        return msgspec.convert(data, self.type)


class Casino(Application[uuid.UUID]):
    """The game as an ``eventsourcing`` application: commands in, aggregates saved."""

    snapshotting_intervals = {TableAggregate: 100, WalletAggregate: 100}  # noqa: RUF012
    conflicts = 0
    """Lost races retried so far (a counter read by the measurement)."""
    turns = False
    """A table's commands take turns in this process (a lock per table)."""
    _turns: dict[str, threading.Lock]

    def register_transcodings(self, transcoder: Transcoder) -> None:
        super().register_transcodings(transcoder)  # type: ignore[arg-type]
        kinds: list[type[Any]] = [*EVENT_TYPES.values(), Table, Wallet]
        for kind in kinds:
            transcoder.register(_StructAsDict(kind))  # type: ignore[attr-defined]

    def open_wallet(self, wallet_id: str, amount: int) -> None:
        wallet = WalletAggregate(wallet_id=wallet_id)
        wallet.record(open_wallet(wallet.wallet, wallet_id, "EUR"))
        wallet.record(deposit(wallet.wallet, f"deposit-{wallet_id}", amount))
        self.save(wallet)

    def open_table(self, table_id: str) -> tuple[int, Table]:
        table = TableAggregate(table_id=table_id)
        ruleset = make_ruleset("russian", {"max_payout": 500_000})
        table.execute(OpenTable(ruleset=ruleset), OPERATOR, table_id)
        self.save(table)
        return table.version, table.state

    def read(self, table_id: str) -> tuple[int, Table]:
        table: TableAggregate = self.repository.get(table_uuid(table_id))
        return table.version, table.state

    def execute(
        self, table_id: str, command: Command, actor: Actor
    ) -> tuple[int, Table, list[Event]]:
        """Run a command: (the table's version, its state, every event it recorded).
        Raises ``RuleViolation``; a lost race is retried."""
        if not self.turns:
            return self._execute(table_id, command, actor)
        turn = self._turns.get(table_id) or self._turns.setdefault(table_id, threading.Lock())
        with turn:
            return self._execute(table_id, command, actor)

    def _execute(
        self, table_id: str, command: Command, actor: Actor
    ) -> tuple[int, Table, list[Event]]:
        for _ in range(ATTEMPTS):
            table: TableAggregate = self.repository.get(table_uuid(table_id))
            events = table.execute(command, actor, table_id)
            currency = table.state.rules.currency
            touched = wallets_touched(events)
            if isinstance(command, SitDown):
                touched = list(dict.fromkeys([actor.id, *touched]))
            wallets: dict[str, WalletAggregate] = {}
            for wallet_id in touched:
                # A wallet never opened: check_funds / check_seating refuse the command.
                with contextlib.suppress(AggregateNotFoundError):
                    wallets[wallet_id] = self.repository.get(wallet_uuid(wallet_id))
            held = {k: w.wallet for k, w in wallets.items()}
            if isinstance(command, SitDown):
                check_seating(actor.id, held, currency)
            check_funds(events, held, currency)
            moved = [w for w in wallets.values() if w.take(events)]
            try:
                self.save(table, *moved)
            except IntegrityError:
                # Another thread won the race: load again (the repository fast-forwards its
                # cached aggregates to the latest recorded version on every get).
                self.conflicts += 1
                continue
            return table.version, table.state, events
        raise RuntimeError(f"table {table_id} is too busy")


def application(
    database: str, snapshot_interval: int, pool_size: int, *, turns: bool = False
) -> Casino:
    """The application on ``database`` (a PostgreSQL URL), its tables created if missing."""
    parts = urlsplit(database)
    env = {
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
        "POSTGRES_DBNAME": parts.path.lstrip("/"),
        "POSTGRES_HOST": parts.hostname or "127.0.0.1",
        "POSTGRES_PORT": str(parts.port or 5432),
        "POSTGRES_USER": parts.username or "postgres",
        "POSTGRES_PASSWORD": parts.password or "",
        # The same number of connections as the service's default pool.
        "POSTGRES_POOL_SIZE": str(pool_size),
        "POSTGRES_MAX_OVERFLOW": "0",
        "AGGREGATE_CACHE_MAXSIZE": "100000",
        "AGGREGATE_CACHE_FASTFORWARD": "y",
    }
    intervals = (
        {TableAggregate: snapshot_interval, WalletAggregate: snapshot_interval}
        if snapshot_interval
        else {}
    )
    kind = type("Casino", (Casino,), {"snapshotting_intervals": intervals})
    app: Casino = kind(env=env)
    app.turns = turns
    app._turns = {}
    return app


def _view(version: int, state: Table) -> _Table:
    """What the service's view tells a player: the fields ``next_move`` reads."""
    current = state.round
    if current is None:
        return _Table(version=version, status=state.status)
    awaiting = [*current.awaiting_decision(), *current.awaiting_dealer_draw()]
    return _Table(
        version=version,
        status=state.status,
        round=_Round(
            number=current.number,
            phase=current.phase,
            boxes=[_Box(box=b.number, player=b.player) for b in current.boxes],
            ready=list(current.ready),
            awaiting=[b.number for b in awaiting],
        ),
    )


class _Tracker:
    """The latest state of one table that any of its players was told (threads)."""

    def __init__(self, table_id: str, players: int) -> None:
        self.table_id = table_id
        self.players = players
        self.view = _Table(version=0, status="open")
        self.changed = threading.Condition()

    def update(self, version: int, state: Table) -> None:
        with self.changed:
            if version > self.view.version:
                self.view = _view(version, state)
                self.changed.notify_all()

    def wait_past(self, version: int, timeout: float) -> bool:
        with self.changed:
            return self.changed.wait_for(lambda: self.view.version > version, timeout)


class _Counts:
    """What the window recorded: events, settled rounds, lost races."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.events = self.rounds = self.conflicts = 0


class _Player:
    def __init__(
        self,
        app: Casino,
        player_id: str,
        tracker: _Tracker,
        box: int,
        recorder: _Recorder,
        counts: _Counts,
        rng: random.Random,
    ) -> None:
        self.app = app
        self.player_id = player_id
        self.actor = Actor(role="player", id=player_id)
        self.tracker = tracker
        self.box = box
        self.recorder = recorder
        self.counts = counts
        self.rng = rng
        self.drew = 0

    def command(self, body: dict[str, Any]) -> bool:
        command: Command = msgspec.convert(body, Command)
        started = time.perf_counter()
        try:
            version, state, events = self.app.execute(self.tracker.table_id, command, self.actor)
        except RuleViolation as refusal:
            self.recorder.add(started, "command", 409, body["type"])
            if self.recorder.window[0] <= time.perf_counter() <= self.recorder.window[1]:
                key = f"{body['type']}:{refusal.code}"
                with self.counts.lock:
                    self.recorder.refusals[key] = self.recorder.refusals.get(key, 0) + 1
            self.look()
            return False
        self.recorder.add(started, "command", 200, body["type"])
        if self.recorder.window[0] <= time.perf_counter() <= self.recorder.window[1]:
            with self.counts.lock:
                self.counts.events += len(events)
                self.counts.rounds += sum(isinstance(e, RoundSettled) for e in events)
        self.tracker.update(version, state)
        return True

    def look(self) -> None:
        started = time.perf_counter()
        version, state = self.app.read(self.tracker.table_id)
        self.recorder.add(started, "query", 200)
        self.tracker.update(version, state)

    def play(self, until: float) -> None:
        while time.perf_counter() < until:
            body, self.drew = next_move(
                self.tracker.view,
                self.box,
                self.player_id,
                self.tracker.players,
                self.rng,
                self.drew,
            )
            if body is not None:
                self.command(body)
                continue
            seen = self.tracker.view.version
            if not self.tracker.wait_past(seen, WAIT_S):
                self.look()


def measure(config: dict[str, Any]) -> dict[str, Any]:
    """One measurement, as ``benchmarks/load.py``'s generator reports one (same keys)."""
    database: str = config["database_url"]
    app = application(
        database,
        config.get("snapshot_interval", 100),
        config.get("pool", 20),
        turns=config.get("turns", False),
    )
    try:
        return _measure(app, config)
    finally:
        app.close()


def _measure(app: Casino, config: dict[str, Any]) -> dict[str, Any]:
    with app.recorder.datastore.get_connection() as conn:  # type: ignore[attr-defined]
        row = conn.execute("SHOW synchronous_commit").fetchone()
    synchronous_commit = next(iter(row.values())) if isinstance(row, dict) else row[0]
    assert synchronous_commit == "on", f"synchronous_commit is {synchronous_commit}"
    clients: int = config["clients"]
    table_ids: list[str] = config["table_ids"]
    players = [f"{config['prefix']}-p{i}" for i in range(clients)]
    for player in players:
        app.open_wallet(player, DEPOSIT)
    trackers = [_Tracker(t, clients // len(table_ids)) for t in table_ids]
    for tracker in trackers:
        tracker.update(*app.open_table(tracker.table_id))
    recorder = _Recorder(window=(0.0, 0.0))
    counts = _Counts()
    rng = random.Random(config["seed"])
    bots = []
    for i, player in enumerate(players):
        tracker = trackers[i % len(trackers)]
        bot = _Player(app, player, tracker, i // len(trackers) + 1, recorder, counts, rng)
        assert bot.command({"type": "SitDown"}), f"{player} could not sit"
        bots.append(bot)
    seconds: float = config["seconds"]
    start = time.perf_counter() + config["warmup"]
    until = start + seconds
    recorder.window = (start, until)
    started_wall = time.time() + config["warmup"]
    cpu = _CpuWindow([os.getpid()], urlsplit(config["database_url"]).path.lstrip("/"))

    sampled = threading.Event()
    failures: list[BaseException] = []

    def watch() -> None:
        time.sleep(max(0.0, start - time.perf_counter()))
        cpu.sample()
        conflicts = app.conflicts
        time.sleep(max(0.0, until - time.perf_counter()))
        cpu.sample()
        counts.conflicts = app.conflicts - conflicts
        sampled.set()

    def play(bot: _Player) -> None:
        try:
            bot.play(until)
        except BaseException as failure:
            failures.append(failure)
        # Alive until the window's last sample: a thread gone takes its CPU figures along.
        sampled.wait()

    threads = [threading.Thread(target=watch)] + [
        threading.Thread(target=play, args=(bot,)) for bot in bots
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures:
        raise failures[0]
    summary = _summary(recorder, seconds, started_wall)
    cores = cpu.cores(seconds)
    # One process plays the generator and the server: all of it is "server" here, and
    # the generator's share (the same process, counted twice by the window) goes back.
    cores["other_cores"] = cores.get("other_cores", 0.0) + cores.get("generator_cores", 0.0)
    cores["generator_cores"] = 0.0
    summary.update(cores)
    requests = summary["requests"] or 1
    for name in ("server", "postgres"):
        summary[f"{name}_ms_per_request"] = summary[f"{name}_cores"] * seconds / requests * 1000
        summary[f"{name}_waited_ms_per_request"] = summary[f"{name}_waited_s"] / requests * 1000
    summary.update(
        events_per_second=counts.events / seconds,
        rounds_per_second=counts.rounds / seconds,
        conflicts_per_second=counts.conflicts / seconds,
        synchronous_commit=synchronous_commit,
        snapshot_interval=config.get("snapshot_interval", 100),
        turns=config.get("turns", False),
    )
    return summary


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "run":  # from benchmarks/load.py
        print(json.dumps(measure(json.loads(sys.argv[2]))))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default=os.environ.get("BENCH_DATABASE_URL", DEFAULT_URL))
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--tables", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=12.0)
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--snapshot-interval", type=int, default=100, help="events between snapshots; 0: none"
    )
    parser.add_argument("--pool", type=int, default=20, help="connections (the service's 20)")
    parser.add_argument(
        "--turns", action="store_true", help="a table's commands take turns (a lock per table)"
    )
    parser.add_argument("--keep", action="store_true", help="keep the database")
    args = parser.parse_args()
    if args.clients % args.tables or args.clients // args.tables > 4:
        parser.error("--clients: a multiple of --tables, at most 4 players per table")
    run = f"rp_peer_{uuid.uuid4().hex[:8]}"
    database = asyncio.run(_create_database(args.url, run, migrated=False))
    print(f"database {run}; load average before: {os.getloadavg()[0]:.2f}", flush=True)
    try:
        result = measure(
            {
                "database_url": database,
                "clients": args.clients,
                "table_ids": [f"peer-{run[-8:]}-t{j}" for j in range(args.tables)],
                "prefix": run,
                "seconds": args.seconds,
                "warmup": args.warmup,
                "seed": args.seed,
                "snapshot_interval": args.snapshot_interval,
                "pool": args.pool,
                "turns": args.turns,
            }
        )
    finally:
        if not args.keep:
            asyncio.run(_drop_database(args.url, run))
    print(_line("peer_turns" if args.turns else "peer", result))
    print(
        f"          conflicts retried {result['conflicts_per_second']:,.1f}/s, snapshots every "
        f"{result['snapshot_interval']} events, synchronous_commit "
        f"{result['synchronous_commit']}, turns {'on' if result['turns'] else 'off'}"
    )


if __name__ == "__main__":
    main()
