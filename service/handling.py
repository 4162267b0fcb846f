"""The command path: load → decide → append, in one PostgreSQL transaction.

A table command loads the table (from its stored state), runs the pure rules, opens the
next round if the rules finished one, checks every wallet the events move money in,
appends the table's and the wallets' events together with their expected versions, and
updates the read models that need read-your-writes — all or nothing. A version conflict
(another command won the race) is retried from the load, a bounded number of times.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Sequence
from typing import Any, Final

import asyncpg
import msgspec

from events.codec import Event, encode_event
from events.commands import SYSTEM, Actor, Command, OpenRound, OpenTable
from events.store import (
    DuplicateCommand,
    NewEvent,
    StreamAppend,
    WrongExpectedVersion,
    append,
    lookup_command,
    notify,
)
from events.streams import table_stream, wallet_stream
from events.wallet import WalletEvent
from projections import history, tables, timers, wallets
from service.observability import observe_command
from service.rules.decide import decide
from service.rules.deck import new_seed
from service.rules.errors import RuleViolation
from service.rules.evolve import fold
from service.rules.funds import check_funds, wallets_touched
from service.rules.wallets import Wallet, deposit, fold_wallet, open_wallet, withdraw

__all__ = [
    "CommandHandler",
    "CommandResult",
    "Conflict",
    "IdempotencyKeyReused",
    "TransferMismatch",
    "TransferResult",
    "VersionMismatch",
    "WalletHandler",
]

_NAMESPACE: Final = uuid.UUID("6f1c7d1e-3b7a-4c55-9d4e-2a6f0b8e4c11")


class CommandResult(msgspec.Struct, frozen=True, kw_only=True):
    """What a command did: the table's version after it and how many events it recorded."""

    table_id: str
    version: int
    events: int
    fingerprint: str = ""
    """SHA-256 of the command as sent: a retry must send the same command."""
    round: int = 0
    """The table's current round after the command."""
    duplicate: bool = False


class VersionMismatch(Exception):
    """The client's ``If-Match`` version is not the table's current version."""

    def __init__(self, expected: int, actual: int) -> None:
        super().__init__(f"the table is at version {actual}, not {expected}")
        self.expected = expected
        self.actual = actual


class IdempotencyKeyReused(Exception):
    """The same command id (idempotency key) was sent with a different command."""


def fingerprint(command: Command) -> str:
    return hashlib.sha256(msgspec.json.encode(command)).hexdigest()


class Conflict(Exception):
    """Still losing the race after every retry (extreme contention)."""


