"""Audit replay: re-run the rules over every recorded command of a round and compare.

For each settled round: the revealed seed must hash to the commitment published when the
round opened; the table state just before the round is rebuilt by folding the table's
earlier events; then every command recorded from the round's opening to its settlement is
decoded from its event metadata and run through ``decide`` again (``OpenRound`` gets the
revealed seed and the recorded test deck, if any). The events the rules produce — table
events and the wallet debits and credits of the same command — must equal the recorded ones
in type and every field. Debits and credits are compared per wallet id, wherever they are
stored: an internal wallet's in ``wallet-<id>``, a seamless player's in ``seamless-<id>``;
one stored in the other kind of stream is a difference too (which kind a wallet id is:
:mod:`service.audit.money_streams`). Everything that differs is reported: table, round,
command, event and field, expected and recorded.
"""

from __future__ import annotations

import hashlib
import time
import typing
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import Annotated, Any, Final, Protocol

import msgspec

from russian_poker.events.codec import Event, decode_event
from russian_poker.events.commands import SYSTEM, Actor, Command, OpenRound
from russian_poker.events.game import RoundOpened, RoundSettled
from russian_poker.events.postgres.replay import CommandMoney, ReplayStore
from russian_poker.events.records import RecordedEvent
from russian_poker.events.streams import table_stream
from russian_poker.events.wallet import WalletEvent
from russian_poker.projections.compare import differences, render
from russian_poker.service.audit.money_streams import WalletKinds, money_stream, wallet_of_stream
from russian_poker.service.rules.decide import decide
from russian_poker.service.rules.errors import RuleViolation
from russian_poker.service.rules.evolve import fold
from russian_poker.service.rules.state import Table

__all__ = [
    "Difference",
    "Progress",
    "ReplayReads",
    "ReplayReport",
    "rounds_in_play",
    "select_rounds",
    "verify_rounds",
]

Progress = Callable[[int, int, int], None]
"""Called after each round with (rounds done, rounds selected, events compared)."""

_WALLET_TYPES: Final = typing.get_args(WalletEvent)


class Difference(msgspec.Struct, frozen=True, kw_only=True):
    """One thing the replay found different from the record."""

    table_id: str
    round: int
    command_id: str | None
    command: str | None
    field: str
    expected: str
    recorded: str

    def __str__(self) -> str:
        command = f" command {self.command_id} ({self.command})" if self.command_id else ""
        return (
            f"table {self.table_id} round {self.round}{command}: {self.field}: "
            f"expected {self.expected}, recorded {self.recorded}"
        )


class ReplayReport(msgspec.Struct, kw_only=True):
    """What a replay counted. ``rounds`` are *settled* rounds only: a round still in play
    keeps its seed secret, so it cannot be replayed (``skipped``, ``in_play``). That is why
    ``reconcile``, which counts every round *opened*, reports more rounds than replay."""

    rounds: Annotated[int, msgspec.Meta(description="Settled rounds replayed.")] = 0
    with_bets: Annotated[
        int,
        msgspec.Meta(
            description=(
                "Of those, rounds in which at least one ante was placed (money moved,"
                " even if every bet was then cancelled and refunded); the others were"
                " called off before any bet (a table closed in the betting phase)."
            )
        ),
    ] = 0
    failed: Annotated[
        int, msgspec.Meta(description="Of those, rounds with at least one difference.")
    ] = 0
    skipped: Annotated[
        list[str],
        msgspec.Meta(description="Selected rounds that could not be replayed (not settled yet)."),
    ] = msgspec.field(default_factory=list)
    in_play: Annotated[
        int,
        msgspec.Meta(
            description=(
                "Rounds opened (in the window, if any) and not settled: not replayed, seed secret."
            )
        ),
    ] = 0
    commands: Annotated[int, msgspec.Meta(description="Commands re-run.")] = 0
    events: Annotated[
        int,
        msgspec.Meta(description="Recorded events (table and wallet) compared with the replay's."),
    ] = 0
    differences: Annotated[
        list[Difference], msgspec.Meta(description="Every difference found.")
    ] = msgspec.field(default_factory=list)
    seconds: Annotated[float, msgspec.Meta(description="How long the replay took, in seconds.")] = (
        0.0
    )

    @property
    def verified(self) -> int:
        """Rounds that replayed exactly as recorded."""
        return self.rounds - self.failed

    @property
    def without_bets(self) -> int:
        """Settled rounds in which no ante was ever placed."""
        return self.rounds - self.with_bets

    @property
    def events_per_second(self) -> float:
        return self.events / self.seconds if self.seconds else 0.0


