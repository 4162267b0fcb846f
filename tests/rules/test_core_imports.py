"""The rules core imports no I/O, web, database, clock or randomness module."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).parents[2]
CORE = [*sorted((ROOT / "service" / "rules").glob("*.py"))] + [
    ROOT / "events" / name
    for name in ("commands.py", "game.py", "wallet.py", "ruleset.py", "codec.py")
]
FORBIDDEN = {
    "asyncio",
    "asyncpg",
    "socket",
    "http",
    "urllib",
    "litestar",
    "httpx",
    "os",
    "sys",
    "time",
    "datetime",
    "random",
    "subprocess",
    "pathlib",
    "io",
    "logging",
    "structlog",
    "threading",
    "russian_poker.service.app",
    "russian_poker.service.handling",
    "russian_poker.projections",
    # the folders' own names, outside the namespace
    "service",
    "events",
    "projections",
}


def imported(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_core_is_pure() -> None:
    for path in CORE:
        bad = {
            name
            for name in imported(path)
            if any(name == f or name.startswith(f + ".") for f in FORBIDDEN)
        }
        assert not bad, f"{path.name} imports {sorted(bad)}"


def test_only_the_shells_seed_helper_touches_secrets() -> None:
    for path in CORE:
        source = path.read_text()
        if path.name == "deck.py":
            tree = ast.parse(source)
            users = {
                fn.name
                for fn in ast.walk(tree)
                if isinstance(fn, ast.FunctionDef) and "secrets." in ast.unparse(fn)
            }
            assert users == {"new_seed"}
        else:
            assert "secrets" not in imported(path), path.name
