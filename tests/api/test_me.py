"""`GET /v1/me`: who a bearer token is, for a client that holds nothing else; and the
launch URL that hands a client its token and language."""

from __future__ import annotations

from typing import Any

import httpx

from tests.api.conftest import bearer

OPERATOR = bearer("operator", "op")


async def _me(api: httpx.AsyncClient, headers: dict[str, str]) -> dict[str, Any]:
    r = await api.get("/v1/me", headers=headers)
    assert r.status_code == 200, r.text
    me: dict[str, Any] = r.json()
    return me


async def _launch(api: httpx.AsyncClient, **body: Any) -> dict[str, Any]:
    r = await api.post("/v1/sessions", json=body, headers=OPERATOR)
    assert r.status_code == 201, r.text
    launched: dict[str, Any] = r.json()
    return launched


async def test_a_launched_player_learns_who_they_are_and_their_balance(
    api: httpx.AsyncClient,
) -> None:
    r = await api.post(
        "/v1/wallets", json={"wallet_id": "alice", "currency": "RUB"}, headers=OPERATOR
    )
    assert r.status_code == 201, r.text
    r = await api.post(
        "/v1/wallets/alice/deposits",
        json={"transfer_id": "me-1", "amount": 12_345},
        headers=OPERATOR,
    )
    assert r.status_code == 200, r.text
    launched = await _launch(api, player_id="alice", currency="RUB", table_id="t1", language="ru")
    token = launched["session_token"]
    assert launched["launch_url"] == f"/play/t1#token={token}&lang=ru"

    me = await _me(api, {"Authorization": f"Bearer {token}"})
    assert me == {
        "role": "player",
        "player_id": "alice",
        "operator_id": "default",
        "every_operator": False,
        "session_id": launched["session_id"],
        "currency": "RUB",
        "language": "ru",
        "balance": 12_345,
        "balance_currency": "RUB",
        "balance_status": "available",
    }


async def test_a_launch_without_a_language_has_only_the_token(api: httpx.AsyncClient) -> None:
    launched = await _launch(api, player_id="bob", currency="EUR")
    assert launched["launch_url"] == f"/play/#token={launched['session_token']}"
    me = await _me(api, {"Authorization": f"Bearer {launched['session_token']}"})
    assert (me["language"], me["currency"]) == (None, "EUR")
    # No wallet was opened for bob: no balance, and said so.
    assert (me["balance"], me["balance_currency"], me["balance_status"]) == (
        None,
        None,
        "no_wallet",
    )


async def test_a_player_with_no_wallet_and_no_session(api: httpx.AsyncClient) -> None:
    me = await _me(api, bearer("player", "nobody"))
    assert me == {
        "role": "player",
        "player_id": "nobody",
        "operator_id": "default",
        "every_operator": False,
        "session_id": None,
        "currency": None,
        "language": None,
        "balance": None,
        "balance_currency": None,
        "balance_status": "no_wallet",
    }


async def test_staff_are_no_player_and_have_no_balance(api: httpx.AsyncClient) -> None:
    # The default operator's staff reach its own data; admins and the game's own auditors
    # (tokens bound to no operator) every operator's.
    for role, every in (("operator", False), ("auditor", True), ("admin", True)):
        me = await _me(api, bearer(role, "staff-1"))
        assert me == {
            "role": role,
            "player_id": None,
            "operator_id": "default",
            "every_operator": every,
            "session_id": None,
            "currency": None,
            "language": None,
            "balance": None,
            "balance_currency": None,
            "balance_status": None,
        }


async def test_without_a_token_it_is_401(api: httpx.AsyncClient) -> None:
    r = await api.get("/v1/me")
    assert r.status_code == 401, r.text
