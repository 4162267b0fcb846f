"""``russian-poker rng-report``: the RNG certification report (docs/rng.md)."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import click

__all__ = ["rng_report"]


@click.command("rng-report")
@click.option(
    "--shuffles",
    type=click.IntRange(min=1000),
    required=True,
    help="How many decks (at least 1000: the tests are asymptotic).",
)
@click.option(
    "--seed",
    default=None,
    help="A label: shuffle k's seed is then HMAC-SHA256(label, k), reproducible. "
    "Without it every seed comes fresh from secrets.token_bytes (the production source).",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("rng-report"),
    show_default=True,
    help="Directory for report.md, report.json, positions.png and p_values.png.",
)
@click.option("--workers", type=click.IntRange(min=1), default=None, help="Default: every core.")
@click.option(
    "--variant",
    type=click.Choice(["production", "sattolo", "mod8"]),
    default="production",
    hidden=True,  # the deliberately biased shuffles, to see the report fail
)
def rng_report(
    shuffles: int, seed: str | None, out: Path, workers: int | None, variant: str
) -> None:
    """Shuffle N decks with the production shuffle and test them at 99 % confidence.

    Exits 1 when the verdict is FAIL."""
    from russian_poker.service.tools.rng.certify import certify
    from russian_poker.service.tools.rng.run import stderr_progress

    verdict, _, _ = certify(
        shuffles,
        seed=seed,
        out=out,
        variant=variant,  # type: ignore[arg-type]  # click.Choice guarantees a Variant
        workers=workers,
        progress=stderr_progress,
        command=shlex.join(["russian-poker", *sys.argv[1:]]),
    )
    click.echo(f"{'PASS' if verdict.passed else 'FAIL'}: {out / 'report.md'}")
    if not verdict.passed:
        sys.exit(1)
