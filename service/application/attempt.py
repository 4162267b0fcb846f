"""One attempt at a table command: load, decide, plan the money, write — one statement.

The attempt takes the table as this process last committed it (``cache``) or loads it, runs
the pure rules, opens the next round if the rules finished one, has the money port check
(internal) or place (seamless) every debit, and writes the events and every row kept in
step with them in one statement (``events.writes.CommandWrite``). Anything the guess from
the cache got wrong is found by the write's expected versions; the caller then runs a new
attempt from a fresh load.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import msgspec

from russian_poker.events.codec import Event, encode_event
from russian_poker.events.commands import SYSTEM, Actor, Command, OpenRound, OpenTable, SitDown
from russian_poker.events.game import RoundSettled
from russian_poker.events.records import DuplicateCommand, NewEvent, StreamAppend
from russian_poker.events.streams import table_stream
from russian_poker.events.wallet import WalletEvent
from russian_poker.events.writes import CommandWrite, TableRow, TimerRow, UsedTestDeck
from russian_poker.projections.history import settled_write
from russian_poker.projections.tables import encode_state, snapshots
from russian_poker.service.application.cache import CommittedCache
from russian_poker.service.application.idempotency import event_id, fingerprint
from russian_poker.service.application.money.port import Draft, MoneyPlan, Planned, Route
from russian_poker.service.application.money.router import Money
from russian_poker.service.application.ports import CommandUnit
from russian_poker.service.application.results import CommandResult, UnknownTable, VersionMismatch
from russian_poker.service.application.sessions import SessionRef
from russian_poker.service.availability.notices import table_notices
from russian_poker.service.observability import TABLE_LOADS
from russian_poker.service.rules.decide import decide
from russian_poker.service.rules.deck import new_seed
from russian_poker.service.rules.errors import RuleViolation
from russian_poker.service.rules.evolve import fold
from russian_poker.service.rules.state import Table
from russian_poker.service.rules.tenancy import operator_of
from russian_poker.service.rules.timers import pending_timers

__all__ = ["Attempt", "Outcome", "Request"]


class Request(msgspec.Struct, frozen=True, kw_only=True):
    """A command as the caller sent it."""

    table_id: str
    command: Command
    actor: Actor
    command_id: str
    expected_version: int | None = None
    request_id: str | None = None
    must_exist: bool = False
    session: SessionRef | None = None


class Outcome(NamedTuple):
    result: CommandResult
    streams: list[str]
    """The streams the command appended to (whose listeners are woken)."""
    state: Table
    """The table's state right after the command."""


class _Batch(NamedTuple):
    """A command and its events: the one sent, or the round the rules opened after it."""

    command: Command
    actor: Actor
    command_id: str
    events: list[Event]


class Attempt:
    """One try of a request on one storage unit."""

    def __init__(
        self,
        cache: CommittedCache,
        money: Money,
        *,
        test_mode: bool,
        owed: Callable[[], None],
    ) -> None:
        self._cache = cache
        self._money = money
        self._test_mode = test_mode
        self._owed = owed

    async def run(self, unit: CommandUnit, request: Request, *, reload: str | None) -> Outcome:
        """``reload`` says why this attempt must read afresh (``None``: it may guess)."""
        actor = request.actor
        seamless_actor = actor.role == "player" and await self._money.seamless(actor.id)
        # The acting player's wallet comes with the table: most money moves are theirs.
        mine = [actor.id] if actor.role == "player" and not seamless_actor else []
        table, version, held = await self._table(unit, request, mine, reload)
        _check(request, table, version)
        batches = [
            _Batch(
                request.command,
                actor,
                request.command_id,
                decide(table, request.command, actor, table_id=request.table_id),
            )
        ]
        if isinstance(request.command, SitDown):
            await self._money.seat(actor.id, held, table.rules.currency, request.session)
        state = fold(table, batches[0].events)
        test_deck: tuple[str, ...] = ()
        if state.needs_round:
            # The next round opens at once, so its commitment is public before any bet.
            test_deck = await unit.test_deck(request.table_id) if self._test_mode else ()
            opening = OpenRound(seed=new_seed(), deck=test_deck)
            opened = decide(state, opening, SYSTEM)
            batches.append(_Batch(opening, SYSTEM, f"{request.command_id}/open-round", opened))
            state = fold(state, opened)
        every_event = [e for batch in batches for e in batch.events]
        settled = next((e.round for e in every_event if isinstance(e, RoundSettled)), None)
        draft = Draft(
            table_id=request.table_id,
            command_id=request.command_id,
            actor=actor,
            session=request.session,
            currency=state.rules.currency,
            events=tuple(
                Planned(event=e, event_id=event_id(b.command_id, i))
                for b in batches
                for i, e in enumerate(b.events)
            ),
            settled_round=settled,
            held=held,
            fresh=reload is not None,
        )
        plan = await self._money.plan(unit, draft)
        try:
            write, result = _write(request, version, batches, state, plan, test_deck)
            recorded = await unit.commit(write)
        except BaseException:
            await self._money.failed(unit, plan)
            raise
        finally:
            await self._money.done(unit, plan)
        self._cache.committed(request.table_id, result.version, state, recorded, every_event)
        if plan.wins is not None:
            self._owed()
        return Outcome(result, [a.stream_id for a in write.appends], state)

    async def _table(
        self, unit: CommandUnit, request: Request, mine: list[str], reload: str | None
    ) -> tuple[Table, int, dict[str, Any]]:
        cached = None if reload is not None else self._cache.table(request.table_id)
        held = self._cache.wallets(mine) if cached else None
        if cached is not None and held is not None:
            version, table = cached
            return table, version, held
        TABLE_LOADS.labels(reload or "not_cached").inc()
        loaded = await unit.load(request.table_id, request.command_id, mine)
        if loaded.recorded is not None:
            # A retry of a command already recorded: answer as the first time, even if the
            # rules would refuse it now.
            raise DuplicateCommand(request.command_id, loaded.recorded)
        self._cache.remember_loaded(loaded.wallets)
        return loaded.state, loaded.version, dict(loaded.wallets)


