"""The command path: (load →) decide → append, in one PostgreSQL statement.

A table command takes the table as this process last committed it (``service.cache``), or
loads it from its stored state, runs the pure rules, opens the next round if the rules
finished one, checks every wallet the events move money in, appends the table's and the
wallets' events together with their expected versions, and updates the read models that
need read-your-writes — all or nothing, in the append's own statement
(``events.store.SideWrites``). A version conflict (another command or instance won the
race, or the cached guess was stale) is retried from a fresh load, a bounded number of
times.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Annotated, Any, Final, TypeAlias

import asyncpg
import msgspec
import structlog

from russian_poker.events.codec import Event, encode_event
from russian_poker.events.commands import SYSTEM, Actor, Command, OpenRound, OpenTable, SitDown
from russian_poker.events.game import RoundSettled
from russian_poker.events.postgres.notify import Notifier
from russian_poker.events.postgres.store import (
    DuplicateCommand,
    NewEvent,
    SideWrites,
    StreamAppend,
    WrongExpectedVersion,
    append,
    lookup_command,
)
from russian_poker.events.streams import seamless_stream, table_stream, wallet_stream
from russian_poker.events.wallet import WalletCredited, WalletDebited, WalletEvent
from russian_poker.projections import history, tables, timers, wallets
from russian_poker.projections.abandoned import record_abandoned
from russian_poker.service.availability.notices import queue_notices
from russian_poker.service.cache import CommittedCache
from russian_poker.service.observability import TABLE_LOADS, observe_command
from russian_poker.service.rules.decide import decide
from russian_poker.service.rules.deck import new_seed
from russian_poker.service.rules.errors import RuleViolation
from russian_poker.service.rules.evolve import fold
from russian_poker.service.rules.funds import check_funds, check_seating, wallets_touched
from russian_poker.service.rules.state import Table
from russian_poker.service.rules.wallets import Wallet, deposit, fold_wallet, open_wallet, withdraw
from russian_poker.service.tenancy import DEFAULT_OPERATOR, operator_of
from russian_poker.service.wallet.bets import (
    DeliverOwed,
    PlacedBets,
    WalletRefused,
    WalletUnavailable,
    commit_writes,
    place_bets,
    release,
    undo,
)
from russian_poker.service.wallet.credits import Credit, queue_credits

if TYPE_CHECKING:
    from russian_poker.service.operators import OperatorRegistry

__all__ = [
    "CommandHandler",
    "CommandResult",
    "Conflict",
    "IdempotencyKeyReused",
    "ReplayedRefusal",
    "TransferMismatch",
    "TransferResult",
    "UnknownTable",
    "VersionMismatch",
    "WalletHandler",
    "player_command_id",
]

_log = structlog.get_logger("commands")

_NAMESPACE: Final = uuid.UUID("6f1c7d1e-3b7a-4c55-9d4e-2a6f0b8e4c11")


class CommandResult(msgspec.Struct, frozen=True, kw_only=True):
    """What a command did: the table's version after it and how many events it recorded."""

    table_id: str
    version: int
    events: int
    fingerprint: Annotated[
        str,
        msgspec.Meta(
            description="SHA-256 of the command as sent: a retry must send the same command."
        ),
    ] = ""
    round: Annotated[
        int, msgspec.Meta(description="The table's current round after the command.")
    ] = 0
    duplicate: bool = False


class VersionMismatch(Exception):
    """The client's ``If-Match`` version is not the table's current version."""

    def __init__(self, expected: int, actual: int) -> None:
        super().__init__(f"the table is at version {actual}, not {expected}")
        self.expected = expected
        self.actual = actual


class UnknownTable(Exception):
    """The command names a table that was never opened."""


class Refusal(msgspec.Struct, frozen=True, kw_only=True):
    """A refused command, remembered under its id: a retry is refused the same way, even if
    the table has moved on (the client must send a new key to try again)."""

    refused: str
    message: str
    fingerprint: str
    balance: int | None = None
    """A seamless operator's refusal: the balance it reported, answered again as it was."""


