"""The wallet-check kit's bookkeeping: the calls of one run (fresh ids, rounds), the balance
read through the port, and the bets still to be undone; and how a scenario fails."""

from __future__ import annotations

import secrets
import uuid
from typing import Final

import msgspec

from russian_poker.service.tools.conformance.raw import RawTransport
from russian_poker.service.wallet.port import WalletPort
from russian_poker.service.wallet.protocol import (
    FINAL_ROLLBACK_STATUSES,
    Answer,
    BalanceCall,
    BetCall,
    CallReason,
    RollbackCall,
    WinCall,
    rollback_of,
)

__all__ = ["TABLE", "Failed", "Kit", "describe", "expect", "request_id", "same"]

TABLE: Final = "wallet-check"
_BOX: Final = 1


class Failed(Exception):
    """A scenario's check did not hold; the message says what was seen."""


def expect(condition: bool, detail: str) -> None:
    if not condition:
        raise Failed(detail)


def describe(answer: Answer) -> str:
    text: str = answer.status
    if answer.balance is not None:
        text += f" (balance {answer.balance})"
    if answer.message:
        text += f": {answer.message}"
    return text


def same(first: Answer, again: Answer) -> bool:
    # The message is for logs; what the service acts on must be identical.
    return (first.status, first.balance, first.operator_transaction_id) == (
        again.status,
        again.balance,
        again.operator_transaction_id,
    )


def request_id() -> str:
    return uuid.uuid4().hex


class Kit:
    """The calls of one run: ids, rounds and the bets still to be undone."""

    def __init__(
        self,
        port: WalletPort,
        raw: RawTransport,
        *,
        operator_id: str,
        player_id: str,
        currency: str,
        session_id: str,
        ended_session_id: str,
        amount: int,
    ) -> None:
        self.port = port
        self.raw = raw
        self.operator_id = operator_id
        self.player_id = player_id
        self.currency = currency
        self.session_id = session_id
        self.ended_session_id = ended_session_id
        self.amount = amount
        self.run = uuid.uuid4().hex[:12]
        # Round numbers fit the ledger's int column and do not collide between runs.
        self._round = secrets.randbelow(1_000_000_000)
        self.initial: int | None = None
        self.open_bets: dict[str, BetCall] = {}
        self.leftovers: list[str] = []

    # -- calls ---------------------------------------------------------------------------

    def transaction_id(self) -> str:
        return f"wc-{self.run}-{uuid.uuid4().hex}"

    def next_round(self) -> str:
        self._round += 1
        return f"{TABLE}:{self._round}"

    def bet_call(self, *, amount: int | None = None, round_id: str | None = None) -> BetCall:
        return BetCall(
            request_id=request_id(),
            operator_id=self.operator_id,
            player_id=self.player_id,
            session_id=self.session_id,
            currency=self.currency,
            transaction_id=self.transaction_id(),
            amount=self.amount if amount is None else amount,
            round_id=round_id or self.next_round(),
            table_id=TABLE,
            box=_BOX,
            reason="ante",
        )

    def win_call(
        self,
        round_id: str,
        amount: int,
        *,
        reason: CallReason = "win",
        references: tuple[str, ...] = (),
        session_id: str | None = None,
    ) -> WinCall:
        return WinCall(
            request_id=request_id(),
            operator_id=self.operator_id,
            player_id=self.player_id,
            session_id=session_id or self.session_id,
            currency=self.currency,
            transaction_id=self.transaction_id(),
            amount=amount,
            round_id=round_id,
            table_id=TABLE,
            box=_BOX,
            reason=reason,
            round_closed=True,
            reference_transaction_ids=references,
        )

    def rollback_call(self, bet: BetCall) -> RollbackCall:
        return rollback_of(bet, request_id=request_id(), transaction_id=self.transaction_id())

    async def balance(self) -> int:
        answer = await self.port.balance(
            BalanceCall(
                request_id=request_id(),
                operator_id=self.operator_id,
                player_id=self.player_id,
                session_id=self.session_id,
                currency=self.currency,
            )
        )
        expect(answer.status == "ok", f"balance answered {describe(answer)}")
        expect(answer.balance is not None, "balance answered ok without a balance")
        assert answer.balance is not None
        return answer.balance

    async def funded_balance(self, needed: int) -> int:
        """The balance, failing the scenario up front if it cannot cover ``needed``."""
        balance = await self.balance()
        expect(
            balance >= needed,
            f"the player's balance ({balance}) is below {needed}: fund the player first",
        )
        return balance

    async def bet(self, call: BetCall) -> Answer:
        """Send a bet, remembering it until it is settled or rolled back: a bet whose
        answer never arrived (unknown outcome) is rolled back too, as the service would."""
        self.open_bets.setdefault(call.transaction_id, call)
        return await self.port.bet(call)

    async def accepted_bet(self) -> tuple[int, BetCall, Answer]:
        """A bet of ``amount`` the wallet answered ``ok`` (the scenario fails otherwise): the
        balance before it, the call and its answer."""
        before = await self.funded_balance(self.amount)
        call = self.bet_call()
        answer = await self.bet(call)
        expect(answer.status == "ok", f"the bet was answered {describe(answer)}")
        return before, call, answer

    def settled(self, call: BetCall) -> None:
        self.open_bets.pop(call.transaction_id, None)

    async def repeat_bet(self, call: BetCall) -> Answer:
        return await self.port.bet(msgspec.structs.replace(call, request_id=request_id()))

    async def rollback(self, call: RollbackCall) -> Answer:
        answer = await self.port.rollback(call)
        if answer.status in FINAL_ROLLBACK_STATUSES:
            self.open_bets.pop(call.reference_transaction_id, None)
        return answer

    async def undo_open_bets(self) -> None:
        """Roll back what a scenario left behind, so the next one starts from a balance
        the kit did not disturb."""
        for bet in list(self.open_bets.values()):
            try:
                answer = await self.rollback(self.rollback_call(bet))
            except Exception as error:
                self.leftovers.append(f"rollback of {bet.transaction_id}: {error}")
                self.open_bets.pop(bet.transaction_id, None)
                continue
            if answer.status not in FINAL_ROLLBACK_STATUSES:
                self.leftovers.append(f"rollback of {bet.transaction_id}: {describe(answer)}")
                self.open_bets.pop(bet.transaction_id, None)

    # -- scenarios -----------------------------------------------------------------------