class _Meta(msgspec.Struct, kw_only=True):
    command_id: str | None = None
    command: dict[str, Any] | None = None
    actor: Actor | None = None
    request_id: str | None = None


_meta_decoder: Final = msgspec.json.Decoder(_Meta)


async def select_rounds(
    store: ReplayStore,
    *,
    table_round: tuple[str, int] | None = None,
    start: datetime | None = None,
    end: datetime | None = None,
) -> tuple[dict[str, list[int]], list[str]]:
    """The settled rounds to replay, by table, and the selected rounds that are not settled.

    ``table_round`` picks one round; otherwise every round settled in ``[start, end)``
    (either bound optional).
    """
    if table_round is not None:
        table_id, number = table_round
        found = await store.round(table_stream(table_id), number)
        if not found.opened:
            raise LookupError(f"table {table_id} has no round {number}")
        if not found.settled:
            return {}, [f"{table_id}:{number}"]
        return {table_id: [number]}, []
    selected: dict[str, list[int]] = defaultdict(list)
    for table_id, number in await store.settled_rounds(start, end):
        selected[table_id].append(number)
    return {t: sorted(r) for t, r in sorted(selected.items())}, []


async def rounds_in_play(
    store: ReplayStore, *, start: datetime | None = None, end: datetime | None = None
) -> int:
    """Rounds opened in ``[start, end)`` (either bound optional) that are not settled."""
    return await store.in_play(start, end)


class ReplayReads(Protocol):
    """What replaying rounds reads: the live store (``events.postgres.replay``) or an audit
    bundle's files (``service.audit.bundle.reads``)."""

    async def read_stream(self, stream_id: str) -> list[RecordedEvent]:
        """The stream's events, in version order."""
        ...

    async def money_of(self, command_ids: Sequence[str]) -> list[CommandMoney]:
        """The money events those commands wrote, in global order."""
        ...

    async def opened_wallets(self, wallet_ids: Iterable[str]) -> set[str]:
        """Those of ``wallet_ids`` whose ``wallet-`` stream was opened."""
        ...


async def verify_rounds(
    store: ReplayReads,
    selection: dict[str, list[int]],
    *,
    progress: Progress | None = None,
) -> ReplayReport:
    """Replay the selected rounds (table id → round numbers) and report every difference."""
    started = time.perf_counter()
    report = ReplayReport()
    total = sum(len(rounds) for rounds in selection.values())
    kinds = WalletKinds(store)
    for table_id, rounds in selection.items():
        await _TableReplay(store, table_id, report, progress, total, kinds).run(set(rounds))
    report.seconds = time.perf_counter() - started
    return report


class _Group(msgspec.Struct, kw_only=True):
    """One recorded command: its metadata and its table events, in stream order."""

    meta: _Meta
    records: list[RecordedEvent]


