"""A bundle's events as the audit reads them, with no database: replay
(``service.audit.replay.ReplayReads``) re-runs every round from the files, and the money
check (``service.audit.reconcile.RoundMoneyReads``) compares every debit and credit of the
bundle's rounds with what their game events call for."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from russian_poker.events.postgres.reconcile import Orphan, RoundEvent
from russian_poker.events.postgres.replay import CommandMoney
from russian_poker.events.records import RecordedEvent
from russian_poker.events.streams import MONEY_PREFIXES, TABLE_PREFIX, WALLET_PREFIX

__all__ = ["BundleReads"]

_MONEY_TYPES = ("WalletDebited", "WalletCredited")


def _row(event: RecordedEvent) -> RoundEvent:
    return RoundEvent(event.stream_id, event.event_type, event.schema_version, event.data.decode())


class BundleReads:
    """The events of a bundle, held in memory; ``rounds`` are the bundle's own (its proofs),
    the ones the money check chooses."""

    def __init__(self, events: Iterable[RecordedEvent], rounds: Iterable[tuple[str, int]]) -> None:
        self._streams: dict[str, list[RecordedEvent]] = {}
        self._money: dict[str, list[RecordedEvent]] = {}
        self._chosen = set(rounds)
        self._data: dict[int, dict[str, Any]] = {}
        for event in events:
            self._streams.setdefault(event.stream_id, []).append(event)
            self._data[event.global_position] = json.loads(event.data)
            if event.stream_id.startswith(MONEY_PREFIXES):
                command_id = json.loads(event.metadata).get("command_id")
                if command_id:
                    self._money.setdefault(command_id, []).append(event)

    def _of(self, event: RecordedEvent) -> dict[str, Any]:
        """The event's data, parsed once."""
        return self._data[event.global_position]

    # -- replay --------------------------------------------------------------------------

    async def read_stream(self, stream_id: str) -> list[RecordedEvent]:
        return sorted(self._streams.get(stream_id, []), key=lambda e: e.stream_version)

    async def money_of(self, command_ids: Sequence[str]) -> list[CommandMoney]:
        found = [
            CommandMoney(command_id, event)
            for command_id in command_ids
            for event in self._money.get(command_id, [])
        ]
        return sorted(found, key=lambda money: money.event.global_position)

    async def opened_wallets(self, wallet_ids: Iterable[str]) -> set[str]:
        return {
            w
            for w in wallet_ids
            if any(e.event_type == "WalletOpened" for e in self._streams.get(WALLET_PREFIX + w, []))
        }

    # -- the money of the rounds -----------------------------------------------------------

    async def choose_rounds(self, start: datetime | None, end: datetime | None) -> int:
        return len(self._chosen)

    async def settled(self) -> int:
        return sum(
            1
            for stream_id, events in self._streams.items()
            if stream_id.startswith(TABLE_PREFIX)
            for e in events
            if e.event_type == "RoundSettled"
            and (stream_id.removeprefix(TABLE_PREFIX), self._of(e)["round"]) in self._chosen
        )

    async def round_events(self, types: Sequence[str]) -> list[RoundEvent]:
        wanted = set(types)
        return [
            _row(e)
            for stream_id in sorted(self._streams)
            if stream_id.startswith(TABLE_PREFIX)
            for e in self._streams[stream_id]
            if e.event_type in wanted
            and (stream_id.removeprefix(TABLE_PREFIX), self._of(e).get("round")) in self._chosen
        ]

    def _money_events(self) -> list[RecordedEvent]:
        return sorted(
            (
                e
                for stream_id, events in self._streams.items()
                if stream_id.startswith(MONEY_PREFIXES)
                for e in events
                if e.event_type in _MONEY_TYPES
            ),
            key=lambda e: e.global_position,
        )

    async def money_events(self) -> list[RoundEvent]:
        return [
            _row(e)
            for e in self._money_events()
            if (self._of(e).get("table_id"), self._of(e).get("round")) in self._chosen
        ]

    async def orphans(self, start: datetime | None, end: datetime | None) -> list[Orphan]:
        """Money events naming a round of a bundle table that the table never opened (the
        wallets' other tables are not in the bundle: their rounds are not judged here)."""
        opened = {
            (stream_id.removeprefix(TABLE_PREFIX), self._of(e)["round"])
            for stream_id, events in self._streams.items()
            if stream_id.startswith(TABLE_PREFIX)
            for e in events
            if e.event_type == "RoundOpened"
        }
        tables = {t for t, _ in opened}
        found = []
        for e in self._money_events():
            table_id, number = self._of(e).get("table_id"), self._of(e).get("round")
            if table_id in tables and (table_id, number) not in opened:
                found.append(Orphan(e.stream_id, table_id, number, e.global_position))
        return found
