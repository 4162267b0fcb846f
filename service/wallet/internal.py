"""The internal adapter: the wallet port on the service's own event-sourced ledger.

It answers exactly as WALLET-PROTOCOL §3 asks an operator to, so the command path and the
outbox need not know which kind of wallet a player has. Operator ``O``'s player ``P`` owns
the internal wallet ``game_player_id(O, P)``; a debit or a credit is a ``WalletDebited`` or
``WalletCredited`` on that wallet's stream, appended with the version it was decided on, so
the balance check (and ``CHECK (balance >= 0)`` behind it) holds under concurrency.

Every money call is one append that also records its answer under the command id
``wallet-call:{operator}:{transaction_id}`` (the event store's ``commands`` table): a
repeat meets :class:`~events.store.DuplicateCommand` and gets the stored answer back, a
call reusing the id with other money fields gets ``duplicate_transaction``. What is stored:

- every answer to a bet, refusals included: the service never sends a bet again after an
  answer, and a stray re-send must never apply a bet the service was told was refused;
- the ``ok`` of a win and both final answers of a rollback. A refused win or rollback is
  not stored: the service sends those again until they are final (§3.3, §3.4), and a
  re-send must be judged afresh (e.g. once the wallet exists);
- a rollback of a bet never seen also stores, in the same statement, a *tombstone* under
  the bet's own command id, so that the bet, arriving late, answers
  ``transaction_rolled_back`` unapplied. The bet and its tombstone race for one primary
  key: whichever commits first decides, and the loser re-reads.

A bet is refunded at most once whatever the number of rollbacks naming it: the refund's
event id is derived from the bet's command id, so a second refund is a duplicate event. A
bet sent again after its refund answers ``transaction_rolled_back``, not its old ``ok``. A
rollback refunds what its bet debited: the amount it carries is only the caller's copy.

Sessions are not checked here: in internal mode the API authenticates the session token
before a command runs, and expiry never blocks a credit or a rollback (§3.5).
"""

from __future__ import annotations

import uuid
from typing import Any, Final, Literal, cast, get_args

import asyncpg
import msgspec

from russian_poker.events.codec import encode_event
from russian_poker.events.commands import SYSTEM
from russian_poker.events.postgres.store import (
    AnyConnection,
    DuplicateCommand,
    DuplicateEvent,
    NewEvent,
    SideWrites,
    StreamAppend,
    WrongExpectedVersion,
    append,
    lookup_command,
)
from russian_poker.events.streams import wallet_stream
from russian_poker.events.wallet import CreditReason, DebitReason, WalletCredited, WalletDebited
from russian_poker.projections import wallets
from russian_poker.projections.wallets import HeldWallet
from russian_poker.service.tenancy import game_player_id
from russian_poker.service.wallet.port import UnknownOutcome
from russian_poker.service.wallet.protocol import (
    CREDIT_REASONS,
    Answer,
    BalanceCall,
    BetCall,
    Call,
    RollbackCall,
    WinCall,
    money_fields,
)

__all__ = ["InternalWallet", "wallet_call_id"]

_NAMESPACE: Final = uuid.UUID("0d7b3c52-9a61-4f0e-8c2b-5e4a7f1d9b36")
_DEBIT_REASONS: Final = frozenset(get_args(DebitReason))
# Only the protocol's credit reasons come over the port; the game's own (refund, bonus,
# settlement) are written by the command path directly.
_CREDIT_REASONS: Final = frozenset(CREDIT_REASONS)
_COMMANDS_KEY: Final = "commands_pkey"
_ATTEMPTS: Final = 16
_REFUNDED: Final = "SELECT EXISTS (SELECT FROM events WHERE event_id = $1)"

_Kind = Literal["bet", "win", "rollback", "tombstone"]


