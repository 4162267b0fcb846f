"""Bodies are JSON and said so: another media type is a 415 and changes nothing; a missing
body is a 400 that names what the route expects."""

from __future__ import annotations

import httpx

from tests.api.conftest import bearer

OPERATOR = bearer("operator", "op")
ALICE = bearer("player", "alice")


async def test_a_form_body_is_refused_and_plays_nothing(api: httpx.AsyncClient) -> None:
    assert (await api.post("/v1/wallets", json={"wallet_id": "alice"}, headers=OPERATOR)).is_success
    assert (await api.post("/v1/tables", json={"table_id": "t1"}, headers=OPERATOR)).is_success
    for media_type in ("application/x-www-form-urlencoded", "text/plain", "multipart/form-data"):
        r = await api.post(
            "/v1/tables/t1/commands",
            content=b'{"type": "SitDown"}',
            headers={**ALICE, "Idempotency-Key": f"form-{media_type}", "content-type": media_type},
        )
        assert r.status_code == 415, (media_type, r.text)
        assert r.headers["content-type"].startswith("application/problem+json")
        assert r.json()["code"] == "unsupported_media_type"
        assert "application/json" in r.json()["detail"]
    no_type = await api.post(
        "/v1/wallets",
        content=b'{"wallet_id": "bob"}',
        headers={**OPERATOR, "content-type": ""},
    )
    assert no_type.status_code == 415, no_type.text
    assert (await api.get("/v1/tables/t1", headers=ALICE)).json()["seats"] == [None] * 4
    assert (await api.get("/v1/wallets/bob", headers=OPERATOR)).status_code == 404
    # JSON, with a charset or as a +json type, is fine.
    r = await api.post(
        "/v1/tables/t1/commands",
        content=b'{"type": "SitDown"}',
        headers={
            **ALICE,
            "Idempotency-Key": "json",
            "content-type": "application/json; charset=utf-8",
        },
    )
    assert r.status_code == 200, r.text


async def test_an_empty_body_names_what_is_expected(api: httpx.AsyncClient) -> None:
    assert (await api.post("/v1/tables", json={"table_id": "t1"}, headers=OPERATOR)).is_success
    r = await api.post(
        "/v1/tables/t1/commands",
        headers={**ALICE, "Idempotency-Key": "empty", "content-type": "application/json"},
    )
    assert r.status_code == 400, r.text
    problem = r.json()
    assert problem["code"] == "body_required"
    assert '"type"' in problem["detail"] and "PlaceAnte" in problem["detail"]
    r = await api.post("/v1/wallets/alice/deposits", headers=OPERATOR)
    assert r.status_code == 400 and r.json()["code"] == "body_required"
    assert "transfer_id" in r.json()["detail"] and "amount" in r.json()["detail"]
