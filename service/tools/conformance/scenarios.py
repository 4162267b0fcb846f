"""The protocol's scenarios (docs/wallet-protocol.md §6) as a reusable suite.

One suite, two uses: the contract tests run it through the seamless adapter against the
reference operator wallet (tests/wallet/test_contract.py), and ``russian-poker
wallet-check`` runs it against an operator's own wallet before it goes live. Each scenario
is a function of the run's :class:`~russian_poker.service.tools.conformance.kit.Kit`.

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

The signature scenarios (a wrong or missing signature, a stale ``t``, answers signed) send
their calls through the raw HTTP transport, which signs (or does not) as told; so do the
notification scenarios (a table-status change and a checkpoint, each taken with a 2xx, a
repeat taken again, a wrong signature refused), whose ids are fresh on every run.
"""

from __future__ import annotations

import secrets
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import Final

import msgspec

from russian_poker.service.tools.conformance.kit import (
    Failed,
    Kit,
    describe,
    expect,
    request_id,
    same,
)
from russian_poker.service.tools.conformance.notices import checkpoint_taken, table_status_taken
from russian_poker.service.tools.conformance.raw import RawTransport
from russian_poker.service.wallet.port import UnknownOutcome, WalletPort
from russian_poker.service.wallet.protocol import (
    FINAL_ROLLBACK_STATUSES,
    Answer,
    BalanceCall,
    BetCall,
    CallReason,
)
from russian_poker.service.wallet.signing import WINDOW_S, BadSignature, sign

__all__ = ["DEFAULT_AMOUNT", "SCENARIOS", "ScenarioResult", "run_scenarios"]

DEFAULT_AMOUNT: Final = 10
_answer: Final = msgspec.json.Decoder(Answer)
_encoder: Final = msgspec.json.Encoder()


class ScenarioResult(msgspec.Struct, frozen=True, kw_only=True):
    """One scenario's outcome."""

    name: str
    passed: bool
    detail: str = ""

    @property
    def failed(self) -> bool:
        return not self.passed

    def line(self) -> str:
        """``PASS  name`` or ``FAIL  name: detail``."""
        if self.passed:
            return f"PASS  {self.name}"
        return f"FAIL  {self.name}: {self.detail}"


async def check_balance(kit: Kit) -> None:
    kit.initial = await kit.balance()
    expect(kit.initial >= 0, f"the balance is negative: {kit.initial}")


async def bet_and_repeat(kit: Kit) -> None:
    before, call, first = await kit.accepted_bet()
    expect(
        first.balance == before - kit.amount,
        f"the bet's answer says balance {first.balance}, expected {before - kit.amount}",
    )
    again = await kit.repeat_bet(call)
    expect(
        same(first, again),
        f"the repeat was answered {describe(again)}, the bet {describe(first)}",
    )
    after = await kit.balance()
    expect(
        after == before - kit.amount,
        f"balance {before} → {after} after a bet of {kit.amount} and its repeat:"
        f" expected {before - kit.amount} (applied once)",
    )


async def duplicate_payload(kit: Kit) -> None:
    before = await kit.funded_balance(kit.amount + 1)
    call = kit.bet_call()
    first = await kit.bet(call)
    expect(first.status == "ok", f"the bet was answered {describe(first)}")
    other = msgspec.structs.replace(call, request_id=request_id(), amount=call.amount + 1)
    answer = await kit.port.bet(other)
    expect(
        answer.status == "duplicate_transaction",
        f"the same transaction_id with amount {other.amount} instead of {call.amount}"
        f" was answered {describe(answer)}",
    )
    after = await kit.balance()
    expect(
        after == before - kit.amount,
        f"balance {before} → {after}: expected {before - kit.amount} (only the first applied)",
    )


