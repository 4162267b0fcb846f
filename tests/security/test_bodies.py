"""Hostile bodies and values: oversized, deeply nested, malformed, mistyped, unstorable.

Every one gets a 4xx problem document, never a 5xx, and changes nothing.
"""

from __future__ import annotations

import json
import re
from itertools import product
from typing import Any, Final

from tests.api.test_openapi import COMMITTED
from tests.security.conftest import ALICE, OPERATOR, Server, make_world

LIMIT: Final = 64 * 1024

WRITES: Final = [
    ("POST", "/v1/tables", OPERATOR),
    ("POST", "/v1/wallets", OPERATOR),
    ("POST", "/v1/wallets/alice/deposits", OPERATOR),
    ("POST", "/v1/wallets/alice/withdrawals", OPERATOR),
    ("PUT", "/v1/tables/betting/test-deck", OPERATOR),
    ("POST", "/v1/tables/live/commands", ALICE),
]
"""Every operation with a JSON body, as a caller allowed to send it."""


def is_problem(response: Any, *statuses: int) -> bool:
    return response.status_code in statuses and response.headers["content-type"].startswith(
        "application/problem+json"
    )


async def state_of_money(server: Server) -> list[Any]:
    rows = await server.app.state.services.pool.fetch(
        "SELECT wallet_id, balance, version FROM wallets ORDER BY wallet_id"
    )
    return [tuple(r) for r in rows]


async def test_oversized_bodies_are_documented_413_problems(server: Server) -> None:
    await make_world(server.client)
    before = await state_of_money(server)
    documented = json.loads(COMMITTED.read_text())["paths"]
    for method, path, who in WRITES:
        template = next(p for p in documented if _matches(p, path))
        assert "413" in documented[template][method.lower()]["responses"], (method, template)
        # Valid JSON just past the limit: a huge string field.
        body = b'{"type": "SitDown", "pad": "' + b"x" * LIMIT + b'"}'
        headers = {**who, "content-type": "application/json", "Idempotency-Key": "big"}
        response = await server.client.request(method, path, content=body, headers=headers)
        assert is_problem(response, 413), (path, response.status_code, response.text[:200])
        assert response.json()["status"] == 413
        assert "64 KiB" in response.json()["detail"], "a 413 states the limit"

        # Streamed without a Content-Length: the limit holds while reading, too.
        async def chunks() -> Any:
            for _ in range(LIMIT // 1024 + 8):
                yield b" " * 1024

        response = await server.client.request(method, path, content=chunks(), headers=headers)
        assert is_problem(response, 413), (path, response.status_code, response.text[:200])
    assert await state_of_money(server) == before


def _matches(template: str, path: str) -> bool:
    pattern = re.sub(r"\{[^}]+\}", "[^/]+", template)
    return re.fullmatch(pattern, path) is not None


async def test_nested_malformed_and_mistyped_bodies_are_4xx(server: Server) -> None:
    await make_world(server.client)
    before = await state_of_money(server)
    depth = 20_000  # far below the size limit, far beyond any recursion limit
    hostile: list[tuple[bytes, str]] = [
        (b"[" * depth + b"]" * depth, "application/json"),
        (b'{"a":' * depth + b"1" + b"}" * depth, "application/json"),
        (b'{"type": "SitDown"', "application/json"),
        (b'{"type": "SitDown"}}', "application/json"),
        (b"\xff\xfe\x00garbage", "application/json"),
        (b"", "application/json"),
        (b"null", "application/json"),
        (b'"SitDown"', "application/json"),
        (b'{"type": "SitDown", "type": "Deal"}', "application/json"),
        (b"NaN", "application/json"),
        (b'{"amount": 1e400, "transfer_id": "x"}', "application/json"),
        (b'{"type": "SitDown"}', "text/plain"),
        (b"type=SitDown", "application/x-www-form-urlencoded"),
        (b"--b\r\nContent-Disposition: form-data; name=a\r\n\r\n1\r\n--b--", "multipart/form-data"),
        (b"<xml/>", "application/xml"),
        (b'{"type": "SitDown"}', "application/json; charset=latin-1"),
    ]
    for (method, path, who), (index, (body, content_type)) in product(WRITES, enumerate(hostile)):
        headers = {**who, "content-type": content_type, "Idempotency-Key": f"hostile-{index}"}
        response = await server.client.request(method, path, content=body, headers=headers)
        assert 400 <= response.status_code < 500, (path, body[:40], content_type, response.text)
        assert response.headers["content-type"].startswith("application/problem+json")
    assert await state_of_money(server) == before


async def test_values_postgresql_cannot_store_are_400_not_500(server: Server) -> None:
    """Regression (found by the fuzzer): a NUL in a text or an integer past its column's range
    reached PostgreSQL and came back as a 500."""
    await make_world(server.client)
    before = await state_of_money(server)
    client = server.client
    cases = [
        ("POST", "/v1/wallets", {"wallet_id": "nul\u0000id"}, OPERATOR),
        ("POST", "/v1/wallets/alice/deposits", {"transfer_id": "t\u0000", "amount": 5}, OPERATOR),
        ("POST", "/v1/wallets/alice/deposits", {"transfer_id": "huge", "amount": 2**64}, OPERATOR),
        ("GET", "/v1/wallets/al%00ice", None, OPERATOR),
        ("GET", "/v1/tables/li%00ve", None, OPERATOR),
        ("GET", "/v1/wallets/alice/ledger?cursor=99999999999999999999", None, OPERATOR),
        ("GET", "/v1/players/al%00ice/rounds", None, OPERATOR),
        ("GET", "/v1/reports/rounds?table_id=li%00ve", None, OPERATOR),
    ]
    for method, path, body, who in cases:
        response = await client.request(method, path, json=body, headers=who)
        assert 400 <= response.status_code < 500, (method, path, response.text)
        assert response.headers["content-type"].startswith("application/problem+json")
        assert "\\u0000" not in response.text and "int64" not in response.text
    # Amounts are bounded by the rules long before a bigint could overflow.
    response = await client.post(
        "/v1/wallets/carol/deposits", json={"transfer_id": "o", "amount": 2**62}, headers=OPERATOR
    )
    assert is_problem(response, 422) and response.json()["code"] == "invalid_amount"
    assert await state_of_money(server) == before