class _Record(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """What a transaction id stands for, stored as its command's result."""

    call: _Kind
    fields: dict[str, Any]
    """The call's money fields as JSON values (a tombstone: its rollback's)."""
    answer: Answer
    applied: bool = False
    """A bet: whether it was debited, i.e. whether a rollback has something to refund."""


_record_decoder: Final = msgspec.json.Decoder(_Record)


def wallet_call_id(operator_id: str, transaction_id: str) -> str:
    """The command id a money call's answer is stored under."""
    return f"wallet-call:{operator_id}:{transaction_id}"


class InternalWallet:
    """The :class:`~service.wallet.port.WalletPort` of one operator's internal wallets."""

    def __init__(self, pool: asyncpg.Pool[asyncpg.Record], operator_id: str) -> None:
        self._pool = pool
        self._operator_id = operator_id

    def __repr__(self) -> str:
        return f"InternalWallet({self._operator_id!r})"

    async def aclose(self) -> None:
        """Nothing to release: the pool is the caller's."""

    async def balance(self, call: BalanceCall) -> Answer:
        self._check_operator(call)
        async with self._pool.acquire() as conn:
            held = await self._load(conn, call.player_id)
        refusal = _refusal(held, call.currency)
        if refusal is not None or held is None:
            return refusal or _invalid_session()
        return Answer(status="ok", balance=held.wallet.balance)

    async def bet(self, call: BetCall) -> Answer:
        self._check_operator(call)
        if call.amount < 1:
            raise ValueError("a bet's amount is at least 1")
        reason = _debit_reason(call.reason)
        number = _round_number(call.round_id)
        command_id = self._command_id(call.transaction_id)
        fields = _fields(call)
        for _ in range(_ATTEMPTS):
            async with self._pool.acquire() as conn:
                held = await self._load(conn, call.player_id)
                try:
                    refusal = _refusal(held, call.currency)
                    if refusal is None and held is not None and held.wallet.balance < call.amount:
                        refusal = Answer(
                            status="insufficient_funds",
                            balance=held.wallet.balance,
                            message=f"the balance is {held.wallet.balance}",
                        )
                    if refusal is not None or held is None:
                        answer = refusal or _invalid_session()
                        await _record_only(
                            conn, command_id, _Record(call="bet", fields=fields, answer=answer)
                        )
                        return answer
                    answer = _ok(held.wallet.balance - call.amount, command_id)
                    debit = WalletDebited(
                        wallet_id=held.wallet.wallet_id,
                        amount=call.amount,
                        reason=reason,
                        table_id=call.table_id,
                        round=number,
                        box=call.box,
                    )
                    record = _Record(call="bet", fields=fields, answer=answer, applied=True)
                    await self._append(conn, call, held, debit, _event_id(command_id), record)
                    return answer
                except DuplicateCommand as duplicate:
                    return await _repeat_bet(conn, fields, duplicate.result, command_id, call)
                except (WrongExpectedVersion, asyncpg.CheckViolationError):
                    # Another move landed since the load: decide again on the new balance.
                    continue
        raise UnknownOutcome(f"bet {call.transaction_id}: the wallet is too busy")

    async def win(self, call: WinCall) -> Answer:
        self._check_operator(call)
        if call.amount < 0:
            raise ValueError("a win's amount is at least 0")
        reason = _credit_reason(call.reason)
        number = _round_number(call.round_id)
        command_id = self._command_id(call.transaction_id)
        fields = _fields(call)
        for _ in range(_ATTEMPTS):
            async with self._pool.acquire() as conn:
                held = await self._load(conn, call.player_id)
                try:
                    refusal = _refusal(held, call.currency)
                    if refusal is not None or held is None:
                        return await _unless_recorded(
                            conn, "win", fields, command_id, call, refusal or _invalid_session()
                        )
                    answer = _ok(held.wallet.balance + call.amount, command_id)
                    record = _Record(call="win", fields=fields, answer=answer)
                    if call.amount == 0:
                        # Closes a round and moves nothing: no ledger row, only the answer.
                        await _record_only(conn, command_id, record)
                        return answer
                    credit = WalletCredited(
                        wallet_id=held.wallet.wallet_id,
                        amount=call.amount,
                        reason=reason,
                        table_id=call.table_id,
                        round=number,
                        box=call.box,
                    )
                    await self._append(conn, call, held, credit, _event_id(command_id), record)
                    return answer
                except DuplicateCommand as duplicate:
                    return _repeat("win", fields, duplicate.result, call.transaction_id)
                except WrongExpectedVersion:
                    continue
        raise UnknownOutcome(f"win {call.transaction_id}: the wallet is too busy")

    async def rollback(self, call: RollbackCall) -> Answer:
        self._check_operator(call)
        command_id = self._command_id(call.transaction_id)
        bet_command_id = self._command_id(call.reference_transaction_id)
        fields = _fields(call)
        for _ in range(_ATTEMPTS):
            async with self._pool.acquire() as conn:
                held = await self._load(conn, call.player_id)
                stored = await lookup_command(conn, bet_command_id)
                try:
                    if stored is None:
                        return await self._tombstone(conn, call, held, command_id, bet_command_id)
                    bet = _record_decoder.decode(stored)
                    if not _refundable(bet, call):
                        # Refused, tombstoned, not a bet, or another player's: nothing to undo.
                        answer = _not_found(held, call.reference_transaction_id)
                        await _record_only(
                            conn, command_id, _Record(call="rollback", fields=fields, answer=answer)
                        )
                        return answer
                    refusal = _refusal(held, call.currency)
                    if refusal is not None or held is None:
                        return await _unless_recorded(
                            conn,
                            "rollback",
                            fields,
                            command_id,
                            call,
                            refusal or _invalid_session(),
                        )
                    return await self._refund(conn, call, held, bet, command_id, bet_command_id)
                except DuplicateCommand as duplicate:
                    return _repeat("rollback", fields, duplicate.result, call.transaction_id)
                except WrongExpectedVersion:
                    continue
                except asyncpg.UniqueViolationError as error:
                    if error.constraint_name != _COMMANDS_KEY:
                        raise
                    # The bet committed while its tombstone was being written: undo it instead.
                    continue
        raise UnknownOutcome(f"rollback {call.transaction_id}: the wallet is too busy")

    async def _refund(
        self,
        conn: AnyConnection,
        call: RollbackCall,
        held: HeldWallet,
        bet: _Record,
        command_id: str,
        bet_command_id: str,
    ) -> Answer:
        amount = int(bet.fields["amount"])
        answer = _ok(held.wallet.balance + amount, command_id)
        # Table, round and box of the bet being undone, so the ledger pairs them up.
        credit = WalletCredited(
            wallet_id=held.wallet.wallet_id,
            amount=amount,
            reason="rollback",
            table_id=str(bet.fields["table_id"]),
            round=_round_number(str(bet.fields["round_id"])),
            box=int(bet.fields["box"]),
        )
        fields = _fields(call)
        record = _Record(call="rollback", fields=fields, answer=answer)
        try:
            await self._append(conn, call, held, credit, _refund_event_id(bet_command_id), record)
        except DuplicateEvent:
            # Another rollback id refunded this bet already: acknowledge, move nothing.
            now = await self._load(conn, call.player_id)
            answer = _ok(now.wallet.balance if now else None, command_id)
            await _record_only(
                conn, command_id, _Record(call="rollback", fields=fields, answer=answer)
            )
        return answer

    async def _tombstone(
        self,
        conn: AnyConnection,
        call: RollbackCall,
        held: HeldWallet | None,
        command_id: str,
        bet_command_id: str,
    ) -> Answer:
        """Record the rollback of a bet never seen, and the bet's tombstone, in one append."""
        answer = _not_found(held, call.reference_transaction_id)
        fields = _fields(call)
        record = _Record(call="rollback", fields=fields, answer=answer)
        tombstone = _Record(
            call="tombstone",
            fields=fields,
            answer=Answer(
                status="transaction_rolled_back",
                message=f"rolled back by {call.transaction_id} before it arrived",
            ),
        )
        writes = SideWrites()
        # A plain INSERT: if the bet's own command row appears first, the unique violation
        # aborts the whole append and the caller re-reads and refunds the bet instead.
        writes.add(
            "tombstone",
            f"""
            INSERT INTO commands (command_id, stream_id, result)
            VALUES ({writes.param(bet_command_id)}::text,
                    {writes.param(self._stream(call.player_id))}::text,
                    ({writes.param(msgspec.json.encode(tombstone).decode())}::text)::jsonb)
            """,
        )
        await append(
            conn,
            [],
            command_id=command_id,
            command_result=msgspec.json.encode(record),
            side_writes=writes,
        )
        return answer

    async def _append(
        self,
        conn: AnyConnection,
        call: BetCall | WinCall | RollbackCall,
        held: HeldWallet,
        event: WalletDebited | WalletCredited,
        event_id: uuid.UUID,
        record: _Record,
    ) -> None:
        """Append one move with the version it was decided on, its answer as the command's."""
        command_id = self._command_id(call.transaction_id)
        name, schema, data = encode_event(event)
        meta = msgspec.json.encode(
            {"command_id": command_id, "request_id": call.request_id, "actor": SYSTEM}
        )
        stream = StreamAppend(
            stream_id=wallet_stream(held.wallet.wallet_id),
            expected_version=held.version,
            events=[
                NewEvent(
                    event_id=event_id,
                    event_type=name,
                    schema_version=schema,
                    data=data,
                    metadata=meta,
                )
            ],
        )
        writes = SideWrites()
        wallets.apply(writes, [stream])
        await append(
            conn,
            [stream],
            command_id=command_id,
            command_result=msgspec.json.encode(record),
            side_writes=writes,
        )

    async def _load(self, conn: AnyConnection, player_id: str) -> HeldWallet | None:
        wallet_id = game_player_id(self._operator_id, player_id)
        return (await wallets.load(conn, [wallet_id])).get(wallet_id)

    def _stream(self, player_id: str) -> str:
        return wallet_stream(game_player_id(self._operator_id, player_id))

    def _command_id(self, transaction_id: str) -> str:
        return wallet_call_id(self._operator_id, transaction_id)

    def _check_operator(self, call: Call) -> None:
        # One adapter per operator: a call for another is a bug of the caller, not an answer.
        if call.operator_id != self._operator_id:
            raise ValueError(
                f"a call for operator {call.operator_id!r} sent to {self._operator_id!r}'s wallet"
            )


def _fields(call: Call) -> dict[str, Any]:
    """The money fields as the JSON values they are stored as (tuples become lists)."""
    fields: dict[str, Any] = msgspec.json.decode(msgspec.json.encode(money_fields(call)))
    return fields


def _repeat(kind: _Kind, fields: dict[str, Any], stored: bytes, transaction_id: str) -> Answer:
    """The answer to a call whose transaction id is already recorded."""
    record = _record_decoder.decode(stored)
    if record.call == "tombstone" and kind == "bet":
        return record.answer
    if record.call == kind and record.fields == fields:
        return record.answer
    return Answer(
        status="duplicate_transaction",
        message=f"transaction {transaction_id} was sent before with another payload",
    )


async def _repeat_bet(
    conn: AnyConnection, fields: dict[str, Any], stored: bytes, command_id: str, call: BetCall
) -> Answer:
    """A bet sent again: its stored answer, unless it was refunded since. Its ``ok`` would
    then tell the service the money is still debited; the status for a bet whose id was
    rolled back is ``transaction_rolled_back`` (§3), whenever it arrives."""
    answer = _repeat("bet", fields, stored, call.transaction_id)
    if answer.status == "ok" and await conn.fetchval(_REFUNDED, _refund_event_id(command_id)):
        return Answer(status="transaction_rolled_back", message="this bet was rolled back")
    return answer


async def _record_only(conn: AnyConnection, command_id: str, record: _Record) -> None:
    """Store an answer that moves no money: an append of the command alone."""
    await append(conn, [], command_id=command_id, command_result=msgspec.json.encode(record))


async def _unless_recorded(
    conn: AnyConnection,
    kind: _Kind,
    fields: dict[str, Any],
    command_id: str,
    call: WinCall | RollbackCall,
    refusal: Answer,
) -> Answer:
    """A refusal that is not stored, unless the id already has an answer: then that one."""
    stored = await lookup_command(conn, command_id)
    if stored is not None:
        return _repeat(kind, fields, stored, call.transaction_id)
    return refusal


def _ok(balance: int | None, command_id: str) -> Answer:
    """An applied call's answer: the balance after it, and the id the move has here."""
    return Answer(
        status="ok", balance=balance, operator_transaction_id=_operator_transaction_id(command_id)
    )


def _refundable(bet: _Record, call: RollbackCall) -> bool:
    return bet.call == "bet" and bet.applied and bet.fields.get("player_id") == call.player_id


def _refusal(held: HeldWallet | None, currency: str) -> Answer | None:
    if held is None:
        return _invalid_session()
    if held.wallet.currency != currency:
        return Answer(
            status="wrong_currency", message=f"the wallet's currency is {held.wallet.currency}"
        )
    return None


def _invalid_session() -> Answer:
    return Answer(status="invalid_session", message="the player has no wallet here")


def _not_found(held: HeldWallet | None, bet_id: str) -> Answer:
    return Answer(
        status="transaction_not_found",
        balance=held.wallet.balance if held else None,
        message=f"no bet {bet_id} to undo",
    )


def _debit_reason(reason: str) -> DebitReason:
    if reason not in _DEBIT_REASONS:
        raise ValueError(f"{reason!r} is not a debit reason")
    return cast(DebitReason, reason)


def _credit_reason(reason: str) -> CreditReason:
    if reason not in _CREDIT_REASONS:
        raise ValueError(f"{reason!r} is not a credit reason")
    return cast(CreditReason, reason)


def _round_number(round_id: str) -> int:
    """``t1:42`` → 42: the ledger keeps the round as the table's round number."""
    _, _, number = round_id.rpartition(":")
    try:
        return int(number)
    except ValueError:
        raise ValueError(f"round id {round_id!r} is not <table>:<number>") from None


def _event_id(command_id: str) -> uuid.UUID:
    return uuid.uuid5(_NAMESPACE, f"{command_id}:0")


def _refund_event_id(bet_command_id: str) -> uuid.UUID:
    # Named after the bet, not the rollback: one bet, at most one refund.
    return uuid.uuid5(_NAMESPACE, f"{bet_command_id}:refund")


def _operator_transaction_id(command_id: str) -> str:
    return str(uuid.uuid5(_NAMESPACE, command_id))
