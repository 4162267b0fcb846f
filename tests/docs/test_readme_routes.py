"""The README's route table names every route the OpenAPI document has, with its method."""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).parents[2]
ROUTE = re.compile(r"`(GET|POST|PUT|DELETE)?\s*(/[^`\s]*|…[^`\s]*)?`")
PARAMETER = re.compile(r"\{[^}]*\}")


def _shape(path: str) -> str:
    """A path with its parameters unnamed: the README says ``{id}`` where the document
    says ``{operator_id}``."""
    return PARAMETER.sub("{}", path)


def _readme_routes() -> set[tuple[str, str]]:
    """(method, path) of every route the table's rows name; a ``…`` stands for the row's
    last full path, either extended (``…/ledger``) or with its last part replaced
    (``…/reopen``), so both are read."""
    text = (ROOT / "README.md").read_text()
    found: set[tuple[str, str]] = set()
    for line in text.splitlines():
        if not line.startswith("| ") or line.count(" | ") < 2:
            continue
        method, last = "GET", ""
        for verb, path in ROUTE.findall(line.split(" | ")[1] if " | " in line else line):
            method = verb or method
            if not path:
                continue
            if path.startswith("…"):
                tail = path.removeprefix("…")
                found.add((method, _shape(last + tail)))
                found.add((method, _shape(last.rsplit("/", 1)[0] + tail)))
            else:
                last = path.split("?", 1)[0]
                found.add((method, _shape(last)))
    return found


def test_every_documented_route_is_in_the_readme() -> None:
    document = json.loads((ROOT / "openapi" / "openapi.json").read_text())
    routes = {
        (method.upper(), _shape(path))
        for path, operations in document["paths"].items()
        for method in operations
        if method in ("get", "post", "put", "delete")
    }
    missing = sorted(routes - _readme_routes())
    assert missing == [], missing
