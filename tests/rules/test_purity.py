"""The rules core is pure: no I/O, web, database, clock or randomness (DESIGN "Shape").

Checked on the source itself (its AST), so a forbidden import fails here even if no test
happens to run the line. The one exception is ``deck.new_seed``: the shell's helper that
draws a round's secret seed from the OS; no other function touches ``secrets`` and no core
function calls ``new_seed`` (the seed always arrives in a command).
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Final

import pytest

ROOT: Final = Path(__file__).resolve().parents[2]
CORE: Final = sorted(
    [
        *(ROOT / "service" / "rules").glob("*.py"),
        *(
            ROOT / "events" / name
            for name in (
                "commands.py",
                "game.py",
                "wallet.py",
                "ruleset.py",
                "paytables.py",
                "codec.py",
            )
        ),
    ]
)
FORBIDDEN_MODULES: Final = frozenset(
    {
        # the brief's list: I/O, web, database, clock, randomness, processes, logging
        "asyncio",
        "asyncpg",
        "socket",
        "http",
        "urllib",
        "litestar",
        "httpx",
        "requests",
        "os",
        "sys",
        "time",
        "datetime",
        "random",
        "secrets",
        "subprocess",
        "pathlib",
        "io",
        "logging",
        "structlog",
        "threading",
        # and their close relatives
        "importlib",
        "multiprocessing",
        "concurrent",
        "shutil",
        "tempfile",
        "signal",
        "uuid",
    }
)
FORBIDDEN_CALLS: Final = frozenset(
    {"open", "print", "input", "breakpoint", "exec", "eval", "compile", "__import__"}
)
SEED_MODULE: Final = "russian_poker.service.rules.deck"
SEED_HELPER: Final = "new_seed"
FIRST_PARTY: Final = ("russian_poker", "tests")
OUTSIDE_THE_NAMESPACE: Final = ("events", "service", "projections")
"""The folders' own names: importing them bypasses the namespace (a second copy of a module)."""


def module_name(path: Path) -> str:
    dotted = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
    return f"russian_poker.{dotted}"


CORE_MODULES: Final = frozenset(module_name(p) for p in CORE)


def _imports(tree: ast.AST) -> list[tuple[str, tuple[str, ...], int]]:
    """Every import as (module, names imported from it, line); ``import m`` has no names."""
    found: list[tuple[str, tuple[str, ...], int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, (), node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = "." * node.level + (node.module or "")
            found.append((module, tuple(a.name for a in node.names), node.lineno))
    return found


def _seed_helper_lines(tree: ast.Module) -> range:
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == SEED_HELPER:
            assert node.end_lineno is not None
            return range(node.lineno, node.end_lineno + 1)
    return range(0)


def impurities(module: str, source: str) -> list[str]:
    """What makes ``source`` (the text of core module ``module``) impure; empty if nothing."""
    tree = ast.parse(source)
    found: list[str] = []
    for name, names, line in _imports(tree):
        top = name.split(".")[0]
        if name.startswith("."):
            found.append(f"{module}:{line} relative import {name}")
        elif top == "secrets" and module == SEED_MODULE:
            pass  # allowed to import; where it is used is checked below
        elif top in FORBIDDEN_MODULES:
            found.append(f"{module}:{line} imports {name}")
        elif top in OUTSIDE_THE_NAMESPACE:
            found.append(f"{module}:{line} imports {name}, outside the russian_poker namespace")
        elif top in FIRST_PARTY:
            # First-party imports stay inside the audited core, so the check is transitive.
            # `from russian_poker.service.rules import betting` imports the core module
            # russian_poker.service.rules.betting.
            inside = name in CORE_MODULES and (
                name != "russian_poker.service.rules"
                or all(f"{name}.{n}" in CORE_MODULES for n in names)
            )
            if not inside:
                found.append(f"{module}:{line} imports {name}, outside the pure core")
    allowed = _seed_helper_lines(tree) if module == SEED_MODULE else range(0)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func, called = node.func, None
            if isinstance(func, ast.Name):  # print(...), new_seed(...)
                called = func.id
            elif isinstance(func, ast.Attribute):  # builtins.open(...), deck.new_seed(...)
                via_builtins = isinstance(func.value, ast.Name) and func.value.id == "builtins"
                if via_builtins or func.attr == SEED_HELPER:
                    called = func.attr
            if called in FORBIDDEN_CALLS:
                found.append(f"{module}:{node.lineno} calls {called}()")
            if called == SEED_HELPER:
                found.append(f"{module}:{node.lineno} calls {SEED_HELPER}()")
        if isinstance(node, ast.Name) and node.id == "secrets" and node.lineno not in allowed:
            found.append(f"{module}:{node.lineno} uses secrets outside {SEED_HELPER}()")
    return found


# -- the core -------------------------------------------------------------------------------


def test_the_core_is_what_we_think_it_is() -> None:
    assert len(CORE) > 10 and all(p.is_file() for p in CORE)
    assert {
        "russian_poker.service.rules.decide",
        "russian_poker.service.rules.evolve",
        SEED_MODULE,
    } <= CORE_MODULES
    deck = (ROOT / "service" / "rules" / "deck.py").read_text(encoding="utf-8")
    assert _seed_helper_lines(ast.parse(deck)), f"deck.py has no {SEED_HELPER}()"


@pytest.mark.parametrize("path", CORE, ids=module_name)
def test_core_module_is_pure(path: Path) -> None:
    assert impurities(module_name(path), path.read_text(encoding="utf-8")) == []


# -- the check itself catches what it should -------------------------------------------------


@pytest.mark.parametrize(
    "source",
    [
        "import os",
        "import os.path",
        "from datetime import datetime",
        "import time as clock",
        "from random import shuffle",
        "import asyncpg",
        "from litestar import get",
        "from urllib.request import urlopen",
        "import structlog",
        "import secrets",
        "from events import store",
        "from russian_poker.events.postgres import store",
        "from russian_poker.events.postgres.store import EventStore",
        "from russian_poker.service.app import create_app",
        "from russian_poker.service.rules import timers_that_do_not_exist",
        "from service.rules import deck",
        "from . import deck",
        "def f():\n    print('x')",
        "def f():\n    return open('x')",
        "import builtins\ndef f():\n    return builtins.open('x')",
        "def f():\n    return new_seed()",
        "from russian_poker.service.rules import deck\ndef f():\n    return deck.new_seed()",
    ],
)
def test_impurities_are_found(source: str) -> None:
    assert impurities("russian_poker.service.rules.example", source)


def test_secrets_only_inside_new_seed() -> None:
    helper = "import secrets\n\ndef new_seed():\n    return secrets.token_bytes(32)\n"
    assert impurities(SEED_MODULE, helper) == []
    leaky = helper + "\ndef shuffle():\n    return secrets.randbelow(52)\n"
    assert impurities(SEED_MODULE, leaky) == [
        f"{SEED_MODULE}:7 uses secrets outside {SEED_HELPER}()"
    ]
    assert impurities("russian_poker.service.rules.other", helper)
