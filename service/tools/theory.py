"""``russian-poker rtp-theory``: the theoretical main-wager RTP of custom rulesets, simulated
here and stored by fingerprint for the server to read (docs/audit.md, "RTP monitoring").

The server simulates nothing: a preset's figure is published data, the bonus's is exact and
computed in the server without numpy, and any other ruleset's main figure is the ``basic``
strategy's RTP simulated by this command (by default 2 × 10⁵ rounds, seed 2026: about
±0.5 % at 95 %). Run it after opening or changing a table with overrides; until then the
RTP report shows that ruleset's main figure as null.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import asyncpg
import click

from russian_poker.events.postgres.theory import (
    StoredTheory,
    missing_theory,
    store_main,
    tables_rulesets,
)
from russian_poker.events.ruleset import Ruleset
from russian_poker.service.database import on_the_store
from russian_poker.service.reports.theory import (
    PRESET_MAIN,
    SIMULATED_ROUNDS,
    SIMULATION_SEED,
    preset_of,
)
from russian_poker.service.tools.simulation.runner import Plan, default_workers, simulate
from russian_poker.service.tools.simulation.stats import summarise

__all__ = ["rtp_theory", "simulate_main", "simulate_missing"]

STRATEGY = "basic"


def simulate_main(
    rules: Ruleset, *, rounds: int = SIMULATED_ROUNDS, seed: int = SIMULATION_SEED, workers: int = 1
) -> StoredTheory:
    """The main wager's RTP of the ``basic`` strategy under ``rules``, with its 95 % CI."""
    plan = Plan(rules=rules, strategy=STRATEGY, rounds=rounds, seed=seed, workers=workers)
    summary = summarise(simulate(plan), ante=rules.ante_min, bonus=0)
    low, high = summary["rtp_ci95"]
    return StoredTheory(
        fingerprint=rules.fingerprint,
        strategy=STRATEGY,
        rounds=rounds,
        seed=seed,
        rtp=float(summary["rtp"]),
        ci95_low=float(low),
        ci95_high=float(high),
    )


async def simulate_missing(
    conn: asyncpg.Connection[asyncpg.Record],
    rulesets: Sequence[Ruleset],
    *,
    rounds: int = SIMULATED_ROUNDS,
    seed: int = SIMULATION_SEED,
    workers: int = 1,
    again: bool = False,
    echo: Callable[[str], None] = lambda _: None,
) -> list[StoredTheory]:
    """Simulate and store the figure of each custom ruleset that has none (``again``: of
    each custom ruleset); the presets have theirs. What was stored."""
    custom = [rules for rules in rulesets if preset_of(rules) not in PRESET_MAIN]
    todo = custom if again else await missing_theory(conn, custom)
    stored = []
    for rules in todo:
        echo(f"{rules.fingerprint}: simulating {rounds:,} rounds of {STRATEGY} ...")
        figure = simulate_main(rules, rounds=rounds, seed=seed, workers=workers)
        await store_main(conn, figure)
        stored.append(figure)
    return stored


@click.command("rtp-theory")
@click.option("--table", "table_id", help="The rulesets this table was opened or changed with.")
@click.option("--pending", is_flag=True, help="Every table's rulesets without a stored figure.")
@click.option(
    "--rounds",
    default=SIMULATED_ROUNDS,
    show_default=True,
    type=click.IntRange(min=1_000),
    help="Rounds to simulate per ruleset.",
)
@click.option("--seed", default=SIMULATION_SEED, show_default=True, type=int)
@click.option("--workers", type=click.IntRange(min=1), help="Processes (default: every core).")
@click.option("--again", is_flag=True, help="Also simulate rulesets that have a figure.")
def rtp_theory(
    table_id: str | None, pending: bool, rounds: int, seed: int, workers: int | None, again: bool
) -> None:
    """Simulate the theoretical RTP of custom rulesets and store it for the server.

    The main wager's RTP of the basic strategy, for each ruleset other than a preset that a
    table (--table ID) or any table (--pending) has been opened or changed with, stored by
    ruleset fingerprint in DATABASE_URL (else the embedded database). The RTP report and the
    gauges show it from their next refresh on.
    """
    if (table_id is None) == (not pending):
        raise click.UsageError("give exactly one of --table ID or --pending")

    async def work(conn: asyncpg.Connection[asyncpg.Record]) -> list[StoredTheory]:
        rulesets = await tables_rulesets(conn, table_id)
        if table_id is not None and not rulesets:
            raise click.ClickException(f"no table {table_id!r}")
        return await simulate_missing(
            conn,
            rulesets,
            rounds=rounds,
            seed=seed,
            workers=workers or default_workers(),
            again=again,
            echo=lambda line: click.echo(line, err=True),
        )

    stored = on_the_store(work, name="russian-poker-rtp-theory")
    for figure in stored:
        click.echo(
            f"{figure.fingerprint}: main RTP {figure.rtp:.5f} (95 % CI {figure.ci95_low:.5f} .."
            f" {figure.ci95_high:.5f}), {figure.rounds:,} rounds of {figure.strategy},"
            f" seed {figure.seed}: stored"
        )
    if not stored:
        click.echo("nothing to simulate: every ruleset in question has its figure")
