"""kill -9 of the service at the worst moments of seamless money (docs/wallet-protocol.md
§3.2-§3.4),
with real processes: the service (``russian-poker serve``) and the reference wallet.

(a) after the operator applied a bet and before the game recorded it: recovery rolls the
    bet back, once, and the client's retry with the same key is a new attempt;
(b) after settlement and before the credits reached the operator: every credit is
    delivered once after the restart, and the round closed once;
(c) while a credit is being delivered (the operator applied it, the answer is still on its
    way): the same transaction id is sent again after the restart, and applied once.

After each restart and once the outbox owes nothing, the operator's ledger equals the
game's record to the unit, call by call (:meth:`Deployment.books`), and the balance at the
operator moved by exactly what the table's view says the player won.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, Final

import httpx
import pytest

from russian_poker.service.wallet.port import UnknownOutcome
from russian_poker.service.wallet.protocol import BetCall
from russian_poker.service.wallet.seamless import SeamlessWallet
from tests.operators.processes import Deployment, Player, deployment
from tests.processes import eventually
from tests.rules.scenario import deck_for
from tests.wallet.calls import bet_call
from tests.wallet.reference import ReferenceWallet

OPERATOR: Final = "acme"
START: Final = 10_000
ANTE: Final = 100
ALICE: Final = "Qs Qd Qh 5c 7d"  # trips: beats the dealer's pair
DEALER: Final = "9s 9c Ah Kd 2h"  # a pair of nines: the dealer qualifies
STALL_MS: Final = 15_000
"""How long a stalled answer is held: far beyond the test's kill, within the timeout."""
TIMEOUT_MS: Final = 20_000
"""The operator's call time-out: the service is still waiting when it is killed."""


@pytest.fixture
async def casino(
    server_url: str, tmp_path: Path, reference_wallet: ReferenceWallet
) -> AsyncIterator[Deployment]:
    async with deployment(server_url, tmp_path, reference_wallet) as casino:
        await casino.register(OPERATOR, timeout_ms=TIMEOUT_MS)
        yield casino


async def applied(wallet: ReferenceWallet, kind: str) -> list[dict[str, Any]]:
    return [row for row in await wallet.export() if row["kind"] == kind]


def my_box(table: dict[str, Any], player: Player, box: int) -> dict[str, Any] | None:
    round_ = table["round"] or {}
    return next(
        (b for b in round_.get("boxes", ()) if b["box"] == box and b["player"] == player.game_id),
        None,
    )


async def settle(casino: Deployment, player: Player) -> int:
    """Deal and Play box 1 of t1: the box's net as the settled round's view shows it."""
    await casino.send(player, "acme.t1", "Deal")
    settled = await casino.send(player, "acme.t1", "Play", box=1)
    box = next(b for b in settled["previous_round"]["boxes"] if b["box"] == 1)
    net: int = box["result"]["net"]
    return net


async def test_stall_after_apply_applies_then_holds_the_answer(
    reference_wallet: ReferenceWallet,
) -> None:
    """The mode the crash tests need: the call is applied and committed at once, and its
    answer held back for ``delay_ms`` (or until the faults are cleared), so a caller giving
    up sooner saw nothing of it."""
    wallet = reference_wallet
    await wallet.set_player("stalled", "EUR", 1000)
    await wallet.fault("stall_after_apply", calls=["bet"], delay_ms=3000)
    impatient = SeamlessWallet(wallet.url, wallet.secret, timeout_ms=2000)
    patient = SeamlessWallet(wallet.url, wallet.secret, timeout_ms=TIMEOUT_MS)
    try:
        call = asyncio.create_task(impatient.bet(_bet("bet-stalled-1")))
        # Applied while the caller still waits for the answer.
        await eventually(
            lambda: _balance_is(wallet, "stalled", 900), timeout=10, message="the bet applied"
        )
        assert not call.done()
        with pytest.raises(UnknownOutcome, match="no answer within"):
            await call
        assert [r["transaction_id"] for r in await applied(wallet, "bet")] == ["bet-stalled-1"]
        # times=1: the same bet sent again is answered at once, and not applied twice.
        again = await impatient.bet(_bet("bet-stalled-1"))
        assert (again.status, again.balance) == ("ok", 900)
        assert await wallet.deliveries("bet-stalled-1") == {"bet": 2}

        # Cleared faults let a held answer go: far sooner than its delay and the time-out.
        await wallet.fault("stall_after_apply", calls=["bet"], delay_ms=10 * TIMEOUT_MS)
        held = asyncio.create_task(patient.bet(_bet("bet-stalled-2")))
        await eventually(
            lambda: _balance_is(wallet, "stalled", 800), timeout=10, message="the bet applied"
        )
        assert not held.done()
        await wallet.clear_faults()
        answer = await held
        assert (answer.status, answer.balance) == ("ok", 800)
    finally:
        await impatient.aclose()
        await patient.aclose()
    assert await wallet.balance_of("stalled") == 800


