"""A casino integration driven through HTTP: an admin registers operators, operators launch
sessions and open tables, players play with their session tokens; the game's own record of
every wallet call is read back to check it against the operator's ledger."""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from typing import Any

import httpx

from tests.api.conftest import SECRET
from tests.operators.harness import (
    Player,
    command,
    launch,
    net_of,
    register,
    staff_of,
    table_of,
    view_of,
    wallet_calls,
)
from tests.processes import eventually
from tests.wallet.reference import ReferenceWallet

__all__ = ["ADMIN", "Casino", "Player", "staff"]


def staff(role: str, operator: str = "default", name: str = "staff") -> dict[str, str]:
    return staff_of(SECRET, role, operator, name)


ADMIN = staff("admin", name="root")


class Casino:
    def __init__(self, client: httpx.AsyncClient, app: Any) -> None:
        self.client = client
        self.app = app
        self._keys = itertools.count(1)

    @property
    def pool(self) -> Any:
        return self.app.state.services.pool

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
        return await register(self.client, ADMIN, operator_id, config, currencies)

    async def launch(self, operator_id: str, player_id: str, currency: str = "EUR") -> Player:
        return await launch(
            self.client, staff("operator", operator_id), operator_id, player_id, currency
        )

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
        return await command(
            self.client, player, table_id, kind, key or f"k{next(self._keys)}", **fields
        )

    async def send(self, player: Player, table_id: str, kind: str, **fields: Any) -> dict[str, Any]:
        return table_of(await self.post(player, table_id, kind, **fields))

    async def view(self, table_id: str, player: Player | None = None) -> dict[str, Any]:
        headers = player.headers if player else ADMIN
        return await view_of(self.client, table_id, headers)

    async def calls(self, **where: Any) -> list[dict[str, Any]]:
        """The game's wallet transactions, oldest first, filtered by column values."""
        return await wallet_calls(self.pool, **where)

    async def delivered(self, timeout: float = 60) -> None:
        """Wait until the outbox owes nothing (every win and rollback answered)."""

        async def settled() -> bool:
            owed = await self.pool.fetchval(
                "SELECT count(*) FROM wallet_transactions"
                " WHERE status IN ('queued', 'pending', 'accepted')"
            )
            if owed:
                self.app.state.services.outbox.wake()
            return owed == 0

        await eventually(settled, timeout=timeout, message="the outbox delivered everything")

    async def game_net(self, player: Player) -> int:
        """What the game's record says the player won (credits) minus staked (debits) at the
        operator: committed bets and every win queued."""
        return net_of(await self.calls(operator_id=player.operator_id, player_id=player.player_id))
