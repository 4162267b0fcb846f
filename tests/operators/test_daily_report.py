"""``GET /v1/operators/{id}/reports/daily`` (docs/wallet-protocol.md §5): per operator, currency and
UTC day, stakes (kept bets only), wins (credits paid or owed), GGR = stakes - wins, rounds
and players; a seamless operator's from the game's calls, an internal one's from its
players' wallet ledgers, and each operator's figures its own, also at a shared table."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from tests.operators.casino import ADMIN, Casino, staff
from tests.operators.play import deck, internal_player, play_round, play_together
from tests.rules.scenario import deck_for
from tests.wallet.reference import ReferenceWallet

ACME = staff("operator", "acme")
BETA = staff("operator", "beta")
START = 100_000


async def report(
    casino: Casino, operator_id: str, headers: dict[str, str], **params: Any
) -> dict[str, Any]:
    r = await casino.client.get(
        f"/v1/operators/{operator_id}/reports/daily", params=params, headers=headers
    )
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def today() -> str:
    return datetime.now(UTC).date().isoformat()


def only_day(body: dict[str, Any]) -> dict[str, Any]:
    """The report's one day of play (the tests play within one UTC day... or across
    midnight, when the figures of both days are summed)."""
    assert body["totals"], body
    (total,) = body["totals"]
    assert total["day"] is None
    days = body["days"]
    assert days and {d["currency"] for d in days} == {total["currency"]}
    for figure in ("stakes", "wins", "ggr"):
        assert sum(d[figure] for d in days) == total[figure]
    return dict(total)


async def test_figures_are_the_rounds_stakes_and_wins(
    casino: Casino, reference_wallet: ReferenceWallet
) -> None:
    await reference_wallet.set_player("alice", "EUR", START)
    await reference_wallet.set_player("bob", "EUR", START)
    await reference_wallet.set_player("carol", "EUR", 50)
    await casino.register("acme", reference_wallet)
    alice = await casino.launch("acme", "alice")
    bob = await casino.launch("acme", "bob")
    carol = await casino.launch("acme", "carol")
    await casino.open_table("acme.t1", "russian", deck(), operator_id="acme")
    await casino.open_table("acme.t2", "russian", deck(), operator_id="acme")
    await casino.open_table("acme.t3", "russian", deck(), operator_id="acme")

    box = await play_round(casino, alice, "acme.t1", ante=100)
    net = box["result"]["net"]
    assert net > 0
    # Not stakes: a bet the game rolled back (the wallet applied it, then the answer was
    # lost), and a bet the wallet refused.
    await casino.send(bob, "acme.t2", "SitDown")
    await reference_wallet.fault("drop_after_apply", calls=["bet"])
    assert (await casino.post(bob, "acme.t2", "PlaceAnte", box=1, ante=300)).status_code == 503
    await casino.send(carol, "acme.t3", "SitDown")
    refused = await casino.post(carol, "acme.t3", "PlaceAnte", box=1, ante=100)
    assert refused.status_code == 409
    assert refused.json()["code"] == "insufficient_funds"
    await casino.delivered()

    body = await report(casino, "acme", ACME, to=today())
    assert body["operator_id"] == "acme"
    assert body["wallet_mode"] == "seamless"
    assert body["to"] == today()
    total = only_day(body)
    calls = await casino.calls(operator_id="acme")
    committed = [c for c in calls if c["kind"] == "bet" and c["status"] == "committed"]
    wins = [c for c in calls if c["kind"] == "win"]
    assert [c["amount"] for c in committed] == [100, 200]  # ante, and the bet to play
    assert total["currency"] == "EUR"
    assert total["stakes"] == 300
    assert total["wins"] == sum(w["amount"] for w in wins) == 300 + net
    assert total["ggr"] == total["stakes"] - total["wins"] == -net
    assert total["rounds"] == 1
    assert total["players"] == 1
    # The operator's own ledger agrees: it lost what the report says it won.
    assert await reference_wallet.balance_of("alice") - START == -total["ggr"]
    assert await reference_wallet.balance_of("bob") == START
    assert await reference_wallet.balance_of("carol") == 50


async def test_two_operators_figures_stay_apart(
    casino: Casino, reference_wallet: ReferenceWallet
) -> None:
    """Acme is seamless, Beta internal; each plays a round at its own table, then both play
    one round together at a shared table."""
    await reference_wallet.set_player("alice", "EUR", START)
    await casino.register("acme", reference_wallet)
    await casino.register("beta")
    alice = await casino.launch("acme", "alice")
    bob = await internal_player(casino, "beta", "bob", START)
    await casino.open_table("acme.t1", "russian", deck(), operator_id="acme")
    await casino.open_table("beta.t2", "russian", deck(), operator_id="beta")
    await casino.open_table(
        "s1", "russian", deck_for(["Qs Qd Qh 5c 7d", "Js Jd Jh 4c 8d"], "9s 9c Ah Kd 2h")
    )

    await play_round(casino, alice, "acme.t1", ante=100)
    await play_round(casino, bob, "beta.t2", ante=500)
    await casino.send(alice, "s1", "SitDown")
    await casino.send(bob, "s1", "SitDown")
    await play_together(casino, "s1", [(alice, 1, 200), (bob, 2, 300)])
    await casino.delivered()

    acme = only_day(await report(casino, "acme", ACME))
    beta_report = await report(casino, "beta", BETA)
    assert beta_report["wallet_mode"] == "internal"
    beta = only_day(beta_report)
    # Stakes: ante and the bet to play (twice the ante) of each round.
    assert acme["stakes"] == 3 * (100 + 200)
    assert beta["stakes"] == 3 * (500 + 300)
    for figures in (acme, beta):
        assert figures["rounds"] == 2
        assert figures["players"] == 1
        assert figures["ggr"] == figures["stakes"] - figures["wins"]
    # Each GGR is what that operator's player lost, in that operator's own books.
    assert await reference_wallet.balance_of("alice") == START - acme["ggr"]
    wallet = await casino.client.get("/v1/wallets/bob", headers=BETA)
    assert wallet.json()["balance"] == START - beta["ggr"]
    # Beta's stakes are its wallet ledger's debits of play, to the unit.
    ledger = await casino.client.get("/v1/wallets/bob/ledger", headers=BETA, params={"limit": 500})
    entries = ledger.json()["items"]
    assert beta["stakes"] == -sum(e["amount"] for e in entries if e["kind"] == "WalletDebited")
    assert beta["wins"] == sum(e["amount"] for e in entries if e["kind"] == "WalletCredited")

    # The admin sees each as its operator does; neither operator sees the other's.
    assert only_day(await report(casino, "acme", ADMIN)) == acme
    assert only_day(await report(casino, "beta", ADMIN)) == beta
    for path in ("/v1/operators/beta/reports/daily", "/v1/operators/acme/reports/daily"):
        token = ACME if "beta" in path else BETA
        r = await casino.client.get(path, headers=token)
        assert r.status_code == 404
        assert "stakes" not in r.text
    # The default operator (internal, no player of its own here) has nothing.
    nothing = await report(casino, "default", ADMIN)
    assert nothing["days"] == nothing["totals"] == []


async def test_the_window(casino: Casino, reference_wallet: ReferenceWallet) -> None:
    await reference_wallet.set_player("alice", "EUR", START)
    await casino.register("acme", reference_wallet)
    alice = await casino.launch("acme", "alice")
    await casino.open_table("acme.t1", "russian", deck(), operator_id="acme")
    await play_round(casino, alice, "acme.t1")
    await casino.delivered()

    # By default, the 31 days up to today.
    default = await report(casino, "acme", ACME)
    now = datetime.now(UTC).date()
    assert default["to"] in (now.isoformat(), (now - timedelta(days=1)).isoformat())
    assert only_day(default)["stakes"] == 300
    past = await report(casino, "acme", ACME, **{"from": "2020-01-01", "to": "2020-01-31"})
    assert (past["from"], past["to"]) == ("2020-01-01", "2020-01-31")
    assert past["days"] == past["totals"] == []
    future = await report(casino, "acme", ACME, **{"from": "2999-01-01", "to": "2999-01-01"})
    assert future["days"] == []
    # The calendar's first days: the default window does not reach before them.
    first = await report(casino, "acme", ACME, to="0001-01-05")
    assert (first["from"], first["days"]) == ("0001-01-01", [])


@pytest.mark.parametrize(
    ("params", "status", "code"),
    [
        ({"from": "2024-02-30"}, 400, "bad_request"),
        ({"to": "yesterday"}, 400, "bad_request"),
        ({"from": "2024-02-02", "to": "2024-02-01"}, 422, "invalid_window"),
        ({"from": "2023-01-01", "to": "2024-01-02"}, 422, "invalid_window"),
        ({"to": "9999-12-31"}, 422, "invalid_window"),
    ],
)
async def test_bad_windows_are_problems(
    casino: Casino, params: dict[str, Any], status: int, code: str
) -> None:
    await casino.register("beta")
    r = await casino.client.get("/v1/operators/beta/reports/daily", params=params, headers=BETA)
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    assert r.json()["code"] == code
