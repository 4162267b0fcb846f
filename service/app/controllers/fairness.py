"""A settled round's proof record: its seeds and every card taken from its deck, for anyone
who may see the table to check offline (``russian-poker verify --record``, docs/fairness.md)."""

from __future__ import annotations

from litestar import Controller, get
from litestar.exceptions import NotFoundException

from russian_poker.service.app.dependencies import Store
from russian_poker.service.app.params import RoundNumber, TableId
from russian_poker.service.app.policy import access
from russian_poker.service.app.responses import problems
from russian_poker.service.fairness.proof import RoundProof, load_proof

__all__ = ["FairnessController"]


class FairnessController(Controller):
    tags = ("fairness",)

    @get(
        "/v1/tables/{table_id:str}/rounds/{number:int}/proof",
        summary="A settled round's proof: seeds, client seeds and every card, to verify",
        description=(
            "Everything needed to re-derive the round's deck and check every card dealt and"
            " drawn: the commitment, the revealed server seed, each box's client seed, the deal,"
            " each draw in order and the dealer's replacements (docs/fairness.md). Only a"
            " settled round has one: before that the seed is secret (404). Anyone who may see"
            " the table may read it; after settlement every card is public at the table."
        ),
        responses=problems(404),
        opt=access("player", "operator", "auditor", "admin", scope="table"),
        operation_id="getRoundProof",
    )
    async def proof(self, table_id: TableId, number: RoundNumber, store: Store) -> RoundProof:
        try:
            return await load_proof(store.events, table_id, number)
        except LookupError as error:
            raise NotFoundException(str(error)) from None
