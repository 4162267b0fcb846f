"""Several appends in one statement: group commit's unit of work.

Each append of a batch is the statement :func:`events.store.append` would run for it, with
its parameters renumbered and its CTEs (``appended`` and every side write) renamed apart,
so one statement does them all: one round trip, one plan start, one commit for the batch
instead of one each. Per append it is the same work in the same order (its streams locked
before its side writes run), so all of it commits, or none.

A batch is atomic, so an error in one append would fail them all: :class:`GroupCommit`
(:mod:`events.group_commit`) only batches appends of disjoint streams, and runs each append
of a failed batch again on its own, so a conflict or a duplicate fails only its own append.
Nor may one append make the others wait: a batch waits at most :data:`LOCK_TIMEOUT` for a
lock another transaction holds (a stream being appended to by another instance), then
fails, and its appends run alone.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Final

from events.records import RecordedEvent, StreamAppend
from events.store import (
    APPEND,
    AnyConnection,
    SideWrites,
    append,
    prepared_append,
    recorded_events,
)

__all__ = ["LOCK_TIMEOUT", "BatchItem", "append_alone", "append_batch", "batch_statement"]

_PARAMETER: Final = re.compile(r"\$(\d+)")
_COLUMNS: Final = "event_id, global_position, tx_id, stream_version, recorded_at"
LOCK_TIMEOUT: Final = "50ms"
"""How long a batch waits for a lock another transaction holds before it gives up and its
appends run alone (its own transaction's setting only: ``set_config(…, true)``)."""
_GUARD: Final = f"lock_guard AS (SELECT set_config('lock_timeout', '{LOCK_TIMEOUT}', true))"
_GUARDED: Final = "FROM (SELECT FROM lock_guard) AS guard, LATERAL event_store_append("


@dataclass(frozen=True, eq=False)
class BatchItem:
    """One append of a batch: what :func:`events.store.append` takes (no NOTIFY: a batch
    is the hot path, which wakes listeners after commit)."""

    appends: Sequence[StreamAppend]
    command_id: str | None = None
    command_result: bytes | None = None
    side_writes: SideWrites | None = None
    streams: frozenset[str] = field(init=False, default=frozenset())

    def __post_init__(self) -> None:
        object.__setattr__(self, "streams", frozenset(a.stream_id for a in self.appends))

    @property
    def shape(self) -> str:
        """What the item's statement text depends on (its side writes; parameters are
        numbered by position): items of one shape make one text."""
        return "\n".join(self.side_writes.ctes) if self.side_writes else ""

    def _prepared(self) -> tuple[str, list[Any], list[StreamAppend], Any]:
        return prepared_append(
            self.appends,
            command_id=self.command_id,
            command_result=self.command_result,
            notify_in_statement=False,
            side_writes=self.side_writes,
        )


def batch_statement(items: Sequence[BatchItem]) -> tuple[str, list[Any], list[Any]]:
    """The statement for ``items``, its arguments, and what reads each item's rows back.

    The rows it returns carry ``item``, the item's index (from 1)."""
    arguments: list[Any] = []
    readers: list[Any] = []
    shapes: list[_Shape] = []
    for item in items:
        _, own, ordered, flat = item._prepared()
        readers.append((ordered, flat))
        arguments.extend(own)
        writes = item.side_writes
        shapes.append(
            (tuple(writes.names), tuple(writes.ctes), len(own)) if writes else ((), (), len(own))
        )
    return _text(tuple(shapes)), arguments, readers


_Shape = tuple[tuple[str, ...], tuple[str, ...], int]
"""An item's CTE names, its CTEs and its number of parameters: all its text depends on."""


@lru_cache(maxsize=1024)
def _text(shapes: tuple[_Shape, ...]) -> str:
    """The batch's text, made once per sequence of shapes (renaming is regex work)."""
    ctes: list[str] = []
    results: list[str] = []
    offset = 0
    for number, (names, own_ctes, parameters) in enumerate(shapes, start=1):
        apart = _Renamer(["appended", *names], number, offset)
        offset += parameters
        # LATERAL: the append runs after the guard has set the batch's lock_timeout.
        append = apart(APPEND).strip().replace("FROM event_store_append(", _GUARDED, 1)
        ctes.append(f"appended_{number} AS ({append})")
        ctes.extend(apart(cte) for cte in own_ctes)
        results.append(f"SELECT {number} AS item, {_COLUMNS} FROM appended_{number}")
    return f"WITH {_GUARD},\n" + ",\n".join(ctes) + "\n" + "\nUNION ALL\n".join(results)


class _Renamer:
    """One item's SQL made to live beside the others': parameters moved past the items
    before it, its CTE names given its number."""

    def __init__(self, names: Sequence[str], number: int, offset: int) -> None:
        self._names = re.compile(r"\b(" + "|".join(map(re.escape, names)) + r")\b")
        self._number = number
        self._offset = offset

    def __call__(self, sql: str) -> str:
        moved = _PARAMETER.sub(self._parameter, sql)
        return self._names.sub(self._name, moved)

    def _parameter(self, match: re.Match[str]) -> str:
        return f"${int(match.group(1)) + self._offset}"

    def _name(self, match: re.Match[str]) -> str:
        return f"{match.group(1)}_{self._number}"


async def append_batch(
    conn: AnyConnection, items: Sequence[BatchItem]
) -> list[list[RecordedEvent]]:
    """Append every item in one statement; each item's events as recorded, in item order.

    Raises whatever the statement raised (``asyncpg.PostgresError``, untranslated: which
    item failed is not known), and then nothing of any item is appended."""
    statement, arguments, readers = batch_statement(items)
    rows = await conn.fetch(statement, *arguments)
    by_item: dict[int, list[Any]] = {number: [] for number in range(1, len(items) + 1)}
    for row in rows:
        by_item[row["item"]].append(row)
    return [
        recorded_events(by_item[number], ordered, flat)
        for number, (ordered, flat) in enumerate(readers, start=1)
    ]


async def append_alone(conn: AnyConnection, item: BatchItem) -> list[RecordedEvent]:
    """``item`` appended by its own statement, as :func:`events.store.append` does it."""
    return await append(
        conn,
        item.appends,
        command_id=item.command_id,
        command_result=item.command_result,
        notify=False,
        side_writes=item.side_writes,
    )
