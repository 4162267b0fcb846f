"""A casino of real processes: service instances (``russian-poker serve``, each its own OS
process) on one fresh database, and the reference operator wallet as another process.

The harness registers an operator through the admin API, launches sessions, opens tables
with scripted decks and sends players' commands over HTTP to a chosen instance; it can
SIGKILL an instance and start it again on the same port. :meth:`Deployment.books` then
compares, call by call, the game's record (``wallet_transactions``) with the operator's
ledger (the reference wallet's export and balances): what crash-recovery and multi-instance
tests assert once the outbox has delivered.
"""

from __future__ import annotations

import contextlib
import itertools
from collections import Counter
from collections.abc import AsyncIterator, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import asyncpg
import httpx

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
from tests.processes import SECRET, ServiceProcess, create_database, drop_database, eventually
from tests.wallet.reference import ReferenceWallet

__all__ = [
    "FINAL",
    "Books",
    "Deployment",
    "Player",
    "deployment",
    "staff",
]

FINAL: Final = frozenset({"committed", "refused", "rolled_back", "delivered"})
"""A wallet transaction's statuses once nothing more is owed on it (``manual`` is not:
it is a call that needs a person, which none of these tests may leave behind)."""


def staff(role: str, operator: str = "default", name: str = "staff") -> dict[str, str]:
    """``Authorization`` of an admin or an operator, signed with the processes' secret."""
    return staff_of(SECRET, role, operator, name)


ADMIN: Final = staff("admin", name="root")


@dataclass
class Books:
    """The two ledgers, once they were found to agree."""

    ours: list[dict[str, Any]]
    """The game's wallet transactions of the operator, oldest first."""
    theirs: dict[str, dict[str, Any]]
    """The operator's export, by transaction id."""
    net: dict[str, int] = field(default_factory=dict)
    """Per operator's player id: credits delivered minus bets committed."""

    def of(self, kind: str, status: str | None = None) -> list[dict[str, Any]]:
        return [
            row
            for row in self.ours
            if row["kind"] == kind and (status is None or row["status"] == status)
        ]


