"""Operators as tenants (WALLET-PROTOCOL §1): whose a player, a wallet or a table is.

Player ids are namespaced by operator: operator ``acme``'s ``alice`` plays as
``acme:alice``, and is not operator ``beta``'s ``alice``. The default operator — the
single-tenant service as it was before operators — keeps bare ids, so every existing token,
wallet and table means what it meant. Operator ids cannot hold a ``:``, and the default
operator's player ids cannot either, so a game id always splits one way.
"""

from __future__ import annotations

import re
from typing import Final

from service.rules.tenancy import DEFAULT_OPERATOR, PlayerRef, game_player_id, operator_of

__all__ = [
    "DEFAULT_OPERATOR",
    "OPERATOR_ID",
    "PlayerRef",
    "game_player_id",
    "operator_of",
    "valid_operator_player",
]

OPERATOR_ID: Final = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")
_PLAYER_ID: Final = re.compile(r"^[^\s:/][^\s/]{0,127}$")


def valid_operator_player(operator_id: str, player_id: str) -> bool:
    """Whether an operator may name a player so: no spaces or slashes (ids go in paths),
    and for the default operator no ``:`` (it would read as another operator's player)."""
    if not _PLAYER_ID.match(player_id):
        return False
    return operator_id != DEFAULT_OPERATOR or ":" not in player_id
