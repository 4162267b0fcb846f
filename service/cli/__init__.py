"""The ``russian-poker`` command."""

from __future__ import annotations

import click

# Imported for their effect: each registers its subcommands on the `audit` group.
from russian_poker.service.cli import chain, export, software  # noqa: F401
from russian_poker.service.cli.audit import register as register_audit
from russian_poker.service.cli.audit_group import audit
from russian_poker.service.cli.db import db_group
from russian_poker.service.cli.evaluate import evaluate
from russian_poker.service.cli.maintenance import migrate_command, openapi_command
from russian_poker.service.cli.serve import serve, token
from russian_poker.service.cli.verify import verify_command
from russian_poker.service.tools.conformance.command import wallet_check
from russian_poker.service.tools.demo import demo
from russian_poker.service.tools.reference_wallet.command import reference_wallet
from russian_poker.service.tools.rng.command import rng_report
from russian_poker.service.tools.simulation.command import simulate

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
