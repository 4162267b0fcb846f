"""Every fault of the reference wallet (a separate process) on every call it matters to,
through HTTP (docs/wallet-protocol.md §3.2-§3.4).

* a ``bet`` whose outcome is unknown (slow past the time-out, a 500, a connection dropped
  before or after the debit was applied, an answer held back past the time-out after it, a
  wrongly signed or stale answer, the wallet down): the command answers 503
  ``wallet_unavailable`` and leaves the table as it was, its bets are rolled back (the
  rollbacks go through the outbox), the operator ends where it started, and the same
  ``Idempotency-Key`` sent again is a new attempt with new transaction ids;
* a duplicated ``bet`` delivery: applied once, the command accepted;
* a refusal (insufficient funds): remembered under its key, no bet sent again for it;
* a command with two debits whose second one faults or is refused: the first, already
  applied, is rolled back too;
* a ``win`` or a ``rollback`` that faults: sent again with the same transaction id until the
  operator answers, applied once;
* an ended session: its next command is refused, what it is owed is still paid.

The casino and the wallet live for the whole module; every test has its own operator,
players and tables, and starts with nothing owed and no fault on.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any, Final

import httpx
import pytest

from russian_poker.service.tools.reference_wallet.faults import FAULT_MODES
from tests.operators import module_fixtures
from tests.operators.casino import Casino, Player, staff
from tests.operators.faults_helpers import (
    START,
    Seat,
    assert_ledgers_agree,
    assert_no_bet_after_its_rollback,
    closing_calls,
    deliveries_of,
    quiet,
    seat,
    table_state,
)
from tests.rules.scenario import deck_for
from tests.wallet.reference import ReferenceWallet

TIMEOUT_MS: Final = 1000
"""The operator's time-out per call in these tests; a ``slow`` answer waits three times it.
At 400 ms a loaded machine (two xdist workers beside other work) timed out calls the wallet
was still applying: a ``drop_after_apply`` bet the rollback then found no trace of."""
SLOW_MS: Final = 3 * TIMEOUT_MS
DOWN_S: Final = 1.0

UNKNOWN_OUTCOMES: Final = (
    "slow",
    "error_500",
    "drop_after_apply",
    "drop_before_apply",
    "stall_after_apply",
    "bad_signature",
    "stale_signature",
    "down",
)
"""The faults after which the game cannot know whether the wallet applied the call."""
APPLIED: Final = {"drop_after_apply", "stall_after_apply", "bad_signature", "stale_signature"}
"""Of those, the ones where the wallet did apply it (``slow`` applies it late, or never if
the rollback got there first)."""
NEVER_APPLIED: Final = {"error_500", "drop_before_apply", "down"}


# One casino and one wallet for the whole module (pytest finds fixtures by module name).
shared_casino = module_fixtures.shared_casino
shared_wallet = module_fixtures.shared_wallet


@pytest.fixture
async def casino(shared_casino: Casino, shared_wallet: ReferenceWallet) -> Casino:
    """The module's casino (in place of the conftest's, one per test), owing nothing."""
    await quiet(shared_casino, shared_wallet)
    return shared_casino


@pytest.fixture
async def wallet(shared_wallet: ReferenceWallet) -> AsyncIterator[ReferenceWallet]:
    """The module's wallet; the faults a test leaves on are switched off after it."""
    yield shared_wallet
    await shared_wallet.clear_faults()


def _fault_options(mode: str) -> dict[str, Any]:
    if mode in ("slow", "stall_after_apply"):
        return {"delay_ms": SLOW_MS}
    if mode == "down":
        return {"for_s": DOWN_S}
    return {}


def _on_bets(mode: str) -> dict[str, Any]:
    """A fault meant for a bet: a wallet that is down is down for every call (so the
    rollbacks wait too); any other fault hits the bet only."""
    calls = [] if mode == "down" else ["bet"]
    return {"calls": calls, **_fault_options(mode)}