def _answer(stored: bytes, command: Command) -> CommandResult:
    """The stored answer to a command id: its result, or its refusal raised again."""
    raw = msgspec.json.decode(stored)
    if not isinstance(raw, dict) or raw.get("fingerprint") != fingerprint(command):
        raise IdempotencyKeyReused("this idempotency key was used for a different command")
    if "refused" in raw:
        refusal = msgspec.convert(raw, Refusal)
        raise ReplayedRefusal(refusal.refused, refusal.message, balance=refusal.balance)
    return msgspec.structs.replace(msgspec.convert(raw, CommandResult), duplicate=True)


class ReplayedRefusal(RuleViolation):
    """A refusal answered again from memory: this command id was refused before, so the
    key is spent and only a new one sends the command again."""

    def __init__(self, code: str, message: str, *, balance: int | None = None) -> None:
        super().__init__(code, message)
        self.balance = balance


class IdempotencyKeyReused(Exception):
    """The same command id (idempotency key) was sent with a different command."""


def player_command_id(table_id: str, player: str, key: str) -> str:
    """A player's command id: their ``Idempotency-Key`` scoped to the table and the player,
    so the same key on another table, or from another player, names another command."""
    return f"{table_id}/{player}:{key}"


def fingerprint(command: Command) -> str:
    return hashlib.sha256(msgspec.json.encode(command)).hexdigest()


class Conflict(Exception):
    """Still losing the race after every retry (extreme contention)."""


