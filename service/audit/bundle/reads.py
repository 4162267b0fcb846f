"""A bundle's events as replay reads them (``service.audit.replay.ReplayReads``): the
``verify-bundle`` command re-runs every round from the files, with no database."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence

from russian_poker.events.postgres.replay import CommandMoney
from russian_poker.events.records import RecordedEvent
from russian_poker.events.streams import MONEY_PREFIXES, WALLET_PREFIX

__all__ = ["BundleReads"]


class BundleReads:
    """The events of a bundle, by stream, held in memory."""

    def __init__(self, events: Iterable[RecordedEvent]) -> None:
        self._streams: dict[str, list[RecordedEvent]] = {}
        self._money: dict[str, list[RecordedEvent]] = {}
        for event in events:
            self._streams.setdefault(event.stream_id, []).append(event)
            if event.stream_id.startswith(MONEY_PREFIXES):
                command_id = json.loads(event.metadata).get("command_id")
                if command_id:
                    self._money.setdefault(command_id, []).append(event)

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