def _bet(transaction_id: str) -> BetCall:
    return bet_call(
        "stalled", 100, transaction_id=transaction_id, operator=OPERATOR, round_id="t1:1"
    )


async def _balance_is(wallet: ReferenceWallet, player_id: str, balance: int) -> bool:
    return await wallet.balance_of(player_id) == balance


async def test_kill_after_the_operator_applied_a_bet_the_game_never_recorded(
    casino: Deployment,
) -> None:
    wallet = casino.wallet
    alice = await casino.launch(OPERATOR, "alice", balance=START)
    await casino.open_table(OPERATOR, "acme.t1", deck_for([ALICE], DEALER))
    await casino.send(alice, "acme.t1", "SitDown")

    await wallet.fault("stall_after_apply", calls=["bet"], delay_ms=STALL_MS)
    ante = asyncio.create_task(
        casino.post(alice, "acme.t1", "PlaceAnte", key="ante-1", box=1, ante=ANTE)
    )
    await eventually(
        lambda: _balance_is(wallet, "alice", START - ANTE),
        timeout=30,
        message="the operator applied the ante",
    )
    # The operator took the money; the game has the intent only, and waits for the answer.
    [first] = await casino.calls(kind="bet")
    assert first["status"] == "pending"
    assert not ante.done()
    await casino.kill()
    with pytest.raises(httpx.TransportError):
        await ante  # the client never got an answer
    await wallet.clear_faults()

    await casino.start()
    await casino.delivered()
    # Recovery found the abandoned attempt and rolled its bet back, once.
    [bet] = await casino.calls(kind="bet")
    assert bet["transaction_id"] == first["transaction_id"]
    assert bet["status"] == "rolled_back"
    [rollback] = await casino.calls(kind="rollback")
    assert rollback["reference_transaction_id"] == bet["transaction_id"]
    assert rollback["status"] == "delivered"
    assert await wallet.deliveries(bet["transaction_id"]) == {"bet": 1}
    assert await wallet.deliveries(rollback["transaction_id"]) == {"rollback": 1}
    assert await wallet.balance_of("alice") == START
    # The game recorded nothing of the command: no stake on the table.
    assert my_box(await casino.view("acme.t1", alice), alice, 1) is None
    await casino.books(OPERATOR, {"alice": START})

    # The client sends the command again with its key: a new attempt, with a new bet.
    retry = await casino.post(alice, "acme.t1", "PlaceAnte", key="ante-1", box=1, ante=ANTE)
    assert retry.status_code == 200, retry.text
    assert retry.json()["duplicate"] is False
    box = my_box(retry.json()["table"], alice, 1)
    assert box is not None and box["ante"] == ANTE
    bets = await casino.calls(kind="bet")
    assert len(bets) == 2
    assert bets[1]["transaction_id"] != bet["transaction_id"]
    assert bets[1]["status"] == "committed"
    assert await wallet.balance_of("alice") == START - ANTE

    net = await settle(casino, alice)
    assert net > 0
    await casino.delivered()
    books = await casino.books(OPERATOR, {"alice": START})
    assert books.net["alice"] == net
    # The rolled-back bet is no part of the round the operator closed.
    [close] = [w for w in books.of("win") if w["round_closed"]]
    assert bet["transaction_id"] not in close["reference_transaction_ids"]
    assert bets[1]["transaction_id"] in close["reference_transaction_ids"]


BOB: Final = "Js Jd Jh 3c 4d"  # trips too, for a second box


