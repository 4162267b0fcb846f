"""Problem types resolve: every code the service raises has a catalogue entry, served at
``/problems/{code}`` and rendered into docs/problems.md."""

from __future__ import annotations

import re
from pathlib import Path

from litestar.testing import AsyncTestClient

from russian_poker.service.app.catalogue import CATALOGUE
from russian_poker.service.app.problems import _HTTP_CODES
from russian_poker.service.app.problems_doc import MARKDOWN_PATH, render_markdown
from russian_poker.service.rules.errors import REFUSALS
from tests.api.conftest import bearer

SERVICE = Path(__file__).parents[2] / "service"
RAISED = re.compile(r"\b(?:problem|_problem|_fixed)\(\s*\"([a-z_]+)\"")


def raised_codes() -> set[str]:
    """Every code a refusal can carry, read from the source rather than trusted."""
    codes = set(REFUSALS) | set(_HTTP_CODES.values()) | {"http_error"}
    for path in SERVICE.rglob("*.py"):
        codes |= set(RAISED.findall(path.read_text()))
    return codes


def test_every_raised_code_is_in_the_catalogue() -> None:
    codes = raised_codes()
    # The scan itself finds the codes raised through each helper.
    assert {"invalid_if_match", "busy", "unavailable", "out_of_turn"} <= codes
    missing = codes - set(CATALOGUE)
    assert not missing, f"add these to service/app/catalogue.py: {sorted(missing)}"


def test_every_entry_is_explained() -> None:
    for code, entry in CATALOGUE.items():
        assert entry.type == f"/problems/{code}"
        assert 400 <= entry.status <= 599
        assert entry.title and len(entry.when) > 20 and len(entry.action) > 10, code


def test_idempotency_is_explained_where_it_matters() -> None:
    for code in ("out_of_turn", "idempotency_key_reused", "idempotency_key_required"):
        assert "Idempotent-Replayed: true" in CATALOGUE[code].action
        assert "new key" in CATALOGUE[code].action


def test_docs_problems_md_is_fresh() -> None:
    assert MARKDOWN_PATH.read_text() == render_markdown(), (
        "docs/problems.md is stale: run `./dev python -m russian_poker.service.app.problems_doc`"
    )


async def test_a_refusal_type_resolves_to_its_entry(client: AsyncTestClient) -> None:  # type: ignore[type-arg]
    opened = await client.post(
        "/v1/tables", json={"table_id": "t1"}, headers=bearer("operator", "op")
    )
    assert opened.status_code == 201, opened.text
    refused = await client.post(
        "/v1/tables/t1/commands", json={"type": "SitDown"}, headers=bearer("player", "alice")
    )
    assert refused.status_code == 428
    problem = refused.json()
    page = await client.get(problem["type"])
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    assert "Idempotency-Key required" in page.text
    data = (await client.get(problem["type"], headers={"Accept": "application/json"})).json()
    assert data["code"] == problem["code"] == "idempotency_key_required"
    assert data["status"] == problem["status"] == 428
    assert data["title"] == problem["title"]  # one title per type (RFC 9457)


async def test_json_entry_and_index(client: AsyncTestClient) -> None:  # type: ignore[type-arg]
    entry = await client.get("/problems/out_of_turn", headers={"Accept": "application/json"})
    assert entry.status_code == 200
    assert entry.headers["content-type"].startswith("application/json")
    assert entry.json()["status"] == 409
    assert entry.json()["title"] == CATALOGUE["out_of_turn"].title
    listed = await client.get("/problems", headers={"Accept": "application/json"})
    assert [e["code"] for e in listed.json()] == list(CATALOGUE)
    page = await client.get("/problems")
    assert page.headers["content-type"].startswith("text/html")
    assert all(f"href='/problems/{code}'" in page.text for code in CATALOGUE)


async def test_an_unknown_code_is_a_404_problem(client: AsyncTestClient) -> None:  # type: ignore[type-arg]
    response = await client.get("/problems/no_such_thing")
    assert response.status_code == 404
    assert response.headers["content-type"].startswith("application/problem+json")
    assert response.json()["type"] == "/problems/not_found"


async def test_pages_escape_what_they_show(client: AsyncTestClient) -> None:  # type: ignore[type-arg]
    page = await client.get("/problems/invalid_if_match")
    # The example detail quotes: escaped, and the backticked header set as code.
    assert "<code>If-Match</code>" in page.text
    assert "<script" not in page.text


async def test_openapi_problem_responses_carry_examples(client: AsyncTestClient) -> None:  # type: ignore[type-arg]
    schema = (await client.get("/schema/openapi.json")).json()
    command = schema["paths"]["/v1/tables/{table_id}/commands"]["post"]["responses"]
    examples = command["409"]["content"]["application/problem+json"]["examples"]
    bodies = [example["value"] for example in examples.values()]
    assert any(body["type"] == "/problems/out_of_turn" for body in bodies)
    assert all(body["status"] == 409 for body in bodies)
