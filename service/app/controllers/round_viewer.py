"""What the back office's round viewer reads besides a round's record and proof: the round
step by step, and the proof that its events are in a signed checkpoint. Both only for a
settled round (before that its cards and deck are secret), and for an operator's staff only
at its own tables: at a shared table the events name other operators' players."""

from __future__ import annotations

from litestar import Controller, get
from litestar.exceptions import NotFoundException

from russian_poker.events.streams import table_stream
from russian_poker.service.app.dependencies import Caller, Owners, Store
from russian_poker.service.app.params import RoundNumber, TableId
from russian_poker.service.app.policy import access
from russian_poker.service.app.responses import problems
from russian_poker.service.audit.steps import RoundSteps, round_steps
from russian_poker.service.chain.inclusion import RoundInclusion, round_inclusion

__all__ = ["RoundViewerController"]


class RoundViewerController(Controller):
    path = "/v1/audit/rounds"
    tags = ("audit",)

    async def _whole_table(self, table_id: str, principal: Caller, owners: Owners) -> None:
        owner = await owners.of(table_id)
        if owner is None or (principal.tenant is not None and owner.shared):
            raise NotFoundException(f"no table {table_id}")

    @get(
        "/{table_id:str}/{number:int}/steps",
        summary="A settled round, event by event",
        description=(
            "Each event of the round, from its opening to its settlement, with the round as"
            " the rules hold it after that event: every box's stakes, cards, decisions and"
            " results, and the dealer's cards. 404 until the round is settled. An operator's"
            " staff see their own tables' rounds, not a shared table's."
        ),
        responses=problems(404),
        opt=access("operator", "auditor", "admin", scope="table"),
        operation_id="getRoundSteps",
    )
    async def steps(
        self,
        table_id: TableId,
        number: RoundNumber,
        store: Store,
        principal: Caller,
        owners: Owners,
    ) -> RoundSteps:
        await self._whole_table(table_id, principal, owners)
        events = await store.replay.read_stream(table_stream(table_id))
        found = round_steps(table_id, events, number)
        if found is None:
            raise NotFoundException(f"round {table_id}:{number} is not settled, or unknown")
        return found

    @get(
        "/{table_id:str}/{number:int}/inclusion",
        summary="The proof a settled round is in a signed checkpoint",
        description=(
            "The round's events and the table's later ones up to the first checkpoint that"
            " covers them, each with every input of its hash; the leaf's Merkle audit path;"
            " and the checkpoint. Recompute each hash, link them to the leaf, the leaf to the"
            " root, and check the signature with `GET /v1/audit/checkpoints/public-key`"
            " (docs/audit.md). `checkpoint` is null until one covers the round; 404 until the"
            " round is settled."
        ),
        responses=problems(404),
        opt=access("operator", "auditor", "admin", scope="table"),
        operation_id="getRoundInclusion",
    )
    async def inclusion(
        self,
        table_id: TableId,
        number: RoundNumber,
        store: Store,
        principal: Caller,
        owners: Owners,
    ) -> RoundInclusion:
        await self._whole_table(table_id, principal, owners)
        found = await round_inclusion(store.chain, table_id, number)
        if found is None:
            raise NotFoundException(f"round {table_id}:{number} is not settled, or unknown")
        return found
