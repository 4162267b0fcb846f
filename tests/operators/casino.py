"""A casino integration driven through HTTP: an admin registers operators, operators launch
sessions and open tables, players play with their session tokens; the game's own record of
every wallet call is read back to check it against the operator's ledger."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping
from typing import Any

import httpx

from service.app.auth import mint_token
from tests.api.conftest import SECRET
from tests.processes import eventually
from tests.wallet.reference import ReferenceWallet

__all__ = ["ADMIN", "Casino", "Player", "staff"]


def staff(role: str, operator: str = "default", name: str = "staff") -> dict[str, str]:
    token = mint_token(SECRET, role, name, 6 * 3600, operator=operator)  # type: ignore[arg-type]
    return {"Authorization": f"Bearer {token}"}


ADMIN = staff("admin", name="root")


class Player:
    """A launched session's player."""

    def __init__(self, operator_id: str, player_id: str, launched: Mapping[str, Any]) -> None:
        self.operator_id = operator_id
        self.player_id = player_id
        self.session_id: str = launched["session_id"]
        self.game_id: str = launched["game_player_id"]
        self.headers = {"Authorization": f"Bearer {launched['session_token']}"}


class Casino:
    def __init__(self, client: httpx.AsyncClient, app: Any) -> None:
        self.client = client
        self.app = app
        self._keys = itertools.count(1)

    @property
    def pool(self) -> Any:
        return self.app.state.pool

    async def register(
        self,
        operator_id: str,
        wallet: ReferenceWallet | None = None,
        *,
        currencies: Iterable[str] = ("EUR",),
        timeout_ms: int = 1000,
    ) -> dict[str, Any]:
        config: dict[str, Any] = (
            {
                "mode": "seamless",
                "url": wallet.url,
                "secret": wallet.secret,
                "timeout_ms": timeout_ms,
            }
            if wallet is not None
            else {"mode": "internal"}
        )
        r = await self.client.post(
            "/v1/operators",
            json={
                "operator_id": operator_id,
                "name": operator_id.title(),
                "currencies": list(currencies),
                "wallet": config,
            },
            headers=ADMIN,
        )
        assert r.status_code == 201, r.text
        registered: dict[str, Any] = r.json()
        return registered

    async def launch(self, operator_id: str, player_id: str, currency: str = "EUR") -> Player:
        r = await self.client.post(
            "/v1/sessions",
            json={"player_id": player_id, "currency": currency},
            headers=staff("operator", operator_id),
        )
        assert r.status_code == 201, r.text
        return Player(operator_id, player_id, r.json())

    async def open_table(
        self,
        table_id: str,
        preset: str,
        deck: Iterable[str],
        *,
        operator_id: str | None = None,
        **overrides: Any,
    ) -> dict[str, Any]:
        """A table of ``operator_id``'s, or a shared one (opened by the admin) without."""
        body = {
            "table_id": table_id,
            "preset": preset,
            "overrides": overrides,
            "test_deck": list(deck),
        }
        headers = staff("operator", operator_id) if operator_id else ADMIN
        if operator_id is None:
            body["shared"] = True
        r = await self.client.post("/v1/tables", json=body, headers=headers)
        assert r.status_code == 201, r.text
        view: dict[str, Any] = r.json()
        return view

    async def next_deck(self, table_id: str, deck: Iterable[str]) -> None:
        r = await self.client.put(
            f"/v1/tables/{table_id}/test-deck", json={"cards": list(deck)}, headers=ADMIN
        )
        assert r.status_code == 200, r.text

    async def post(
        self, player: Player, table_id: str, kind: str, *, key: str | None = None, **fields: Any
    ) -> httpx.Response:
        return await self.client.post(
            f"/v1/tables/{table_id}/commands",
            json={"type": kind, **fields},
            headers={**player.headers, "Idempotency-Key": key or f"k{next(self._keys)}"},
        )

    async def send(self, player: Player, table_id: str, kind: str, **fields: Any) -> dict[str, Any]:
        r = await self.post(player, table_id, kind, **fields)
        assert r.status_code == 200, r.text
        table: dict[str, Any] = r.json()["table"]
        return table

    async def view(self, table_id: str, player: Player | None = None) -> dict[str, Any]:
        headers = player.headers if player else ADMIN
        r = await self.client.get(f"/v1/tables/{table_id}", headers=headers)
        assert r.status_code == 200, r.text
        view: dict[str, Any] = r.json()
        return view

    async def calls(self, **where: Any) -> list[dict[str, Any]]:
        """The game's wallet transactions, oldest first, filtered by column values."""
        clauses = " AND ".join(f"{column} = ${i}" for i, column in enumerate(where, 1))
        rows = await self.pool.fetch(
            "SELECT * FROM wallet_transactions"
            + (f" WHERE {clauses}" if clauses else "")
            + " ORDER BY seq",
            *where.values(),
        )
        return [dict(r) for r in rows]

    async def delivered(self, timeout: float = 60) -> None:
        """Wait until the outbox owes nothing (every win and rollback answered)."""

        async def settled() -> bool:
            owed = await self.pool.fetchval(
                "SELECT count(*) FROM wallet_transactions"
                " WHERE status IN ('queued', 'pending', 'accepted')"
            )
            if owed:
                self.app.state.outbox.wake()
            return owed == 0

        await eventually(settled, timeout=timeout, message="the outbox delivered everything")

    async def game_net(self, player: Player) -> int:
        """What the game's record says the player won (credits) minus staked (debits) at the
        operator: committed bets and every win queued."""
        rows = await self.calls(operator_id=player.operator_id, player_id=player.player_id)
        net = 0
        for row in rows:
            if row["kind"] == "bet" and row["status"] == "committed":
                net -= row["amount"]
            elif row["kind"] == "win":
                net += row["amount"]
        return net
