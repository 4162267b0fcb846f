"""Every route that takes a window of time reads it the same way: `from` before `to`, or a
422 ``invalid_window``; a time that does not parse is a 400 naming `from` or `to`, the API's
own names, never the handler's."""

from __future__ import annotations

import pytest
from litestar.testing import AsyncTestClient

from tests.api.conftest import bearer

ADMIN = bearer("admin", "root")
INVERTED = {"from": "2026-12-03T00:00:00Z", "to": "2026-12-01T00:00:00Z"}
ROUTES = [
    "/v1/reports/rounds",
    "/v1/audit/rtp",
    "/v1/audit/availability",
    "/v1/audit/reconciliation",
    "/v1/operators/acme/transactions",
]


@pytest.fixture
async def operator(client: AsyncTestClient) -> AsyncTestClient:  # type: ignore[type-arg]
    body = {
        "operator_id": "acme",
        "name": "Acme",
        "currencies": ["EUR"],
        "wallet": {"mode": "internal"},
    }
    assert (await client.post("/v1/operators", json=body, headers=ADMIN)).status_code == 201
    return client


@pytest.mark.parametrize("route", ROUTES)
async def test_an_inverted_window_is_refused_not_answered_empty(
    operator: AsyncTestClient,
    route: str,  # type: ignore[type-arg]
) -> None:
    answer = await operator.get(route, params=INVERTED, headers=ADMIN)
    assert answer.status_code == 422, answer.text
    assert answer.json()["code"] == "invalid_window"
    assert answer.json()["detail"] == "from: must be before to"
    # The window the other way round is answered.
    upright = {"from": INVERTED["to"], "to": INVERTED["from"]}
    assert (await operator.get(route, params=upright, headers=ADMIN)).status_code == 200


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("field", ["from", "to"])
async def test_a_time_that_does_not_parse_is_named_as_the_api_spells_it(
    operator: AsyncTestClient,
    route: str,
    field: str,  # type: ignore[type-arg]
) -> None:
    answer = await operator.get(route, params={field: "yesterday"}, headers=ADMIN)
    assert answer.status_code == 400, answer.text
    assert [(e["key"], e["source"]) for e in answer.json()["errors"]] == [(field, "query")]


async def test_the_replay_body_takes_its_window_the_same_way(client: AsyncTestClient) -> None:  # type: ignore[type-arg]
    answer = await client.post("/v1/audit/replay", json=INVERTED, headers=ADMIN)
    assert answer.status_code == 422, answer.text
    assert answer.json()["code"] == "invalid_window"
