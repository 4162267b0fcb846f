"""Subcommands imported only when invoked (click's documented lazy-loading group).

``russian-poker --help`` and ``russian-poker token`` answer without importing the app, the
database driver or numpy: each subcommand's module is imported when that subcommand runs,
and the group's help lists the summaries written here instead of loading every command to
ask it (tests/cli/test_lazy.py checks they agree with the commands' own docstrings).

A tools command (the ``tools`` extra: numpy, scipy, matplotlib) refuses with one line
naming the extra when it is not installed, before importing anything of it.
"""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass
from typing import Any, Final

import click

__all__ = ["TOOLS_EXTRA", "TOOLS_MODULES", "Lazy", "LazyGroup", "missing_tools"]

TOOLS_EXTRA: Final = "tools"
TOOLS_MODULES: Final = ("numpy", "scipy", "matplotlib")
"""What the ``tools`` extra installs (pyproject.toml; tests/cli/test_lazy.py keeps the
two lists the same)."""


def missing_tools() -> list[str]:
    """The tools extra's modules that cannot be imported here (looked up, not imported)."""
    return [name for name in TOOLS_MODULES if importlib.util.find_spec(name) is None]


@dataclass(frozen=True)
class Lazy:
    """Where a subcommand lives (``module:attribute``) and its one-paragraph summary."""

    target: str
    summary: str
    tools: bool = False
    """Part of the tools extra: refused with a clear message when the extra is missing."""


class LazyGroup(click.Group):
    def __init__(self, *args: Any, lazy: dict[str, Lazy], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = lazy

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        entry = self.lazy.get(cmd_name)
        if entry is None:
            return super().get_command(ctx, cmd_name)
        if entry.tools and missing_tools():
            raise click.ClickException(
                f"`{ctx.command_path} {cmd_name}` is one of the offline tools: install the"
                f" {TOOLS_EXTRA} extra (pip install 'russian-poker[{TOOLS_EXTRA}]')"
            )
        module_name, _, attribute = entry.target.partition(":")
        command = getattr(importlib.import_module(module_name), attribute)
        if not isinstance(command, click.Command):
            raise TypeError(f"{entry.target} is not a click command")
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # As click.Group does, from the summaries: asking each command would import it.
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(len(name) for name in names)
        rows = []
        for name in names:
            entry = self.lazy.get(name)
            if entry is not None:
                # A bare command with the summary as its help shortens it as click would.
                short = click.Command(name, help=entry.summary).get_short_help_str(limit)
                rows.append((name, short))
                continue
            command = super().get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.get_short_help_str(limit)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)
