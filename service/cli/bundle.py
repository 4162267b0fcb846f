"""``russian-poker audit bundle`` and ``audit verify-bundle``: a window of play as signed
files, and their check with no database (docs/audit-bundle.md)."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import asyncpg
import click

from russian_poker.service.cli.audit_group import audit, iso_time

__all__ = ["bundle_command", "verify_bundle_command"]


@audit.command("bundle")
@click.option("--from", "since", metavar="ISO", help="Rounds settled at or after this time.")
@click.option("--to", "until", metavar="ISO", help="Rounds settled before this time.")
@click.option(
    "--out",
    required=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="Directory for the bundle (created; must not hold one already).",
)
def bundle_command(since: str | None, until: str | None, out: Path) -> None:
    """Write every round settled in [--from, --to) as a signed, self-contained bundle: its
    tables' and wallets' events with their hashes, the checkpoints, proofs, rulesets and
    software digest, and a manifest signed with the checkpoint key."""
    from russian_poker.events.postgres.bundle import BundleStore
    from russian_poker.service.audit.bundle.write import BundleSummary, write_bundle
    from russian_poker.service.bootstrap import bundled_read_models_caught_up
    from russian_poker.service.cli.chain import settings_key
    from russian_poker.service.database import database_url, on_the_store
    from russian_poker.service.software import installed

    start, end = iso_time(since), iso_time(until)
    if start and end and start >= end:
        raise click.BadParameter("--from must be before --to")
    key = settings_key()

    def progress(summary: BundleSummary) -> None:
        click.echo(
            f"{summary.tables} table(s), {summary.rounds} round(s), {summary.events:,} events",
            err=True,
        )

    async def work(conn: asyncpg.Connection[asyncpg.Record]) -> BundleSummary:
        # The round records and availability log the bundle ships, as far as the events go.
        await bundled_read_models_caught_up(database_url())
        return await write_bundle(
            BundleStore(conn),
            key,
            out,
            start=start,
            end=end,
            software=installed(),
            progress=progress,
        )

    try:
        done = on_the_store(work, idle_in_transaction_s=3600, name="russian-poker-bundle")
    except FileExistsError as error:
        raise click.ClickException(str(error)) from None
    click.echo(
        f"bundle in {out}: {done.rounds} round(s) at {done.tables} table(s), {done.streams}"
        f" stream(s), {done.events:,} events, {done.checkpoints} checkpoint(s); manifest signed"
    )


def _kept(values: tuple[str, ...]) -> dict[int, bytes]:
    from russian_poker.service.cli.chain import kept_checkpoint

    return dict(kept_checkpoint(v) for v in values)


@audit.command("verify-bundle")
@click.argument("root", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option(
    "--public-key",
    "public_keys",
    multiple=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="PEM file of a trusted key (repeatable); default: the configured checkpoint key's."
    " The key inside the bundle is never trusted.",
)
@click.option(
    "--trusted-checkpoint",
    "kept",
    multiple=True,
    metavar="SEQ:DIGEST",
    callback=lambda _ctx, _param, values: _kept(values),
    help=(
        "A checkpoint the auditor kept (its seq and hex digest, as GET /v1/audit/checkpoints"
        " or an operator's notification gave it; repeatable): fails if the bundle lacks it"
        " or holds another."
    ),
)
def verify_bundle_command(
    root: Path, public_keys: tuple[Path, ...], kept: dict[int, bytes]
) -> None:
    """Check a bundle with no database: the signed manifest and every digest, every hash
    link and checkpoint, the rulesets, every proof and card, and every round re-run through
    the rules. Exits 1 with the first finding on the last line."""
    from russian_poker.service.audit.bundle.verify import verify_bundle
    from russian_poker.service.cli.chain import trusted_keys

    report = asyncio.run(verify_bundle(root, trusted_keys(public_keys), kept))
    click.echo(
        f"{report.events:,} events in {report.streams} streams, {report.checkpoints}"
        f" checkpoint(s), {report.rulesets} ruleset(s), {report.rounds} round(s) with"
        f" {report.cards:,} cards re-derived and replayed, {report.boxes} box(es) and"
        f" {report.calls} operator call(s) reconciled;"
        f" {report.unsigned:,} event(s) after the last checkpoint (unsigned);"
        f" {len(report.findings)} finding(s)"
    )
    if report.findings:
        for finding in report.findings[1:]:
            click.echo(finding)
        click.echo(report.findings[0])  # the first finding, last
        sys.exit(1)