def _assert_unavailable(response: httpx.Response) -> None:
    assert response.status_code == 503, response.text
    assert response.json()["type"] == "/problems/wallet_unavailable"
    assert int(response.headers["Retry-After"]) > 0


async def _state(casino: Casino, at: Seat) -> tuple[Any, ...]:
    return table_state(await casino.view(at.table_id, at.player))


async def _bets(casino: Casino, player: Player) -> list[dict[str, Any]]:
    return await casino.calls(
        operator_id=player.operator_id, player_id=player.player_id, kind="bet"
    )


async def _credits(casino: Casino, player: Player, kind: str) -> list[dict[str, Any]]:
    return await casino.calls(operator_id=player.operator_id, player_id=player.player_id, kind=kind)


async def _play_out(casino: Casino, at: Seat, box: int = 1) -> int:
    """Deal and play the round to its settlement; the box's net as the view shows it."""
    await casino.send(at.player, at.table_id, "Deal")
    settled = await casino.send(at.player, at.table_id, "Play", box=box)
    result = next(b for b in settled["previous_round"]["boxes"] if b["box"] == box)["result"]
    net: int = result["net"]
    return net


async def _assert_round_closed_once(casino: Casino, player: Player) -> None:
    closing = await closing_calls(casino, player)
    assert closing, "the player had no round with a committed bet"
    assert set(closing.values()) == {1}, closing


def test_every_fault_mode_of_the_reference_wallet_is_exercised() -> None:
    assert set(OUTBOX_FAULTS) == set(FAULT_MODES)


# -- bet -----------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", UNKNOWN_OUTCOMES)
async def test_a_bet_of_unknown_outcome_is_rolled_back_and_the_command_can_be_sent_again(
    casino: Casino, wallet: ReferenceWallet, mode: str
) -> None:
    at = await seat(casino, wallet, timeout_ms=TIMEOUT_MS)
    before = await _state(casino, at)
    await wallet.fault(mode, **_on_bets(mode))

    failed = await casino.post(at.player, at.table_id, "PlaceAnte", key="ante", box=1, ante=100)

    _assert_unavailable(failed)
    assert await _state(casino, at) == before
    [bet] = await _bets(casino, at.player)
    assert (bet["status"], bet["reason"], bet["amount"]) == ("rolled_back", "ante", 100)
    [rollback] = await _credits(casino, at.player, "rollback")
    assert rollback["reference_transaction_id"] == bet["transaction_id"]
    assert rollback["status"] in ("queued", "delivered")

    await casino.delivered()
    [rollback] = await _credits(casino, at.player, "rollback")
    assert rollback["status"] == "delivered"
    if mode in APPLIED:
        assert rollback["answer_status"] == "ok"  # the debit was applied: refunded
    elif mode in NEVER_APPLIED:
        assert rollback["answer_status"] == "transaction_not_found"
    assert await wallet.balance_of(at.player.player_id) == START
    assert await wallet.deliveries(bet["transaction_id"]) == {"bet": 1}

    # A 503 is not remembered: the same key is a new attempt, with bets of its own.
    again = await casino.post(at.player, at.table_id, "PlaceAnte", key="ante", box=1, ante=100)
    assert again.status_code == 200, again.text
    assert again.headers.get("Idempotent-Replayed") is None
    assert again.json()["table"]["boxes_in_play"] == [1]
    first, second = await _bets(casino, at.player)
    assert first["transaction_id"] == bet["transaction_id"]
    assert first["status"] == "rolled_back"
    assert second["status"] == "committed"
    assert second["transaction_id"] != first["transaction_id"]
    assert second["attempt_id"] != first["attempt_id"]
    assert second["command_id"] == first["command_id"]
    assert await wallet.balance_of(at.player.player_id) == START - 100
    # Once accepted, the key is spent: the answer is replayed and no bet is sent for it.
    replayed = await casino.post(at.player, at.table_id, "PlaceAnte", key="ante", box=1, ante=100)
    assert replayed.status_code == 200, replayed.text
    assert replayed.json()["duplicate"] is True
    assert len(await _bets(casino, at.player)) == 2
    assert await wallet.balance_of(at.player.player_id) == START - 100

    net = await _play_out(casino, at)
    await casino.delivered()
    assert await assert_ledgers_agree(casino, wallet, at.player) == net
    await _assert_round_closed_once(casino, at.player)
    # The rolled back bet never reached the wallet again, the new one once.
    assert (await wallet.deliveries(first["transaction_id"])).get("bet") == 1
    assert (await wallet.deliveries(second["transaction_id"])).get("bet") == 1
    await assert_no_bet_after_its_rollback(wallet, [first["transaction_id"]])
    # The round's closing win names only the bet the game kept.
    wins = await _credits(casino, at.player, "win")
    assert wins[-1]["round_closed"]
    assert first["transaction_id"] not in wins[-1]["reference_transaction_ids"]
    assert second["transaction_id"] in wins[-1]["reference_transaction_ids"]


