"""The ``russian-poker`` command."""

from __future__ import annotations

import click

# Imported for their effect: each registers its subcommands on the `audit` group.
from service.cli import chain, export, software  # noqa: F401
from service.cli.audit import register as register_audit
from service.cli.audit_group import audit
from service.cli.db import db_group
from service.cli.demo import demo
from service.cli.evaluate import evaluate
from service.cli.maintenance import migrate_command, openapi_command
from service.cli.reference_wallet import reference_wallet
from service.cli.rng_report import rng_report
from service.cli.serve import serve, token
from service.cli.simulate import simulate
from service.cli.verify import verify_command
from service.cli.wallet_check import wallet_check

__all__ = ["main"]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def main() -> None:
    """Russian Poker and Oasis Poker: an event-sourced casino game backend."""


main.add_command(audit)
main.add_command(db_group)
main.add_command(demo)
main.add_command(evaluate)
main.add_command(migrate_command)
main.add_command(openapi_command)
main.add_command(reference_wallet)
main.add_command(rng_report)
main.add_command(serve)
main.add_command(simulate)
main.add_command(token)
main.add_command(verify_command)
main.add_command(wallet_check)
register_audit(main)
