"""Whose player is it: game player ids are namespaced by operator (docs/wallet-protocol.md §1).

Operator ``acme``'s ``alice`` plays as ``acme:alice`` and is not operator ``beta``'s
``alice``; the default operator (the single-tenant service) keeps bare ids. Pure, so the
rules can seat a table's own operator's players only.
"""

from __future__ import annotations

from typing import Final, NamedTuple

__all__ = ["DEFAULT_OPERATOR", "PlayerRef", "game_player_id", "operator_of"]

DEFAULT_OPERATOR: Final = "default"


class PlayerRef(NamedTuple):
    """A player as their operator knows them."""

    operator_id: str
    player_id: str


def game_player_id(operator_id: str, player_id: str) -> str:
    """The id the game knows the player by (tables, boxes, wallets, recall)."""
    if operator_id == DEFAULT_OPERATOR:
        return player_id
    return f"{operator_id}:{player_id}"


def operator_of(game_id: str) -> PlayerRef:
    """The operator and the operator's own id of a game player id."""
    operator_id, sep, player_id = game_id.partition(":")
    if not sep:
        return PlayerRef(DEFAULT_OPERATOR, game_id)
    return PlayerRef(operator_id, player_id)
