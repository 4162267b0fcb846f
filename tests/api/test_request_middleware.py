"""The request id and the request metrics (``service.app.middleware``): Litestar's series,
names and labels, counted by route template, and ``X-Request-ID`` on every routed answer."""

from __future__ import annotations

import re
import uuid
from typing import Annotated

import httpx
from litestar import Litestar, get
from litestar.exceptions import HTTPException
from litestar.params import PathParameter
from litestar.testing import AsyncTestClient
from prometheus_client import REGISTRY

from russian_poker.service.app.middleware import request_middleware
from tests.api.conftest import bearer

OPERATOR = bearer("operator", "op")
ALICE = bearer("player", "alice")
COMMANDS = "/v1/tables/{table_id}/commands"


def sample(name: str, **labels: str) -> float:
    value = REGISTRY.get_sample_value(name, {"app_name": "russian_poker", **labels})
    return value or 0.0


async def test_commands_are_counted_by_template_with_their_status(api: httpx.AsyncClient) -> None:
    created = await api.post("/v1/tables", json={"table_id": "mw-1"}, headers=OPERATOR)
    assert created.status_code == 201
    opened = await api.post("/v1/wallets", json={"wallet_id": "alice"}, headers=OPERATOR)
    assert opened.status_code == 201
    labels = {"method": "POST", "path": COMMANDS}
    ok_before = sample("litestar_requests_total", **labels, status_code="200")
    refused_before = sample("litestar_requests_total", **labels, status_code="428")
    timed_before = sample("litestar_request_duration_seconds_count", **labels, status_code="200")

    sat = await api.post(
        "/v1/tables/mw-1/commands",
        json={"type": "SitDown"},
        headers={**ALICE, "Idempotency-Key": "mw-sit", "X-Request-ID": "given-id-1"},
    )
    refused = await api.post("/v1/tables/mw-1/commands", json={"type": "SitDown"}, headers=ALICE)

    assert sat.status_code == 200, sat.text
    assert sat.headers["x-request-id"] == "given-id-1"
    assert refused.status_code == 428
    generated = uuid.UUID(refused.headers["x-request-id"])
    assert generated.version == 4
    assert sample("litestar_requests_total", **labels, status_code="200") == ok_before + 1
    assert sample("litestar_requests_total", **labels, status_code="428") == refused_before + 1
    timed = sample("litestar_request_duration_seconds_count", **labels, status_code="200")
    assert timed == timed_before + 1
    # Nothing is left in progress once answered; the gauge is labelled 200, as Litestar's.
    assert sample("litestar_requests_in_progress", **labels, status_code="200") == 0

    text = (await api.get("/metrics")).text
    line = next(
        line
        for line in text.splitlines()
        if line.startswith("litestar_requests_total{") and 'status_code="428"' in line
    )
    # Exactly the labels Litestar's middleware gave the series (exposed sorted by name).
    assert re.match(
        r'litestar_requests_total\{app_name="russian_poker",method="POST",'
        r'path="/v1/tables/\{table_id\}/commands",status_code="428"\} ',
        line,
    ), line


async def test_an_unprintable_or_overlong_request_id_is_replaced(api: httpx.AsyncClient) -> None:
    for given in ("x" * 129, "tab\there"):
        answered = await api.get("/v1/tables", headers={**ALICE, "X-Request-ID": given})
        assert answered.status_code == 200
        assert uuid.UUID(answered.headers["x-request-id"]).version == 4
    kept = await api.get("/v1/tables", headers={**ALICE, "X-Request-ID": "y" * 128})
    assert kept.headers["x-request-id"] == "y" * 128


@get("/mw-test/boom/{n:int}")
async def boom(n: Annotated[int, PathParameter()]) -> None:
    raise HTTPException(status_code=503, detail=f"down {n}")


async def test_server_errors_are_counted_as_errors() -> None:
    app = Litestar([boom], middleware=[request_middleware])
    labels = {"method": "GET", "path": "/mw-test/boom/{n}", "status_code": "503"}
    before = sample("litestar_requests_error_total", **labels)
    async with AsyncTestClient(app=app) as client:
        answered = await client.get("/mw-test/boom/7")
        unrouted = await client.get("/mw-test/nowhere")
    assert answered.status_code == 503
    assert answered.headers["x-request-id"]
    assert unrouted.status_code == 404
    assert sample("litestar_requests_error_total", **labels) == before + 1
    assert sample("litestar_requests_total", **labels) >= 1
    unrouted_count = REGISTRY.get_sample_value(
        "litestar_requests_total",
        {
            "app_name": "russian_poker",
            "method": "GET",
            "path": "/mw-test/nowhere",
            "status_code": "404",
        },
    )
    assert unrouted_count is None