class Deployment:
    """Service instances on one database, talking to one reference wallet."""

    def __init__(
        self,
        services: list[ServiceProcess],
        wallet: ReferenceWallet,
        pool: asyncpg.Pool[asyncpg.Record],
    ) -> None:
        self.services = services
        self.wallet = wallet
        self.pool = pool
        self._clients: dict[int, httpx.AsyncClient] = {}
        self._keys = itertools.count(1)

    # -- the processes -------------------------------------------------------------------

    def client(self, via: int = 0) -> httpx.AsyncClient:
        """An HTTP client on instance ``via`` (a new one after each restart: the old
        one's pooled connections died with the process)."""
        if via not in self._clients:
            self._clients[via] = httpx.AsyncClient(base_url=self.services[via].url, timeout=60)
        return self._clients[via]

    async def kill(self, via: int = 0) -> None:
        """SIGKILL: the instance is gone at once, whatever it was doing."""
        await self.services[via].kill()
        client = self._clients.pop(via, None)
        if client is not None:
            await client.aclose()

    async def start(self, via: int = 0) -> None:
        await self.services[via].start_ready()

    async def aclose(self) -> None:
        for client in self._clients.values():
            await client.aclose()
        self._clients.clear()

    # -- the admin's and the operator's side ---------------------------------------------

    async def register(
        self, operator_id: str, *, timeout_ms: int = 5000, currencies: Iterable[str] = ("EUR",)
    ) -> None:
        """A seamless operator whose wallet is the reference wallet."""
        wallet = {
            "mode": "seamless",
            "url": self.wallet.url,
            "secret": self.wallet.secret,
            "timeout_ms": timeout_ms,
        }
        await register(self.client(), ADMIN, operator_id, wallet, currencies)

    async def launch(
        self, operator_id: str, player_id: str, *, balance: int, currency: str = "EUR"
    ) -> Player:
        """The player funded at the operator with ``balance``, and a session launched."""
        await self.wallet.set_player(player_id, currency, balance)
        return await launch(
            self.client(), staff("operator", operator_id), operator_id, player_id, currency
        )

    async def open_table(
        self,
        operator_id: str,
        table_id: str,
        deck: Iterable[str] | None = None,
        *,
        preset: str = "russian",
        overrides: Mapping[str, Any] | None = None,
    ) -> None:
        body: dict[str, Any] = {
            "table_id": table_id,
            "preset": preset,
            "overrides": dict(overrides or {}),
        }
        if deck is not None:
            body["test_deck"] = list(deck)
        r = await self.client().post(
            "/v1/tables", json=body, headers=staff("operator", operator_id)
        )
        assert r.status_code == 201, r.text

    async def stack_deck(self, operator_id: str, table_id: str, deck: Iterable[str]) -> None:
        """The deck of the round taking bets (nothing dealt yet), or else of the next."""
        r = await self.client().put(
            f"/v1/tables/{table_id}/test-deck",
            json={"cards": list(deck)},
            headers=staff("operator", operator_id),
        )
        assert r.status_code == 200, r.text

    # -- the player's side ---------------------------------------------------------------

    def key(self) -> str:
        return f"k{next(self._keys)}"

    async def post(
        self,
        player: Player,
        table_id: str,
        kind: str,
        *,
        key: str | None = None,
        via: int = 0,
        **fields: Any,
    ) -> httpx.Response:
        return await command(self.client(via), player, table_id, kind, key or self.key(), **fields)

    async def send(
        self, player: Player, table_id: str, kind: str, *, via: int = 0, **fields: Any
    ) -> dict[str, Any]:
        """A command that must be accepted; the table as it left it."""
        return table_of(await self.post(player, table_id, kind, via=via, **fields))

    async def view(self, table_id: str, player: Player, *, via: int = 0) -> dict[str, Any]:
        return await view_of(self.client(via), table_id, player.headers)

    # -- the game's record ---------------------------------------------------------------

    async def calls(self, **where: Any) -> list[dict[str, Any]]:
        """The game's wallet transactions, oldest first, filtered by column values."""
        return await wallet_calls(self.pool, **where)

    async def delivered(self, timeout: float = 60) -> None:
        """Wait until nothing is owed: no bet pending, no win or rollback queued. The
        instances' own deliverers do it (they poll; nothing here can wake them)."""

        async def settled() -> bool:
            owed: int = await self.pool.fetchval(
                "SELECT count(*) FROM wallet_transactions WHERE NOT (status = ANY($1::text[]))",
                list(FINAL),
            )
            return owed == 0

        await eventually(settled, timeout=timeout, message="the outbox delivered everything")

    async def books(self, operator_id: str, starts: Mapping[str, int]) -> Books:
        """Check that the operator's ledger equals the game's record, call by call and to
        the unit, with nothing doubled; ``starts`` are the players' opening balances at the
        operator. Call once :meth:`delivered` returned."""
        ours = await self.calls(operator_id=operator_id)
        export = await self.wallet.export()
        theirs = {row["transaction_id"]: row for row in export}
        # The export is one row per call applied: an id twice would be a call applied twice.
        assert len(theirs) == len(export), Counter(r["transaction_id"] for r in export)
        by_id = {row["transaction_id"]: row for row in ours}
        assert len(by_id) == len(ours)
        # Nothing at the operator that the game did not send.
        for tid, row in theirs.items():
            assert tid in by_id, f"the operator applied {tid}, which the game never recorded"
            mine = by_id[tid]
            assert (row["kind"], row["amount"], row["currency"], row["player_id"]) == (
                mine["kind"],
                mine["amount"],
                mine["currency"],
                mine["player_id"],
            ), (row, mine)
        rolled_back = set()
        for row in ours:
            tid, status = row["transaction_id"], row["status"]
            assert status in FINAL, row
            there = theirs.get(tid)
            if row["kind"] == "bet" and status == "committed":
                assert there is not None and there["status"] == "ok", (row, there)
            elif row["kind"] == "bet" and status == "refused":
                assert there is None, (row, there)
            elif row["kind"] == "bet":  # rolled back: its rollback delivered, final
                rollback = by_id.get(f"rollback-{tid}")
                assert rollback is not None and rollback["status"] == "delivered", row
                assert there is None or there["status"] == "rolled_back", (row, there)
                rolled_back.add(tid)
            elif row["kind"] == "rollback":
                assert status == "delivered", row
                assert row["reference_transaction_id"] in rolled_back, row
                # A refund of a bet the operator applied, or the tombstone of one it never saw.
                bet = theirs.get(row["reference_transaction_id"])
                assert there is not None, row
                assert there["status"] == ("ok" if bet is not None else "tombstone"), (row, there)
            else:  # a win: delivered, applied once, with the amount recorded
                assert status == "delivered", row
                assert there is not None and there["status"] == "ok", (row, there)
        # Every round a player staked in was closed, once.
        closes: Counter[tuple[str, str, int]] = Counter()
        staked = set()
        for row in ours:
            place = (row["player_id"], row["table_id"], row["round"])
            if row["kind"] == "win":
                closes[place] += row["round_closed"]
            if row["kind"] == "bet" and row["status"] == "committed":
                staked.add(place)
        for place in staked | set(closes):
            assert closes[place] == 1, (place, closes[place])
        books = Books(ours, theirs)
        for player_id, start in starts.items():
            net = net_of(row for row in ours if row["player_id"] == player_id)
            books.net[player_id] = net
            balance = await self.wallet.balance_of(player_id)
            assert balance == start + net, (player_id, start, net, balance)
        return books


@contextlib.asynccontextmanager
async def deployment(
    server_url: str,
    root: Path,
    wallet: ReferenceWallet,
    *,
    instances: int = 1,
    backoff_max_s: float = 0.2,
) -> AsyncIterator[Deployment]:
    """``instances`` service processes on a fresh database (test mode, no clock, the
    outbox on and retrying within ``backoff_max_s``), all ready; every one is stopped and
    its log tail printed at the end (pytest shows it when the test failed)."""
    database_url = await create_database(server_url, "operators")
    env = {
        "RUSSIAN_POKER_TEST_MODE": "true",
        "RUSSIAN_POKER_CLOCK": "false",
        "RUSSIAN_POKER_WALLET_BACKOFF_MAX_S": str(backoff_max_s),
    }
    services = [
        ServiceProcess(f"service-{i}", database_url, root / f"service-{i}", env=env)
        for i in range(instances)
    ]
    pool = await asyncpg.create_pool(database_url, min_size=1, max_size=4)
    casino = Deployment(services, wallet, pool)
    try:
        for service in services:
            service.start()
        for service in services:
            await service.wait_ready()
        yield casino
    finally:
        await casino.aclose()
        for service in services:
            if service.running:
                with contextlib.suppress(AssertionError):
                    await service.terminate(timeout=20)
            service.stop_now()
            print(f"----- {service.name} (pids {service.pids}) -----\n{service.log_tail(60)}")
        print(f"----- {wallet} -----\n{wallet.log_tail(40)}")
        await pool.close()
        await drop_database(server_url, database_url)
