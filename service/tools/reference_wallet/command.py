"""``russian-poker reference-wallet``: run the reference operator wallet."""

from __future__ import annotations

import click

from russian_poker.service.tools.reference_wallet.faults import BROKEN_MODES

__all__ = ["reference_wallet"]


@click.command("reference-wallet")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8100, show_default=True, type=click.IntRange(1, 65535))
@click.option(
    "--database-url",
    envvar="REFERENCE_WALLET_DATABASE_URL",
    required=True,
    help="PostgreSQL for the ledger (its own schema, reference_wallet).",
)
@click.option(
    "--secret",
    envvar="REFERENCE_WALLET_SECRET",
    required=True,
    help="The operator's signing secret (also from REFERENCE_WALLET_SECRET, kept out of ps).",
)
@click.option(
    "--broken",
    type=click.Choice(BROKEN_MODES),
    default=None,
    help="Start a deliberately broken variant, for the conformance kit's negative tests.",
)
@click.option("--operator-id", default=None, help="Accept only this operator's calls.")
@click.option(
    "--log-level",
    default="info",
    show_default=True,
    type=click.Choice(["debug", "info", "warning", "error"]),
)
def reference_wallet(
    host: str,
    port: int,
    database_url: str,
    secret: str,
    broken: str | None,
    operator_id: str | None,
    log_level: str,
) -> None:
    """Run the reference operator wallet: POST /wallet/{balance,bet,win,rollback}.

    The admin endpoints under /_admin are unsigned: keep the wallet on a loopback address.
    """
    import uvicorn

    from russian_poker.service.tools.reference_wallet import create_app

    app = create_app(database_url, secret, broken=broken, operator_id=operator_id)
    if broken:
        click.echo(f"reference wallet: deliberately broken ({broken})", err=True)
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level=log_level,
        access_log=log_level == "debug",
        # A slow fault's request should not hold a stop for long.
        timeout_graceful_shutdown=3,
    )
