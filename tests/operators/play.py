"""Rounds played through HTTP for the reconciliation and tenancy suites: one player, one box,
from SitDown to settlement, and the figures the game recorded for them."""

from __future__ import annotations

from typing import Any

from tests.operators.casino import Casino, Player, staff
from tests.rules.scenario import deck_for

__all__ = [
    "DEALER",
    "JACKS",
    "TRIPS",
    "deck",
    "internal_player",
    "play_round",
    "play_together",
    "settled_box",
]

TRIPS = "Qs Qd Qh 5c 7d"
JACKS = "Js Jd Jh 4c 8d"
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


async def internal_player(
    casino: Casino, operator_id: str, player_id: str, balance: int, currency: str = "EUR"
) -> Player:
    """A player of an internal operator: a wallet opened and funded by the operator, and a
    launched session."""
    headers = staff("operator", operator_id)
    r = await casino.client.post(
        "/v1/wallets", json={"wallet_id": player_id, "currency": currency}, headers=headers
    )
    assert r.status_code == 201, r.text
    r = await casino.client.post(
        f"/v1/wallets/{player_id}/deposits",
        json={"transfer_id": f"fund-{player_id}", "amount": balance},
        headers=headers,
    )
    assert r.status_code == 200, r.text
    return await casino.launch(operator_id, player_id, currency)


async def play_together(
    casino: Casino, table_id: str, antes: list[tuple[Player, int, int]]
) -> dict[int, dict[str, Any]]:
    """One round of several players at one table: ``(player, box, ante)`` each, boxes in
    play order; every box plays. The settled boxes by number."""
    for player, box, ante in antes:
        await casino.send(player, table_id, "PlaceAnte", box=box, ante=ante)
    for player in {id(p): p for p, _, _ in antes}.values():
        table = await casino.send(player, table_id, "Deal")
    await casino.next_deck(table_id, deck_for([TRIPS, JACKS], DEALER))
    for player, box, _ in antes:
        table = await casino.send(player, table_id, "Play", box=box)
    return {b["box"]: b for b in table["previous_round"]["boxes"]}
