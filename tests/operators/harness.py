"""What both operator harnesses do the same way over HTTP and in the game's record: the
in-process :class:`tests.operators.casino.Casino` and the real-process
:class:`tests.operators.processes.Deployment` differ in how they reach the service (and with
which JWT secret), not in what they ask it."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import asyncpg
import httpx

from russian_poker.service.app.auth import mint_token

__all__ = [
    "Player",
    "command",
    "launch",
    "net_of",
    "register",
    "staff_of",
    "table_of",
    "view_of",
    "wallet_calls",
]


def staff_of(secret: str, role: str, operator: str, name: str) -> dict[str, str]:
    """``Authorization`` of an admin or an operator, signed with ``secret``."""
    token = mint_token(secret, role, name, 6 * 3600, operator=operator)  # type: ignore[arg-type]
    return {"Authorization": f"Bearer {token}"}


class Player:
    """A launched session's player."""

    def __init__(self, operator_id: str, player_id: str, launched: Mapping[str, Any]) -> None:
        self.operator_id = operator_id
        self.player_id = player_id
        self.session_id: str = launched["session_id"]
        self.game_id: str = launched["game_player_id"]
        self.headers = {"Authorization": f"Bearer {launched['session_token']}"}

    def __repr__(self) -> str:
        return f"<player {self.game_id}>"


async def register(
    client: httpx.AsyncClient,
    admin: Mapping[str, str],
    operator_id: str,
    wallet: Mapping[str, Any],
    currencies: Iterable[str],
) -> dict[str, Any]:
    """Register ``operator_id`` with the ``wallet`` configuration; the registration."""
    r = await client.post(
        "/v1/operators",
        json={
            "operator_id": operator_id,
            "name": operator_id.title(),
            "currencies": list(currencies),
            "wallet": dict(wallet),
        },
        headers=dict(admin),
    )
    assert r.status_code == 201, r.text
    registered: dict[str, Any] = r.json()
    return registered


async def launch(
    client: httpx.AsyncClient,
    operator: Mapping[str, str],
    operator_id: str,
    player_id: str,
    currency: str,
) -> Player:
    """A session launched by the operator (``operator`` is its ``Authorization``)."""
    r = await client.post(
        "/v1/sessions",
        json={"player_id": player_id, "currency": currency},
        headers=dict(operator),
    )
    assert r.status_code == 201, r.text
    return Player(operator_id, player_id, r.json())


async def command(
    client: httpx.AsyncClient, player: Player, table_id: str, kind: str, key: str, **fields: Any
) -> httpx.Response:
    """The player's command ``kind`` at the table, with idempotency key ``key``."""
    return await client.post(
        f"/v1/tables/{table_id}/commands",
        json={"type": kind, **fields},
        headers={**player.headers, "Idempotency-Key": key},
    )


def table_of(r: httpx.Response) -> dict[str, Any]:
    """The table as an accepted command left it."""
    assert r.status_code == 200, r.text
    table: dict[str, Any] = r.json()["table"]
    return table


async def view_of(
    client: httpx.AsyncClient, table_id: str, headers: Mapping[str, str]
) -> dict[str, Any]:
    """The table as the holder of ``headers`` sees it."""
    r = await client.get(f"/v1/tables/{table_id}", headers=dict(headers))
    assert r.status_code == 200, r.text
    view: dict[str, Any] = r.json()
    return view


async def wallet_calls(pool: asyncpg.Pool[asyncpg.Record], **where: Any) -> list[dict[str, Any]]:
    """The game's wallet transactions, oldest first, filtered by column values."""
    clauses = " AND ".join(f"{column} = ${i}" for i, column in enumerate(where, 1))
    rows = await pool.fetch(
        "SELECT * FROM wallet_transactions"
        + (f" WHERE {clauses}" if clauses else "")
        + " ORDER BY seq",
        *where.values(),
    )
    return [dict(r) for r in rows]


def net_of(rows: Iterable[Mapping[str, Any]]) -> int:
    """What the rows credit (every win) minus what they debit (committed bets): a player's
    net at the operator by the game's record."""
    net = 0
    for row in rows:
        if row["kind"] == "bet" and row["status"] == "committed":
            net -= row["amount"]
        elif row["kind"] == "win":
            net += row["amount"]
    return net
