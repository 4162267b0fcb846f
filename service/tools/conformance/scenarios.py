"""The protocol's scenarios (WALLET-PROTOCOL §6) as a reusable suite.

One suite, three uses: the contract tests run it against both adapters of the wallet port
(the internal ledger and the seamless HTTP adapter talking to the reference operator
wallet), and ``russian-poker wallet-check`` runs it against an operator's own wallet
before it goes live.

Every scenario checks what it claims through the port itself: the money a call moved is
read back with ``balance`` before and after, so "applied once" means the balance moved by
one amount, not that the answer said so. Each run uses fresh transaction ids (uuid4) and
small amounts (``amount``, default 10 minor units).

The kit leaves the player's balance as it found it where it can: every bet it makes is
either settled by a win of the same amount or rolled back (a bet whose scenario failed half
way is rolled back afterwards, with a fresh rollback id). The last scenario, ``balance left
as found``, checks exactly that, so a wallet that double-applies something shows up there
too.

Sessions: bets are sent with ``session_id`` (``--session``; an operator whose wallet checks
sessions must give a live one). The ``win on an ended session`` scenario sends its win with
``ended_session_id``: a session the operator ended, or, by default, a fresh random id the
operator never saw. Either way the win must be accepted, because session expiry never
blocks a ``win`` or a ``rollback`` (§3.5): money owed to the player is paid regardless.

The signature scenarios (a wrong or missing signature, a stale ``t``, answers signed) need
the raw HTTP transport; without one (the internal adapter has no wire) they are reported as
not applicable — neither passed nor failed.
"""

from __future__ import annotations

import secrets
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import Final

import msgspec

from russian_poker.service.tools.conformance.raw import RawTransport
from russian_poker.service.wallet.port import UnknownOutcome, WalletPort
from russian_poker.service.wallet.protocol import (
    FINAL_ROLLBACK_STATUSES,
    Answer,
    BalanceCall,
    BetCall,
    RollbackCall,
    WinCall,
    rollback_of,
)
from russian_poker.service.wallet.signing import WINDOW_S, BadSignature, sign

__all__ = ["DEFAULT_AMOUNT", "SCENARIOS", "ScenarioResult", "run_scenarios"]

DEFAULT_AMOUNT: Final = 10
_TABLE: Final = "wallet-check"
_BOX: Final = 1
_answer: Final = msgspec.json.Decoder(Answer)
_encoder: Final = msgspec.json.Encoder()


class ScenarioResult(msgspec.Struct, frozen=True, kw_only=True):
    """One scenario's outcome. ``applicable`` false: not run (``detail`` says why); such a
    result is neither a pass nor a failure."""

    name: str
    passed: bool
    detail: str = ""
    applicable: bool = True

    @property
    def failed(self) -> bool:
        return self.applicable and not self.passed

    def line(self) -> str:
        """``PASS  name``, ``FAIL  name: detail`` or ``N/A   name: why``."""
        if not self.applicable:
            return f"N/A   {self.name}: {self.detail}"
        if self.passed:
            return f"PASS  {self.name}"
        return f"FAIL  {self.name}: {self.detail}"


class _Failed(Exception):
    """A scenario's check did not hold; the message says what was seen."""


def _expect(condition: bool, detail: str) -> None:
    if not condition:
        raise _Failed(detail)


def _describe(answer: Answer) -> str:
    text: str = answer.status
    if answer.balance is not None:
        text += f" (balance {answer.balance})"
    if answer.message:
        text += f": {answer.message}"
    return text


def _same(first: Answer, again: Answer) -> bool:
    # The message is for logs; what the service acts on must be identical.
    return (first.status, first.balance, first.operator_transaction_id) == (
        again.status,
        again.balance,
        again.operator_transaction_id,
    )


def _request_id() -> str:
    return uuid.uuid4().hex


