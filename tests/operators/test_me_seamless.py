"""`GET /v1/me` for a seamless operator's player: the balance is the operator's wallet's
(a `balance` call), and a wallet that fails, times out or refuses gives no balance and says
so — never an error, never the operator's own words."""

from __future__ import annotations

from typing import Any

from tests.operators.casino import Casino, staff
from tests.wallet.reference import ReferenceWallet


async def test_a_seamless_players_balance_is_asked_of_the_operator(
    casino: Casino, reference_wallet: ReferenceWallet
) -> None:
    await reference_wallet.set_player("alice", "EUR", 7_777)
    await casino.register("acme", reference_wallet, timeout_ms=300)

    async def launched(player_id: str) -> dict[str, str]:
        r = await casino.client.post(
            "/v1/sessions",
            json={"player_id": player_id, "currency": "EUR", "language": "en"},
            headers=staff("operator", "acme"),
        )
        assert r.status_code == 201, r.text
        return {"Authorization": f"Bearer {r.json()['session_token']}"}

    async def me(headers: dict[str, str]) -> dict[str, Any]:
        r = await casino.client.get("/v1/me", headers=headers)
        assert r.status_code == 200, r.text
        assert "internal error" not in r.text and "unknown player" not in r.text
        answer: dict[str, Any] = r.json()
        return answer

    alice = await launched("alice")
    seen = await me(alice)
    assert (seen["role"], seen["player_id"], seen["operator_id"]) == (
        "player",
        "acme:alice",
        "acme",
    )
    assert (seen["currency"], seen["language"]) == ("EUR", "en")
    assert (seen["balance"], seen["balance_currency"], seen["balance_status"]) == (
        7_777,
        "EUR",
        "available",
    )
    unavailable = (None, None, "unavailable")

    await reference_wallet.fault("error_500", calls=["balance"])
    seen = await me(alice)
    assert (seen["balance"], seen["balance_currency"], seen["balance_status"]) == unavailable

    await reference_wallet.fault("slow", calls=["balance"], delay_ms=1_500)
    seen = await me(alice)
    assert (seen["balance"], seen["balance_currency"], seen["balance_status"]) == unavailable

    # A player the operator does not know: refused with invalid_session ("unknown player").
    await reference_wallet.clear_faults()
    seen = await me(await launched("stranger"))
    assert (seen["balance"], seen["balance_currency"], seen["balance_status"]) == unavailable
    assert (await me(alice))["balance"] == 7_777  # the wallet answers again
