"""Per player, calls of one round go one at a time and in order (docs/wallet-protocol.md §3.5): a
new bet never overtakes the rollback of an earlier one of the same round."""

from __future__ import annotations

from tests.operators.casino import Casino
from tests.rules.scenario import deck_for
from tests.wallet.reference import ReferenceWallet

START = 10_000


async def test_a_bet_waits_for_the_rollback_owed_before_it(
    casino: Casino, reference_wallet: ReferenceWallet
) -> None:
    await reference_wallet.set_player("alice", "EUR", START)
    await casino.register("acme", reference_wallet, timeout_ms=500)
    alice = await casino.launch("acme", "alice")
    deck = deck_for(["2c 3d 4h 5s 7c"], "As Ks Qs Js 9s")
    await casino.open_table("acme.t1", "russian", deck, operator_id="acme")
    await casino.send(alice, "acme.t1", "SitDown")

    # The bet's answer is lost, and its rollback cannot be delivered for now.
    await reference_wallet.fault("error_500", calls=["rollback"], times=0)
    await reference_wallet.fault("drop_after_apply", calls=["bet"])
    first = await casino.post(alice, "acme.t1", "PlaceAnte", box=1, ante=100, key="ante")
    assert first.status_code == 503, first.text
    (lost,) = await casino.calls(kind="bet")

    # The retry would overtake the owed rollback: refused before any bet is recorded or sent.
    overtaking = await casino.post(alice, "acme.t1", "PlaceAnte", box=1, ante=100, key="ante")
    assert overtaking.status_code == 503, overtaking.text
    assert overtaking.json()["code"] == "wallet_unavailable"
    assert [b["transaction_id"] for b in await casino.calls(kind="bet")] == [lost["transaction_id"]]
    assert await reference_wallet.balance_of("alice") == START - 100  # still owed back

    await reference_wallet.clear_faults()
    await casino.delivered()
    assert await reference_wallet.balance_of("alice") == START
    accepted = await casino.post(alice, "acme.t1", "PlaceAnte", box=1, ante=100, key="ante")
    assert accepted.status_code == 200, accepted.text
    bets = await casino.calls(kind="bet")
    assert [b["status"] for b in bets] == ["rolled_back", "committed"]
    (rollback,) = await casino.calls(kind="rollback")
    # The operator saw the rollback before the new bet.
    assert rollback["updated_at"] < bets[1]["created_at"]
    assert await reference_wallet.balance_of("alice") == START - 100


async def test_a_bet_after_a_refund_is_sent_after_it(
    casino: Casino, reference_wallet: ReferenceWallet
) -> None:
    await reference_wallet.set_player("bob", "EUR", START)
    await casino.register("acme", reference_wallet)
    bob = await casino.launch("acme", "bob")
    await casino.open_table(
        "acme.t1", "russian", deck_for(["2c 3d 4h 5s 7c"], "As Ks Qs Js 9s"), operator_id="acme"
    )
    await casino.send(bob, "acme.t1", "SitDown")
    await casino.send(bob, "acme.t1", "PlaceAnte", box=1, ante=100)
    await casino.send(bob, "acme.t1", "CancelBets", box=1)
    # At once: the refund still owed is delivered first, by the command itself.
    await casino.send(bob, "acme.t1", "PlaceAnte", box=1, ante=200)
    calls = await casino.calls(operator_id="acme", player_id="bob")
    refund = next(c for c in calls if c["kind"] == "win")
    second = [c for c in calls if c["kind"] == "bet"][1]
    assert refund["reason"] == "stake_returned" and refund["status"] == "delivered"
    assert refund["updated_at"] < second["created_at"]
    assert await reference_wallet.balance_of("bob") == START - 200
