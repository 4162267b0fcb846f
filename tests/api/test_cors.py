"""CORS for browser frontends, over a real server: preflights, simple answers, the stream."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from russian_poker.service.app import create_app
from russian_poker.service.settings import ConfigurationError, load_settings
from tests.api.conftest import bearer, fresh_settings
from tests.api.live_server import serving

ALLOWED = "https://casino.example"
OPERATOR = bearer("operator", "op")
ALICE = bearer("player", "alice")
BOB = bearer("player", "bob")


@pytest.fixture
async def cors_api(database_url: str, tmp_path: Any) -> AsyncIterator[httpx.AsyncClient]:
    # A tight rate limit: preflights must not spend it (nor need a token).
    settings = await fresh_settings(
        database_url, tmp_path, clock=False, rate_limit=2, cors_origins=(ALLOWED,)
    )
    async with serving(create_app(settings)) as url, httpx.AsyncClient(base_url=url) as client:
        yield client


def preflight(origin: str, method: str = "POST") -> dict[str, str]:
    return {
        "Origin": origin,
        "Access-Control-Request-Method": method,
        "Access-Control-Request-Headers": "authorization, content-type, idempotency-key, if-match",
    }


async def test_a_preflight_from_an_allowed_origin(cors_api: httpx.AsyncClient) -> None:
    for _ in range(6):  # past the rate limit of 2 a second
        response = await cors_api.options("/v1/tables/t1/commands", headers=preflight(ALLOWED))
        assert response.status_code == 204
    assert response.headers["access-control-allow-origin"] == ALLOWED
    assert response.headers["access-control-max-age"] == "600"
    methods = {m.strip() for m in response.headers["access-control-allow-methods"].split(",")}
    assert methods == {"GET", "POST", "PUT", "OPTIONS"}
    allowed = response.headers["access-control-allow-headers"].lower()
    for header in ("authorization", "idempotency-key", "if-match", "last-event-id"):
        assert header in allowed
    assert "access-control-allow-credentials" not in response.headers


async def test_a_preflight_from_another_origin_is_not_allowed(cors_api: httpx.AsyncClient) -> None:
    response = await cors_api.options("/v1/tables", headers=preflight("https://evil.example"))
    assert "access-control-allow-origin" not in response.headers
    assert response.status_code == 400


async def test_answers_and_the_stream_carry_the_origin(cors_api: httpx.AsyncClient) -> None:
    created = await cors_api.post(
        "/v1/tables", json={"table_id": "t1", "preset": "russian"}, headers=OPERATOR
    )
    assert created.status_code == 201
    got = await cors_api.get("/v1/tables/t1", headers={**ALICE, "Origin": ALLOWED})
    assert got.status_code == 200
    assert got.headers["access-control-allow-origin"] == ALLOWED
    exposed = got.headers["access-control-expose-headers"].lower()
    for header in ("idempotent-replayed", "x-request-id", "retry-after", "ratelimit-limit", "etag"):
        assert header in exposed
    headers = {**ALICE, "Origin": ALLOWED}
    async with cors_api.stream("GET", "/v1/tables/t1/stream", headers=headers) as stream:
        assert stream.status_code == 200
        assert stream.headers["content-type"].startswith("text/event-stream")
        assert stream.headers["access-control-allow-origin"] == ALLOWED
    # A refusal is readable by the frontend too. (Each player stays within the rate limit.)
    refused = await cors_api.get("/v1/tables/nope", headers={**BOB, "Origin": ALLOWED})
    assert refused.status_code == 404
    assert refused.headers["access-control-allow-origin"] == ALLOWED


async def test_no_cors_headers_when_unset(api: httpx.AsyncClient) -> None:
    response = await api.options("/v1/tables", headers=preflight(ALLOWED))
    assert not any(name.startswith("access-control-") for name in response.headers)
    got = await api.get("/health/live", headers={"Origin": ALLOWED})
    assert not any(name.startswith("access-control-") for name in got.headers)


def test_origins_are_read_and_checked(tmp_path: Any) -> None:
    env = {"RUSSIAN_POKER_DATA_DIR": str(tmp_path)}
    origins = " https://a.example, http://localhost:3000 ,"
    settings = load_settings({**env, "RUSSIAN_POKER_CORS_ORIGINS": origins})
    assert settings.cors_origins == ("https://a.example", "http://localhost:3000")
    assert load_settings(env).cors_origins == ()
    assert load_settings({**env, "RUSSIAN_POKER_CORS_ORIGINS": "*"}).cors_origins == ("*",)
    for bad in ("https://a.example/", "a.example", "ftp://a.example", "https://u@a.example"):
        with pytest.raises(ConfigurationError, match="RUSSIAN_POKER_CORS_ORIGINS"):
            load_settings({**env, "RUSSIAN_POKER_CORS_ORIGINS": bad})
