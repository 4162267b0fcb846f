"""Full rounds of every preset with a seamless operator: the reference wallet (a separate
process) holds the money, and after the outbox has delivered, its ledger moved by exactly
the game's result for the player, each bet once, with one closing call per round."""

from __future__ import annotations

import pytest

from tests.operators.casino import Casino
from tests.rules.scenario import deck_for
from tests.wallet.reference import ReferenceWallet

ALICE = "Qs Qd Qh 5c 7d"  # trips
DEALER = "9s 9c Ah Kd 2h"  # a pair of nines: the dealer qualifies
START = 100_000


@pytest.mark.parametrize("preset", ["russian", "russian-online", "oasis"])
async def test_a_round_of_each_preset_settles_at_the_operator(
    casino: Casino, reference_wallet: ReferenceWallet, preset: str
) -> None:
    await reference_wallet.set_player("alice", "EUR", START)
    await casino.register("acme", reference_wallet)
    alice = await casino.launch("acme", "alice")
    assert alice.game_id == "acme:alice"
    await casino.open_table("acme.t1", preset, deck_for([ALICE], DEALER), operator_id="acme")

    await casino.send(alice, "acme.t1", "SitDown")
    await casino.send(alice, "acme.t1", "PlaceAnte", box=1, ante=100)
    # The stake is at the operator at once: the game keeps no balance of its own.
    assert await reference_wallet.balance_of("alice") == START - 100
    await casino.send(alice, "acme.t1", "Deal")
    settled = await casino.send(alice, "acme.t1", "Play", box=1)
    # The next round opened at once: the settled one is the previous round now.
    box = next(b for b in settled["previous_round"]["boxes"] if b["box"] == 1)
    net = box["result"]["net"]
    assert net > 0  # trips beat a pair of nines

    await casino.delivered()
    assert await reference_wallet.balance_of("alice") == START + net
    assert await casino.game_net(alice) == net
    calls = await casino.calls(operator_id="acme", player_id="alice")
    bets = [c for c in calls if c["kind"] == "bet"]
    wins = [c for c in calls if c["kind"] == "win"]
    assert [b["reason"] for b in bets] == ["ante", "bet"]
    assert all(b["status"] == "committed" for b in bets)
    assert all(w["status"] == "delivered" for w in wins)
    assert [w["round_closed"] for w in wins][-1] is True
    assert sum(w["round_closed"] for w in wins) == 1
    assert set(wins[-1]["reference_transaction_ids"]) == {b["transaction_id"] for b in bets}
    # The operator saw each bet once, and its export agrees with the game's record.
    for bet in bets:
        assert (await reference_wallet.deliveries(bet["transaction_id"])).get("bet") == 1
    theirs = {t["transaction_id"]: t for t in await reference_wallet.export()}
    for call in bets + wins:
        assert theirs[call["transaction_id"]]["amount"] == call["amount"]