class CommandHandler:
    """Runs table commands against the store. Any instance may run any command: what it
    caches is checked by every append, never trusted."""

    def __init__(
        self,
        pool: asyncpg.Pool[asyncpg.Record],
        *,
        attempts: int = 8,
        test_mode: bool = False,
        notifier: Notifier | None = None,
        cache: CommittedCache | None = None,
        operators: OperatorRegistry | None = None,
        owed: Callable[[], None] | None = None,
        deliver_owed: DeliverOwed | None = None,
    ) -> None:
        self._pool = pool
        self._attempts = attempts
        self._test_mode = test_mode
        self._notifier = notifier or Notifier(pool)
        self._cache = cache or CommittedCache()
        self._operators = operators
        self._owed = owed or (lambda: None)
        """Called when a command queued calls for the outbox (it wakes the deliverer)."""
        self._deliver_owed = deliver_owed
        """Delivers a player's owed calls of a round before new bets (the outbox's)."""

    async def close(self) -> None:
        """Send the wake-ups still pending (before the pool closes)."""
        await self._notifier.close()

    async def execute(
        self,
        table_id: str,
        command: Command,
        actor: Actor,
        *,
        command_id: str | None = None,
        expected_version: int | None = None,
        request_id: str | None = None,
        session: tuple[str, str] | None = None,
    ) -> CommandResult:
        """Run ``command``; raises ``RuleViolation``, ``VersionMismatch`` or ``Conflict``."""
        result, _ = await self.execute_with_state(
            table_id,
            command,
            actor,
            command_id=command_id,
            expected_version=expected_version,
            request_id=request_id,
            session=session,
        )
        return result

    async def execute_with_state(
        self,
        table_id: str,
        command: Command,
        actor: Actor,
        *,
        command_id: str | None = None,
        expected_version: int | None = None,
        request_id: str | None = None,
        must_exist: bool = False,
        session: tuple[str, str] | None = None,
    ) -> tuple[CommandResult, Table | None]:
        """:meth:`execute`, also returning the table's state right after the command, so the
        caller can answer with it without loading the table again (``None`` for a duplicate:
        the state it left is gone). With ``must_exist``, a table that was never opened
        raises :class:`UnknownTable` before the rules see the command. ``session`` is the
        acting player's launched session (id, currency), for a seamless operator's bets."""
        with observe_command(type(command).__name__, table_id) as facts:
            try:
                result, state = await self._execute(
                    table_id,
                    command,
                    actor,
                    command_id or str(uuid.uuid4()),
                    expected_version,
                    request_id,
                    must_exist,
                    session,
                )
            except UnknownTable:
                facts.update(outcome="unknown_table")
                raise
            except RuleViolation as refusal:
                replayed = isinstance(refusal, ReplayedRefusal)
                facts.update(outcome="refused", code=refusal.code, replayed=replayed)
                raise
            except IdempotencyKeyReused:
                facts.update(outcome="refused", code="idempotency_key_reused")
                raise
            except VersionMismatch:
                facts.update(outcome="version_mismatch")
                raise
            except Conflict:
                facts.update(outcome="conflict")
                raise
            except WalletUnavailable as unknown:
                # Why the outcome was unknown (a time-out, an answer refused): never a secret.
                facts.update(outcome="wallet_unavailable", why=str(unknown))
                raise
            facts.update(
                outcome="duplicate" if result.duplicate else "accepted",
                round=result.round,
                version=result.version,
            )
            return result, state

    async def _execute(
        self,
        table_id: str,
        command: Command,
        actor: Actor,
        command_id: str,
        expected_version: int | None,
        request_id: str | None,
        must_exist: bool,
        session: tuple[str, str] | None,
    ) -> tuple[CommandResult, Table | None]:
        # The first attempt may decide on what this process committed last (no load, no
        # decoding); anything that guess gets wrong is found by the append's expected
        # versions, and everything after it starts from a fresh load.
        reload: str | None = None  # why the next attempt must load; None: it may guess
        async with self._cache.turn(table_id):
            for _ in range(self._attempts):
                try:
                    async with self._pool.acquire() as conn:
                        # No transaction: the reads are checked by the append's expected
                        # versions, and the append writes the read models in its own
                        # statement.
                        outcome = await self._attempt(
                            conn,
                            table_id,
                            command,
                            actor,
                            command_id,
                            expected_version,
                            request_id,
                            must_exist,
                            session,
                            reload=reload,
                        )
                    result, streams, state = outcome
                    # Woken only after commit, and many commands per NOTIFY: inside the
                    # transaction every command's commit would wait its turn for
                    # PostgreSQL's notify lock.
                    self._notifier.notify(streams)
                    return result, state
                except WrongExpectedVersion as stale:
                    self._cache.forget(table_id, stale.stream_id)
                    reload = "stale"
                except DuplicateCommand as duplicate:
                    return _answer(duplicate.result, command), None
                except WalletRefused as refusal:
                    # The operator's answer, not a guess of ours: asking it again would only
                    # send new bets. Remembered like the rules' refusals.
                    stored = await self._remember_refusal(table_id, command, command_id, refusal)
                    if stored is None:
                        raise
                    return _answer(stored, command), None
                except (RuleViolation, VersionMismatch) as refusal:
                    if reload is None:
                        # Decided on a guess: a refusal is only answered from a fresh load.
                        self._cache.forget(table_id)
                        reload = "refusal"
                        continue
                    if isinstance(refusal, VersionMismatch):
                        raise
                    stored = await self._remember_refusal(table_id, command, command_id, refusal)
                    if stored is None:
                        raise
                    return _answer(stored, command), None
                except BaseException:
                    self._cache.forget(table_id)
                    raise
            raise Conflict(f"table {table_id} is too busy; try again")

    async def _remember_refusal(
        self, table_id: str, command: Command, command_id: str, refusal: RuleViolation
    ) -> bytes | None:
        """Record the refusal under the command id, so a retry gets the same answer; if the
        id was recorded meanwhile (a concurrent retry won), the stored answer instead."""
        remembered = Refusal(
            refused=refusal.code,
            message=refusal.message,
            fingerprint=fingerprint(command),
            balance=getattr(refusal, "balance", None),
        )
        async with self._pool.acquire() as conn:
            inserted = await conn.fetchval(
                "INSERT INTO commands (command_id, stream_id, result) VALUES ($1, $2, $3::jsonb)"
                " ON CONFLICT (command_id) DO NOTHING RETURNING 1",
                command_id,
                table_stream(table_id),
                msgspec.json.encode(remembered).decode(),
            )
            if inserted:
                return None
            return await lookup_command(conn, command_id)

    async def _attempt(
        self,
        conn: Any,
        table_id: str,
        command: Command,
        actor: Actor,
        command_id: str,
        expected_version: int | None,
        request_id: str | None,
        must_exist: bool,
        session: tuple[str, str] | None,
        *,
        reload: str | None,
    ) -> _Outcome:
        seamless_actor = actor.role == "player" and await self._seamless(actor.id)
        # The acting player's wallet comes with the table: most money moves are theirs.
        mine = [actor.id] if actor.role == "player" and not seamless_actor else []
        fresh = reload is not None
        cached = None if fresh else self._cache.table(table_id)
        held = self._cache.wallets(mine) if cached else None
        if cached is not None and held is not None:
            version, table = cached
        else:
            TABLE_LOADS.labels(reload or "not_cached").inc()
            stored, table, version, held = await tables.load_for_command(
                conn, table_id, command_id, mine
            )
            if stored is not None:
                # A retry of a command already recorded: answer as the first time, even if
                # the rules would refuse it now.
                raise DuplicateCommand(command_id, stored)
            self._cache.remember_loaded(held)
        if must_exist and not version:
            raise UnknownTable(table_id)
        if actor.role == "player" and not _may_play(table, actor.id):
            # Another operator's table is not there for this player (as for its views).
            raise UnknownTable(table_id)
        if expected_version is not None and expected_version != version:
            raise VersionMismatch(expected_version, version)
        if isinstance(command, OpenTable) and version:
            raise RuleViolation("table_already_opened")
        batches = [(command, actor, command_id, decide(table, command, actor, table_id=table_id))]
        if isinstance(command, SitDown):
            if seamless_actor:
                _check_session_currency(session, table.rules.currency)
            else:
                check_seating(
                    actor.id, {k: v.wallet for k, v in held.items()}, table.rules.currency
                )
        state = fold(table, batches[0][3])
        test_deck: tuple[str, ...] = ()
        if state.needs_round:
            # The next round opens at once, so its commitment is public before any bet.
            test_deck = await self._next_deck(conn, table_id)
            opening = OpenRound(seed=new_seed(), deck=test_deck)
            opened = decide(state, opening, SYSTEM)
            batches.append((opening, SYSTEM, f"{command_id}/open-round", opened))
            state = fold(state, opened)
        every_event = [e for *_, events in batches for e in events]
        touched = wallets_touched(every_event)
        seamless = {w for w in touched if await self._seamless(w)}
        touched = [w for w in touched if w not in seamless]
        if not set(touched) <= held.keys():
            others = [w for w in touched if w not in held]
            more = self._cache.wallets(others) if not fresh else None
            if more is None:
                more = await wallets.load(conn, others)
                self._cache.remember_loaded(more)
            held = {**held, **more}
        if touched:
            check_funds(
                [e for e in every_event if not _moves(e, seamless)],
                {k: v.wallet for k, v in held.items()},
                state.rules.currency,
            )
        placed = None
        debits = [e for e in every_event if isinstance(e, WalletDebited) and _moves(e, seamless)]
        if debits:
            placed = await self._place_bets(conn, debits, actor, session, command_id)
        try:
            return await self._append(
                conn,
                table_id,
                command,
                version,
                batches,
                held,
                seamless,
                state,
                every_event,
                request_id,
                command_id,
                test_deck,
                placed,
            )
        except BaseException:
            if placed is not None:
                await self._undo(conn, placed)
            raise
        finally:
            if placed is not None:
                await self._release(conn, placed)

    async def _append(
        self,
        conn: Any,
        table_id: str,
        command: Command,
        version: int,
        batches: list[tuple[Command, Actor, str, list[Event]]],
        held: dict[str, wallets.HeldWallet],
        seamless: set[str],
        state: Table,
        every_event: list[Event],
        request_id: str | None,
        command_id: str,
        test_deck: tuple[str, ...],
        placed: PlacedBets | None,
    ) -> _Outcome:
        appends = _appends(table_id, version, batches, held, request_id, seamless)
        result = CommandResult(
            table_id=table_id,
            fingerprint=fingerprint(command),
            round=state.round.number if state.round else 0,
            version=version + sum(not _is_wallet_event(e) for e in every_event),
            events=len(every_event),
        )
        # The read models that need read-your-writes, in the append's own statement: all of
        # it is written, or none.
        writes = SideWrites()
        opened_round = len(batches) > 1 or isinstance(command, OpenRound)
        tables.save(writes, state, result.version, checkpoint=opened_round)
        timers.sync(writes, state)
        wallets.apply(writes, appends)
        history.record_settled(writes, state, every_event)
        record_abandoned(writes, state, every_event)
        settled = next((e.round for e in every_event if isinstance(e, RoundSettled)), None)
        credits = _seamless_credits(batches, seamless)
        if placed is not None:
            commit_writes(writes, placed)
        if credits or settled is not None:
            queue_credits(
                writes,
                credits,
                table_id=table_id,
                currency=state.rules.currency,
                settled_round=settled,
                attempt_id=placed.attempt_id if placed else None,
            )
        # A closing or reopening notifies the operator: queued with the event, or not at all.
        queue_notices(writes, state, batches, event_id)
        if test_deck:
            writes.add(
                "used_test_deck",
                f"DELETE FROM test_decks WHERE table_id = {writes.param(table_id)}"
                f" AND deck = {writes.param(list(test_deck))}::text[]"
                " AND EXISTS (SELECT FROM appended)",
            )
        # The seamless operator's bets are held for this very append (undone if it fails,
        # released after): it runs here, on the connection that holds them. Listeners are
        # woken after commit, many commands per NOTIFY (``notify=False`` here).
        recorded = await append(
            conn,
            appends,
            command_id=command_id,
            command_result=msgspec.json.encode(result),
            notify=False,
            side_writes=writes,
        )
        self._cache.committed(table_id, result.version, state, recorded, every_event)
        if credits or settled is not None:
            self._owed()
        return result, [a.stream_id for a in appends], state

    async def _seamless(self, wallet_id: str) -> bool:
        """Whether the player's money lives at a seamless operator."""
        operator_id = operator_of(wallet_id).operator_id
        if operator_id == DEFAULT_OPERATOR or self._operators is None:
            return False
        return await self._operators.seamless(operator_id)

    async def _place_bets(
        self,
        conn: Any,
        debits: list[WalletDebited],
        actor: Actor,
        session: tuple[str, str] | None,
        command_id: str,
    ) -> PlacedBets:
        assert self._operators is not None
        adapters = {}
        sessions: dict[str, tuple[str, str]] = {}
        for debit in debits:
            ref = operator_of(debit.wallet_id)
            adapter = await self._operators.wallet(ref.operator_id)
            assert adapter is not None
            adapters[ref.operator_id] = adapter
            if debit.wallet_id == actor.id and session is not None:
                sessions[debit.wallet_id] = session
            elif debit.wallet_id not in sessions:
                sessions[debit.wallet_id] = await _latest_session(
                    conn, ref.operator_id, ref.player_id
                )
        try:
            return await place_bets(
                conn,
                adapters,
                debits,
                sessions=sessions,
                command_id=command_id,
                deliver_owed=self._deliver_owed,
            )
        except BaseException:
            self._owed()  # a refusal or an unknown outcome queued rollbacks
            raise

    async def _undo(self, conn: Any, placed: PlacedBets) -> None:
        """The bets were accepted but the command was not recorded: roll them back. If even
        that fails (the connection is gone), recovery finds the bets and does it."""
        try:
            await undo(conn, placed.attempt_id, "the command was not recorded")
        except Exception as error:
            _log.warning(
                "wallet_undo_deferred", attempt=str(placed.attempt_id), error=type(error).__name__
            )
        self._owed()

    async def _release(self, conn: Any, placed: PlacedBets) -> None:
        try:
            await release(conn, placed.attempt_id, placed.players)
        except Exception as error:  # the connection is gone, and the lock with it
            _log.info("wallet_release_skipped", error=type(error).__name__)

    async def _next_deck(self, conn: Any, table_id: str) -> tuple[str, ...]:
        """Test mode: the deck set for the next round (used up when the round opens)."""
        if not self._test_mode:
            return ()
        deck = await conn.fetchval("SELECT deck FROM test_decks WHERE table_id = $1", table_id)
        return tuple(deck or ())