async def insufficient_funds(kit: Kit) -> None:
    before = await kit.balance()
    call = kit.bet_call(amount=before + 1)
    answer = await kit.bet(call)
    expect(
        answer.status == "insufficient_funds",
        f"a bet of {call.amount} on a balance of {before} was answered {describe(answer)}",
    )
    expect(
        answer.balance == before,
        f"insufficient_funds carries balance {answer.balance}, the balance is {before}",
    )
    after = await kit.balance()
    expect(after == before, f"balance {before} → {after} after a refused bet")
    kit.settled(call)


async def _bet_then_win(
    kit: Kit,
    *,
    reason: CallReason,
    with_reference: bool,
    session_id: str | None = None,
    repeat: bool = False,
) -> None:
    """A bet of ``amount`` settled by a win of the same amount: balance back where it
    was, which proves the credit was applied (once)."""
    before, bet, _ = await kit.accepted_bet()
    references = (bet.transaction_id,) if with_reference else ()
    win = kit.win_call(
        bet.round_id, kit.amount, reason=reason, references=references, session_id=session_id
    )
    won = await kit.port.win(win)
    expect(won.status == "ok", f"the win of {kit.amount} was answered {describe(won)}")
    kit.settled(bet)
    expect(won.balance == before, f"the win's answer says balance {won.balance}, expected {before}")
    if repeat:
        again = await kit.port.win(msgspec.structs.replace(win, request_id=request_id()))
        expect(
            same(won, again),
            f"the repeated win was answered {describe(again)}, the win {describe(won)}",
        )
    after = await kit.balance()
    expect(
        after == before,
        f"balance {before} → {after} after a bet of {kit.amount} and a win of"
        f" {kit.amount}{' repeated' if repeat else ''}: expected {before}",
    )


async def win_with_reference(kit: Kit) -> None:
    await _bet_then_win(kit, reason="stake_returned", with_reference=True, repeat=True)


async def win_without_reference(kit: Kit) -> None:
    await _bet_then_win(kit, reason="win", with_reference=False)


async def win_of_zero(kit: Kit) -> None:
    before = await kit.balance()
    answer = await kit.port.win(kit.win_call(kit.next_round(), 0))
    expect(answer.status == "ok", f"a win of 0 was answered {describe(answer)}")
    after = await kit.balance()
    expect(after == before, f"balance {before} → {after} after a win of 0")


async def _bet_then_rollback(kit: Kit, *, repeat: bool) -> None:
    before, bet, _ = await kit.accepted_bet()
    call = kit.rollback_call(bet)
    undone = await kit.rollback(call)
    expect(undone.status == "ok", f"the rollback of a known bet was answered {describe(undone)}")
    expect(
        undone.balance == before,
        f"the rollback's answer says balance {undone.balance}, expected {before}",
    )
    if repeat:
        again = await kit.port.rollback(msgspec.structs.replace(call, request_id=request_id()))
        expect(
            same(undone, again),
            f"the repeated rollback was answered {describe(again)},"
            f" the rollback {describe(undone)}",
        )
    else:
        # A stray re-send of the bet after its rollback: refused, never debited again.
        late = await kit.repeat_bet(bet)
        expect(
            late.status == "transaction_rolled_back",
            f"the bet sent again after its rollback was answered {describe(late)}",
        )
    after = await kit.balance()
    expect(
        after == before,
        f"balance {before} → {after} after a bet and its rollback"
        f"{' repeated' if repeat else ''}: expected {before} (refunded once)",
    )


async def rollback_known(kit: Kit) -> None:
    await _bet_then_rollback(kit, repeat=False)


async def rollback_repeated(kit: Kit) -> None:
    await _bet_then_rollback(kit, repeat=True)


async def _rollback_unknown(kit: Kit, bet: BetCall) -> int:
    before = await kit.balance()
    answer = await kit.port.rollback(kit.rollback_call(bet))
    expect(
        answer.status in FINAL_ROLLBACK_STATUSES,
        f"the rollback of a bet never sent was answered {describe(answer)}:"
        " expected ok or transaction_not_found (final)",
    )
    after = await kit.balance()
    expect(after == before, f"balance {before} → {after} after a rollback of a bet never sent")
    return after


