"""What the wallet fault suites share: a casino and a reference wallet that live for a whole
module (each test makes its own operator, players and tables, so nothing of one test is
another's), fresh ids, and the checks of money at both ends.

The checks compare three records that are kept apart on purpose: the game's
``wallet_transactions``, the reference wallet's ledger (its balance and its export), and the
wallet's log of every delivery that reached it (read from its own database, which is where
the order of arrivals is kept).
"""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import AsyncIterator, Iterable
from pathlib import Path
from typing import Any, Final, NamedTuple

import asyncpg
import httpx

from russian_poker.service.app import create_app
from tests.api.conftest import fresh_settings
from tests.api.live_server import serving
from tests.operators.casino import Casino, Player
from tests.processes import create_database, drop_database
from tests.rules.scenario import deck_for
from tests.wallet.reference import ReferenceWallet

__all__ = [
    "DEALER",
    "START",
    "TRIPS",
    "WINNING_DECK",
    "Seat",
    "assert_ledgers_agree",
    "assert_no_bet_after_its_rollback",
    "closing_calls",
    "deliveries_of",
    "export_net",
    "fresh_id",
    "new_operator",
    "new_player",
    "quiet",
    "running_casino",
    "running_wallet",
    "seat",
    "table_state",
]

START: Final = 100_000
TRIPS: Final = "Qs Qd Qh 5c 7d"
DEALER: Final = "9s 9c Ah Kd 2h"  # a pair of nines: the dealer qualifies, and trips beat it
WINNING_DECK: Final = deck_for([TRIPS], DEALER)


def fresh_id(prefix: str) -> str:
    """An id no other test of the module (or the reference wallet's ledger) has used."""
    return f"{prefix}{uuid.uuid4().hex[:10]}"


# -- processes that live for a module ------------------------------------------------------


@contextlib.asynccontextmanager
async def running_casino(
    database_url: str, data_dir: Path, **overrides: Any
) -> AsyncIterator[Casino]:
    """The service in-process on a real port, as the ``casino`` fixture builds it (clock off,
    outbox on, retrying fast), with ``overrides`` of its settings."""
    chosen: dict[str, Any] = {
        "clock": False,
        "rate_limit": 0,
        "wallet_backoff_max_s": 0.2,
        **overrides,
    }
    settings = await fresh_settings(database_url, data_dir, **chosen)
    app = create_app(settings)
    async with serving(app) as url, httpx.AsyncClient(base_url=url, timeout=30) as client:
        yield Casino(client, app)


@contextlib.asynccontextmanager
async def running_wallet(server_url: str, log_dir: Path) -> AsyncIterator[ReferenceWallet]:
    """A correct reference wallet process on a database of its own, as the
    ``reference_wallet`` fixture starts it; stopped and its database dropped afterwards."""
    url = await create_database(server_url, "refwallet", migrated=False)
    wallet = ReferenceWallet(url, log_dir)
    try:
        await wallet.start_ready()
        yield wallet
    finally:
        try:
            await wallet.stop()
        finally:
            wallet.stop_now()
            await drop_database(server_url, url)


async def quiet(casino: Casino, wallet: ReferenceWallet) -> None:
    """Between tests sharing the processes: nothing owed any more, no fault left on."""
    await wallet.clear_faults()
    await casino.delivered()


# -- a fresh operator, player and table ------------------------------------------------------


class Seat(NamedTuple):
    """A player of a fresh operator, seated at a fresh table of that operator's."""

    operator_id: str
    player: Player
    table_id: str


async def new_operator(casino: Casino, wallet: ReferenceWallet, *, timeout_ms: int) -> str:
    operator_id = fresh_id("op")
    await casino.register(operator_id, wallet, timeout_ms=timeout_ms)
    return operator_id


async def new_player(
    casino: Casino, wallet: ReferenceWallet, operator_id: str, *, balance: int = START
) -> Player:
    """A player with ``balance`` at the operator and a launched session."""
    player_id = fresh_id("p")
    await wallet.set_player(player_id, "EUR", balance)
    return await casino.launch(operator_id, player_id)


async def seat(
    casino: Casino,
    wallet: ReferenceWallet,
    *,
    balance: int = START,
    timeout_ms: int = 2000,
    deck: Iterable[str] = WINNING_DECK,
    preset: str = "russian",
) -> Seat:
    """A fresh operator with one player (``balance`` at the operator), seated at a fresh
    table dealing ``deck`` in its first round."""
    operator_id = await new_operator(casino, wallet, timeout_ms=timeout_ms)
    player = await new_player(casino, wallet, operator_id, balance=balance)
    table_id = f"{operator_id}.{fresh_id('t')}"
    await casino.open_table(table_id, preset, deck, operator_id=operator_id)
    await casino.send(player, table_id, "SitDown")
    return Seat(operator_id, player, table_id)