async def two_boxes_settled(casino: Deployment, player: Player) -> int:
    """A round of two boxes, both played and won: settled (the commands answered 200)
    while the operator has none of its credits yet. The boxes' net from the view."""
    await casino.open_table(OPERATOR, "acme.t1", deck_for([ALICE, BOB], DEALER))
    await casino.send(player, "acme.t1", "SitDown")
    for box in (1, 2):
        await casino.send(player, "acme.t1", "PlaceAnte", box=box, ante=ANTE)
    await casino.send(player, "acme.t1", "Deal")
    await casino.send(player, "acme.t1", "Play", box=1)
    settled = await casino.send(player, "acme.t1", "Play", box=2)
    boxes = settled["previous_round"]["boxes"]
    assert [b["box"] for b in boxes] == [1, 2]
    return sum(int(b["result"]["net"]) for b in boxes)


async def test_kill_after_settlement_before_the_credits_were_delivered(
    casino: Deployment,
) -> None:
    wallet = casino.wallet
    alice = await casino.launch(OPERATOR, "alice", balance=START)
    # Every win fails until the faults are cleared: the credits stay queued.
    await wallet.fault("error_500", calls=["win"], times=0)
    net = await two_boxes_settled(casino, alice)
    assert net > 0
    wins = await casino.calls(kind="win")
    assert len(wins) >= 2  # one per box at least
    assert {w["status"] for w in wins} == {"queued"}
    # The deliverer is at it, and failing: the first credit reached the wallet, unapplied.
    await eventually(
        lambda: _delivered_at_least(wallet, wins[0]["transaction_id"], 2),
        timeout=30,
        message="the first credit tried again",
    )
    assert await applied(wallet, "win") == []
    # The stakes are at the operator; none of the credits.
    staked = sum(b["amount"] for b in await casino.calls(kind="bet", status="committed"))
    assert staked == 2 * ANTE + 2 * 2 * ANTE  # two antes, two bets of twice the ante
    assert await wallet.balance_of("alice") == START - staked

    await casino.kill()
    await wallet.clear_faults()
    await casino.start()
    await casino.delivered()

    books = await casino.books(OPERATOR, {"alice": START})
    assert books.net["alice"] == net
    assert await wallet.balance_of("alice") == START + net
    delivered = books.of("win", "delivered")
    assert [w["transaction_id"] for w in delivered] == [w["transaction_id"] for w in wins]
    # Each credit applied once; the ones never tried before the kill were sent once only.
    for win in delivered:
        assert books.theirs[win["transaction_id"]]["amount"] == win["amount"]
        if win is not delivered[0]:
            assert await wallet.deliveries(win["transaction_id"]) == {"win": 1}
    # The round closed once, by its last call.
    assert [w["round_closed"] for w in delivered] == [False] * (len(delivered) - 1) + [True]


async def _delivered_at_least(wallet: ReferenceWallet, transaction_id: str, times: int) -> bool:
    return (await wallet.deliveries(transaction_id)).get("win", 0) >= times


async def test_kill_while_a_credit_is_being_delivered(casino: Deployment) -> None:
    wallet = casino.wallet
    alice = await casino.launch(OPERATOR, "alice", balance=START)
    # The first win is applied at the operator, and its answer held back.
    await wallet.fault("stall_after_apply", calls=["win"], delay_ms=STALL_MS)
    net = await two_boxes_settled(casino, alice)
    await eventually(
        lambda: _has_applied(wallet, "win"), timeout=30, message="the first credit applied"
    )
    [credit] = await applied(wallet, "win")
    [row] = await casino.calls(transaction_id=credit["transaction_id"])
    assert row["status"] == "queued"  # the game does not know yet
    # In order per player: nothing after it was sent while it is in flight.
    later = [w for w in await casino.calls(kind="win") if w["seq"] > row["seq"]]
    assert later
    for win in later:
        assert await wallet.deliveries(win["transaction_id"]) == {}

    await casino.kill()
    await wallet.clear_faults()
    await casino.start()
    await casino.delivered()

    # The same transaction id sent again, and applied once.
    assert await wallet.deliveries(credit["transaction_id"]) == {"win": 2}
    books = await casino.books(OPERATOR, {"alice": START})
    assert books.net["alice"] == net
    assert await wallet.balance_of("alice") == START + net
    [row] = await casino.calls(transaction_id=credit["transaction_id"])
    assert row["status"] == "delivered"
    assert row["operator_transaction_id"] == credit["operator_transaction_id"]
    for win in later:
        assert await wallet.deliveries(win["transaction_id"]) == {"win": 1}


async def _has_applied(wallet: ReferenceWallet, kind: str) -> bool:
    return bool(await applied(wallet, kind))
