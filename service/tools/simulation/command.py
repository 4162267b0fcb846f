"""``russian-poker simulate``: the house edge, RTP and spread of a ruleset and a strategy.

The simulation package (numpy, lookup tables) is imported only when the command runs, so
the other commands start as fast as before.
"""

from __future__ import annotations

import json
import secrets
import sys
import time
from typing import Any

import click

from russian_poker.service.rules.presets import PRESETS, RulesetError, make_ruleset

__all__ = ["parse_overrides", "simulate"]

_STRATEGIES = ("raise-all", "ak-or-better", "pair-or-better", "basic")


def _value(text: str) -> Any:
    """A parameter value as JSON (numbers, true/false, null, lists, objects), else text."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def parse_overrides(settings: tuple[str, ...]) -> dict[str, Any]:
    """``PARAM=VALUE`` pairs as ruleset overrides."""
    overrides: dict[str, Any] = {}
    for setting in settings:
        name, sep, text = setting.partition("=")
        if not sep or not name.strip():
            raise click.BadParameter(f"expected PARAM=VALUE, got {setting!r}", param_hint="--set")
        overrides[name.strip()] = _value(text.strip())
    return overrides


def _count(text: str) -> int:
    """A count such as ``1000000``, ``1_000_000`` or ``1e6``."""
    try:
        value = float(text.replace("_", "")) if "e" in text.lower() else int(text)
    except ValueError:
        raise click.BadParameter(f"not a number: {text!r}") from None
    if value != int(value) or value < 1:
        raise click.BadParameter(f"expected a positive whole number, got {text!r}")
    return int(value)


@click.command()
@click.option(
    "--ruleset",
    "preset",
    required=True,
    type=click.Choice(sorted(PRESETS)),
    help="Preset to start from.",
)
@click.option(
    "--set",
    "settings",
    multiple=True,
    metavar="PARAM=VALUE",
    help="Override a ruleset parameter (VALUE as JSON, else text); repeatable.",
)
@click.option("--strategy", required=True, type=click.Choice(_STRATEGIES), help="How to play.")
@click.option("--rounds", required=True, metavar="N", help="Rounds to play, e.g. 1e7.")
@click.option(
    "--seed",
    type=click.IntRange(min=0),
    help="Seed for a reproducible run (default: random, and reported).",
)
@click.option("--ante", type=click.IntRange(min=1), help="Ante in minor units (default: ante_min).")
@click.option(
    "--bonus",
    type=click.IntRange(min=0),
    help="Bonus stake in minor units, 0 for none (default: bonus_min if offered).",
)
@click.option("--workers", type=click.IntRange(min=1), help="Processes (default: every core).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object as the last line.")
def simulate(
    preset: str,
    settings: tuple[str, ...],
    strategy: str,
    rounds: str,
    seed: int | None,
    ante: int | None,
    bonus: int | None,
    workers: int | None,
    as_json: bool,
) -> None:
    """Play N rounds of one light box against the dealer by the production rules and
    report the house edge, element of risk, RTP, standard deviation and frequencies,
    with 95% confidence intervals. Progress goes to stderr."""
    from russian_poker.service.tools.simulation.report import format_report
    from russian_poker.service.tools.simulation.runner import (
        Meter,
        Plan,
        default_workers,
        vectorised,
    )
    from russian_poker.service.tools.simulation.runner import simulate as run
    from russian_poker.service.tools.simulation.stats import summarise

    count = _count(rounds)
    overrides = parse_overrides(settings)
    try:
        rules = make_ruleset(preset, overrides)
    except RulesetError as exc:
        raise click.UsageError(str(exc)) from None
    if seed is None:
        seed = secrets.randbits(63)
    plan = Plan(
        rules=rules,
        strategy=strategy,
        rounds=count,
        seed=seed,
        ante=ante,
        bonus=bonus,
        workers=workers or default_workers(),
    )
    try:
        engine = "vectorised" if vectorised(plan) else "per-round"
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    meter = Meter(count, sys.stderr.write, live=sys.stderr.isatty())
    started = time.perf_counter()
    tally = run(plan, meter)
    seconds = time.perf_counter() - started
    sys.stderr.flush()
    resolved_ante = rules.ante_min if ante is None else ante
    resolved_bonus = (rules.bonus_min if rules.bonus_enabled else 0) if bonus is None else bonus
    summary: dict[str, Any] = {
        "ruleset": preset,
        "overrides": overrides,
        "game": rules.game,
        "strategy": strategy,
        "seed": seed,
        "engine": engine,
        "workers": plan.workers,
        "seconds": seconds,
        "rounds_per_second": count / seconds if seconds else 0.0,
        **summarise(tally, ante=resolved_ante, bonus=resolved_bonus),
    }
    if as_json:
        click.echo(json.dumps(summary, separators=(",", ":")))
    else:
        for line in format_report(summary):
            click.echo(line)
