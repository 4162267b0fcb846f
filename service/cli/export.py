"""``russian-poker audit export``: every round record settled in a window, with a manifest.

Reads the audit trail (``audit_rounds``) as far as its projection has got: a window that
ends a few seconds before now is complete (the projection's lag is the
``russian_poker_projection_lag`` gauge). See service/reports/export.py for the formats and
the manifest's digest.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import click

from russian_poker.events.postgres.export import SettledRecords
from russian_poker.events.postgres.pool import connect
from russian_poker.service.cli.audit_group import audit, iso_time
from russian_poker.service.database import database_url, migrated
from russian_poker.service.reports.export import ExportIncomplete, Format, export_rounds
from russian_poker.service.software import installed

__all__ = ["export_command"]


@audit.command("export")
@click.option("--from", "since", metavar="ISO", help="Rounds settled at or after this time.")
@click.option("--to", "until", metavar="ISO", help="Rounds settled before this time.")
@click.option(
    "--format", "kind", type=click.Choice(["jsonl", "csv"]), default="jsonl", show_default=True
)
@click.option(
    "--out",
    required=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="Directory for rounds.<format> and manifest.json (created if need be).",
)
def export_command(since: str | None, until: str | None, kind: str, out: Path) -> None:
    """Export every round settled in [--from, --to) as JSON lines or CSV, with a manifest
    (row count, the data file's SHA-256, the software digest, and the manifest's own)."""
    start, end = iso_time(since), iso_time(until)
    if start and end and start >= end:
        raise click.BadParameter("--from must be before --to")
    chosen: Format = "csv" if kind == "csv" else "jsonl"

    async def run() -> dict[str, Any]:
        url = database_url()
        await migrated(url)
        # Rows are written to the file between fetches of one transaction's cursor.
        conn = await connect(
            url, idle_in_transaction_timeout=600, application_name="russian-poker-export"
        )
        try:
            return await export_rounds(
                SettledRecords(conn), out, start=start, end=end, kind=chosen, software=installed()
            )
        finally:
            await conn.close()

    try:
        manifest = asyncio.run(run())
    except ExportIncomplete as incomplete:
        raise click.ClickException(str(incomplete)) from None
    click.echo(
        f"exported {manifest['rows']} rounds to {out / manifest['data_file']}"
        f" (sha256 {manifest['data_sha256']}); manifest digest {manifest['manifest_digest']}"
    )
