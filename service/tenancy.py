"""Operators as tenants (docs/wallet-protocol.md, "Operators"): whose a player, a wallet or a
table is, and the ids each may take.

Player ids are namespaced by operator: operator ``acme``'s ``alice`` plays as
``acme:alice``, and is not operator ``beta``'s ``alice``. The default operator — the
single-tenant service as it was before operators — keeps bare ids, so every existing token,
wallet and table means what it meant.

Table ids are namespaced the same way: operator ``acme`` asking for table ``vip-1`` opens
``acme.vip-1``, so two operators never compete for a name and a clash tells one nothing of
the other's tables. The default operator's and shared tables keep bare ids.

Every id is plain ASCII from a short, documented alphabet (docs/security.md, "Ids"): no
``:`` or ``.`` where they separate namespaces, no look-alike letters from other scripts, no
invisible characters — an id reads the same to every person and every program.
"""

from __future__ import annotations

import re
from typing import Final

from russian_poker.service.rules.tenancy import (
    DEFAULT_OPERATOR,
    PlayerRef,
    game_player_id,
    operator_of,
)

__all__ = [
    "DEFAULT_OPERATOR",
    "OPERATOR_ID",
    "PLAYER_ID_RULE",
    "TABLE_ID_RULE",
    "PlayerRef",
    "game_player_id",
    "game_table_id",
    "operator_of",
    "valid_operator_player",
    "valid_player_id",
]

OPERATOR_ID: Final = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}\Z")
_PLAYER_ID: Final = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._@-]{0,127}\Z")
_TABLE_NAME: Final = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}\Z")
PLAYER_ID_RULE: Final = (
    "1-128 ASCII letters, digits, '.', '_', '@' and '-', starting with a letter or digit"
)
TABLE_ID_RULE: Final = "1-64 ASCII letters, digits, '-' and '_', starting with a letter or digit"


def valid_player_id(player_id: str) -> bool:
    """Whether ``player_id`` is an operator's own id for a player (never a ``:``, which
    separates the operator in a game id)."""
    return _PLAYER_ID.match(player_id) is not None


def valid_operator_player(operator_id: str, player_id: str) -> bool:
    """Whether an operator may name a player so (the same alphabet for every operator)."""
    return valid_player_id(player_id)


def game_table_id(operator_id: str, requested: str) -> str | None:
    """The id of the table ``operator_id`` asks to open as ``requested`` (its own name, or
    already in its namespace), or ``None`` if that is not a table name."""
    if operator_id != DEFAULT_OPERATOR:
        requested = requested.removeprefix(f"{operator_id}.")
    if not _TABLE_NAME.match(requested):
        return None
    return requested if operator_id == DEFAULT_OPERATOR else f"{operator_id}.{requested}"