async def test_a_duplicated_bet_is_applied_once_and_the_command_accepted(
    casino: Casino, wallet: ReferenceWallet
) -> None:
    at = await seat(casino, wallet, timeout_ms=TIMEOUT_MS)
    await wallet.fault("duplicate", calls=["bet"])

    placed = await casino.post(at.player, at.table_id, "PlaceAnte", box=1, ante=100)

    assert placed.status_code == 200, placed.text
    [bet] = await _bets(casino, at.player)
    assert bet["status"] == "committed"
    assert await wallet.deliveries(bet["transaction_id"]) == {"bet": 2}
    assert await wallet.balance_of(at.player.player_id) == START - 100
    net = await _play_out(casino, at)
    await casino.delivered()
    assert await assert_ledgers_agree(casino, wallet, at.player) == net
    assert not await _credits(casino, at.player, "rollback")


@pytest.mark.parametrize("mode", UNKNOWN_OUTCOMES)
async def test_the_second_debit_of_a_command_faulting_rolls_back_the_first_one_too(
    casino: Casino, wallet: ReferenceWallet, mode: str
) -> None:
    at = await seat(casino, wallet, timeout_ms=TIMEOUT_MS)
    before = await _state(casino, at)
    # Faults are taken first come first served: a quick answer (well within the time-out)
    # takes the ante's bet, so the bonus's bet is the one that meets the fault.
    await wallet.fault("slow", calls=["bet"], delay_ms=1)
    await wallet.fault(mode, **_on_bets(mode))

    failed = await casino.post(
        at.player, at.table_id, "PlaceAnte", key="both", box=1, ante=100, bonus=100
    )

    _assert_unavailable(failed)
    assert await _state(casino, at) == before
    ante, bonus = await _bets(casino, at.player)
    assert [ante["reason"], bonus["reason"]] == ["ante", "bonus"]
    assert ante["status"] == bonus["status"] == "rolled_back"
    rollbacks = await _credits(casino, at.player, "rollback")
    assert [r["reference_transaction_id"] for r in rollbacks] == [
        ante["transaction_id"],
        bonus["transaction_id"],
    ]
    await casino.delivered()
    assert await wallet.balance_of(at.player.player_id) == START
    rollbacks = await _credits(casino, at.player, "rollback")
    # The ante was applied: its rollback refunded it.
    assert [r["status"] for r in rollbacks] == ["delivered", "delivered"]
    assert rollbacks[0]["answer_status"] == "ok"
    theirs = {t["transaction_id"]: t for t in await wallet.export()}
    assert theirs[ante["transaction_id"]]["status"] == "rolled_back"
    await assert_ledgers_agree(casino, wallet, at.player)

    again = await casino.post(
        at.player, at.table_id, "PlaceAnte", key="both", box=1, ante=100, bonus=100
    )
    assert again.status_code == 200, again.text
    bets = await _bets(casino, at.player)
    assert [b["status"] for b in bets] == ["rolled_back", "rolled_back", "committed", "committed"]
    assert not {b["transaction_id"] for b in bets[2:]} & {b["transaction_id"] for b in bets[:2]}
    assert await wallet.balance_of(at.player.player_id) == START - 200
    await assert_no_bet_after_its_rollback(wallet, [b["transaction_id"] for b in bets])
    for old in bets[:2]:
        assert (await wallet.deliveries(old["transaction_id"])).get("bet", 0) <= 1


