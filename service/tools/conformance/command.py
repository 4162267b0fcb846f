"""``russian-poker wallet-check``: the conformance kit (docs/wallet-protocol.md §6) against an
operator's seamless wallet, before it goes live.

It runs :mod:`service.tools.conformance.scenarios` through the same HTTP adapter the service uses,
plus a raw transport for the signature scenarios, prints one line per scenario and exits 1
if any failed. The player must exist at the operator with a balance of at least
``--amount`` + 1; the kit rolls back or settles every bet it makes, so the balance ends where
it started (the last scenario checks that).
"""

from __future__ import annotations

import asyncio
import sys
import uuid

import click

from russian_poker.service.tools.conformance.raw import RawTransport
from russian_poker.service.tools.conformance.scenarios import (
    DEFAULT_AMOUNT,
    ScenarioResult,
    run_scenarios,
)
from russian_poker.service.wallet.seamless import SeamlessWallet

__all__ = ["check", "wallet_check"]


async def check(
    *,
    url: str,
    secret: str,
    player: str,
    currency: str,
    operator_id: str,
    session: str | None = None,
    ended_session: str | None = None,
    amount: int = DEFAULT_AMOUNT,
    timeout_ms: int = 2000,
) -> list[ScenarioResult]:
    """Every scenario against the wallet at ``url``, through the seamless adapter."""
    wallet = SeamlessWallet(url, secret, timeout_ms=timeout_ms)
    raw = RawTransport(url, secret, timeout_ms=timeout_ms)
    try:
        return await run_scenarios(
            wallet,
            operator_id=operator_id,
            player_id=player,
            currency=currency,
            session_id=session or f"wallet-check-{uuid.uuid4().hex}",
            ended_session_id=ended_session,
            raw=raw,
            amount=amount,
        )
    finally:
        await wallet.aclose()
        await raw.aclose()


@click.command("wallet-check")
@click.option("--url", required=True, help="The wallet's base URL: calls go to URL/{call}.")
@click.option("--secret", required=True, help="The HMAC secret both sides sign with.")
@click.option("--player", required=True, help="A funded test player, the operator's own id.")
@click.option("--currency", required=True, help="The player's currency (ISO 4217).")
@click.option(
    "--operator-id", default="wallet-check", show_default=True, help="Sent as operator_id."
)
@click.option(
    "--session", default=None, help="A live session of the player (default: a random id)."
)
@click.option(
    "--ended-session",
    default=None,
    help="A session the operator ended, for the win that must still be accepted"
    " (default: a random id the operator never saw).",
)
@click.option(
    "--amount",
    default=DEFAULT_AMOUNT,
    show_default=True,
    type=click.IntRange(min=1),
    help="Minor units per bet; the player needs at least this + 1.",
)
@click.option(
    "--timeout-ms",
    default=2000,
    show_default=True,
    type=click.IntRange(100, 30_000),
    help="Time-out of every call.",
)
def wallet_check(
    url: str,
    secret: str,
    player: str,
    currency: str,
    operator_id: str,
    session: str | None,
    ended_session: str | None,
    amount: int,
    timeout_ms: int,
) -> None:
    """Run the wallet protocol's conformance scenarios against an operator's wallet.

    Prints PASS or FAIL (with what was seen) for each scenario; exits 1 on any failure.
    """
    results = asyncio.run(
        check(
            url=url,
            secret=secret,
            player=player,
            currency=currency,
            operator_id=operator_id,
            session=session,
            ended_session=ended_session,
            amount=amount,
            timeout_ms=timeout_ms,
        )
    )
    for result in results:
        click.echo(result.line())
    if any(result.failed for result in results):
        sys.exit(1)
