"""``russian-poker token``: mint a bearer token on the service's host.

Light on purpose: scripts call it once per token, so it loads the settings and the JWT
library and nothing of the app or the database (tests/cli/test_lazy.py).
"""

from __future__ import annotations

import click

from russian_poker.service.settings import ConfigurationError, load_settings
from russian_poker.service.tenancy import (
    DEFAULT_OPERATOR,
    OPERATOR_ID,
    PLAYER_ID_RULE,
    game_player_id,
    valid_player_id,
)
from russian_poker.service.tokens import mint_token

__all__ = ["token"]


@click.command()
@click.option("--player", "player", help="Mint a player token for this player id.")
@click.option(
    "--role", type=click.Choice(["operator", "auditor", "admin"]), help="Mint a staff token."
)
@click.option(
    "--operator",
    "operator_id",
    default=DEFAULT_OPERATOR,
    show_default=True,
    help="The operator the token acts for (a player's: whose player they are).",
)
@click.option("--name", default="staff", show_default=True, help="Subject of a staff token.")
@click.option("--ttl", default=None, type=click.IntRange(1, 86_400 * 30), help="Seconds valid.")
def token(
    player: str | None, role: str | None, operator_id: str, name: str, ttl: int | None
) -> None:
    """Print a bearer token signed with the same secret ``serve`` uses.

    Staff tokens come from here, on the service's host, which alone holds the secret:
    operators' platforms use API keys of their own (docs/integration.md, "Credentials").
    A player's token without a session (``--player``) is for development and test mode;
    production refuses it (players get theirs from a launched session)."""
    if (player is None) == (role is None):
        raise click.UsageError("give exactly one of --player ID or --role operator|auditor|admin")
    if operator_id != DEFAULT_OPERATOR and not OPERATOR_ID.match(operator_id):
        raise click.UsageError("--operator: lower-case letters, digits, - and _")
    try:
        settings = load_settings()
    except ConfigurationError as exc:
        raise click.ClickException(str(exc)) from None
    lifetime = ttl or settings.jwt_ttl_s
    if player is not None:
        if settings.environment == "production":
            raise click.ClickException(
                "--player: a player's token comes from a launched session (POST /v1/sessions);"
                " tokens without one are for development and test mode"
            )
        if not valid_player_id(player):
            raise click.UsageError(f"--player: {PLAYER_ID_RULE}")
        subject = game_player_id(operator_id, player)
        click.echo(
            mint_token(settings.jwt_secret, "player", subject, lifetime, operator=operator_id)
        )
    else:
        click.echo(
            mint_token(settings.jwt_secret, role, name, lifetime, operator=operator_id)  # type: ignore[arg-type]
        )
