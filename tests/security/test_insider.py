"""What an insider with SQL finds: no secret that signs tokens or checkpoints, no usable API
key; the operators' wallet secrets are there (docs/security.md says so, and why)."""

from __future__ import annotations

from typing import Any

import httpx

from russian_poker.events.postgres.pool import create_pool
from russian_poker.service.app import create_app
from russian_poker.service.chain.keys import signing_key
from tests.api.conftest import SECRET, bearer
from tests.api.live_server import serving
from tests.security.conftest import make_world, settings_for

ADMIN = bearer("admin", "root")


async def _every_value(database_url: str) -> str:
    """Every row of every table of the service's schema, as text."""
    pool = await create_pool(database_url, min_size=1, max_size=1)
    try:
        tables = await pool.fetch(
            "SELECT table_name FROM information_schema.tables"
            " WHERE table_schema = 'public' AND table_type = 'BASE TABLE'"
        )
        dumped = []
        for row in tables:
            rows = await pool.fetch(f'SELECT t::text AS line FROM "{row["table_name"]}" t')
            dumped += [r["line"] for r in rows]
        return "\n".join(dumped)
    finally:
        await pool.close()


async def test_the_database_holds_no_signing_secret_and_no_usable_api_key(
    scratch_database: str, tmp_path: Any
) -> None:
    # A database of its own: nothing but this test's service writes what it dumps.
    database_url = scratch_database
    settings = settings_for(database_url, str(tmp_path))
    app = create_app(settings)
    async with serving(app) as url, httpx.AsyncClient(base_url=url, timeout=30) as client:
        await make_world(client)
        wallet = {"mode": "seamless", "url": "http://127.0.0.1:9/wallet", "secret": "w" * 32}
        body = {"operator_id": "acme", "name": "Acme", "currencies": ["EUR"], "wallet": wallet}
        assert (await client.post("/v1/operators", json=body, headers=ADMIN)).status_code == 201
        issued = await client.post(
            "/v1/operators/acme/credentials",
            json={"role": "operator", "label": "insider"},
            headers=ADMIN,
        )
        api_key = issued.json()["api_key"]
        key_secret = api_key.rsplit("_", 1)[1]
    everything = await _every_value(database_url)
    assert "alice" in everything, "the dump did not read the world"
    assert SECRET not in everything, "the signing secret is in the database"
    assert key_secret not in everything, "an API key's secret is in the database"
    private = signing_key(settings, create=False).private_bytes_raw().hex()
    assert private not in everything, "the checkpoint key is in the database"
    # What an insider does find: the operator's wallet secret, which the service must read
    # to sign its calls (docs/security.md, "An insider with SQL").
    assert "w" * 32 in everything, "the operator's wallet secret was not found"
