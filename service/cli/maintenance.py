"""``russian-poker migrate``: apply the database migrations."""

from __future__ import annotations

import asyncio
from pathlib import Path

import click
import msgspec

from service.database import database_url, migrated

__all__ = ["migrate_command", "openapi_command", "openapi_document"]


@click.command("migrate")
def migrate_command() -> None:
    """Apply pending migrations to DATABASE_URL (or the embedded database)."""
    applied = asyncio.run(migrated(database_url()))
    click.echo(
        f"applied {len(applied)} migration(s)" + (": " + ", ".join(applied) if applied else "")
    )


def openapi_document() -> bytes:
    """The OpenAPI document exactly as the app serves it at ``/schema/openapi.json``."""
    from service.app import create_app
    from service.settings import Settings

    app = create_app(Settings(jwt_secret="openapi-export-only"))
    document = app.openapi_schema.to_schema()
    return msgspec.json.format(msgspec.json.encode(document), indent=2) + b"\n"


@click.command("openapi")
@click.option("--check", is_flag=True, help="Exit non-zero if the file is stale.")
@click.option(
    "--path", default="openapi/openapi.json", show_default=True, type=click.Path(dir_okay=False)
)
def openapi_command(check: bool, path: str) -> None:
    """Write (or --check) the OpenAPI document generated from the code."""
    document = openapi_document()
    target = Path(path)
    if check:
        if not target.exists() or target.read_bytes() != document:
            raise click.ClickException(f"{path} is stale: run `russian-poker openapi`")
        click.echo(f"{path} is up to date")
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(document)
    click.echo(f"wrote {path}")