async def test_the_second_debit_refused_for_funds_rolls_back_the_first_and_shows_the_balance(
    casino: Casino, wallet: ReferenceWallet
) -> None:
    at = await seat(casino, wallet, balance=150, timeout_ms=TIMEOUT_MS)
    before = await _state(casino, at)

    refused = await casino.post(
        at.player, at.table_id, "PlaceAnte", key="both", box=1, ante=100, bonus=100
    )

    assert refused.status_code == 409, refused.text
    problem = refused.json()
    assert problem["type"] == "/problems/insufficient_funds"
    # The balance the operator's refusal reported: the ante was debited by then.
    assert problem["balance"] == 150 - 100
    assert await _state(casino, at) == before
    ante, bonus = await _bets(casino, at.player)
    assert (ante["status"], bonus["status"]) == ("rolled_back", "refused")
    assert bonus["answer_status"] == "insufficient_funds"
    [rollback] = await _credits(casino, at.player, "rollback")
    assert rollback["reference_transaction_id"] == ante["transaction_id"]
    await casino.delivered()
    assert await wallet.balance_of(at.player.player_id) == 150
    await assert_ledgers_agree(casino, wallet, at.player, start=150)
    await assert_no_bet_after_its_rollback(wallet, [ante["transaction_id"]])

    # The operator's refusal is an answer: remembered under the key, no new bets sent.
    replayed = await casino.post(
        at.player, at.table_id, "PlaceAnte", key="both", box=1, ante=100, bonus=100
    )
    assert replayed.status_code == 409
    assert replayed.headers["Idempotent-Replayed"] == "true"
    assert replayed.json()["balance"] == problem["balance"]  # the same answer, whole
    assert len(await _bets(casino, at.player)) == 2
    # Not even once the player could afford it: the key's answer is given, and the
    # operator must not see a debit (and its rollback) for a command the game refused.
    await wallet.set_player(at.player.player_id, "EUR", 1000)
    replayed = await casino.post(
        at.player, at.table_id, "PlaceAnte", key="both", box=1, ante=100, bonus=100
    )
    assert replayed.status_code == 409
    assert replayed.json()["type"] == "/problems/insufficient_funds"
    assert len(await _bets(casino, at.player)) == 2
    assert await wallet.balance_of(at.player.player_id) == 1000

    # A new key is a new command: what the player can afford now goes through.
    again = await casino.post(
        at.player, at.table_id, "PlaceAnte", key="topped-up", box=1, ante=100, bonus=100
    )
    assert again.status_code == 200, again.text
    assert await wallet.balance_of(at.player.player_id) == 800
    await casino.delivered()
    await assert_ledgers_agree(casino, wallet, at.player, start=1000)


async def test_a_single_bet_refused_for_funds_moves_nothing(
    casino: Casino, wallet: ReferenceWallet
) -> None:
    at = await seat(casino, wallet, balance=50, timeout_ms=TIMEOUT_MS)
    before = await _state(casino, at)

    refused = await casino.post(at.player, at.table_id, "PlaceAnte", box=1, ante=100)

    assert refused.status_code == 409, refused.text
    assert refused.json()["type"] == "/problems/insufficient_funds"
    assert refused.json()["balance"] == 50
    assert await _state(casino, at) == before
    [bet] = await _bets(casino, at.player)
    assert bet["status"] == "refused"
    assert not await _credits(casino, at.player, "rollback")  # nothing was applied
    assert await wallet.balance_of(at.player.player_id) == 50
    await assert_ledgers_agree(casino, wallet, at.player, start=50)