async def rollback_unknown(kit: Kit) -> None:
    await _rollback_unknown(kit, kit.bet_call())


async def late_bet_refused(kit: Kit) -> None:
    bet = kit.bet_call()
    before = await _rollback_unknown(kit, bet)
    answer = await kit.bet(bet)
    expect(
        answer.status == "transaction_rolled_back",
        f"the bet, arriving after its rollback, was answered {describe(answer)}",
    )
    after = await kit.balance()
    expect(after == before, f"balance {before} → {after}: the rolled back bet was applied")
    kit.settled(bet)


async def win_on_ended_session(kit: Kit) -> None:
    await _bet_then_win(kit, reason="win", with_reference=True, session_id=kit.ended_session_id)


async def _refused_unsigned(
    kit: Kit, describe: str, signature: Callable[[bytes], str | None]
) -> None:
    """Send a bet signed by ``signature``: it must be refused and not applied."""
    raw = kit.raw
    before = await kit.funded_balance(kit.amount)
    call = kit.bet_call()
    body = _encoder.encode(call)
    kit.open_bets[call.transaction_id] = call
    answer = await raw.post("bet", body, signature(body))
    if answer.status_code == 200:
        status: str
        try:
            status = _answer.decode(answer.body).status
        except msgspec.DecodeError:
            status = "an unreadable body"
        expect(
            status == "invalid_signature",
            f"a bet with {describe} was answered HTTP 200 {status}",
        )
    after = await kit.balance()
    expect(after == before, f"balance {before} → {after}: the bet with {describe} was applied")


async def bad_signature(kit: Kit) -> None:
    wrong = secrets.token_hex(16)
    await _refused_unsigned(kit, "a wrong signature", lambda body: sign(wrong, body))
    await _refused_unsigned(kit, "no signature", lambda body: None)


async def stale_signature(kit: Kit) -> None:
    raw = kit.raw
    stale = WINDOW_S + 1
    await _refused_unsigned(
        kit, f"a signature {stale} s old", lambda body: raw.sign(body, now=time.time() - stale)
    )


async def answers_signed(kit: Kit) -> None:
    raw = kit.raw
    body = _encoder.encode(
        BalanceCall(
            request_id=request_id(),
            operator_id=kit.operator_id,
            player_id=kit.player_id,
            session_id=kit.session_id,
            currency=kit.currency,
        )
    )
    answer = await raw.post("balance", body, raw.sign(body))
    expect(answer.status_code == 200, f"balance answered HTTP {answer.status_code}")
    try:
        raw.verify(answer)
    except BadSignature as bad:
        # Say also whether the adapter caught it: it must, or a forged ok would pass.
        try:
            await kit.balance()
        except UnknownOutcome:
            caught = "the seamless adapter refuses it (unknown outcome)"
        else:
            caught = "and the adapter did not notice"
        raise Failed(f"the answer is not signed correctly ({bad}); {caught}") from None


async def balance_as_found(kit: Kit) -> None:
    expect(kit.initial is not None, "the first balance could not be read")
    after = await kit.balance()
    leftovers = "; ".join(kit.leftovers)
    expect(
        after == kit.initial,
        f"the balance was {kit.initial} before the run and is {after} after it"
        + (f" (not undone: {leftovers})" if leftovers else ""),
    )
    expect(not leftovers, f"not undone: {leftovers}")


_Scenario = Callable[[Kit], Awaitable[None]]

