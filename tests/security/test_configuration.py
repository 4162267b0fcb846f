"""Production refuses test mode, and the rate limit holds per player.

Test mode lets an operator fix the next round's deck: in production that would be a rigged
game, so it is refused at every door — the environment, settings built in code, the
endpoint, ``CreateTable.test_deck`` and a deck planted in the database behind its back.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from litestar.testing import AsyncTestClient

from russian_poker.events.postgres.pool import create_pool
from russian_poker.service.app import create_app
from russian_poker.service.chain.keys import private_key_for
from russian_poker.service.settings import ConfigurationError, load_settings
from tests.api.conftest import SECRET, bearer
from tests.rules.scenario import deck_for
from tests.security.conftest import fresh_database, settings_for

OPERATOR = bearer("operator", "op")
ALICE = bearer("player", "alice")
BOB = bearer("player", "bob")
PLANTED = list(deck_for(["As Ks Qs Js Ts"], "2c 3d 4h 5s 7c"))


def test_load_settings_refuses_test_mode_in_production(tmp_path: Any) -> None:
    production = {
        "RUSSIAN_POKER_ENV": "production",
        "RUSSIAN_POKER_JWT_SECRET": SECRET,
        "DATABASE_URL": "postgresql://db.invalid/poker",
        "RUSSIAN_POKER_DATA_DIR": str(tmp_path),
        "RUSSIAN_POKER_CHECKPOINT_KEY": str(tmp_path / "checkpoint-key.pem"),
    }
    assert load_settings(production).test_mode is False
    for value in ("true", "1", "yes"):
        with pytest.raises(ConfigurationError, match="RUSSIAN_POKER_TEST_MODE"):
            load_settings({**production, "RUSSIAN_POKER_TEST_MODE": value})
    with pytest.raises(ConfigurationError, match="RUSSIAN_POKER_JWT_SECRET"):
        load_settings({**production, "RUSSIAN_POKER_JWT_SECRET": "short"})
    unsigned = {k: v for k, v in production.items() if k != "RUSSIAN_POKER_CHECKPOINT_KEY"}
    with pytest.raises(ConfigurationError, match="RUSSIAN_POKER_CHECKPOINT_KEY"):
        load_settings(unsigned)


def test_create_app_refuses_test_mode_in_production(database_url: str, tmp_path: Any) -> None:
    rigged = settings_for(database_url, str(tmp_path), environment="production", test_mode=True)
    with pytest.raises(ConfigurationError, match="RUSSIAN_POKER_TEST_MODE"):
        create_app(rigged)


async def test_production_refuses_every_test_mode_door(database_url: str, tmp_path: Any) -> None:
    await fresh_database(database_url)
    key = tmp_path / "checkpoint-key.pem"
    private_key_for(key, create=True)  # production never creates one itself
    production = settings_for(
        database_url,
        str(tmp_path),
        environment="production",
        test_mode=False,
        checkpoint_key=str(key),
    )
    async with AsyncTestClient(app=create_app(production)) as client:
        response = await client.post(
            "/v1/tables", json={"table_id": "rigged", "test_deck": PLANTED}, headers=OPERATOR
        )
        assert response.status_code == 403, response.text
        assert response.headers["content-type"].startswith("application/problem+json")
        assert (await client.get("/v1/tables/rigged", headers=OPERATOR)).status_code == 404
        assert (
            await client.post("/v1/tables", json={"table_id": "t"}, headers=OPERATOR)
        ).is_success
        response = await client.put(
            "/v1/tables/t/test-deck", json={"cards": PLANTED}, headers=OPERATOR
        )
        assert response.status_code == 403, response.text
        # A deck planted in the database behind the service's back is not dealt either.
        pool = await create_pool(database_url, min_size=1, max_size=2)
        try:
            await pool.execute("INSERT INTO test_decks (table_id, deck) VALUES ('t', $1)", PLANTED)
        finally:
            await pool.close()
        await client.post("/v1/wallets", json={"wallet_id": "alice"}, headers=OPERATOR)
        await client.post(
            "/v1/wallets/alice/deposits",
            json={"transfer_id": "d", "amount": 10_000},
            headers=OPERATOR,
        )
        # In production a player plays with a launched session's token: a development
        # token (no session) is refused outright.
        refused = await client.get("/v1/tables/t", headers=ALICE)
        assert refused.status_code == 401, refused.text
        assert "launched session" in refused.json()["detail"]
        launched = await client.post(
            "/v1/sessions", json={"player_id": "alice", "currency": "EUR"}, headers=OPERATOR
        )
        assert launched.status_code == 201, launched.text
        alice = {"Authorization": f"Bearer {launched.json()['session_token']}"}
        # The round open now was opened before the plant; the next one would use it.
        for key, body in enumerate(
            [
                {"type": "SitDown"},
                {"type": "PlaceAnte", "box": 1, "ante": 100},
                {"type": "Deal"},
                {"type": "Fold", "box": 1},
                {"type": "PlaceAnte", "box": 1, "ante": 100},
                {"type": "Deal"},
            ]
        ):
            response = await client.post(
                "/v1/tables/t/commands", json=body, headers={**alice, "Idempotency-Key": f"{key}"}
            )
            assert response.status_code == 200, response.text
        dealt = response.json()["table"]["round"]["boxes"][0]["cards"]
        assert dealt != PLANTED[:10:2], "a planted deck was dealt in production"


async def test_rate_limit_is_per_player(database_url: str, tmp_path: Any) -> None:
    await fresh_database(database_url)
    limited = settings_for(database_url, str(tmp_path), rate_limit=2)
    async with AsyncTestClient(app=create_app(limited)) as client:
        await client.post("/v1/tables", json={"table_id": "t"}, headers=OPERATOR)
        # 30 requests at 2 a second cannot all fit: they would have to span 15 seconds.
        statuses: Counter[int] = Counter()
        refused = None
        for key in range(30):
            response = await client.post(
                "/v1/tables/t/commands",
                json={"type": "SitDown"} if key % 2 == 0 else {"type": "LeaveTable"},
                headers={**ALICE, "Idempotency-Key": f"k{key}"},
            )
            statuses[response.status_code] += 1
            if response.status_code == 429:
                refused = response
        assert statuses[429] >= 1, statuses
        assert refused is not None
        assert refused.headers["content-type"].startswith("application/problem+json")
        assert refused.json()["status"] == 429
        limit_headers = {k.lower() for k in refused.headers if k.lower().startswith("ratelimit")}
        assert {"ratelimit-limit", "ratelimit-remaining", "ratelimit-reset"} <= limit_headers
        assert refused.headers["ratelimit-remaining"] == "0"
        # A refused command was not run: only the answered ones are in the store.
        pool = await create_pool(database_url, min_size=1, max_size=2)
        try:
            recorded = await pool.fetchval(
                "SELECT count(*) FROM commands WHERE command_id LIKE 'alice:k%'"
                " AND NOT result ? 'refused'"
            )
        finally:
            await pool.close()
        assert recorded == statuses[200]
        # Bob has a budget of his own: his first request in any second is within it.
        assert (await client.get("/v1/tables/t", headers=BOB)).status_code == 200
