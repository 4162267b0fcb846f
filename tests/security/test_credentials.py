"""Operators' own credentials: API keys an admin creates, that rotate with overlap and revoke,
and the service's own signing key, which rotates the same way.

No operator holds the service's secret any more: whoever holds an operator's key acts for
that operator, in that key's role, and for nothing else.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
from litestar.testing import AsyncTestClient

from russian_poker.events.postgres.pool import create_pool
from russian_poker.service.app import create_app
from russian_poker.service.app.auth import mint_token
from tests.api.conftest import SECRET, bearer
from tests.security.conftest import fresh_database, settings_for

ADMIN = bearer("admin", "root")
INTERNAL = {"mode": "internal"}


async def _register(client: Any, operator_id: str) -> None:
    body = {
        "operator_id": operator_id,
        "name": operator_id,
        "currencies": ["EUR"],
        "wallet": INTERNAL,
    }
    assert (await client.post("/v1/operators", json=body, headers=ADMIN)).status_code == 201


async def _key(client: Any, operator_id: str, role: str, **extra: Any) -> dict[str, Any]:
    issued = await client.post(
        f"/v1/operators/{operator_id}/credentials",
        json={"role": role, "label": f"{role} key", **extra},
        headers=ADMIN,
    )
    assert issued.status_code == 201, issued.text
    answer: dict[str, Any] = issued.json()
    return answer


def _bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


async def test_an_operators_key_acts_for_that_operator_in_its_role_only(
    database_url: str, tmp_path: Any
) -> None:
    await fresh_database(database_url)
    async with AsyncTestClient(app=create_app(settings_for(database_url, str(tmp_path)))) as client:
        await _register(client, "acme")
        await _register(client, "beta")
        operator = await _key(client, "acme", "operator")
        auditor = await _key(client, "acme", "auditor")
        key = operator["api_key"]
        assert key.startswith("rpk_" + operator["credential"]["key_id"] + "_")
        assert operator["credential"]["operator_id"] == "acme"
        acme = _bearer(key)

        # The operator's key runs the operator's things...
        opened = await client.post("/v1/tables", json={"table_id": "vip-1"}, headers=acme)
        assert opened.status_code == 201 and opened.json()["table_id"] == "acme.vip-1"
        me = (await client.get("/v1/me", headers=acme)).json()
        assert (me["role"], me["operator_id"]) == ("operator", "acme")
        # ...and nothing of another's, nor what is an admin's.
        assert (await client.get("/v1/operators/beta", headers=acme)).status_code == 404
        assert (await client.get("/v1/operators", headers=acme)).status_code == 403
        again = await client.post(
            "/v1/operators/acme/credentials", json={"role": "operator", "label": "x"}, headers=acme
        )
        assert again.status_code == 403  # an operator cannot mint itself more keys
        shared = await client.post(
            "/v1/tables", json={"table_id": "all", "shared": True}, headers=acme
        )
        assert shared.status_code == 403  # shared tables are an admin's

        # The auditor's key reads; it runs nothing.
        reader = _bearer(auditor["api_key"])
        assert (await client.get("/v1/operators/acme/transactions", headers=reader)).is_success
        refused = await client.post("/v1/tables", json={"table_id": "x"}, headers=reader)
        assert refused.status_code == 403

        # Lists show every key, never a secret.
        listed = await client.get("/v1/operators/acme/credentials", headers=acme)
        assert {k["key_id"] for k in listed.json()} == {
            operator["credential"]["key_id"],
            auditor["credential"]["key_id"],
        }
        # The secret part may itself hold a "_": everything after the key id's.
        secret_part = key.removeprefix("rpk_" + operator["credential"]["key_id"] + "_")
        assert len(secret_part) >= 20 and secret_part not in listed.text
        assert "secret" not in listed.text
        used = next(k for k in listed.json() if k["key_id"] == operator["credential"]["key_id"])
        assert used["last_used_at"] is not None


async def test_keys_rotate_with_overlap_and_revoke(database_url: str, tmp_path: Any) -> None:
    await fresh_database(database_url)
    async with AsyncTestClient(app=create_app(settings_for(database_url, str(tmp_path)))) as client:
        await _register(client, "acme")
        old = await _key(client, "acme", "operator")
        new = await _key(client, "acme", "operator")
        # Both work while the platform switches over.
        for issued in (old, new):
            assert (await client.get("/v1/me", headers=_bearer(issued["api_key"]))).is_success
        # The platform (with its new key) revokes the old one: refused from then on.
        revoked = await client.delete(
            f"/v1/operators/acme/credentials/{old['credential']['key_id']}",
            headers=_bearer(new["api_key"]),
        )
        assert revoked.status_code == 200 and revoked.json()["revoked_at"] is not None
        gone = await client.get("/v1/me", headers=_bearer(old["api_key"]))
        assert gone.status_code == 401
        assert old["api_key"] not in gone.text
        assert (await client.get("/v1/me", headers=_bearer(new["api_key"]))).is_success
        # Another operator's key cannot revoke this one's (not even confirm it exists).
        await _register(client, "beta")
        beta = _bearer((await _key(client, "beta", "operator"))["api_key"])
        refused = await client.delete(
            f"/v1/operators/acme/credentials/{new['credential']['key_id']}", headers=beta
        )
        assert refused.status_code == 404


async def test_a_key_that_expired_or_was_never_issued_is_refused(
    database_url: str, tmp_path: Any
) -> None:
    await fresh_database(database_url)
    async with AsyncTestClient(app=create_app(settings_for(database_url, str(tmp_path)))) as client:
        await _register(client, "acme")
        soon = datetime.now(UTC) + timedelta(hours=1)
        issued = await _key(client, "acme", "operator", expires_at=soon.isoformat())
        assert (await client.get("/v1/me", headers=_bearer(issued["api_key"]))).is_success
        pool = await create_pool(database_url, min_size=1, max_size=1)
        try:
            await pool.execute(
                "UPDATE operator_credentials SET expires_at = now() - interval '1 minute'"
                " WHERE key_id = $1",
                issued["credential"]["key_id"],
            )
        finally:
            await pool.close()
        # Another process (no key remembered) refuses it at once.
        async with AsyncTestClient(
            app=create_app(settings_for(database_url, str(tmp_path)))
        ) as fresh:
            assert (
                await fresh.get("/v1/me", headers=_bearer(issued["api_key"]))
            ).status_code == 401
        key_id = issued["credential"]["key_id"]
        for forged in (
            f"rpk_{key_id}_{'A' * 43}",  # the right id, another secret
            "rpk_000000000000_" + "A" * 43,
            "rpk_" + key_id,
            "rpk_",
        ):
            assert (await client.get("/v1/me", headers=_bearer(forged))).status_code == 401
        past = await client.post(
            "/v1/operators/acme/credentials",
            json={"role": "operator", "label": "old", "expires_at": "2020-01-01T00:00:00Z"},
            headers=ADMIN,
        )
        assert past.status_code == 422 and past.json()["code"] == "invalid_credential"
        unknown = await client.post(
            "/v1/operators/nobody/credentials",
            json={"role": "operator", "label": "x"},
            headers=ADMIN,
        )
        assert unknown.status_code == 404


async def test_the_services_signing_secret_rotates_with_overlap(
    database_url: str, tmp_path: Any
) -> None:
    """Tokens signed with the previous secret keep working while it is listed as previous;
    new ones are signed with the current secret (another ``kid``); a secret no longer listed
    signs nothing that is accepted."""
    await fresh_database(database_url)
    current = "the-next-secret-" + "y" * 40
    old_token = mint_token(SECRET, "admin", "root")
    rotated = settings_for(
        database_url, str(tmp_path), jwt_secret=current, jwt_previous_secrets=(SECRET,)
    )
    async with AsyncTestClient(app=create_app(rotated)) as client:
        assert (await client.get("/v1/operators", headers=_bearer(old_token))).is_success
        new_token = mint_token(current, "admin", "root")
        assert (await client.get("/v1/operators", headers=_bearer(new_token))).is_success
    done = settings_for(database_url, str(tmp_path), jwt_secret=current)
    async with AsyncTestClient(app=create_app(done)) as client:
        assert (await client.get("/v1/operators", headers=_bearer(old_token))).status_code == 401


async def test_an_api_key_counts_against_its_own_rate_limit_once_verified(
    database_url: str, tmp_path: Any
) -> None:
    """A key's requests share one budget; forged keys count against the address."""
    await fresh_database(database_url)
    limited = settings_for(database_url, str(tmp_path), rate_limit=1000)
    async with AsyncTestClient(app=create_app(limited)) as client:
        await _register(client, "acme")
        acme = _bearer((await _key(client, "acme", "operator"))["api_key"])
        answers: list[httpx.Response] = [await client.get("/v1/me", headers=acme) for _ in range(5)]
        assert all(a.is_success for a in answers)
        remaining = [int(a.headers["ratelimit-remaining"]) for a in answers[1:]]
        # Verified once, the key is one caller: its budget goes down request by request
        # (a new second may refill it, never hand out a fresh budget per request).
        assert remaining != [999] * 4, remaining