# -- win and rollback ------------------------------------------------------------------------

OUTBOX_FAULTS: Final = (*UNKNOWN_OUTCOMES, "duplicate")


def _attempts_expected(mode: str) -> int | None:
    """How many sends the first call faulted twice takes (None: as many as the window)."""
    return {"duplicate": 1, "down": None}.get(mode, 3)


def _times(mode: str) -> int:
    return 1 if mode == "duplicate" else 2


async def _assert_sent_again_until_ok(
    wallet: ReferenceWallet, call: dict[str, Any], mode: str, kind: str
) -> None:
    """The call was sent with its one transaction id until the operator answered ``ok``."""
    assert call["status"] == "delivered", call
    expected = _attempts_expected(mode)
    if expected is None:
        assert call["attempts"] >= 2, call
    else:
        assert call["attempts"] == expected, call
    reached = await wallet.deliveries(call["transaction_id"])
    # Every send reached the wallet (and a duplicating proxy delivers one send twice).
    assert reached == {kind: call["attempts"] + (mode == "duplicate")}, reached


@pytest.mark.parametrize("mode", OUTBOX_FAULTS)
async def test_a_win_that_faults_is_sent_again_with_its_transaction_id_until_ok(
    casino: Casino, wallet: ReferenceWallet, mode: str
) -> None:
    at = await seat(casino, wallet, timeout_ms=TIMEOUT_MS)
    await casino.send(at.player, at.table_id, "PlaceAnte", box=1, ante=100)
    await casino.send(at.player, at.table_id, "Deal")
    await wallet.fault(mode, calls=["win"], times=_times(mode), **_fault_options(mode))

    settled = await casino.send(at.player, at.table_id, "Play", box=1)

    net = next(b for b in settled["previous_round"]["boxes"] if b["box"] == 1)["result"]["net"]
    assert net > 0
    await casino.delivered()
    wins = await _credits(casino, at.player, "win")
    assert len(wins) >= 1
    await _assert_sent_again_until_ok(wallet, wins[0], mode, "win")
    for later in wins[1:]:  # one call at a time per player: the later ones waited, then went
        assert (later["status"], later["attempts"]) == ("delivered", 1), later
        assert await wallet.deliveries(later["transaction_id"]) == {"win": 1}
    assert await assert_ledgers_agree(casino, wallet, at.player) == net
    await _assert_round_closed_once(casino, at.player)
    # The wallet saw no win the game does not know of: the same ids, sent again.
    known = {w["transaction_id"] for w in await casino.calls(kind="win")}
    reached = {tid for _, call, tid in await deliveries_of(wallet) if call == "win"}
    assert reached <= known


@pytest.mark.parametrize("mode", OUTBOX_FAULTS)
async def test_a_rollback_that_faults_is_sent_again_with_its_transaction_id_until_ok(
    casino: Casino, wallet: ReferenceWallet, mode: str
) -> None:
    at = await seat(casino, wallet, timeout_ms=TIMEOUT_MS)
    await wallet.fault("drop_after_apply", calls=["bet"])  # applied, but the game never knew
    await wallet.fault(mode, calls=["rollback"], times=_times(mode), **_fault_options(mode))

    failed = await casino.post(at.player, at.table_id, "PlaceAnte", box=1, ante=100)

    _assert_unavailable(failed)
    await casino.delivered()
    [bet] = await _bets(casino, at.player)
    [rollback] = await _credits(casino, at.player, "rollback")
    assert bet["status"] == "rolled_back"
    await _assert_sent_again_until_ok(wallet, rollback, mode, "rollback")
    assert rollback["answer_status"] == "ok"
    assert await wallet.balance_of(at.player.player_id) == START  # refunded once
    await assert_ledgers_agree(casino, wallet, at.player)
    assert (await wallet.deliveries(bet["transaction_id"])).get("bet") == 1
    await assert_no_bet_after_its_rollback(wallet, [bet["transaction_id"]])
    # Every bet of the player rolled back: no round open at the operator, nothing to close.
    assert not await _credits(casino, at.player, "win")


