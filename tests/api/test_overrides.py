"""A table's `overrides` are typed: every ruleset parameter by name in the document, a
mistyped or unknown one a 400 naming it; whether the values make a playable ruleset stays
the rules' 422."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
from litestar.testing import AsyncTestClient

from russian_poker.events.paytables import CATEGORY_LABELS
from russian_poker.events.ruleset import Ruleset
from tests.api.conftest import bearer

OPERATOR = bearer("operator", "op")
DOCUMENT = Path(__file__).resolve().parents[2] / "openapi" / "openapi.json"


def test_the_document_names_every_parameter_and_paytable_key() -> None:
    schemas = json.loads(DOCUMENT.read_text())["components"]["schemas"]
    overrides = schemas["RulesetOverrides"]
    assert set(overrides["properties"]) == set(Ruleset.__struct_fields__)
    assert not overrides.get("required")  # each one optional
    assert overrides["properties"]["ante_min"]["type"] == "integer"
    for schema in (overrides, schemas["Ruleset"]):
        keys = schema["properties"]["bet_paytable"]["propertyNames"]["enum"]
        assert keys == list(CATEGORY_LABELS)


async def test_overrides_are_checked_by_name_and_type(client: AsyncTestClient) -> None:  # type: ignore[type-arg]
    async def opened(overrides: object) -> tuple[int, dict[str, object]]:
        body = {"table_id": "t", "overrides": overrides}
        answer = await client.post("/v1/tables", json=body, headers=OPERATOR)
        return answer.status_code, answer.json()

    status, problem = await opened({"ante_min": "500"})
    assert status == 400 and [e["key"] for e in problem["errors"]] == ["overrides.ante_min"]  # type: ignore[union-attr]
    status, problem = await opened({"boxs": 3})
    assert status == 400 and "boxs" in json.dumps(problem)
    status, problem = await opened({"boxes": 0})  # well typed, not playable: the rules say so
    assert (
        status == 422 and problem["code"] == "invalid_ruleset" and "boxes" in str(problem["detail"])
    )

    status, view = await opened(
        {"ante_min": 500, "max_payout": None, "bet_paytable": {"straight": 5}}
    )
    assert status == 201, view
    ruleset = msgspec.convert(view["ruleset"], Ruleset)
    assert (ruleset.ante_min, ruleset.max_payout) == (500, None)
    assert ruleset.bet_paytable["straight"] == 5 and ruleset.bet_paytable["flush"] == 5  # rest kept