_Outcome: TypeAlias = tuple[CommandResult, list[str], Table]
"""A command's result, the streams it appended to and the table's state after it."""


def event_id(command_id: str, index: int) -> uuid.UUID:
    """The id of a command's ``index``-th event: derived, so a retried append is the same
    append, and a seamless credit's transaction id can be derived from its event's."""
    return uuid.uuid5(_NAMESPACE, f"{command_id}:{index}")


def _is_wallet_event(event: Event) -> bool:
    return isinstance(event, WalletEvent)


def _may_play(table: Table, player: str) -> bool:
    return table.shared or table.operator_id == operator_of(player).operator_id


def _moves(event: Event, seamless: set[str]) -> bool:
    """Whether the event moves a seamless player's money."""
    return isinstance(event, WalletDebited | WalletCredited) and event.wallet_id in seamless


def _seamless_credits(
    batches: Sequence[tuple[Command, Actor, str, list[Event]]], seamless: set[str]
) -> list[Credit]:
    """The seamless players' credits, with the ids their events are appended under."""
    if not seamless:
        return []
    return [
        Credit(event_id(command_id, index), event)
        for _, _, command_id, events in batches
        for index, event in enumerate(events)
        if isinstance(event, WalletCredited) and event.wallet_id in seamless
    ]