class _TableReplay:
    def __init__(
        self,
        store: ReplayReads,
        table_id: str,
        report: ReplayReport,
        progress: Progress | None,
        total: int,
        kinds: WalletKinds,
    ) -> None:
        self.store = store
        self.kinds = kinds
        self.table_id = table_id
        self.report = report
        self.progress = progress
        self.total = total
        self.round = 0
        self.round_failed = False

    def differ(self, group: _Group | None, field: str, expected: str, recorded: str) -> None:
        command = group.meta.command.get("type") if group and group.meta.command else None
        self.report.differences.append(
            Difference(
                table_id=self.table_id,
                round=self.round,
                command_id=group.meta.command_id if group else None,
                command=str(command) if command else None,
                field=field,
                expected=expected,
                recorded=recorded,
            )
        )
        self.round_failed = True

    async def run(self, wanted: set[int]) -> None:
        records = await self.store.read_stream(table_stream(self.table_id))
        metas = [_meta_decoder.decode(r.metadata) for r in records]
        opened: dict[int, int] = {}
        settled: dict[int, int] = {}
        for index, record in enumerate(records):
            if record.event_type in ("RoundOpened", "RoundSettled"):
                number = msgspec.json.decode(record.data).get("round")
                (opened if record.event_type == "RoundOpened" else settled).setdefault(
                    number, index
                )
        ranges: dict[int, tuple[int, int]] = {}
        for number in sorted(wanted, key=lambda n: opened.get(n, -1)):
            first, last = opened.get(number), settled.get(number)
            if first is None or last is None or last < first:
                self.round = number
                self.differ(None, "round", "RoundOpened before RoundSettled", "not found")
                self._finish_round()
                continue
            # The settling command may go on after RoundSettled (CloseTable's TableClosed).
            while last + 1 < len(records) and metas[last + 1].command_id == metas[last].command_id:
                last += 1
            ranges[number] = (first, last)
        wallet_events = await self._wallet_events(
            {metas[i].command_id for a, b in ranges.values() for i in range(a, b + 1)}
        )
        state, folded = Table(), 0
        for number, (first, last) in sorted(ranges.items(), key=lambda item: item[1]):
            self.round = number
            try:
                state = fold(state, [_decode(r) for r in records[folded:first]])
            except Exception as error:
                self.differ(None, "events before the round", "events that fold", repr(error))
                self._finish_round()
                return
            self.report.with_bets += any(
                r.event_type == "AntePlaced" for r in records[first : last + 1]
            )
            groups = _groups(records[first : last + 1], metas[first : last + 1])
            replayed = await self._replay_round(state, groups, wallet_events)
            if self.round_failed:
                folded = first
            else:
                # The rules produced exactly the recorded events, so their state is the one
                # folding the record would give: carry it on instead of folding (and
                # shuffling) the round a second time.
                state, folded = replayed, last + 1
            self._finish_round()

    def _finish_round(self) -> None:
        self.report.rounds += 1
        self.report.failed += self.round_failed
        self.round_failed = False
        if self.progress is not None:
            self.progress(self.report.rounds, self.total, self.report.events)

    async def _wallet_events(
        self, command_ids: set[str | None]
    ) -> dict[str, dict[str, list[RecordedEvent]]]:
        """command id → wallet id → its money events of that command, from either kind of
        money stream, in the order they were appended. The wallet id is the stream's: an
        event naming another wallet than its stream's is then a field difference."""
        wanted = sorted(c for c in command_ids if c)
        found: dict[str, dict[str, list[RecordedEvent]]] = defaultdict(lambda: defaultdict(list))
        for command_id, record in await self.store.money_of(wanted):
            wallet = wallet_of_stream(record.stream_id)
            assert wallet is not None  # the store reads money streams only
            found[command_id][wallet].append(record)
        await self.kinds.load(w for by_wallet in found.values() for w in by_wallet)
        return found

    async def _replay_round(
        self,
        state: Table,
        groups: list[_Group],
        wallet_events: dict[str, dict[str, list[RecordedEvent]]],
    ) -> Table:
        """The state after the round as the rules replayed it."""
        opening = groups[0].records[0]
        try:
            opened = _decode(opening)
            closing = next(
                _decode(r) for g in groups for r in g.records if r.event_type == "RoundSettled"
            )
        except Exception as error:
            self.differ(groups[0], "round events", "decodable events", repr(error))
            return state
        assert isinstance(opened, RoundOpened) and isinstance(closing, RoundSettled)
        seed = closing.seed
        if hashlib.sha256(seed).hexdigest() != opened.commitment:
            self.differ(
                groups[0],
                "RoundSettled.seed",
                f"a seed whose SHA-256 is the commitment {opened.commitment}",
                f"{seed.hex()} (SHA-256 {hashlib.sha256(seed).hexdigest()})",
            )
        if closing.commitment != opened.commitment:
            self.differ(groups[0], "RoundSettled.commitment", opened.commitment, closing.commitment)
        for group in groups:
            state = await self._replay_command(state, group, wallet_events, seed, opened)
        return state

    async def _replay_command(
        self,
        state: Table,
        group: _Group,
        wallet_events: dict[str, dict[str, list[RecordedEvent]]],
        seed: bytes,
        opened: RoundOpened,
    ) -> Table:
        self.report.commands += 1
        command_id = group.meta.command_id or ""
        recorded_wallets = wallet_events.get(command_id, {})
        self.report.events += len(group.records) + sum(len(v) for v in recorded_wallets.values())
        try:
            command, actor = _command(group.meta, seed, opened)
        except (msgspec.ValidationError, ValueError) as error:
            self.differ(group, "command", "a command the rules know", str(error))
            return _fold_recorded(state, group.records)
        try:
            expected = decide(state, command, actor, table_id=self.table_id)
        except RuleViolation as refusal:
            self.differ(group, "command", f"refused ({refusal.code})", "accepted")
            return _fold_recorded(state, group.records)
        except Exception as error:
            self.differ(group, "command", "a command the rules can run", repr(error))
            return _fold_recorded(state, group.records)
        table_events = [e for e in expected if not _is_wallet(e)]
        by_wallet: dict[str, list[Event]] = defaultdict(list)
        for event in expected:
            if _is_wallet(event):
                by_wallet[event.wallet_id].append(event)  # type: ignore[union-attr]
        self._compare(group, table_stream(self.table_id), table_events, group.records)
        for wallet in sorted(set(by_wallet) | set(recorded_wallets)):
            internal = await self.kinds.internal(wallet)
            stream = money_stream(wallet, internal=internal)
            recorded = recorded_wallets.get(wallet, [])
            for record in recorded:
                if record.stream_id != stream:
                    kind = "an internal wallet" if internal else "a seamless player"
                    self.differ(
                        group,
                        f"{record.event_type} at global position {record.global_position}: stream",
                        f"{stream} ({wallet} is {kind})",
                        record.stream_id,
                    )
            self._compare(group, stream, by_wallet.get(wallet, []), recorded)
        return fold(state, expected)

    def _compare(
        self,
        group: _Group,
        stream: str,
        expected: Sequence[Event],
        recorded: Sequence[RecordedEvent],
    ) -> None:
        for index in range(max(len(expected), len(recorded))):
            where = f"{stream} event {index + 1} of the command"
            if index >= len(recorded):
                self.differ(group, where, render(_builtins(expected[index])), "no such event")
                continue
            if index >= len(expected):
                self.differ(group, where, "no such event", recorded[index].event_type)
                continue
            want = expected[index]
            try:
                have = _decode(recorded[index])
            except Exception as error:
                self.differ(group, where, render(_builtins(want)), f"undecodable: {error}")
                continue
            if want == have:
                continue
            if type(want) is not type(have):
                self.differ(group, f"{where}: type", type(want).__name__, type(have).__name__)
                continue
            for diff in differences(_builtins(want), _builtins(have)):
                self.differ(
                    group,
                    f"{where}: {type(want).__name__}.{diff.path}",
                    render(diff.expected),
                    render(diff.actual),
                )


