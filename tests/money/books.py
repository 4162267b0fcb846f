"""The two kinds of money the command path runs, behind one face for the contract suite: an
operator of each mode, its funded players, and each player's balance where the operator
keeps it (the game's wallet for an internal operator, the operator's own wallet process
for a seamless one)."""

from __future__ import annotations

from typing import Any, Final, Literal

from tests.operators.casino import Casino, Player, staff
from tests.operators.faults_helpers import fresh_id
from tests.operators.play import internal_player
from tests.wallet.reference import ReferenceWallet

__all__ = ["MODES", "Book", "Mode"]

Mode = Literal["internal", "seamless"]
MODES: Final[tuple[Mode, ...]] = ("internal", "seamless")


class Book:
    """One operator of ``mode`` at the casino, with its tables and players."""

    def __init__(
        self, casino: Casino, wallet: ReferenceWallet, mode: Mode, operator_id: str
    ) -> None:
        self.casino = casino
        self.wallet = wallet
        self.mode = mode
        self.operator_id = operator_id

    @classmethod
    async def open(cls, casino: Casino, wallet: ReferenceWallet, mode: Mode) -> Book:
        operator_id = fresh_id(f"{mode[:3]}")
        await casino.register(
            operator_id, wallet if mode == "seamless" else None, timeout_ms=10_000
        )
        return cls(casino, wallet, mode, operator_id)

    async def player(self, balance: int, player_id: str | None = None) -> Player:
        """A player holding ``balance`` with this operator, with a launched session."""
        player_id = player_id or fresh_id("p")
        if self.mode == "internal":
            return await internal_player(self.casino, self.operator_id, player_id, balance)
        await self.wallet.set_player(player_id, "EUR", balance)
        return await self.casino.launch(self.operator_id, player_id)

    async def table(self, deck: list[str], name: str | None = None, **overrides: Any) -> str:
        """A fresh table of this operator's whose first round deals ``deck``."""
        table_id = f"{self.operator_id}.{name or fresh_id('t')}"
        await self.casino.open_table(
            table_id, "russian", deck, operator_id=self.operator_id, **overrides
        )
        return table_id

    async def balance(self, player: Player) -> int:
        """What the player holds where the operator keeps it, once every credit owed has
        been delivered."""
        await self.casino.delivered()
        if self.mode == "seamless":
            return await self.wallet.balance_of(player.player_id)
        r = await self.casino.client.get(
            f"/v1/wallets/{player.player_id}", headers=staff("operator", self.operator_id)
        )
        assert r.status_code == 200, r.text
        held: dict[str, Any] = r.json()
        return int(held["balance"])
