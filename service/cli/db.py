"""``russian-poker db status`` and ``db stop``: the embedded PostgreSQL, seen and stopped.

Without ``DATABASE_URL`` the commands start (or join) an embedded server in the data
directory, and the last of them to exit stops it. These two commands make that life
visible: which server of which data directory runs, who keeps it running, and a way to
stop it by hand (e.g. one left behind by a process that was killed).
"""

from __future__ import annotations

import os

import click

from russian_poker.service.database import embedded_pgdata

__all__ = ["db_group"]


@click.group("db")
def db_group() -> None:
    """The embedded PostgreSQL of the data directory (used when DATABASE_URL is unset)."""


@db_group.command("status")
def status_command() -> None:
    """Whether the embedded server runs, its data directory, URL and the pids using it."""
    from russian_poker.service.embedded import embedded_status

    status = embedded_status(embedded_pgdata())
    if os.environ.get("DATABASE_URL"):
        click.echo("DATABASE_URL is set: the service uses that database, not this one")
    click.echo(f"embedded PostgreSQL: {'running' if status.running else 'stopped'}")
    click.echo(f"data directory: {status.pgdata}")
    if status.running:
        click.echo(f"postmaster pid: {status.pid}")
        click.echo(f"url: {status.url}")
    users = ", ".join(str(pid) for pid in status.users) or "none"
    click.echo(f"used by pids: {users} (it stops when the last of them exits)")


@db_group.command("stop")
@click.option(
    "--force",
    is_flag=True,
    help="Stop it even while processes use it (a serve among them loses its database).",
)
def stop_command(force: bool) -> None:
    """Stop the embedded server now (its sessions are ended; its data is kept). Refused
    while a process (a serve, a CLI command) uses it, unless --force."""
    from russian_poker.service.embedded import embedded_status, stop_embedded

    pgdata = embedded_pgdata()
    status = embedded_status(pgdata)
    users = status.users
    if status.running and users and not force:
        raise click.ClickException(
            f"the embedded PostgreSQL in {pgdata} is in use by pids "
            + ", ".join(map(str, users))
            + ": stop them first (it stops with the last of them), or pass --force"
        )
    if stop_embedded(pgdata):
        click.echo(f"embedded PostgreSQL in {pgdata} stopped")
        if users:
            click.echo(
                "it was in use by pids " + ", ".join(map(str, users)) + ": they lose it",
                err=True,
            )
    else:
        click.echo(f"embedded PostgreSQL in {pgdata} was not running")
