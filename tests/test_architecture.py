"""The layers docs/architecture.md draws, held by the code.

The import contract lives in pyproject.toml (``[tool.importlinter]``) and is checked by
import-linter, the same tool a contributor runs by hand; this test runs it. The rest are
rules import-linter cannot state: where SQL may be written, and how long a module may grow.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Final

ROOT: Final = Path(__file__).resolve().parents[1]
PRODUCT: Final = ("service", "events", "projections")
STORAGE_ADAPTER: Final = Path("events", "postgres")
REFERENCE_WALLET: Final = Path("service", "tools", "reference_wallet")
"""The operator's side of the wallet protocol, an offline tool: its own process and its own
schema, standing in for an operator's database. The server never imports it."""

SQL: Final = re.compile(
    r"\b(SELECT\b.+\bFROM|INSERT INTO|UPDATE \w+ SET|DELETE FROM|CREATE (TABLE|INDEX)|"
    r"pg_notify|pg_advisory)",
    re.S,
)
QUERY_CALLS: Final = frozenset(
    {"fetch", "fetchrow", "fetchval", "executemany", "copy_records_to_table", "copy_from_query"}
)
MAX_LINES: Final = 500


def _modules() -> list[Path]:
    return sorted(p.relative_to(ROOT) for top in PRODUCT for p in (ROOT / top).rglob("*.py"))


def _inside(path: Path, folder: Path) -> bool:
    return path.parts[: len(folder.parts)] == folder.parts


def sql_in(source: str) -> list[int]:
    """Lines of ``source`` that hold a SQL statement or run a query (docstrings aside)."""
    tree = ast.parse(source)
    docstrings = {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }
    lines = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
            and SQL.search(node.value)
        ) or (isinstance(node, ast.Attribute) and node.attr in QUERY_CALLS):
            lines.append(node.lineno)
    return lines


def test_every_import_follows_the_layers() -> None:
    # The package installs in editable mode through an import hook that grimp (import-linter's
    # graph) cannot read; .ci/russian_poker links the same folders under the one namespace.
    env = {**os.environ, "PYTHONPATH": str(ROOT / ".ci")}
    run = subprocess.run(
        [str(Path(sys.executable).parent / "lint-imports"), "--no-cache"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 broken" in run.stdout


def test_no_module_imports_itself_back() -> None:
    # Between layers the contract forbids cycles; this covers siblings within one layer.
    import grimp

    env_path = str(ROOT / ".ci")
    sys.path.insert(0, env_path)
    try:
        graph = grimp.build_graph("russian_poker", exclude_type_checking_imports=True)
    finally:
        sys.path.remove(env_path)
    assert "russian_poker.service.application.commands" in graph.modules
    cycles = sorted(
        (module, imported)
        for module in graph.modules
        for imported in graph.find_modules_directly_imported_by(module)
        if graph.chain_exists(importer=imported, imported=module)
    )
    assert cycles == []


def test_sql_is_written_only_in_the_storage_adapter() -> None:
    outside = {
        str(path): lines
        for path in _modules()
        if not _inside(path, STORAGE_ADAPTER) and not _inside(path, REFERENCE_WALLET)
        if (lines := sql_in((ROOT / path).read_text()))
    }
    assert outside == {}


def test_the_sql_check_sees_a_query() -> None:
    query = 'async def f(conn):\n    return await conn.fetchval("SELECT 1 FROM t")\n'
    assert sql_in(query) == [2, 2]
    assert sql_in('"""SELECT the best box FROM the table"""\n') == []


def test_no_product_module_outgrows_one_concept() -> None:
    long = {
        str(path): n
        for path in _modules()
        if (n := len((ROOT / path).read_text().splitlines())) > MAX_LINES
    }
    assert long == {}
