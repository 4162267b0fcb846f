"""The operator's wallet gone for a while after settlement (docs/wallet-protocol.md §3.3-§3.5): the
credits owed pile up in the outbox, tried again and again; commands that need a bet are
answered 503 meanwhile; once the wallet is back every call owed is delivered exactly once,
in order per player, and each round is closed once. A call whose retries outlast the retry
period is flagged for manual handling and no longer sent.

The wallet is the reference wallet process: killed (SIGKILL) and started again on the same
port and ledger, or switched to its ``down`` fault for a while.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, Final

import pytest

from tests.operators.casino import Casino, Player
from tests.operators.faults_helpers import (
    DEALER,
    START,
    TRIPS,
    WINNING_DECK,
    assert_ledgers_agree,
    closing_calls,
    new_player,
    running_casino,
)
from tests.processes import eventually
from tests.rules.scenario import deck_for
from tests.wallet.reference import ReferenceWallet

OPERATOR: Final = "acme"
TWO_BOXES: Final = deck_for([TRIPS, "2c 4d 6h 8c Jd"], DEALER)
"""Box 1 (the larger ante: it decides first) plays trips and wins; box 2 holds nothing and
folds: the last decision, which settles the round."""


async def _owed(casino: Casino, player: Player) -> list[dict[str, Any]]:
    """The player's wins and rollbacks, oldest first."""
    calls = await casino.calls(operator_id=player.operator_id, player_id=player.player_id)
    return [c for c in calls if c["kind"] != "bet"]


async def _open(casino: Casino, player: Player, table_id: str, deck: Any) -> None:
    await casino.open_table(table_id, "russian", deck, operator_id=player.operator_id)
    await casino.send(player, table_id, "SitDown")


@pytest.mark.parametrize("outage", ["killed", "down"])
async def test_credits_owed_while_the_wallet_is_gone_are_delivered_once_in_order(
    casino: Casino, reference_wallet: ReferenceWallet, outage: str
) -> None:
    await casino.register(OPERATOR, reference_wallet, timeout_ms=500)
    alice = await new_player(casino, reference_wallet, OPERATOR)
    bob = await new_player(casino, reference_wallet, OPERATOR)
    await _open(casino, alice, "acme.ta", TWO_BOXES)
    await _open(casino, bob, "acme.tb", WINNING_DECK)
    # Every bet of the round is placed while the wallet is there.
    await casino.send(alice, "acme.ta", "PlaceAnte", box=1, ante=200)
    await casino.send(alice, "acme.ta", "PlaceAnte", box=2, ante=100)
    await casino.send(alice, "acme.ta", "Deal")
    await casino.send(alice, "acme.ta", "Play", box=1)
    await casino.send(bob, "acme.tb", "PlaceAnte", box=1, ante=100)
    await casino.send(bob, "acme.tb", "Deal")
    await casino.delivered()

    if outage == "killed":
        await reference_wallet.kill()
    else:
        await reference_wallet.fault("down", for_s=600)  # until the faults are cleared

    # Alice's fold settles her round: its credits are owed to a wallet that is gone.
    settled = await casino.send(alice, "acme.ta", "Fold", box=2)
    boxes = {b["box"]: b["result"] for b in settled["previous_round"]["boxes"]}
    alice_net = boxes[1]["net"] + boxes[2]["net"]
    assert boxes[1]["net"] > 0 > boxes[2]["net"]
    # Bob's Play needs a bet: refused with 503, its bet rolled back (owed too).
    failed = await casino.post(bob, "acme.tb", "Play", box=1)
    assert failed.status_code == 503, failed.text
    assert failed.json()["type"] == "/problems/wallet_unavailable"
    assert "Retry-After" in failed.headers
    # A new round's ante of Alice's, the same.
    failed = await casino.post(alice, "acme.ta", "PlaceAnte", box=1, ante=100)
    assert failed.status_code == 503, failed.text
    # Bob folds instead (no bet needed): his round, with its committed ante, is closed by a
    # win of 0, owed as well.
    await casino.send(bob, "acme.tb", "Fold", box=1)

    # Each player's oldest owed call is tried again and again; nothing is given up on.
    async def tried_again() -> bool:
        heads = [(await _owed(casino, p))[0] for p in (alice, bob)]
        return all(h["attempts"] >= 3 for h in heads)

    await eventually(tried_again, timeout=30, message="the owed calls were sent again")
    for player, kinds in ((alice, {"win", "rollback"}), (bob, {"win", "rollback"})):
        owed = await _owed(casino, player)
        assert {c["kind"] for c in owed} == kinds
        assert {c["status"] for c in owed} == {"queued"}, owed
        # One at a time per player: the calls behind the head wait their turn.
        assert all(c["attempts"] == 0 for c in owed[1:]), owed

    if outage == "killed":
        await reference_wallet.start_ready()  # the same port, the same ledger
    else:
        await reference_wallet.clear_faults()
    await casino.delivered()

    bob_net = -100
    for player, net in ((alice, alice_net), (bob, bob_net)):
        assert await assert_ledgers_agree(casino, reference_wallet, player) == net
        assert set((await closing_calls(casino, player)).values()) == {1}
        owed = await _owed(casino, player)
        assert {c["status"] for c in owed} == {"delivered"}
        theirs = [
            t
            for t in await reference_wallet.export()
            if t["player_id"] == player.player_id and t["kind"] != "bet"
        ]
        # In order: the operator applied them as the game queued them.
        assert [t["transaction_id"] for t in theirs] == [c["transaction_id"] for c in owed]
        times = [t["created_at"] for t in theirs]
        assert times == sorted(times)
        for call in owed:
            reached = await reference_wallet.deliveries(call["transaction_id"])
            if outage == "killed":
                # The wallet that was killed saw none of the tries: each arrived once.
                assert reached == {call["kind"]: 1}, (call, reached)
            else:
                assert reached == {call["kind"]: call["attempts"]}, (call, reached)
    # Bob's Play bet never reached the wallet (it was down); its rollback left a tombstone.
    bob_bets = await casino.calls(operator_id=OPERATOR, player_id=bob.player_id, kind="bet")
    assert [b["status"] for b in bob_bets] == ["committed", "rolled_back"]
    # The wallet is back: the same commands go through now.
    again = await casino.post(alice, "acme.ta", "PlaceAnte", box=1, ante=100)
    assert again.status_code == 200, again.text
    assert await reference_wallet.balance_of(alice.player_id) == START + alice_net - 100


