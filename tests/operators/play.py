"""Rounds played through HTTP for the reconciliation and tenancy suites: one player, one box,
from SitDown to settlement, and the figures the game recorded for them."""

from __future__ import annotations

from typing import Any

from tests.operators.casino import Casino, Player
from tests.rules.scenario import deck_for

__all__ = ["DEALER", "TRIPS", "deck", "play_round", "settled_box"]

TRIPS = "Qs Qd Qh 5c 7d"
DEALER = "9s 9c Ah Kd 2h"  # a pair of nines: the dealer qualifies, trips win


def deck() -> list[str]:
    """One box of trips against a qualifying dealer."""
    return list(deck_for([TRIPS], DEALER))


async def play_round(
    casino: Casino, player: Player, table_id: str, *, ante: int = 100, sit: bool = True
) -> dict[str, Any]:
    """Ante, deal and play box 1; the settled round's box 1 (its ``result`` has ``net``).
    The table's next round is scripted to the same deck, so rounds can follow each other."""
    if sit:
        await casino.send(player, table_id, "SitDown")
    await casino.send(player, table_id, "PlaceAnte", box=1, ante=ante)
    await casino.send(player, table_id, "Deal")
    await casino.next_deck(table_id, deck())
    settled = await casino.send(player, table_id, "Play", box=1)
    return settled_box(settled)


def settled_box(table: dict[str, Any]) -> dict[str, Any]:
    box: dict[str, Any] = next(b for b in table["previous_round"]["boxes"] if b["box"] == 1)
    return box
