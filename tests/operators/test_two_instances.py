"""One seamless player, two tables, two service instances (separate processes on one
database) and one operator wallet (the reference wallet, another process).

The player's antes storm both tables at once, table 1 through instance A and table 2
through instance B, with a balance at the operator that covers only some of them; in the
second round every request also goes to both instances with one Idempotency-Key, as a
client retrying through a load balancer. Then every box in play is played and won, and
both instances' deliverers race for the credits.

No double debit: each committed bet was applied once at the operator, the antes committed
never exceed what the operator held, every lost race was rolled back; each credit was
delivered once although two deliverers ran; and the operator's ledger equals the game's
record to the unit (:meth:`Deployment.books`), which equals the tables' settled results.
"""

from __future__ import annotations

import asyncio
import itertools
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, Final

import httpx
import pytest

from tests.operators.processes import Deployment, Player, deployment
from tests.rules.scenario import deck_for
from tests.wallet.reference import ReferenceWallet

OPERATOR: Final = "acme"
ANTE: Final = 100
BOXES: Final = 6
RULES: Final = {"boxes": BOXES, "light_boxes_per_player": BOXES, "ante_min": ANTE}
TABLES: Final = ("acme.t1", "acme.t2")
VIA: Final = {"acme.t1": 0, "acme.t2": 1}
"""The instance each table's commands go to in the first round."""
FLOAT: Final = 7 * ANTE + 50
"""The balance each round's storm starts from: 7 of the 12 antes."""
STAKE: Final = 2 * BOXES * 2 * ANTE
"""Added after the storm: enough to Play every box in play (a bet is twice the ante)."""
ROUNDS: Final = 2
DEALER: Final = "9s 9c Ah Kd 2h"  # a pair of nines: the dealer qualifies
HANDS: Final = (  # each beats the dealer; no card twice
    "Qs Qd Qh 5c 7d",
    "Js Jd Jh 3c 4d",
    "Ks Kh 8s 8d 6c",
    "Ts Td Tc 2s 3s",
    "As Ac 7s 7h 4c",
    "5s 5d 5h 6d 8c",
)


@pytest.fixture
async def casino(
    server_url: str, tmp_path: Path, reference_wallet: ReferenceWallet
) -> AsyncIterator[Deployment]:
    async with deployment(server_url, tmp_path, reference_wallet, instances=2) as casino:
        await casino.register(OPERATOR, timeout_ms=10_000)
        yield casino


async def command(
    casino: Deployment, player: Player, table: str, key: str, via: int, kind: str, **body: Any
) -> httpx.Response:
    """A command, sent again with its key while the service answers 503 (busy, or the
    wallet's outcome unknown): what a client does. The bound is a count, not a time."""
    for _ in range(50):
        response = await casino.post(player, table, kind, key=key, via=via, **body)
        if response.status_code != 503:
            return response
        assert response.headers.get("retry-after"), response.text
    raise AssertionError(f"{table} {key}: still 503 after 50 attempts")


async def play_out(casino: Deployment, player: Player, table: str, number: int) -> int:
    """Play every box of round ``number`` in turn; the player's net of the settled round
    as the table's view shows it."""
    via = VIA[table]
    for step in itertools.count():
        assert step < 50, "the round does not end"
        view = await casino.view(table, player, via=via)
        if view["round"]["number"] > number:
            settled = view["previous_round"]
            assert settled["number"] == number
            return sum(
                int(b["result"]["net"]) for b in settled["boxes"] if b["player"] == player.game_id
            )
        box = next(b for b in view["round"]["boxes"] if b["actions"])
        assert "Play" in box["actions"], box
        sent = await command(
            casino, player, table, f"play-{table}-{number}-{step}", via, "Play", box=box["box"]
        )
        assert sent.status_code == 200, sent.text
    raise AssertionError("unreachable")


