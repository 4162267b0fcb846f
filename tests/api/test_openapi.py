"""The committed OpenAPI document is the one the code generates and the app serves."""

from __future__ import annotations

import json
from pathlib import Path

from litestar.testing import AsyncTestClient

from russian_poker.service.cli.maintenance import openapi_document

COMMITTED = Path(__file__).parents[2] / "openapi" / "openapi.json"


def test_committed_openapi_is_fresh() -> None:
    assert COMMITTED.read_bytes() == openapi_document(), (
        "openapi/openapi.json is stale: run `./dev russian-poker openapi`"
    )


async def test_served_schema_matches_committed(client: AsyncTestClient) -> None:  # type: ignore[type-arg]
    served = (await client.get("/schema/openapi.json")).json()
    assert served == json.loads(COMMITTED.read_text())
