"""What this process last committed: each table's state and the wallets its commands moved.

The command path decides on these instead of loading the table and the acting player's
wallet again. A cached entry is only ever a guess: the append checks the table's expected
version, and every debited wallet's, so a guess that another instance (or a deposit) made
stale fails the append and the command is run again from a fresh load. A refusal decided on
a guess is confirmed the same way before it is answered. Nothing here is ever trusted for
money or for what a player may see; it only saves the round trip and the decoding.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterable, Mapping
from contextlib import asynccontextmanager
from typing import Final

import msgspec
from cachetools import LRUCache

from russian_poker.events.codec import Event
from russian_poker.events.records import RecordedEvent
from russian_poker.events.streams import WALLET_PREFIX
from russian_poker.projections.wallets import HeldWallet, money_moved
from russian_poker.service.rules.state import Table

__all__ = ["CommittedCache"]

DEFAULT_TABLES: Final = 4096
DEFAULT_WALLETS: Final = 65536


class CommittedCache:
    """Tables and wallets as this process's own commands left them (see the module doc)."""

    def __init__(self, *, tables: int = DEFAULT_TABLES, wallets: int = DEFAULT_WALLETS) -> None:
        """At most ``tables`` tables and ``wallets`` wallets, least recently used out
        first; ``tables=0`` keeps nothing, so every command loads its table."""
        self._enabled = tables > 0
        self._tables: LRUCache[str, tuple[int, Table]] = LRUCache(maxsize=max(tables, 1))
        self._wallets: LRUCache[str, HeldWallet] = LRUCache(maxsize=max(wallets, 1))
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}

    @asynccontextmanager
    async def turn(self, table_id: str) -> AsyncIterator[None]:
        """One command at a time per table in this process: two commands racing on one
        table would both decide on the same state and one would have to start over."""
        lock, users = self._locks.get(table_id, (asyncio.Lock(), 0))
        self._locks[table_id] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[table_id]
            if users == 1:
                del self._locks[table_id]
            else:
                self._locks[table_id] = (lock, users - 1)

    def table(self, table_id: str) -> tuple[int, Table] | None:
        return self._tables.get(table_id)

    def wallets(self, wallet_ids: Iterable[str]) -> dict[str, HeldWallet] | None:
        """All the named wallets, or ``None`` if any of them is not cached."""
        held = {}
        for wallet_id in wallet_ids:
            cached = self._wallets.get(wallet_id)
            if cached is None:
                return None
            held[wallet_id] = cached
        return held

    def remember_loaded(self, wallets: Mapping[str, HeldWallet]) -> None:
        if self._enabled:
            self._wallets.update(wallets)

    def committed(
        self,
        table_id: str,
        version: int,
        state: Table,
        recorded: Iterable[RecordedEvent],
        moves: Iterable[Event],
    ) -> None:
        """The table and the wallets after an append this process made."""
        if not self._enabled:
            return
        self._tables[table_id] = (version, state)
        last: dict[str, tuple[int, int]] = {}  # wallet id -> (first, last) stream version
        for event in recorded:
            if event.stream_id.startswith(WALLET_PREFIX):
                wallet_id = event.stream_id.removeprefix(WALLET_PREFIX)
                first = last.get(wallet_id, (event.stream_version, 0))[0]
                last[wallet_id] = (first, event.stream_version)
        net: dict[str, int] = {}
        for move in filter(None, map(money_moved, moves)):
            net[move.wallet_id] = net.get(move.wallet_id, 0) + move.signed
        for wallet_id, (first, now) in last.items():
            before = self._wallets.get(wallet_id)
            if before is None or before.version != first - 1:
                # Moved by someone else since it was cached: the balance is unknown here.
                self._wallets.pop(wallet_id, None)
                continue
            balance = before.wallet.balance + net.get(wallet_id, 0)
            wallet = msgspec.structs.replace(before.wallet, balance=balance)
            self._wallets[wallet_id] = HeldWallet(wallet, now)

    def forget(self, table_id: str, stream_id: str | None = None) -> None:
        """Drop the table's guess, and the wallet's if ``stream_id`` (the stream an append
        found moved on) is a wallet's."""
        self._tables.pop(table_id, None)
        if stream_id is not None and stream_id.startswith(WALLET_PREFIX):
            self._wallets.pop(stream_id.removeprefix(WALLET_PREFIX), None)