SCENARIOS: Final[tuple[tuple[str, _Scenario], ...]] = (
    ("balance", check_balance),
    ("bet and repeat", bet_and_repeat),
    ("same transaction_id with another payload", duplicate_payload),
    ("insufficient funds shows the balance", insufficient_funds),
    ("win with a reference", win_with_reference),
    ("win without a reference", win_without_reference),
    ("win of 0", win_of_zero),
    ("rollback of a known bet", rollback_known),
    ("rollback repeated", rollback_repeated),
    ("rollback of an unknown bet", rollback_unknown),
    ("late bet after its rollback refused", late_bet_refused),
    ("win on an ended session", win_on_ended_session),
    ("bad signature refused", bad_signature),
    ("stale signature refused", stale_signature),
    ("answers signed", answers_signed),
    ("table-status notification taken", table_status_taken),
    ("checkpoint notification taken", checkpoint_taken),
    ("balance left as found", balance_as_found),
)
"""``(name, scenario)``, in the order they run."""


async def run_scenarios(
    port: WalletPort,
    *,
    operator_id: str,
    player_id: str,
    currency: str,
    session_id: str,
    raw: RawTransport,
    ended_session_id: str | None = None,
    amount: int = DEFAULT_AMOUNT,
) -> list[ScenarioResult]:
    """Run every scenario against ``port``, one at a time, and say how each went.

    The player must exist with a balance of at least ``amount + 1`` in ``currency``;
    ``raw`` sends what the port would refuse to (bad signatures). Nothing raises: a wallet
    that answers garbage or not at all fails the scenario it broke.
    """
    if amount < 1:
        raise ValueError("amount must be at least 1")
    kit = Kit(
        port,
        raw,
        operator_id=operator_id,
        player_id=player_id,
        currency=currency,
        session_id=session_id,
        ended_session_id=ended_session_id or f"wallet-check-ended-{uuid.uuid4().hex}",
        amount=amount,
    )
    results: list[ScenarioResult] = []
    for name, scenario in SCENARIOS:
        results.append(await _run(kit, name, scenario))
        cause = root_cause(results[0]) if len(results) == 1 else None
        if cause is not None:
            # Every other scenario would fail the same way: say why once, and stop.
            skipped = len(SCENARIOS) - 1
            results.append(
                ScenarioResult(
                    name="stopped",
                    passed=False,
                    detail=f"{cause} (the other {skipped} scenarios were not run)",
                )
            )
            break
    return results


_ROOT_CAUSES: Final = (
    (
        ("signature does not match", "invalid_signature", "signature"),
        "the wallet and wallet-check do not sign with the same secret: check --secret (the "
        "operator's wallet secret as registered with the game)",
    ),
    (
        ("could not connect",),
        "nothing answers at --url: check the address, the port and that the wallet runs",
    ),
    (
        ("no answer within",),
        "the wallet does not answer within --timeout-ms: check --url, or allow more time",
    ),
    (
        ("HTTP 404",),
        "the wallet answers 404 at URL/balance: check --url (its base, the calls are "
        "URL/balance, URL/bet, ...)",
    ),
    (
        ("invalid_session", "wrong_currency", "player_blocked"),
        "the wallet does not know this player in this currency: check --player and "
        "--currency (a funded test player)",
    ),
)


def root_cause(first: ScenarioResult) -> str | None:
    """Why the first scenario (the balance) failed, when that failure stops every other
    scenario too; ``None`` when the others are worth running."""
    if first.passed:
        return None
    for signs, cause in _ROOT_CAUSES:
        if any(sign in first.detail for sign in signs):
            return cause
    return None


async def _run(kit: Kit, name: str, scenario: _Scenario) -> ScenarioResult:
    try:
        await scenario(kit)
    except Failed as failed:
        result = ScenarioResult(name=name, passed=False, detail=str(failed))
    except UnknownOutcome as unknown:
        result = ScenarioResult(name=name, passed=False, detail=f"unknown outcome: {unknown}")
    except Exception as error:  # a broken wallet fails its scenario, never the whole kit
        result = ScenarioResult(name=name, passed=False, detail=f"{type(error).__name__}: {error}")
    else:
        result = ScenarioResult(name=name, passed=True)
    await kit.undo_open_bets()
    return result
