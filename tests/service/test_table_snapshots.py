"""The table's row is a snapshot written at round boundaries, and a summary kept current by
every command: whatever the snapshot's lag, every load is the fold of the whole stream."""

from __future__ import annotations

from typing import Any

import asyncpg

from russian_poker.events.codec import decode_event
from russian_poker.events.commands import Actor, Command
from russian_poker.events.postgres import tables
from russian_poker.events.postgres.rebuild import RebuildStore
from russian_poker.events.postgres.store import read_stream
from russian_poker.events.streams import table_stream
from russian_poker.projections.rebuild import rebuild
from russian_poker.projections.tables import SNAPSHOT_EVERY
from russian_poker.service.application.commands import CommandService
from russian_poker.service.application.results import CommandResult
from russian_poker.service.bootstrap import command_service, transfer_service
from russian_poker.service.rules.evolve import fold
from russian_poker.service.rules.state import Table
from tests.audit.bots import default_plans, fund_players, play_tables


class _Checked:
    """The command service; after every command, checks its table's row against the fold of
    its stream."""

    def __init__(self, pool: asyncpg.Pool[asyncpg.Record]) -> None:
        self._commands: CommandService = command_service(pool)
        self.pool = pool
        self.checked = 0
        self.snapshots: set[tuple[str, int]] = set()
        self.lags: list[int] = []

    async def execute_with_state(
        self, table_id: str, command: Command, actor: Actor, **kwargs: Any
    ) -> tuple[CommandResult, Table | None]:
        answer = await self._commands.execute_with_state(table_id, command, actor, **kwargs)
        await self._check(table_id)
        return answer

    async def execute(
        self, table_id: str, command: Command, actor: Actor, **kwargs: Any
    ) -> CommandResult:
        return (await self.execute_with_state(table_id, command, actor, **kwargs))[0]

    async def close(self) -> None:
        await self._commands.close()

    async def _check(self, table_id: str) -> None:
        async with self.pool.acquire() as conn, conn.transaction(isolation="repeatable_read"):
            row = await conn.fetchrow(
                "SELECT version, name, game, status, currency FROM table_states"
                " WHERE table_id = $1",
                table_id,
            )
            records = await read_stream(conn, table_stream(table_id))
            loaded = await tables.load(conn, table_id)
            for_command = await tables.load_for_command(conn, table_id, "never-sent")
        folded = fold(
            Table(), (decode_event(r.event_type, r.schema_version, r.data) for r in records)
        )
        head = records[-1].stream_version
        assert loaded == (folded, head)
        assert (for_command.state, for_command.version) == (folded, head)
        assert row is not None and row["version"] <= head
        summary = (folded.name, folded.rules.game, folded.status, folded.rules.currency)
        assert (row["name"], row["game"], row["status"], row["currency"]) == summary
        self.checked += 1
        self.snapshots.add((table_id, row["version"]))
        self.lags.append(head - row["version"])


async def test_every_load_is_the_fold_of_the_stream(db: asyncpg.Pool[asyncpg.Record]) -> None:
    plans = default_plans(3, prefix="snap")
    await fund_players(transfer_service(db), plans)
    checked = _Checked(db)
    try:
        settled, commands = await play_tables(checked, db, plans, 6, seed=3)
    finally:
        await checked.close()
    assert settled >= 3 and checked.checked == commands
    # The point of it: most commands leave the snapshot where it was.
    assert len(checked.snapshots) < commands / 2, (len(checked.snapshots), commands)
    assert max(checked.lags) > 0
    assert max(checked.lags) < 2 * SNAPSHOT_EVERY
    async with db.acquire() as conn:
        report = await rebuild(RebuildStore(conn), "tables")
    assert not report.differed, report.details
