"""The operator's refusals of a bet are the player's problem types (docs/wallet-protocol.md §3.2):
nothing of the command is recorded, and the bet is not rolled back (it was not applied)."""

from __future__ import annotations

from tests.operators.casino import Casino, staff
from tests.rules.scenario import deck_for
from tests.wallet.reference import ReferenceWallet

DECK = deck_for(["2c 3d 4h 5s 7c"], "As Ks Qs Js 9s")


async def test_a_blocked_player_is_refused_with_player_blocked(
    casino: Casino, reference_wallet: ReferenceWallet
) -> None:
    await reference_wallet.set_player("alice", "EUR", 10_000, blocked=True)
    await casino.register("acme", reference_wallet)
    alice = await casino.launch("acme", "alice")
    await casino.open_table("acme.t1", "russian", DECK, operator_id="acme")
    await casino.send(alice, "acme.t1", "SitDown")
    before = (await casino.view("acme.t1"))["version"]
    refused = await casino.post(alice, "acme.t1", "PlaceAnte", box=1, ante=100)
    assert refused.status_code == 403, refused.text
    assert refused.json()["code"] == "player_blocked"
    assert (await casino.view("acme.t1"))["version"] == before
    (bet,) = await casino.calls(kind="bet")
    assert (bet["status"], bet["answer_status"]) == ("refused", "player_blocked")
    assert await casino.calls(kind="rollback") == []
    assert await reference_wallet.balance_of("alice") == 10_000


async def test_an_ended_session_is_refused_before_any_bet(
    casino: Casino, reference_wallet: ReferenceWallet
) -> None:
    await reference_wallet.set_player("bob", "EUR", 10_000)
    await casino.register("acme", reference_wallet)
    bob = await casino.launch("acme", "bob")
    await casino.open_table("acme.t1", "russian", DECK, operator_id="acme")
    await casino.send(bob, "acme.t1", "SitDown")
    ended = await casino.client.delete(
        f"/v1/sessions/{bob.session_id}", headers=staff("operator", "acme")
    )
    assert ended.status_code == 200 and ended.json()["ended_at"] is not None
    refused = await casino.post(bob, "acme.t1", "PlaceAnte", box=1, ante=100)
    assert refused.status_code == 403, refused.text
    assert refused.json()["code"] == "session_ended"
    assert await casino.calls(kind="bet") == []
