"""``russian-poker migrate``: apply the database migrations."""

from __future__ import annotations

import asyncio
from pathlib import Path

import click
import msgspec

from russian_poker.service.database import database_url, migrated

__all__ = ["migrate_command", "openapi_command", "openapi_document", "wallet_openapi_document"]


@click.command("migrate")
def migrate_command() -> None:
    """Apply pending migrations to DATABASE_URL (or the embedded database)."""
    applied = asyncio.run(migrated(database_url()))
    click.echo(
        f"applied {len(applied)} migration(s)" + (": " + ", ".join(applied) if applied else "")
    )


def openapi_document() -> bytes:
    """The OpenAPI document exactly as the app serves it at ``/schema/openapi.json``."""
    from russian_poker.service.app import create_app
    from russian_poker.service.app.openapi import finished
    from russian_poker.service.settings import Settings

    app = create_app(Settings(jwt_secret="openapi-export-only"))
    document = finished(app.openapi_schema.to_schema(), app)
    return msgspec.json.format(msgspec.json.encode(document), indent=2) + b"\n"


def wallet_openapi_document() -> bytes:
    """The operator-side wallet API (docs/wallet-protocol.md §3), from the reference wallet's
    app."""
    from russian_poker.service.tools.reference_wallet.openapi import wallet_openapi

    return msgspec.json.format(msgspec.json.encode(wallet_openapi()), indent=2) + b"\n"


@click.command("openapi")
@click.option("--check", is_flag=True, help="Exit non-zero if a file is stale.")
@click.option(
    "--path", default="openapi/openapi.json", show_default=True, type=click.Path(dir_okay=False)
)
@click.option(
    "--wallet-path",
    default="openapi/wallet.json",
    show_default=True,
    type=click.Path(dir_okay=False),
    help="Where the operator-side wallet API document goes.",
)
def openapi_command(check: bool, path: str, wallet_path: str) -> None:
    """Write (or --check) the OpenAPI documents generated from the code: the service's API
    and the wallet API operators implement."""
    stale = []
    for name, document in ((path, openapi_document()), (wallet_path, wallet_openapi_document())):
        target = Path(name)
        if check:
            if not target.exists() or target.read_bytes() != document:
                stale.append(name)
            else:
                click.echo(f"{name} is up to date")
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(document)
        click.echo(f"wrote {name}")
    if stale:
        raise click.ClickException(f"{', '.join(stale)} stale: run `russian-poker openapi`")
