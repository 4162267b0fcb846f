"""``/_admin``: what tests (and a person trying the wallet out) use to set it up and look in.

Unsigned and left out of the OpenAPI document: these are not part of the protocol, and a
real operator's back office looks nothing like them. Bind the wallet to a loopback
address (the default) so nothing else can reach them.
"""

from __future__ import annotations

from typing import Annotated

import msgspec
from litestar import Controller, Response, delete, get, post, put
from litestar.di import NamedDependency
from litestar.exceptions import NotFoundException, ValidationException
from litestar.params import FromPath, FromQuery, JSONBody

from russian_poker.service.tools.reference_wallet.faults import FaultBoard, FaultSpec
from russian_poker.service.tools.reference_wallet.ledger import Ledger, Player

__all__ = ["AdminController", "PlayerSetup"]

_encode = msgspec.json.Encoder().encode


class PlayerSetup(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The body of ``PUT /_admin/players/{player_id}``."""

    currency: str
    balance: Annotated[int, msgspec.Meta(ge=0)]
    blocked: bool = False


class AdminController(Controller):
    path = "/_admin"
    include_in_schema = False

    @get("/ready", sync_to_thread=False)
    def ready(self) -> dict[str, bool]:
        """Up: the ledger's tables exist (the server listens only once they do)."""
        return {"ready": True}

    @post("/faults", status_code=200, sync_to_thread=False)
    def add_fault(
        self, data: JSONBody[FaultSpec], faults: NamedDependency[FaultBoard]
    ) -> list[FaultSpec]:
        try:
            faults.add(data)
        except ValueError as error:
            raise ValidationException(str(error)) from None
        return faults.active()

    @get("/faults", sync_to_thread=False)
    def list_faults(self, faults: NamedDependency[FaultBoard]) -> list[FaultSpec]:
        return faults.active()

    @delete("/faults", sync_to_thread=False)
    def clear_faults(self, faults: NamedDependency[FaultBoard]) -> None:
        faults.clear()

    @put("/players/{player_id:str}")
    async def set_player(
        self, player_id: FromPath[str], data: JSONBody[PlayerSetup], ledger: NamedDependency[Ledger]
    ) -> Player:
        """Create the player, or reset it: currency, balance and blocked as given."""
        return await ledger.set_player(
            Player(
                player_id=player_id,
                currency=data.currency,
                balance=data.balance,
                blocked=data.blocked,
            )
        )

    @get("/players/{player_id:str}")
    async def get_player(self, player_id: FromPath[str], ledger: NamedDependency[Ledger]) -> Player:
        player = await ledger.player(player_id)
        if player is None:
            raise NotFoundException(f"no player {player_id}")
        return player

    @post("/sessions/{session_id:str}/end", status_code=204)
    async def end_session(self, session_id: FromPath[str], ledger: NamedDependency[Ledger]) -> None:
        """From now on bets of this session are refused; wins and rollbacks still apply."""
        await ledger.end_session(session_id)

    @get("/transactions", media_type="application/x-ndjson")
    async def transactions(
        self, ledger: NamedDependency[Ledger], operator_id: FromQuery[str | None] = None
    ) -> Response[bytes]:
        """The operator's export, one JSON line per money call applied (of one operator with
        ``?operator_id=``; a ``wallet-check`` run's calls marked ``source: conformance``):
        what ``russian-poker reconcile --theirs FILE`` compares with the game's own list."""
        rows = await ledger.export(operator_id)
        lines = b"".join(_encode(row) + b"\n" for row in rows)
        return Response(lines, media_type="application/x-ndjson")

    @get("/deliveries")
    async def deliveries(
        self, transaction_id: FromQuery[str], ledger: NamedDependency[Ledger]
    ) -> dict[str, int]:
        """How many times each call with this ``transaction_id`` reached the wallet."""
        return await ledger.deliveries(transaction_id)
