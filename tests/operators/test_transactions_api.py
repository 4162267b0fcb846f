"""``GET /v1/operators/{id}/transactions`` (docs/wallet-protocol.md §5): after seamless rounds with
the reference wallet, the game's list of its calls, with their statuses, in pages and
through each filter; bad filters are problems."""

from __future__ import annotations

from typing import Any

import pytest

from tests.operators.casino import ADMIN, Casino, Player, staff
from tests.operators.play import deck, play_round
from tests.wallet.reference import ReferenceWallet

ACME = staff("operator", "acme")
BETA = staff("operator", "beta")
AUDITOR = staff("auditor", "acme", name="inspector")
"""Auditors are an operator's, like its operator tokens; admins see every operator."""
START = 100_000


async def listing(casino: Casino, headers: dict[str, str], **params: Any) -> dict[str, Any]:
    r = await casino.client.get("/v1/operators/acme/transactions", params=params, headers=headers)
    assert r.status_code == 200, r.text
    page: dict[str, Any] = r.json()
    return page


async def two_rounds(casino: Casino, wallet: ReferenceWallet) -> tuple[Player, Player]:
    """Alice plays two rounds at acme's acme.t1, Bob one; a bet of Bob's is rolled back."""
    await wallet.set_player("alice", "EUR", START)
    await wallet.set_player("bob", "EUR", START)
    await casino.register("acme", wallet)
    await casino.register("beta")
    alice = await casino.launch("acme", "alice")
    bob = await casino.launch("acme", "bob")
    await casino.open_table("acme.t1", "russian", deck(), operator_id="acme")
    await casino.open_table("acme.t2", "russian", deck(), operator_id="acme")
    await play_round(casino, alice, "acme.t1")
    await play_round(casino, alice, "acme.t1", ante=200, sit=False)
    # The wallet applies Bob's first ante and drops the connection: the game rolls it
    # back (an unknown outcome), and the retry is a new bet.
    await casino.send(bob, "acme.t2", "SitDown")
    await wallet.fault("drop_after_apply", calls=["bet"])
    refused = await casino.post(bob, "acme.t2", "PlaceAnte", box=1, ante=300)
    assert refused.status_code == 503, refused.text
    await casino.delivered()
    return alice, bob


async def test_the_list_is_the_games_record_with_statuses(
    casino: Casino, reference_wallet: ReferenceWallet
) -> None:
    await two_rounds(casino, reference_wallet)
    await casino.delivered()
    page = await listing(casino, ACME)
    listed = page["items"]
    assert page["next_cursor"] is None
    recorded = await casino.calls(operator_id="acme")
    assert [t["transaction_id"] for t in listed] == [r["transaction_id"] for r in recorded]
    assert [t["seq"] for t in listed] == sorted(t["seq"] for t in listed)

    alice = [t for t in listed if t["player_id"] == "alice"]
    bets = [t for t in alice if t["kind"] == "bet"]
    wins = [t for t in alice if t["kind"] == "win"]
    assert [(b["reason"], b["amount"]) for b in bets] == [
        ("ante", 100),
        ("bet", 200),
        ("ante", 200),
        ("bet", 400),
    ]
    assert {b["status"] for b in bets} == {"committed"}
    assert {b["answer_status"] for b in bets} == {"ok"}
    assert all(b["operator_transaction_id"] for b in bets)
    assert {w["status"] for w in wins} == {"delivered"}
    first_round = bets[0]["round_id"]
    assert first_round.startswith("acme.t1:")
    closing = [w for w in wins if w["round_closed"]]
    assert len(closing) == 2  # one per round
    assert set(closing[0]["reference_transaction_ids"]) == {
        b["transaction_id"] for b in bets if b["round_id"] == first_round
    }
    assert all(t["currency"] == "EUR" and t["table_id"] == "acme.t1" for t in alice)
    assert all(t["attempts"] >= 1 for t in alice)
    assert all(t["created_at"] <= t["updated_at"] for t in alice)

    bob = [t for t in listed if t["player_id"] == "bob"]
    assert [(t["kind"], t["status"]) for t in bob] == [
        ("bet", "rolled_back"),
        ("rollback", "delivered"),
    ]
    bet, rollback = bob
    assert rollback["reference_transaction_id"] == bet["transaction_id"]
    assert rollback["amount"] == bet["amount"] == 300
    assert rollback["reason"] == "ante"
    assert bet["reference_transaction_ids"] is None

    # The operator's export has every call the game says it delivered, for the same amount.
    theirs = {t["transaction_id"]: t for t in await reference_wallet.export()}
    for call in listed:
        if call["status"] in ("committed", "delivered"):
            assert theirs[call["transaction_id"]]["amount"] == call["amount"]