class _Kit:
    """The calls of one run: ids, rounds and the bets still to be undone."""

    def __init__(
        self,
        port: WalletPort,
        raw: RawTransport | None,
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
        return f"{_TABLE}:{self._round}"

    def bet_call(self, *, amount: int | None = None, round_id: str | None = None) -> BetCall:
        return BetCall(
            request_id=_request_id(),
            operator_id=self.operator_id,
            player_id=self.player_id,
            session_id=self.session_id,
            currency=self.currency,
            transaction_id=self.transaction_id(),
            amount=self.amount if amount is None else amount,
            round_id=round_id or self.next_round(),
            table_id=_TABLE,
            box=_BOX,
            reason="ante",
        )

    def win_call(
        self,
        round_id: str,
        amount: int,
        *,
        reason: str = "win",
        references: tuple[str, ...] = (),
        session_id: str | None = None,
    ) -> WinCall:
        return WinCall(
            request_id=_request_id(),
            operator_id=self.operator_id,
            player_id=self.player_id,
            session_id=session_id or self.session_id,
            currency=self.currency,
            transaction_id=self.transaction_id(),
            amount=amount,
            round_id=round_id,
            table_id=_TABLE,
            box=_BOX,
            reason=reason,
            round_closed=True,
            reference_transaction_ids=references,
        )

    def rollback_call(self, bet: BetCall) -> RollbackCall:
        return rollback_of(bet, request_id=_request_id(), transaction_id=self.transaction_id())

    async def balance(self) -> int:
        answer = await self.port.balance(
            BalanceCall(
                request_id=_request_id(),
                operator_id=self.operator_id,
                player_id=self.player_id,
                session_id=self.session_id,
                currency=self.currency,
            )
        )
        _expect(answer.status == "ok", f"balance answered {_describe(answer)}")
        _expect(answer.balance is not None, "balance answered ok without a balance")
        assert answer.balance is not None
        return answer.balance

    async def funded_balance(self, needed: int) -> int:
        """The balance, failing the scenario up front if it cannot cover ``needed``."""
        balance = await self.balance()
        _expect(
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
        _expect(answer.status == "ok", f"the bet was answered {_describe(answer)}")
        return before, call, answer

    def settled(self, call: BetCall) -> None:
        self.open_bets.pop(call.transaction_id, None)

    async def repeat_bet(self, call: BetCall) -> Answer:
        return await self.port.bet(msgspec.structs.replace(call, request_id=_request_id()))

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
                self.leftovers.append(f"rollback of {bet.transaction_id}: {_describe(answer)}")
                self.open_bets.pop(bet.transaction_id, None)

    # -- scenarios -----------------------------------------------------------------------

    async def check_balance(self) -> None:
        self.initial = await self.balance()
        _expect(self.initial >= 0, f"the balance is negative: {self.initial}")

    async def bet_and_repeat(self) -> None:
        before, call, first = await self.accepted_bet()
        _expect(
            first.balance == before - self.amount,
            f"the bet's answer says balance {first.balance}, expected {before - self.amount}",
        )
        again = await self.repeat_bet(call)
        _expect(
            _same(first, again),
            f"the repeat was answered {_describe(again)}, the bet {_describe(first)}",
        )
        after = await self.balance()
        _expect(
            after == before - self.amount,
            f"balance {before} → {after} after a bet of {self.amount} and its repeat:"
            f" expected {before - self.amount} (applied once)",
        )

    async def duplicate_payload(self) -> None:
        before = await self.funded_balance(self.amount + 1)
        call = self.bet_call()
        first = await self.bet(call)
        _expect(first.status == "ok", f"the bet was answered {_describe(first)}")
        other = msgspec.structs.replace(call, request_id=_request_id(), amount=call.amount + 1)
        answer = await self.port.bet(other)
        _expect(
            answer.status == "duplicate_transaction",
            f"the same transaction_id with amount {other.amount} instead of {call.amount}"
            f" was answered {_describe(answer)}",
        )
        after = await self.balance()
        _expect(
            after == before - self.amount,
            f"balance {before} → {after}: expected {before - self.amount} (only the first applied)",
        )

    async def insufficient_funds(self) -> None:
        before = await self.balance()
        call = self.bet_call(amount=before + 1)
        answer = await self.bet(call)
        _expect(
            answer.status == "insufficient_funds",
            f"a bet of {call.amount} on a balance of {before} was answered {_describe(answer)}",
        )
        _expect(
            answer.balance == before,
            f"insufficient_funds carries balance {answer.balance}, the balance is {before}",
        )
        after = await self.balance()
        _expect(after == before, f"balance {before} → {after} after a refused bet")
        self.settled(call)

    async def _bet_then_win(
        self,
        *,
        reason: str,
        with_reference: bool,
        session_id: str | None = None,
        repeat: bool = False,
    ) -> None:
        """A bet of ``amount`` settled by a win of the same amount: balance back where it
        was, which proves the credit was applied (once)."""
        before, bet, _ = await self.accepted_bet()
        references = (bet.transaction_id,) if with_reference else ()
        win = self.win_call(
            bet.round_id, self.amount, reason=reason, references=references, session_id=session_id
        )
        won = await self.port.win(win)
        _expect(won.status == "ok", f"the win of {self.amount} was answered {_describe(won)}")
        self.settled(bet)
        _expect(
            won.balance == before, f"the win's answer says balance {won.balance}, expected {before}"
        )
        if repeat:
            again = await self.port.win(msgspec.structs.replace(win, request_id=_request_id()))
            _expect(
                _same(won, again),
                f"the repeated win was answered {_describe(again)}, the win {_describe(won)}",
            )
        after = await self.balance()
        _expect(
            after == before,
            f"balance {before} → {after} after a bet of {self.amount} and a win of"
            f" {self.amount}{' repeated' if repeat else ''}: expected {before}",
        )

    async def win_with_reference(self) -> None:
        await self._bet_then_win(reason="stake_returned", with_reference=True, repeat=True)

    async def win_without_reference(self) -> None:
        await self._bet_then_win(reason="win", with_reference=False)

    async def win_of_zero(self) -> None:
        before = await self.balance()
        answer = await self.port.win(self.win_call(self.next_round(), 0))
        _expect(answer.status == "ok", f"a win of 0 was answered {_describe(answer)}")
        after = await self.balance()
        _expect(after == before, f"balance {before} → {after} after a win of 0")

    async def _bet_then_rollback(self, *, repeat: bool) -> None:
        before, bet, _ = await self.accepted_bet()
        call = self.rollback_call(bet)
        undone = await self.rollback(call)
        _expect(
            undone.status == "ok", f"the rollback of a known bet was answered {_describe(undone)}"
        )
        _expect(
            undone.balance == before,
            f"the rollback's answer says balance {undone.balance}, expected {before}",
        )
        if repeat:
            again = await self.port.rollback(
                msgspec.structs.replace(call, request_id=_request_id())
            )
            _expect(
                _same(undone, again),
                f"the repeated rollback was answered {_describe(again)},"
                f" the rollback {_describe(undone)}",
            )
        else:
            # A stray re-send of the bet after its rollback: refused, never debited again.
            late = await self.repeat_bet(bet)
            _expect(
                late.status == "transaction_rolled_back",
                f"the bet sent again after its rollback was answered {_describe(late)}",
            )
        after = await self.balance()
        _expect(
            after == before,
            f"balance {before} → {after} after a bet and its rollback"
            f"{' repeated' if repeat else ''}: expected {before} (refunded once)",
        )

    async def rollback_known(self) -> None:
        await self._bet_then_rollback(repeat=False)

    async def rollback_repeated(self) -> None:
        await self._bet_then_rollback(repeat=True)

    async def _rollback_unknown(self, bet: BetCall) -> int:
        before = await self.balance()
        answer = await self.port.rollback(self.rollback_call(bet))
        _expect(
            answer.status in FINAL_ROLLBACK_STATUSES,
            f"the rollback of a bet never sent was answered {_describe(answer)}:"
            " expected ok or transaction_not_found (final)",
        )
        after = await self.balance()
        _expect(after == before, f"balance {before} → {after} after a rollback of a bet never sent")
        return after

    async def rollback_unknown(self) -> None:
        await self._rollback_unknown(self.bet_call())

    async def late_bet_refused(self) -> None:
        bet = self.bet_call()
        before = await self._rollback_unknown(bet)
        answer = await self.bet(bet)
        _expect(
            answer.status == "transaction_rolled_back",
            f"the bet, arriving after its rollback, was answered {_describe(answer)}",
        )
        after = await self.balance()
        _expect(after == before, f"balance {before} → {after}: the rolled back bet was applied")
        self.settled(bet)

    async def win_on_ended_session(self) -> None:
        await self._bet_then_win(
            reason="win", with_reference=True, session_id=self.ended_session_id
        )

    async def _refused_unsigned(
        self, describe: str, signature: Callable[[bytes], str | None]
    ) -> None:
        """Send a bet signed by ``signature``: it must be refused and not applied."""
        raw = self.raw
        assert raw is not None
        before = await self.funded_balance(self.amount)
        call = self.bet_call()
        body = _encoder.encode(call)
        self.open_bets[call.transaction_id] = call
        answer = await raw.post("bet", body, signature(body))
        if answer.status_code == 200:
            status: str
            try:
                status = _answer.decode(answer.body).status
            except msgspec.DecodeError:
                status = "an unreadable body"
            _expect(
                status == "invalid_signature",
                f"a bet with {describe} was answered HTTP 200 {status}",
            )
        after = await self.balance()
        _expect(after == before, f"balance {before} → {after}: the bet with {describe} was applied")

    async def bad_signature(self) -> None:
        wrong = secrets.token_hex(16)
        await self._refused_unsigned("a wrong signature", lambda body: sign(wrong, body))
        await self._refused_unsigned("no signature", lambda body: None)

    async def stale_signature(self) -> None:
        raw = self.raw
        assert raw is not None
        stale = WINDOW_S + 1
        await self._refused_unsigned(
            f"a signature {stale} s old", lambda body: raw.sign(body, now=time.time() - stale)
        )

    async def answers_signed(self) -> None:
        raw = self.raw
        assert raw is not None
        body = _encoder.encode(
            BalanceCall(
                request_id=_request_id(),
                operator_id=self.operator_id,
                player_id=self.player_id,
                session_id=self.session_id,
                currency=self.currency,
            )
        )
        answer = await raw.post("balance", body, raw.sign(body))
        _expect(answer.status_code == 200, f"balance answered HTTP {answer.status_code}")
        try:
            raw.verify(answer)
        except BadSignature as bad:
            # Say also whether the adapter caught it: it must, or a forged ok would pass.
            try:
                await self.balance()
            except UnknownOutcome:
                caught = "the seamless adapter refuses it (unknown outcome)"
            else:
                caught = "and the adapter did not notice"
            raise _Failed(f"the answer is not signed correctly ({bad}); {caught}") from None

    async def balance_as_found(self) -> None:
        _expect(self.initial is not None, "the first balance could not be read")
        after = await self.balance()
        leftovers = "; ".join(self.leftovers)
        _expect(
            after == self.initial,
            f"the balance was {self.initial} before the run and is {after} after it"
            + (f" (not undone: {leftovers})" if leftovers else ""),
        )
        _expect(not leftovers, f"not undone: {leftovers}")


_Scenario = Callable[[_Kit], Awaitable[None]]

SCENARIOS: Final[tuple[tuple[str, _Scenario, bool], ...]] = (
    ("balance", _Kit.check_balance, False),
    ("bet and repeat", _Kit.bet_and_repeat, False),
    ("same transaction_id with another payload", _Kit.duplicate_payload, False),
    ("insufficient funds shows the balance", _Kit.insufficient_funds, False),
    ("win with a reference", _Kit.win_with_reference, False),
    ("win without a reference", _Kit.win_without_reference, False),
    ("win of 0", _Kit.win_of_zero, False),
    ("rollback of a known bet", _Kit.rollback_known, False),
    ("rollback repeated", _Kit.rollback_repeated, False),
    ("rollback of an unknown bet", _Kit.rollback_unknown, False),
    ("late bet after its rollback refused", _Kit.late_bet_refused, False),
    ("win on an ended session", _Kit.win_on_ended_session, False),
    ("bad signature refused", _Kit.bad_signature, True),
    ("stale signature refused", _Kit.stale_signature, True),
    ("answers signed", _Kit.answers_signed, True),
    ("balance left as found", _Kit.balance_as_found, False),
)
"""``(name, scenario, needs the raw HTTP transport)``, in the order they run."""


async def run_scenarios(
    port: WalletPort,
    *,
    operator_id: str,
    player_id: str,
    currency: str,
    session_id: str,
    ended_session_id: str | None = None,
    raw: RawTransport | None = None,
    amount: int = DEFAULT_AMOUNT,
) -> list[ScenarioResult]:
    """Run every scenario against ``port``, one at a time, and say how each went.

    The player must exist with a balance of at least ``amount + 1`` in ``currency``. A
    scenario that needs ``raw`` is reported not applicable when it is ``None``. Nothing
    raises: a wallet that answers garbage or not at all fails the scenario it broke.
    """
    if amount < 1:
        raise ValueError("amount must be at least 1")
    kit = _Kit(
        port,
        raw,
        operator_id=operator_id,
        player_id=player_id,
        currency=currency,
        session_id=session_id,
        ended_session_id=ended_session_id or f"wallet-check-ended-{uuid.uuid4().hex}",
        amount=amount,
    )
    results = []
    for name, scenario, needs_raw in SCENARIOS:
        if needs_raw and raw is None:
            results.append(
                ScenarioResult(
                    name=name,
                    passed=False,
                    applicable=False,
                    detail="needs the HTTP transport (no wire to sign on this wallet)",
                )
            )
            continue
        results.append(await _run(kit, name, scenario))
    return results


async def _run(kit: _Kit, name: str, scenario: _Scenario) -> ScenarioResult:
    try:
        await scenario(kit)
    except _Failed as failed:
        result = ScenarioResult(name=name, passed=False, detail=str(failed))
    except UnknownOutcome as unknown:
        result = ScenarioResult(name=name, passed=False, detail=f"unknown outcome: {unknown}")
    except Exception as error:  # a broken wallet fails its scenario, never the whole kit
        result = ScenarioResult(name=name, passed=False, detail=f"{type(error).__name__}: {error}")
    else:
        result = ScenarioResult(name=name, passed=True)
    await kit.undo_open_bets()
    return result
