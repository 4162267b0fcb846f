"""The edge of the service, as the security review found it and as it is now: the headers
every answer carries, caching, ids, integers, table names and forwarded addresses."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from russian_poker.service.app import create_app
from tests.api.conftest import bearer
from tests.api.live_server import serving
from tests.security.conftest import OPERATOR, Server, fresh_database, make_world, settings_for

ADMIN = bearer("admin", "root")
ALICE = bearer("player", "alice")


async def _register(client: httpx.AsyncClient, operator_id: str) -> dict[str, str]:
    body = {
        "operator_id": operator_id,
        "name": operator_id,
        "currencies": ["EUR"],
        "wallet": {"mode": "internal"},
    }
    assert (await client.post("/v1/operators", json=body, headers=ADMIN)).status_code == 201
    issued = await client.post(
        f"/v1/operators/{operator_id}/credentials",
        json={"role": "operator", "label": "edge"},
        headers=ADMIN,
    )
    return {"Authorization": f"Bearer {issued.json()['api_key']}"}


async def test_every_answer_carries_the_security_headers(server: Server) -> None:
    client = server.client
    await make_world(client)
    launched = await client.post(
        "/v1/sessions", json={"player_id": "alice", "currency": "EUR"}, headers=OPERATOR
    )
    answers = {
        "a JSON answer": await client.get("/v1/tables/live", headers=ALICE),
        "a refusal": await client.get("/v1/tables/live"),
        "no such route": await client.get("/no/such/route"),
        "a method not allowed": await client.delete("/v1/tables"),
        "the API docs": await client.get("/schema"),
        "the document": await client.get("/schema/openapi.json"),
        "a problem page": await client.get("/problems/not_found"),
        "the client": await client.get("/play/"),
        "a client module": await client.get("/play/static/js/app.js"),
        "the launch": launched,
        "a balance": await client.get("/v1/wallets/alice", headers=ALICE),
        "the recall": await client.get("/v1/players/alice/rounds", headers=ALICE),
        "health": await client.get("/health/live"),
    }
    for what, answer in answers.items():
        headers = answer.headers
        assert headers["x-content-type-options"] == "nosniff", what
        assert headers["referrer-policy"] == "no-referrer", what
        assert "x-frame-options" in headers, what
        if headers.get("content-type", "").startswith("text/html"):
            policy = headers["content-security-policy"]
            assert "default-src 'self'" in policy and "frame-ancestors" in policy, what
            assert "'unsafe-inline'" not in policy.split("script-src", 1)[1].split(";")[0]
            assert headers["content-type"].lower().count("charset") == 1, what
    # Answers that carry a token, a balance or a player's own cards are never stored.
    for what in ("the launch", "a balance", "a JSON answer", "the recall", "a refusal"):
        assert answers[what].headers["cache-control"] == "no-store", what
    assert "session_token" in launched.json()
    # The client's pages keep their own policy: framed by their own origin only.
    client_page = answers["the client"].headers
    assert "frame-ancestors 'self'" in client_page["content-security-policy"]
    assert client_page["x-frame-options"] == "SAMEORIGIN"
    assert answers["the API docs"].headers["x-frame-options"] == "DENY"


async def test_ids_are_plain_ascii_and_amounts_json_integers(server: Server) -> None:
    client = server.client
    await make_world(client)
    for player_id in (
        "beta:bob",  # read as another operator's player
        "аlice",  # a Cyrillic a
        "ali\u200bce",  # a zero-width space
        "alice ",
        "-alice",
    ):
        for path, body in (
            ("/v1/sessions", {"player_id": player_id, "currency": "EUR"}),
            ("/v1/wallets", {"wallet_id": player_id}),
        ):
            refused = await client.post(path, json=body, headers=OPERATOR)
            assert refused.status_code == 422, (player_id, path, refused.text)
            assert refused.json()["code"] == "invalid_player_id"
    for player_id in ("alice.smith", "user_42", "x@casino", "A-1"):
        accepted = await client.post(
            "/v1/sessions", json={"player_id": player_id, "currency": "EUR"}, headers=OPERATOR
        )
        assert accepted.status_code == 201, (player_id, accepted.text)
    before = (await client.get("/v1/wallets/alice", headers=OPERATOR)).json()["balance"]
    for spelled in ('"100"', "100.0", "1e2", "true"):
        raw = '{"transfer_id": "loose-' + spelled.strip('"') + '", "amount": ' + spelled + "}"
        refused = await client.post(
            "/v1/wallets/alice/deposits",
            content=raw,
            headers={**OPERATOR, "content-type": "application/json"},
        )
        assert refused.status_code == 400, (spelled, refused.text)
        assert refused.json()["errors"][0]["key"] == "amount", refused.text
        for command in (
            '{"type": "PlaceAnte", "box": ' + spelled + ', "ante": 100}',
            '{"type": "PlaceAnte", "box": 1, "ante": ' + spelled + "}",
        ):
            refused = await client.post(
                "/v1/tables/betting/commands",
                content=command,
                headers={
                    **ALICE,
                    "content-type": "application/json",
                    "Idempotency-Key": f"{spelled}-{len(command)}",
                },
            )
            assert refused.status_code == 400, (command, refused.text)
            assert refused.json()["errors"][0]["key"] in ("box", "ante"), refused.text
    assert (await client.get("/v1/wallets/alice", headers=OPERATOR)).json()["balance"] == before


async def test_operators_name_tables_in_their_own_namespace(server: Server) -> None:
    client = server.client
    acme = await _register(client, "acme")
    beta = await _register(client, "beta")
    for headers, expected in ((acme, "acme.vip-1"), (beta, "beta.vip-1")):
        opened = await client.post("/v1/tables", json={"table_id": "vip-1"}, headers=headers)
        assert opened.status_code == 201, opened.text
        assert opened.json()["table_id"] == expected
    # A clash is with one's own table only, and says nothing of anyone else's.
    again = await client.post("/v1/tables", json={"table_id": "acme.vip-1"}, headers=acme)
    assert again.status_code == 409
    assert "beta" not in again.text
    for bad in ("beta.vip-1", "a.b", "vip 1", "ví-1", "-vip", ""):
        refused = await client.post("/v1/tables", json={"table_id": bad}, headers=acme)
        assert refused.status_code == 400, (bad, refused.text)
        assert refused.json()["code"] == "invalid_table_id"
    # The default operator (and a shared table) keeps the bare name.
    bare = await client.post("/v1/tables", json={"table_id": "vip-1"}, headers=OPERATOR)
    assert bare.json()["table_id"] == "vip-1"


@pytest.mark.parametrize("trusted", [False, True])
async def test_forwarded_addresses_are_believed_from_trusted_proxies_only(
    database_url: str, tmp_path: Any, trusted: bool
) -> None:
    """Anonymous requests count against their address. A client that sends its own
    ``X-Forwarded-For`` gets no fresh budget by it, unless its peer is a configured proxy."""
    await fresh_database(database_url)
    proxies = ("127.0.0.1",) if trusted else ()
    settings = settings_for(database_url, str(tmp_path), rate_limit=1000, trusted_proxies=proxies)
    async with (
        serving(create_app(settings)) as url,
        httpx.AsyncClient(base_url=url, timeout=10) as client,
    ):
        remaining = []
        for n in range(20):
            answer = await client.get("/v1/tables", headers={"X-Forwarded-For": f"203.0.113.{n}"})
            assert answer.status_code == 401
            remaining.append(int(answer.headers["ratelimit-remaining"]))
    if trusted:
        # Each forwarded address is a client of its own: each starts a budget.
        assert remaining == [999] * 20
    else:
        # One client, whatever it claims: its budget goes down (a new second may refill it,
        # but 20 requests do not each start a second of their own).
        assert remaining != [999] * 20
        assert min(remaining) < 999


@pytest.fixture
async def server(database_url: str, tmp_path: Any) -> Any:
    await fresh_database(database_url)
    app = create_app(settings_for(database_url, str(tmp_path)))
    async with serving(app) as url, httpx.AsyncClient(base_url=url, timeout=30) as client:
        yield Server(url, app, client)


async def test_a_missing_or_malformed_bearer_says_what_to_send(server: Server) -> None:
    cases = {
        "missing": ({}, "`Authorization: Bearer <token>`"),
        "another scheme": ({"Authorization": "Basic c2VjcmV0"}, "must read `Bearer <token>`"),
        "no token": ({"Authorization": "Bearer"}, "no token after it"),
    }
    for why, (headers, said) in cases.items():
        answer = await server.client.get("/v1/tables", headers=headers)
        assert answer.status_code == 401, why
        assert said in answer.json()["detail"], (why, answer.json())
        assert "c2VjcmV0" not in answer.text, "what follows the scheme may be a secret"


async def test_a_value_outside_a_closed_set_is_refused_with_the_valid_ones(
    server: Server,
) -> None:
    player = bearer("player", "valid-values")
    opened = await server.client.post(
        "/v1/tables", json={"table_id": "t-valid", "preset": "russian"}, headers=OPERATOR
    )
    assert opened.status_code == 201, opened.text
    raised = await server.client.post(
        "/v1/tables/t-valid/commands",
        json={"type": "Raise", "box": 1},
        headers={**player, "Idempotency-Key": "raise-1"},
    )
    assert raised.status_code == 400
    (error,) = raised.json()["errors"]
    assert error["key"] == "type"
    assert "valid values: SitDown, LeaveTable, PlaceAnte" in error["message"]
    assert "DeclineDealerExchange" in error["message"]

    misspelt = await server.client.post(
        "/v1/tables", json={"table_id": "t-misspelt", "preset": "russain"}, headers=OPERATOR
    )
    assert misspelt.status_code == 400
    (error,) = misspelt.json()["errors"]
    assert error["key"] == "preset"
    assert error["message"].endswith("valid values: oasis, russian, russian-online")
    nothing = await server.client.get("/v1/tables/t-misspelt", headers=OPERATOR)
    assert nothing.status_code == 404, "a refused body loses nothing and opens nothing"


async def test_a_registration_is_refused_at_the_field_or_at_the_rule(server: Server) -> None:
    admin = bearer("admin", "adm")
    body: dict[str, Any] = {
        "operator_id": "acme-edge",
        "name": "Acme",
        "currencies": ["EUR"],
        "wallet": {"mode": "seamless", "url": "http://127.0.0.1:9/w", "secret": "short"},
    }
    # A field that breaks its own type or size: 400, the field named as the API names it.
    short = await server.client.post("/v1/operators", json=body, headers=admin)
    assert short.status_code == 400, short.text
    assert [e["key"] for e in short.json()["errors"]] == ["wallet.secret"]
    # A registration that breaks a rule across fields: 422 invalid_operator, field named.
    body["wallet"] = {"mode": "seamless", "url": "http://127.0.0.1:9/w"}
    no_secret = await server.client.post("/v1/operators", json=body, headers=admin)
    assert no_secret.status_code == 422, no_secret.text
    assert no_secret.json()["code"] == "invalid_operator"
    assert "wallet" in no_secret.json()["detail"]
    gone = await server.client.get("/v1/operators/acme-edge", headers=admin)
    assert gone.status_code == 404, "a refused registration registers nothing"