def _check_session_currency(session: tuple[str, str] | None, currency: str) -> None:
    """A seamless player sits down with a launched session in the table's currency."""
    if session is None:
        raise RuleViolation(
            "session_ended", "a seamless operator's player plays with a launched session"
        )
    if session[1] != currency:
        raise RuleViolation(
            "currency_mismatch", f"the table plays in {currency}, the session in {session[1]}"
        )


async def _latest_session(conn: Any, operator_id: str, player_id: str) -> tuple[str, str]:
    row = await conn.fetchrow(
        "SELECT session_id, currency FROM game_sessions WHERE operator_id = $1 AND player_id = $2"
        " ORDER BY created_at DESC LIMIT 1",
        operator_id,
        player_id,
    )
    if row is None:
        raise RuleViolation("session_ended", "the player has no game session")
    return row["session_id"], row["currency"]


def _appends(
    table_id: str,
    version: int,
    batches: Sequence[tuple[Command, Actor, str, list[Event]]],
    held: dict[str, wallets.HeldWallet],
    request_id: str | None,
    seamless: set[str] = frozenset(),  # type: ignore[assignment]
) -> list[StreamAppend]:
    by_stream: dict[str, list[NewEvent]] = {}
    debited: set[str] = set()
    for command, actor, command_id, events in batches:
        meta = _metadata(command, actor, command_id, request_id)
        for index, event in enumerate(events):
            if _is_wallet_event(event) and event.wallet_id in seamless:  # type: ignore[union-attr]
                # The operator holds the balance: the stream records, it does not guard.
                stream = seamless_stream(event.wallet_id)  # type: ignore[union-attr]
            elif _is_wallet_event(event):
                stream = wallet_stream(event.wallet_id)  # type: ignore[union-attr]
                if type(event).__name__ == "WalletDebited":
                    debited.add(stream)
            else:
                stream = table_stream(table_id)
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

    wallet_id: Annotated[str, msgspec.Meta(description="The wallet's id.")]
    transfer_id: Annotated[str, msgspec.Meta(description="The operator's id for this movement.")]
    kind: Annotated[str, msgspec.Meta(description="`deposit` or `withdrawal`.")]
    amount: Annotated[
        int, msgspec.Meta(description="Amount moved, in minor units of the wallet's currency.")
    ]
    balance: Annotated[
        int,
        msgspec.Meta(
            description="The wallet's balance after the movement, in minor units of its currency."
        ),
    ]
    duplicate: Annotated[
        bool,
        msgspec.Meta(
            description=(
                "The transfer id was used before with the same body: this is the "
                "first answer again and nothing moved twice."
            )
        ),
    ] = False


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
                    event_id=event_id(command_id, index),
                    event_type=name,
                    schema_version=schema,
                    data=data,
                    metadata=meta,
                )
            )
        stream = StreamAppend(
            stream_id=wallet_stream(wallet_id), expected_version=version, events=new_events
        )
        writes = SideWrites()
        wallets.apply(writes, [stream])
        await append(
            conn,
            [stream],
            command_id=command_id,
            command_result=msgspec.json.encode(result) if result else None,
            side_writes=writes,
        )