class CommandHandler:
    """Runs table commands against the store. Stateless: any instance may run any command."""

    def __init__(
        self, pool: asyncpg.Pool[asyncpg.Record], *, attempts: int = 8, test_mode: bool = False
    ) -> None:
        self._pool = pool
        self._attempts = attempts
        self._test_mode = test_mode

    async def execute(
        self,
        table_id: str,
        command: Command,
        actor: Actor,
        *,
        command_id: str | None = None,
        expected_version: int | None = None,
        request_id: str | None = None,
    ) -> CommandResult:
        """Run ``command``; raises ``RuleViolation``, ``VersionMismatch`` or ``Conflict``."""
        with observe_command(type(command).__name__, table_id) as facts:
            try:
                result = await self._execute(
                    table_id,
                    command,
                    actor,
                    command_id or str(uuid.uuid4()),
                    expected_version,
                    request_id,
                )
            except RuleViolation as refusal:
                facts.update(outcome="refused", code=refusal.code)
                raise
            except VersionMismatch:
                facts.update(outcome="version_mismatch")
                raise
            except Conflict:
                facts.update(outcome="conflict")
                raise
            facts.update(
                outcome="duplicate" if result.duplicate else "accepted",
                round=result.round,
                version=result.version,
            )
            return result

    async def _execute(
        self,
        table_id: str,
        command: Command,
        actor: Actor,
        command_id: str,
        expected_version: int | None,
        request_id: str | None,
    ) -> CommandResult:
        for _ in range(self._attempts):
            try:
                async with self._pool.acquire() as conn:
                    async with conn.transaction():
                        result, streams = await self._attempt(
                            conn, table_id, command, actor, command_id, expected_version, request_id
                        )
                    # Woken only after commit: NOTIFY inside the transaction would make every
                    # command's commit wait its turn for PostgreSQL's notify lock.
                    await notify(conn, streams)
                    return result
            except WrongExpectedVersion:
                continue
            except DuplicateCommand as duplicate:
                stored = msgspec.json.decode(duplicate.result, type=CommandResult)
                if stored.fingerprint != fingerprint(command):
                    raise IdempotencyKeyReused(
                        "this idempotency key was used for a different command"
                    ) from None
                return msgspec.structs.replace(stored, duplicate=True)
        raise Conflict(f"table {table_id} is too busy; try again")

    async def _attempt(
        self,
        conn: Any,
        table_id: str,
        command: Command,
        actor: Actor,
        command_id: str,
        expected_version: int | None,
        request_id: str | None,
    ) -> tuple[CommandResult, list[str]]:
        stored = await lookup_command(conn, command_id)
        if stored is not None:
            # A retry of a command already recorded: answer as the first time, even if the
            # rules would refuse it now.
            raise DuplicateCommand(command_id, stored)
        table, version = await tables.load(conn, table_id)
        if expected_version is not None and expected_version != version:
            raise VersionMismatch(expected_version, version)
        if isinstance(command, OpenTable) and version:
            raise RuleViolation("table_already_opened")
        batches = [(command, actor, command_id, decide(table, command, actor, table_id=table_id))]
        state = fold(table, batches[0][3])
        if state.needs_round:
            # The next round opens at once, so its commitment is public before any bet.
            opening = OpenRound(seed=new_seed(), deck=await self._next_deck(conn, table_id))
            opened = decide(state, opening, SYSTEM)
            batches.append((opening, SYSTEM, f"{command_id}/open-round", opened))
            state = fold(state, opened)
        every_event = [e for *_, events in batches for e in events]
        touched = wallets_touched(every_event)
        held = await wallets.load(conn, touched)
        if touched:
            check_funds(every_event, {k: v.wallet for k, v in held.items()}, state.rules.currency)
        appends = _appends(table_id, version, batches, held, request_id)
        result = CommandResult(
            table_id=table_id,
            fingerprint=fingerprint(command),
            round=state.round.number if state.round else 0,
            version=version + sum(not _is_wallet_event(e) for e in every_event),
            events=len(every_event),
        )
        recorded = await append(
            conn,
            appends,
            command_id=command_id,
            command_result=msgspec.json.encode(result),
            notify=False,
        )
        await tables.save(conn, state, result.version)
        if len(batches) > 1 or isinstance(command, OpenRound):
            await tables.checkpoint(conn, state, result.version)
        await wallets.apply(conn, recorded)
        await timers.sync(conn, state)
        await history.record_settled(conn, state, every_event)
        return result, [a.stream_id for a in appends]

    async def _next_deck(self, conn: Any, table_id: str) -> tuple[str, ...]:
        if not self._test_mode:
            return ()
        deck = await conn.fetchval(
            "DELETE FROM test_decks WHERE table_id = $1 RETURNING deck", table_id
        )
        return tuple(deck or ())


def _is_wallet_event(event: Event) -> bool:
    return isinstance(event, WalletEvent)


def _appends(
    table_id: str,
    version: int,
    batches: Sequence[tuple[Command, Actor, str, list[Event]]],
    held: dict[str, wallets.HeldWallet],
    request_id: str | None,
) -> list[StreamAppend]:
    by_stream: dict[str, list[NewEvent]] = {}
    debited: set[str] = set()
    for command, actor, command_id, events in batches:
        meta = _metadata(command, actor, command_id, request_id)
        for index, event in enumerate(events):
            if _is_wallet_event(event):
                stream = wallet_stream(event.wallet_id)  # type: ignore[union-attr]
                if type(event).__name__ == "WalletDebited":
                    debited.add(stream)
            else:
                stream = table_stream(table_id)
            name, schema, data = encode_event(event)
            by_stream.setdefault(stream, []).append(
                NewEvent(
                    event_id=uuid.uuid5(_NAMESPACE, f"{command_id}:{index}"),
                    event_type=name,
                    schema_version=schema,
                    data=data,
                    metadata=meta,
                )
            )
    appends = []
    for stream, new_events in by_stream.items():
        if stream == table_stream(table_id):
            expected: int | None = version
        elif stream in debited:
            # A debit must see the balance it was checked against.
            expected = held[stream.removeprefix("wallet-")].version
        else:
            expected = None  # a credit protects no invariant
        appends.append(StreamAppend(stream_id=stream, expected_version=expected, events=new_events))
    return appends


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


