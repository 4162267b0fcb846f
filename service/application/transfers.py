"""Operator-side wallet commands of internal wallets: open, deposit, withdraw.

A transfer is idempotent by the operator's transfer id (the Hub88-style ``transaction_uuid``
of seamless APIs): the same id with the same kind and amount answers the first answer again
(``duplicate``), with anything else it is refused, never a second movement. A withdrawal is
checked against the balance it was decided on and appended with the wallet's expected
version, as a bet's debit is.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Literal, Protocol

import msgspec

from russian_poker.events.codec import encode_event
from russian_poker.events.commands import Actor
from russian_poker.events.records import (
    DuplicateCommand,
    NewEvent,
    RecordedEvent,
    StreamAppend,
    WrongExpectedVersion,
)
from russian_poker.events.streams import wallet_stream
from russian_poker.events.wallet import WalletEvent, WalletOpened
from russian_poker.events.writes import CommandWrite, LedgerMove, OpenedWallet
from russian_poker.projections.wallets import HeldWallet, money_moved
from russian_poker.service.application.idempotency import event_id
from russian_poker.service.application.results import Conflict
from russian_poker.service.rules.errors import RuleViolation
from russian_poker.service.rules.wallets import Wallet, deposit, fold_wallet, open_wallet, withdraw

__all__ = ["TransferMismatch", "TransferResult", "TransferService", "TransferStorage"]


TransferKind = Literal["deposit", "withdrawal"]


class TransferResult(msgspec.Struct, frozen=True, kw_only=True):
    """The answer to a deposit or withdrawal; a retry with the same transfer id gets it again."""

    wallet_id: Annotated[str, msgspec.Meta(description="The wallet's id.")]
    transfer_id: Annotated[str, msgspec.Meta(description="The operator's id for this movement.")]
    kind: Annotated[TransferKind, msgspec.Meta(description="`deposit` or `withdrawal`.")]
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


class TransferStorage(Protocol):
    async def wallets(self, wallet_ids: Sequence[str]) -> dict[str, HeldWallet]: ...
    async def commit(self, write: CommandWrite) -> list[RecordedEvent]: ...


class TransferService:
    """Opens internal wallets and moves money in and out of them."""

    _ATTEMPTS = 8

    def __init__(self, storage: TransferStorage) -> None:
        self._storage = storage

    async def open(self, wallet_id: str, currency: str, *, actor: Actor) -> Wallet:
        held = await self._storage.wallets([wallet_id])
        current = held[wallet_id].wallet if wallet_id in held else Wallet()
        events = open_wallet(current, wallet_id, currency)
        try:
            await self._write(wallet_id, 0, events, actor, f"open-wallet:{wallet_id}")
        except (WrongExpectedVersion, DuplicateCommand):
            # Opened meanwhile by another request.
            raise RuleViolation("wallet_exists") from None
        return fold_wallet(current, events)

    async def transfer(
        self, wallet_id: str, kind: TransferKind, transfer_id: str, amount: int, *, actor: Actor
    ) -> TransferResult:
        """A deposit or a withdrawal, once per ``transfer_id``."""
        command_id = f"transfer:{wallet_id}:{transfer_id}"
        for _ in range(self._ATTEMPTS):
            held = await self._storage.wallets([wallet_id])
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
            try:
                await self._write(wallet_id, version, events, actor, command_id, result)
            except WrongExpectedVersion:
                continue
            except DuplicateCommand as duplicate:
                stored = msgspec.json.decode(duplicate.result, type=TransferResult)
                if (stored.kind, stored.amount) != (kind, amount):
                    raise TransferMismatch(
                        f"transfer {transfer_id} was a {stored.kind} of {stored.amount}"
                    ) from None
                return msgspec.structs.replace(stored, duplicate=True)
            return result
        raise Conflict(f"wallet {wallet_id} is too busy; try again")

    async def _write(
        self,
        wallet_id: str,
        version: int,
        events: Sequence[WalletEvent],
        actor: Actor,
        command_id: str,
        result: msgspec.Struct | None = None,
    ) -> None:
        meta = msgspec.json.encode({"command_id": command_id, "actor": actor})
        new_events = []
        opened: list[OpenedWallet] = []
        ledger: list[LedgerMove] = []
        for index, event in enumerate(events):
            name, schema, data = encode_event(event)
            this = event_id(command_id, index)
            new_events.append(
                NewEvent(
                    event_id=this, event_type=name, schema_version=schema, data=data, metadata=meta
                )
            )
            if isinstance(event, WalletOpened):
                opened.append(
                    OpenedWallet(event_id=this, wallet_id=event.wallet_id, currency=event.currency)
                )
            elif (moved := money_moved(event)) is not None:
                ledger.append(
                    LedgerMove(
                        event_id=this,
                        wallet_id=moved.wallet_id,
                        event_type=name,
                        signed=moved.signed,
                        transfer_id=moved.transfer_id,
                    )
                )
        await self._storage.commit(
            CommandWrite(
                appends=(
                    StreamAppend(
                        stream_id=wallet_stream(wallet_id),
                        expected_version=version,
                        events=new_events,
                    ),
                ),
                command_id=command_id,
                result=msgspec.json.encode(result) if result else None,
                opened_wallets=tuple(opened),
                ledger=tuple(ledger),
            )
        )