async def test_pages_walk_the_whole_list_once(
    casino: Casino, reference_wallet: ReferenceWallet
) -> None:
    await two_rounds(casino, reference_wallet)
    everything = (await listing(casino, ACME))["items"]
    assert len(everything) > 5
    walked: list[dict[str, Any]] = []
    cursor = None
    pages = 0
    while True:
        params: dict[str, Any] = {"limit": 2}
        if cursor is not None:
            params["cursor"] = cursor
        page = await listing(casino, AUDITOR, **params)
        pages += 1
        assert len(page["items"]) <= 2
        walked += page["items"]
        cursor = page["next_cursor"]
        if cursor is None:
            break
        assert isinstance(cursor, str)  # opaque: passed back as given
    assert walked == everything
    assert pages == -(-len(everything) // 2)


async def test_filters(casino: Casino, reference_wallet: ReferenceWallet) -> None:
    await two_rounds(casino, reference_wallet)
    everything = (await listing(casino, ADMIN))["items"]
    rounds = sorted({t["round_id"] for t in everything if t["player_id"] == "alice"})
    assert len(rounds) == 2
    one = (await listing(casino, ACME, round_id=rounds[1]))["items"]
    assert one == [t for t in everything if t["round_id"] == rounds[1]]
    assert {t["amount"] for t in one if t["kind"] == "bet"} == {200, 400}

    wins = (await listing(casino, ACME, kind="win"))["items"]
    assert wins == [t for t in everything if t["kind"] == "win"]
    bobs = (await listing(casino, ACME, player_id="bob"))["items"]
    assert bobs == [t for t in everything if t["player_id"] == "bob"]

    # from/to bound created_at: [from, to).
    third = everything[3]
    after = (await listing(casino, ACME, **{"from": third["created_at"]}))["items"]
    assert after == [t for t in everything if t["created_at"] >= third["created_at"]]
    assert third in after
    before = (await listing(casino, ACME, to=third["created_at"]))["items"]
    assert before == [t for t in everything if t["created_at"] < third["created_at"]]
    assert third not in before
    assert (await listing(casino, ACME, **{"from": "2999-01-01T00:00:00Z"}))["items"] == []
    # A time without a zone is UTC.
    assert (await listing(casino, ACME, to="2000-01-01T00:00:00"))["items"] == []


@pytest.mark.parametrize(
    ("params", "status", "code"),
    [
        ({"from": "yesterday"}, 400, "bad_request"),
        ({"to": "2024-13-01T00:00:00Z"}, 400, "bad_request"),
        ({"from": "2024-02-01T00:00:00Z", "to": "2024-01-01T00:00:00Z"}, 422, "invalid_window"),
        ({"from": "2024-01-01T00:00:00Z", "to": "2024-01-01T00:00:00Z"}, 422, "invalid_window"),
        ({"round_id": "t1-4"}, 400, "invalid_round_id"),
        ({"round_id": "acme.t1:x"}, 400, "invalid_round_id"),
        ({"kind": "deposit"}, 400, "bad_request"),
        ({"limit": 0}, 400, "bad_request"),
        ({"cursor": -1}, 422, "invalid_cursor"),
    ],
)
async def test_bad_filters_are_problems(
    casino: Casino, params: dict[str, Any], status: int, code: str
) -> None:
    await casino.register("acme", None)
    r = await casino.client.get("/v1/operators/acme/transactions", params=params, headers=ACME)
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    assert r.json()["code"] == code
    assert r.json()["type"] == f"/problems/{code}"


async def test_who_may_read_it(casino: Casino, reference_wallet: ReferenceWallet) -> None:
    alice, _ = await two_rounds(casino, reference_wallet)
    path = "/v1/operators/acme/transactions"
    # Acme's own tokens, an admin, and the game's own auditor (a token bound to no operator).
    for allowed in (ACME, AUDITOR, ADMIN, staff("auditor")):
        assert (await casino.client.get(path, headers=allowed)).status_code == 200
    # Another operator's token: as if acme did not exist.
    for other_operator in (BETA, staff("auditor", "beta")):
        other = await casino.client.get(path, headers=other_operator)
        assert other.status_code == 404
        assert "alice" not in other.text
    assert (await casino.client.get(path, headers=alice.headers)).status_code == 403
    assert (await casino.client.get(path)).status_code == 401
    unknown = await casino.client.get("/v1/operators/nobody/transactions", headers=ADMIN)
    assert unknown.status_code == 404
    # An internal operator has no wallet calls: its money is in its wallets' ledgers.
    beta = await casino.client.get("/v1/operators/beta/transactions", headers=BETA)
    assert beta.status_code == 200
    assert beta.json() == {"items": [], "next_cursor": None}
