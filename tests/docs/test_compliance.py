"""docs/compliance.md points only at code and tests that exist.

The traceability page is what a lab reads first; a row naming a deleted module or a renamed
test would send it to nothing, so every backticked path and ``path::test`` is checked here.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Final

ROOT: Final = Path(__file__).resolve().parents[2]
PAGE: Final = ROOT / "docs" / "compliance.md"
# A backticked repository path (optionally with ::test_name), e.g. `tests/x.py::test_y`.
_REFERENCE: Final = re.compile(r"`((?:service|events|projections|tests|deploy|docs)/[^`\s]*)`")


def _references() -> list[str]:
    return _REFERENCE.findall(PAGE.read_text(encoding="utf-8"))


def _test_names(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        node.name
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.name.startswith("test_")
    }


def test_the_page_names_code_and_tests() -> None:
    references = _references()
    assert sum("::" in r for r in references) >= 20, "the page lost its test references"
    assert any(r.startswith("service/") for r in references)


def test_every_path_and_test_named_exists() -> None:
    missing = []
    for reference in _references():
        path_text, _, test = reference.partition("::")
        path = ROOT / path_text.rstrip("/")
        if not path.exists() or (test and test not in _test_names(path)):
            missing.append(reference)
    assert not missing, f"docs/compliance.md names what does not exist: {missing}"


def test_every_test_module_named_holds_tests() -> None:
    modules = {r.partition("::")[0] for r in _references() if r.startswith("tests/")}
    empty = [m for m in modules if m.endswith(".py") and not _test_names(ROOT / m)]
    assert not empty, f"these are named as proof but hold no test: {empty}"