class TransferResult(msgspec.Struct, frozen=True, kw_only=True):
    """The answer to a deposit or withdrawal; a retry with the same transfer id gets it again."""

    wallet_id: str
    transfer_id: str
    kind: str
    amount: int
    balance: int
    duplicate: bool = False


class TransferMismatch(Exception):
    """A transfer id reused with a different body: never a second movement."""


class WalletHandler:
    """Operator-side wallet commands: open, deposit, withdraw (idempotent by transfer id)."""

    def __init__(self, pool: asyncpg.Pool[asyncpg.Record]) -> None:
        self._pool = pool

    async def open(self, wallet_id: str, currency: str, *, actor: Actor) -> Wallet:
        async with self._pool.acquire() as conn, conn.transaction():
            held = await wallets.load(conn, [wallet_id])
            current = held[wallet_id].wallet if wallet_id in held else Wallet()
            events = open_wallet(current, wallet_id, currency)
            await self._append(conn, wallet_id, 0, events, actor, f"open-wallet:{wallet_id}")
            return fold_wallet(current, events)

    async def transfer(
        self, wallet_id: str, kind: str, transfer_id: str, amount: int, *, actor: Actor
    ) -> TransferResult:
        """``kind`` is ``deposit`` or ``withdrawal``."""
        command_id = f"transfer:{wallet_id}:{transfer_id}"
        for _ in range(8):
            try:
                async with self._pool.acquire() as conn, conn.transaction():
                    held = await wallets.load(conn, [wallet_id])
                    if wallet_id not in held:
                        raise RuleViolation("no_wallet")
                    wallet, version = held[wallet_id]
                    move = deposit if kind == "deposit" else withdraw
                    events = move(wallet, transfer_id, amount)
                    result = TransferResult(
                        wallet_id=wallet_id,
                        transfer_id=transfer_id,
                        kind=kind,
                        amount=amount,
                        balance=fold_wallet(wallet, events).balance,
                    )
                    await self._append(conn, wallet_id, version, events, actor, command_id, result)
                    return result
            except WrongExpectedVersion:
                continue
            except DuplicateCommand as duplicate:
                stored = msgspec.json.decode(duplicate.result, type=TransferResult)
                if (stored.kind, stored.amount) != (kind, amount):
                    raise TransferMismatch(
                        f"transfer {transfer_id} was a {stored.kind} of {stored.amount}"
                    ) from None
                return msgspec.structs.replace(stored, duplicate=True)
        raise Conflict(f"wallet {wallet_id} is too busy; try again")

    async def _append(
        self,
        conn: Any,
        wallet_id: str,
        version: int,
        events: Sequence[WalletEvent],
        actor: Actor,
        command_id: str,
        result: msgspec.Struct | None = None,
    ) -> None:
        meta = msgspec.json.encode({"command_id": command_id, "actor": actor})
        new_events = []
        for index, event in enumerate(events):
            name, schema, data = encode_event(event)
            new_events.append(
                NewEvent(
                    event_id=uuid.uuid5(_NAMESPACE, f"{command_id}:{index}"),
                    event_type=name,
                    schema_version=schema,
                    data=data,
                    metadata=meta,
                )
            )
        stream = StreamAppend(
            stream_id=wallet_stream(wallet_id), expected_version=version, events=new_events
        )
        recorded = await append(
            conn,
            [stream],
            command_id=command_id,
            command_result=msgspec.json.encode(result) if result else None,
        )
        await wallets.apply(conn, recorded)
