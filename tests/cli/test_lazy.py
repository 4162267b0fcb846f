"""The command loads what it runs and nothing more: ``--help`` and ``token`` import neither the
app nor the database driver nor numpy; every subcommand's summary in ``--help`` is its own;
an offline tool without the ``tools`` extra says which extra to install."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from russian_poker.service.cli import COMMANDS, main
from russian_poker.service.cli.lazy import TOOLS_EXTRA, TOOLS_MODULES
from tests.deploy.facts import ROOT

HEAVY = (
    "litestar",
    "asyncpg",
    "uvicorn",
    "numpy",
    "scipy",
    "matplotlib",
    "russian_poker.service.app",
    "russian_poker.service.tools",
    "russian_poker.events.postgres.store",
)

# Runs the console script's entry point in a fresh interpreter, then lists what it imported.
_PROBE = """
import json, sys
from russian_poker.service.cli import main
try:
    main(sys.argv[2:], prog_name="russian-poker")
except SystemExit as stop:
    assert not stop.code, stop.code
heavy = json.loads(sys.argv[1])
within = tuple(h + "." for h in heavy)
print(json.dumps(sorted(m for m in sys.modules if m in heavy or m.startswith(within))))
"""


def _imported(tmp_path: Path, *args: str) -> tuple[list[str], str]:
    result = subprocess.run(
        [sys.executable, "-c", _PROBE, json.dumps(HEAVY), *args],
        cwd=ROOT,
        env={"RUSSIAN_POKER_DATA_DIR": str(tmp_path), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    *printed, modules = result.stdout.strip().splitlines()
    loaded: list[str] = json.loads(modules)
    return loaded, "\n".join(printed)


def test_help_imports_no_command(tmp_path: Path) -> None:
    loaded, printed = _imported(tmp_path, "--help")
    assert loaded == []
    assert all(name in printed for name in COMMANDS)


def test_a_token_loads_neither_the_app_nor_the_driver(tmp_path: Path) -> None:
    loaded, printed = _imported(tmp_path, "token", "--role", "admin")
    assert loaded == []
    assert printed.count(".") == 2  # a JWT: header.claims.signature


def test_the_summaries_are_the_commands_own() -> None:
    context = click.Context(main)
    for name, entry in COMMANDS.items():
        command = main.get_command(context, name)
        assert command is not None and command.name == name
        own = (command.help or "").split("\n\n")[0]
        assert " ".join(own.split()) == " ".join(entry.summary.split()), name


@pytest.mark.parametrize("width", [80, 200])
def test_help_reads_as_click_would_write_it(width: int) -> None:
    """The lazy listing equals the listing of a group holding every command, loaded."""
    eager = click.Group(main.name, help=main.help, context_settings=main.context_settings)
    for name in COMMANDS:
        command = main.get_command(click.Context(main), name)
        assert command is not None
        eager.add_command(command, name)
    runner = CliRunner()
    shown = [
        runner.invoke(group, ["--help"], terminal_width=width).output for group in (main, eager)
    ]
    assert shown[0] == shown[1]


def test_a_tool_without_its_extra_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "numpy", None)  # import numpy now fails, as if absent
    tools = sorted(name for name, entry in COMMANDS.items() if entry.tools)
    assert tools == [
        "demo",
        "reference-wallet",
        "rng-report",
        "rtp-theory",
        "simulate",
        "wallet-check",
    ]
    for name in tools:
        result = CliRunner().invoke(main, [name, "--help"])
        assert result.exit_code == 1
        (line,) = result.output.strip().splitlines()
        assert f"pip install 'russian-poker[{TOOLS_EXTRA}]'" in line, line
        assert name in line
    # The server's own commands do not need it.
    assert CliRunner().invoke(main, ["verify", "--help"]).exit_code == 0


def test_the_extra_is_what_the_check_looks_for() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    listed = project["optional-dependencies"][TOOLS_EXTRA]
    assert sorted(re.split(r"[<>=!~;\[ ]", r, maxsplit=1)[0] for r in listed) == sorted(
        TOOLS_MODULES
    )
    for module in TOOLS_MODULES:
        assert not any(r.startswith(module) for r in project["dependencies"]), module