def _groups(records: Sequence[RecordedEvent], metas: Sequence[_Meta]) -> list[_Group]:
    groups: list[_Group] = []
    for record, meta in zip(records, metas, strict=True):
        if groups and groups[-1].meta.command_id == meta.command_id:
            groups[-1].records.append(record)
        else:
            groups.append(_Group(meta=meta, records=[record]))
    return groups


def _command(meta: _Meta, seed: bytes, opened: RoundOpened) -> tuple[Command, Actor]:
    """The recorded command and actor; ``OpenRound`` is recorded without its secrets."""
    if meta.command is None:
        raise ValueError("the event metadata records no command")
    actor = meta.actor or SYSTEM
    if meta.command.get("type") == "OpenRound":
        return OpenRound(seed=seed, deck=opened.deck), actor
    return msgspec.convert(meta.command, Command), actor


def _decode(record: RecordedEvent) -> Event:
    return decode_event(record.event_type, record.schema_version, record.data)


def _fold_recorded(state: Table, records: Sequence[RecordedEvent]) -> Table:
    """Carry on from what was recorded when the rules could not run a command."""
    try:
        return fold(state, [_decode(r) for r in records])
    except Exception:
        return state


def _is_wallet(event: Event) -> bool:
    return isinstance(event, _WALLET_TYPES)


def _builtins(event: Event) -> Any:
    return msgspec.to_builtins(event, builtin_types=(bytes,), order="deterministic")