def _check(request: Request, table: Table, version: int) -> None:
    if request.must_exist and not version:
        raise UnknownTable(request.table_id)
    actor = request.actor
    if actor.role == "player" and not (
        table.shared or table.operator_id == operator_of(actor.id).operator_id
    ):
        # Another operator's table is not there for this player (as for its views).
        raise UnknownTable(request.table_id)
    if request.expected_version is not None and request.expected_version != version:
        raise VersionMismatch(request.expected_version, version)
    if isinstance(request.command, OpenTable) and version:
        raise RuleViolation("table_already_opened")


def _write(
    request: Request,
    version: int,
    batches: Sequence[_Batch],
    state: Table,
    plan: MoneyPlan,
    test_deck: tuple[str, ...],
) -> tuple[CommandWrite, CommandResult]:
    """Everything the command writes, and its answer (recorded with it)."""
    every_event = [e for batch in batches for e in batch.events]
    result = CommandResult(
        table_id=request.table_id,
        fingerprint=fingerprint(request.command),
        round=state.round.number if state.round else 0,
        version=version + sum(not isinstance(e, WalletEvent) for e in every_event),
        events=len(every_event),
    )
    opened_round = len(batches) > 1 or isinstance(request.command, OpenRound)
    write = CommandWrite(
        appends=tuple(_appends(request, version, batches, plan.routes)),
        command_id=request.command_id,
        result=msgspec.json.encode(result),
        table=_table_row(state, result.version, checkpoint=opened_round),
        timers=tuple(
            TimerRow(key=t.key, seconds=t.seconds, command=msgspec.json.encode(t.command))
            for t in pending_timers(state)
        ),
        ledger=plan.ledger,
        settled=settled_write(state, every_event),
        bets=plan.bets,
        wins=plan.wins,
        # A closing or reopening notifies the operator: queued with the event, or not at all.
        notices=table_notices(state, batches, event_id),
        used_test_deck=UsedTestDeck(table_id=request.table_id, deck=test_deck)
        if test_deck
        else None,
        session_id=request.session.session_id if request.session is not None else None,
    )
    return write, result


def _table_row(state: Table, version: int, *, checkpoint: bool) -> TableRow:
    rules = state.rules
    snapshot = snapshots(state, version, checkpoint=checkpoint)
    return TableRow(
        table_id=state.table_id,
        version=version,
        name=state.name,
        game=rules.game,
        status=state.status,
        currency=rules.currency,
        operator_id=state.operator_id,
        shared=state.shared,
        state=encode_state(state) if snapshot else None,
        checkpoint=checkpoint,
    )


def _appends(
    request: Request, version: int, batches: Sequence[_Batch], routes: dict[str, Route]
) -> list[StreamAppend]:
    """The table's events to its stream at ``version``; each wallet's to its route."""
    table = table_stream(request.table_id)
    by_stream: dict[str, list[NewEvent]] = {}
    expected: dict[str, int | None] = {table: version}
    for command, actor, command_id, events in batches:
        meta = _metadata(command, actor, command_id, request.request_id)
        for index, event in enumerate(events):
            if isinstance(event, WalletEvent):
                route = routes[event.wallet_id]
                stream = route.stream_id
                expected[stream] = route.expected_version
            else:
                stream = table
            name, schema, data = encode_event(event)
            by_stream.setdefault(stream, []).append(
                NewEvent(
                    event_id=event_id(command_id, index),
                    event_type=name,
                    schema_version=schema,
                    data=data,
                    metadata=meta,
                )
            )
    return [
        StreamAppend(stream_id=stream, expected_version=expected[stream], events=new_events)
        for stream, new_events in by_stream.items()
    ]


def _metadata(command: Command, actor: Actor, command_id: str, request_id: str | None) -> bytes:
    recorded: Any = command
    if isinstance(command, OpenRound):
        # The seed and any test deck are in RoundOpened; metadata is read more widely.
        recorded = {"type": "OpenRound"}
    return msgspec.json.encode(
        {
            "command_id": command_id,
            "command": recorded,
            "actor": actor,
            "request_id": request_id,
        }
    )