def table_state(view: dict[str, Any]) -> tuple[Any, ...]:
    """What a refused or failed command must leave as it was: the version and the boxes."""
    round_ = view["round"] or {}
    return (
        view["version"],
        view["free_boxes"],
        view["boxes_in_play"],
        round_.get("number"),
        round_.get("phase"),
        round_.get("boxes"),
    )


# -- the operator's side ------------------------------------------------------------------


def export_net(rows: Iterable[dict[str, Any]]) -> int:
    """What the operator's export says the player won minus staked: a bet applied is a
    debit (a rolled back one too: its refund is the rollback's own row), an applied
    rollback a refund, a win a credit; a tombstone moved nothing."""
    net = 0
    for row in rows:
        if row["kind"] == "bet":
            net -= row["amount"]
        elif row["kind"] == "win" or (row["kind"] == "rollback" and row["status"] == "ok"):
            net += row["amount"]
    return net


async def deliveries_of(wallet: ReferenceWallet) -> list[tuple[int, str, str | None]]:
    """Every call that reached the wallet, in the order it arrived: (id, call, transaction
    id). Read from the wallet's own database, where it logs each arrival before anything
    else (a fault included)."""
    conn = await asyncpg.connect(wallet.database_url)
    try:
        rows = await conn.fetch(
            "SELECT id, call, transaction_id FROM reference_wallet.deliveries ORDER BY id"
        )
    finally:
        await conn.close()
    return [(row["id"], row["call"], row["transaction_id"]) for row in rows]


async def assert_no_bet_after_its_rollback(wallet: ReferenceWallet, bet_ids: Iterable[str]) -> None:
    """No bet reached the wallet again once its rollback had been sent
    (docs/wallet-protocol.md §3.2), and none more than once but through a duplicating fault (two
    together)."""
    arrivals = await deliveries_of(wallet)
    for bet_id in bet_ids:
        bets = [i for i, call, tid in arrivals if call == "bet" and tid == bet_id]
        rollbacks = [
            i for i, call, tid in arrivals if call == "rollback" and tid == f"rollback-{bet_id}"
        ]
        assert len(bets) <= 2, f"bet {bet_id} was sent {len(bets)} times"
        if rollbacks:
            assert all(i < min(rollbacks) for i in bets), f"bet {bet_id} sent after its rollback"


async def closing_calls(casino: Casino, player: Player) -> dict[tuple[str, int], int]:
    """For each round (table, round) in which the player had a committed bet, how many of
    the round's wins were marked ``round_closed``."""
    rows = await casino.pool.fetch(
        """
        SELECT b.table_id, b.round,
               (SELECT count(*) FROM wallet_transactions w
                WHERE w.kind = 'win' AND w.round_closed AND w.operator_id = b.operator_id
                  AND w.player_id = b.player_id AND w.table_id = b.table_id
                  AND w.round = b.round) AS closed
        FROM wallet_transactions b
        WHERE b.kind = 'bet' AND b.status = 'committed' AND b.operator_id = $1
          AND b.player_id = $2
        GROUP BY b.operator_id, b.player_id, b.table_id, b.round
        """,
        player.operator_id,
        player.player_id,
    )
    return {(row["table_id"], row["round"]): row["closed"] for row in rows}


async def assert_ledgers_agree(
    casino: Casino, wallet: ReferenceWallet, player: Player, *, start: int = START
) -> int:
    """Once the outbox delivered: the operator's balance moved by exactly the game's net,
    its export holds each call the game made and nothing else, and every win and rollback
    is delivered. Returns the net."""
    calls = await casino.calls(operator_id=player.operator_id, player_id=player.player_id)
    net = await casino.game_net(player)
    balance = await wallet.balance_of(player.player_id)
    assert balance == start + net, (balance, start, net)
    theirs = {
        row["transaction_id"]: row
        for row in await wallet.export()
        if row["player_id"] == player.player_id
    }
    assert export_net(theirs.values()) == net
    ours = {call["transaction_id"]: call for call in calls}
    assert set(theirs) <= set(ours), f"the operator applied calls the game never made: {theirs}"
    for tid, call in ours.items():
        applied = theirs.get(tid)
        if call["kind"] == "bet":
            if call["status"] == "committed":
                assert applied is not None and applied["status"] == "ok", (call, applied)
            elif call["status"] == "refused":
                assert applied is None, (call, applied)
            else:
                assert call["status"] == "rolled_back", call
                # Applied and refunded, or never applied (its rollback left a tombstone).
                assert applied is None or applied["status"] == "rolled_back", (call, applied)
        else:
            assert call["status"] == "delivered", call
            assert applied is not None, call
            expected = "ok" if call["answer_status"] == "ok" else "tombstone"
            assert applied["status"] == expected, (call, applied)
        if applied is not None:
            assert (applied["kind"], applied["amount"], applied["currency"]) == (
                call["kind"],
                call["amount"],
                call["currency"],
            )
    return net