# -- given up on: manual handling ----------------------------------------------------------

RETRY_FOR_S: Final = 1
"""The retry period of the impatient casino: the smallest the settings allow."""


@pytest.fixture
async def impatient_casino(database_url: str, tmp_path: Path) -> AsyncIterator[Casino]:
    """The ``casino`` fixture's service, giving up on an owed call after a second."""
    async with running_casino(database_url, tmp_path, wallet_retry_for_s=RETRY_FOR_S) as casino:
        yield casino


def _gauge(metrics: str, name: str) -> float:
    found = re.search(rf"^{name} (\S+)$", metrics, re.MULTILINE)
    assert found, f"{name} is not in /metrics"
    return float(found.group(1))


async def test_a_credit_tried_past_the_retry_period_is_flagged_manual_and_no_longer_sent(
    impatient_casino: Casino, reference_wallet: ReferenceWallet
) -> None:
    casino = impatient_casino
    await casino.register(OPERATOR, reference_wallet, timeout_ms=500)
    alice = await new_player(casino, reference_wallet, OPERATOR)
    await _open(casino, alice, "acme.ta", WINNING_DECK)
    await casino.send(alice, "acme.ta", "PlaceAnte", box=1, ante=100)
    await casino.send(alice, "acme.ta", "Deal")
    await reference_wallet.fault("error_500", calls=["win"], times=0)  # every win fails
    await casino.send(alice, "acme.ta", "Play", box=1)

    async def given_up() -> bool:
        wins = await casino.calls(operator_id=OPERATOR, player_id=alice.player_id, kind="win")
        return bool(wins) and all(w["status"] == "manual" for w in wins)

    await eventually(given_up, timeout=30, message="the wins were flagged manual")
    wins = await casino.calls(operator_id=OPERATOR, player_id=alice.player_id, kind="win")
    first = wins[0]
    assert first["attempts"] >= 2  # it was tried again first, then given up on
    assert first["answer_status"] is None and first["last_error"]

    async def gauged() -> bool:
        metrics = (await casino.client.get("/metrics")).text
        return _gauge(metrics, "russian_poker_wallet_manual_calls") == len(wins)

    await eventually(gauged, timeout=10, message="the manual gauge counted them")

    # No longer sent, however often the outbox runs, even once the wallet would answer.
    reached = {
        w["transaction_id"]: await reference_wallet.deliveries(w["transaction_id"]) for w in wins
    }
    await reference_wallet.clear_faults()
    for _ in range(3):
        await casino.app.state.services.outbox.deliver_due()
    for win in wins:
        assert (
            await reference_wallet.deliveries(win["transaction_id"])
            == reached[win["transaction_id"]]
        )
    assert await casino.calls(operator_id=OPERATOR, player_id=alice.player_id, kind="win") == wins
    # The operator was never paid them: its ledger holds the bets only, for people to
    # settle by hand (reconciliation lists them as credits not delivered).
    theirs = [t for t in await reference_wallet.export() if t["player_id"] == alice.player_id]
    assert {t["kind"] for t in theirs} == {"bet"}
    assert await reference_wallet.balance_of(alice.player_id) == START - 300