async def test_one_player_two_tables_two_instances(casino: Deployment) -> None:
    wallet = casino.wallet
    alice = await casino.launch(OPERATOR, "alice", balance=FLOAT)
    for table in TABLES:
        await casino.open_table(OPERATOR, table, overrides=RULES)
        await casino.send(alice, table, "SitDown", via=VIA[table])

    opening = FLOAT  # what the operator's balance was set to, in all
    results = 0  # the tables' settled results, as their views show them
    lowest = FLOAT
    for number in range(1, ROUNDS + 1):
        # Back to the float (nothing in flight, nothing owed), so the storm outruns it.
        await casino.delivered()
        balance = await wallet.balance_of("alice")
        await wallet.set_player("alice", "EUR", FLOAT)
        opening += FLOAT - balance

        # Each table's round taking bets (a table whose storm took nothing stays on it).
        rounds = {t: (await casino.view(t, alice))["round"]["number"] for t in TABLES}
        keys = [(t, box, f"ante-{t}-{number}-{box}") for t in TABLES for box in range(1, BOXES + 1)]
        # The second storm sends every key through both instances at once.
        routes = (0, 1) if number > 1 else None
        sends = [
            (table, box, key, via) for table, box, key in keys for via in (routes or (VIA[table],))
        ]
        storm = asyncio.gather(
            *(
                command(casino, alice, table, key, via, "PlaceAnte", box=box, ante=ANTE)
                for table, box, key, via in sends
            )
        )
        while not storm.done():  # the operator's balance, watched during the storm
            lowest = min(lowest, await wallet.balance_of("alice"))
            await asyncio.sleep(0.01)
        answers = await storm

        accepted: dict[str, set[int]] = {table: set() for table in TABLES}
        by_key: dict[str, list[httpx.Response]] = {}
        for (_, _, key, _), answer in zip(sends, answers, strict=True):
            by_key.setdefault(key, []).append(answer)
        for table, box, key in keys:
            statuses = [a.status_code for a in by_key[key]]
            assert set(statuses) <= {200, 409}, [a.text for a in by_key[key]]
            refusals = [a.json()["code"] for a in by_key[key] if a.status_code == 409]
            assert set(refusals) <= {"insufficient_funds"}, refusals
            # One key, one outcome: every instance answered the same.
            assert len(set(statuses)) == 1, [a.text for a in by_key[key]]
            ok = [a.json() for a in by_key[key] if a.status_code == 200]
            assert sum(not a["duplicate"] for a in ok) <= 1, ok
            if ok:
                accepted[table].add(box)
        placed = sum(len(boxes) for boxes in accepted.values())
        # The operator held 7 antes: some were refused, and no more than that were taken.
        assert 0 < placed <= FLOAT // ANTE < len(keys)
        committed = {
            table: await casino.calls(
                kind="bet", status="committed", reason="ante", table_id=table, round=rounds[table]
            )
            for table in TABLES
        }
        assert sum(b["amount"] for bets in committed.values() for b in bets) == placed * ANTE
        for table in TABLES:
            # The game's record, the table's view and the answers agree, box by box.
            assert {b["box"] for b in committed[table]} == accepted[table]
            view = await casino.view(table, alice, via=1 - VIA[table])
            staked = {
                b["box"]
                for b in view["round"]["boxes"]
                if b["player"] == alice.game_id and b["ante"]
            }
            assert staked == accepted[table]
        assert await wallet.balance_of("alice") >= 0

        # Money to Play every box (nothing in flight), the decks, the deal, then both tables
        # played out at once, each through its instance.
        await casino.delivered()
        balance = await wallet.balance_of("alice")
        await wallet.set_player("alice", "EUR", balance + STAKE)
        opening += STAKE
        dealt = [table for table in TABLES if accepted[table]]
        for table in dealt:
            await casino.stack_deck(
                OPERATOR, table, deck_for(HANDS[: len(accepted[table])], DEALER)
            )
            deal = await command(casino, alice, table, f"deal-{table}-{number}", VIA[table], "Deal")
            assert deal.status_code == 200, deal.text
        nets = await asyncio.gather(*(play_out(casino, alice, t, rounds[t]) for t in dealt))
        assert all(net > 0 for net in nets)  # every hand beat the dealer
        results += sum(nets)

    assert lowest >= 0
    await casino.delivered()
    books = await casino.books(OPERATOR, {"alice": opening})
    assert books.net["alice"] == results
    # No double debit: every bet reached the operator at most once, and a committed one
    # exactly once; a bet that lost its race was rolled back, once.
    for bet in books.of("bet"):
        deliveries = await wallet.deliveries(bet["transaction_id"])
        if bet["status"] == "committed":
            assert deliveries == {"bet": 1}, bet
        else:
            assert deliveries in ({}, {"bet": 1}), bet
    for rollback in books.of("rollback"):
        assert await wallet.deliveries(rollback["transaction_id"]) == {"rollback": 1}
    # Two deliverers, each credit delivered once.
    wins = books.of("win")
    assert any(w["amount"] > 0 for w in wins)
    for win in wins:
        assert await wallet.deliveries(win["transaction_id"]) == {"win": 1}, win
    print(
        f"bets {Counter(b['status'] for b in books.of('bet'))},"
        f" rollbacks {len(books.of('rollback'))}, wins {len(wins)}, net {results}"
    )
