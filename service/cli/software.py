"""``russian-poker audit software``: the version and SHA-256 digests of the installed code.

Computed from the files on disk by the same function the service runs at start-up
(``service.software``), so its ``--json`` output equals ``GET /v1/audit/software`` of a
service started from the same installation. No database is needed.
"""

from __future__ import annotations

import click
import msgspec

from russian_poker.service.cli.audit_group import audit
from russian_poker.service.software import installed, listing

__all__ = ["software_command"]


@audit.command("software")
@click.option("--json", "as_json", is_flag=True, help="The manifest as JSON (the API's body).")
def software_command(as_json: bool) -> None:
    """The version, every code file's SHA-256 and the digest over all of them.

    Without --json: a header, then the files in `sha256sum` format (recheck them with
    `sha256sum -c` from the directory holding the packages).
    """
    found = installed()
    if as_json:
        click.echo(msgspec.json.encode(found).decode())
        return
    click.echo(f"# version {found.version}")
    click.echo(f"# git commit {found.git_commit or '(none: not a git checkout)'}")
    click.echo(f"# files {len(found.files)}")
    click.echo(f"# digest {found.digest}")
    click.echo(listing(found.files), nl=False)