async def test_a_round_with_nothing_to_pay_is_closed_by_a_win_of_0_sent_until_ok(
    casino: Casino, wallet: ReferenceWallet
) -> None:
    nothing = "2c 4d 6h 8c Jd", "3c 5d 7h 9c Kd"
    deck = deck_for(nothing, "9s 9h Ah Kh 2h")
    at = await seat(casino, wallet, timeout_ms=TIMEOUT_MS, deck=deck)
    # A box bet on and taken back is not in play: its ante, the largest, does not count.
    await casino.send(at.player, at.table_id, "PlaceAnte", box=3, ante=300)
    await casino.send(at.player, at.table_id, "CancelBets", box=3)
    await casino.send(at.player, at.table_id, "PlaceAnte", box=1, ante=100)
    await casino.send(at.player, at.table_id, "PlaceAnte", box=2, ante=200)
    await casino.send(at.player, at.table_id, "Deal")
    await casino.delivered()
    await wallet.fault("error_500", calls=["win"], times=2)
    await casino.send(at.player, at.table_id, "Fold", box=2)  # the larger ante decides first
    await casino.send(at.player, at.table_id, "Fold", box=1)

    await casino.delivered()
    refund, close = await _credits(casino, at.player, "win")
    assert (refund["reason"], refund["amount"], refund["round_closed"]) == (
        "stake_returned",
        300,
        False,
    )
    assert (close["amount"], close["reason"], close["round_closed"]) == (0, "win", True)
    # On the player's first box in play order: box 2, whose ante is the larger.
    assert close["box"] == 2
    await _assert_sent_again_until_ok(wallet, close, "error_500", "win")
    bets = await _bets(casino, at.player)
    assert close["reference_transaction_ids"] == [b["transaction_id"] for b in bets]
    assert await assert_ledgers_agree(casino, wallet, at.player) == -300
    await _assert_round_closed_once(casino, at.player)


# -- an ended session ----------------------------------------------------------------------


async def test_an_ended_session_is_refused_new_commands_but_paid_what_it_is_owed(
    casino: Casino, wallet: ReferenceWallet
) -> None:
    at = await seat(casino, wallet, timeout_ms=TIMEOUT_MS)
    await casino.send(at.player, at.table_id, "PlaceAnte", box=1, ante=100)
    await casino.send(at.player, at.table_id, "Deal")
    # The credits of the round stay owed (every win fails) until the session has ended.
    await wallet.fault("error_500", calls=["win"], times=0)
    settled = await casino.send(at.player, at.table_id, "Play", box=1)
    net = next(b for b in settled["previous_round"]["boxes"] if b["box"] == 1)["result"]["net"]
    wins = await _credits(casino, at.player, "win")
    assert wins and all(w["status"] == "queued" for w in wins)

    ended = await casino.client.delete(
        f"/v1/sessions/{at.player.session_id}", headers=staff("operator", at.operator_id)
    )
    assert ended.status_code == 200, ended.text
    await wallet.end_session(at.player.session_id)  # the operator's side ends it too

    refused = await casino.post(at.player, at.table_id, "PlaceAnte", box=1, ante=100)
    assert refused.status_code == 403, refused.text
    assert refused.json()["type"] == "/problems/session_ended"
    assert len(await _bets(casino, at.player)) == 2  # nothing was sent for it

    await wallet.clear_faults()
    await casino.delivered()
    wins = await _credits(casino, at.player, "win")
    assert all(w["status"] == "delivered" for w in wins)
    assert {w["session_id"] for w in wins} == {at.player.session_id}
    assert await assert_ledgers_agree(casino, wallet, at.player) == net
    await _assert_round_closed_once(casino, at.player)
