"""Races through two service processes on one database.

* One player on two tables, each served by another instance, storming one wallet with antes
  the balance covers only in part, every request sent twice (once to each instance) with
  one Idempotency-Key, while the operator's deposits race in too; then playing the rounds
  out. No negative balance, no double debit, no lost or phantom command, and the money
  adds up to the unit: per wallet, per round and overall.
* Retries of one Idempotency-Key: concurrent, reordered, after the round moved on, with a
  different body, and by another player.
* Two players racing for one seat, and for one box: one wins, the other gets a clean 409.

Assertions are about outcomes, never about how long anything took.
"""

from __future__ import annotations

import asyncio
import itertools
from collections import Counter, defaultdict
from typing import Any, Final

from russian_poker.events.postgres.reconcile import ReconcileStore
from russian_poker.service.audit.reconcile import reconcile
from tests.races.conftest import OPERATOR, Pair, Sent, player

ANTE: Final = 100
BOXES: Final = 6
ROUNDS: Final = 3
FLOAT: Final = 7 * ANTE + 50
"""The balance each round's storm starts from: it covers 7 of the 12 antes."""
TOP_UP: Final = 250
STAKE: Final = 3_000
"""Deposited after the storm, so the boxes can be played (and won) too."""
TABLE_RULES: Final = {"boxes": BOXES, "light_boxes_per_player": BOXES, "ante_min": ANTE}


async def open_wallet(pair: Pair, name: str, amount: int) -> None:
    await pair.ok(await pair.send(pair.a, "POST", "/v1/wallets", {"wallet_id": name}, OPERATOR))
    if amount:
        body = {"transfer_id": f"open-{name}", "amount": amount}
        await pair.ok(
            await pair.send(pair.b, "POST", f"/v1/wallets/{name}/deposits", body, OPERATOR)
        )


async def open_table(pair: Pair, table: str) -> None:
    body = {"table_id": table, "preset": "russian", "overrides": TABLE_RULES}
    await pair.ok(await pair.send(pair.a, "POST", "/v1/tables", body, OPERATOR))


async def play_out(pair: Pair, client: Any, table: str, who: str, number: int) -> None:
    """Take every decision of round ``number`` until it is settled: Play odd boxes when the
    money allows (else Fold), Fold even ones, decline every dealer draw."""
    for step in itertools.count():
        assert step < 100, "the round does not end"
        view = (await pair.send(client, "GET", f"/v1/tables/{table}", headers=player(who))).body
        if view["round"]["number"] > number:
            return
        boxes = [b for b in view["round"]["boxes"] if b["actions"]]
        assert boxes, view["round"]
        box = boxes[0]
        actions = box["actions"]
        if "DeclineDealerExchange" in actions:
            choice = {"type": "DeclineDealerExchange", "box": box["box"]}
        elif "Play" in actions and box["box"] % 2:
            choice = {"type": "Play", "box": box["box"]}
        else:
            choice = {"type": "Fold", "box": box["box"]}
        key = f"{table}-{number}-{step}"
        sent = await pair.command(client, table, who, key, choice)
        if sent.status == 409 and sent.body["code"] == "insufficient_funds":
            fold = {"type": "Fold", "box": box["box"]}
            sent = await pair.command(client, table, who, key + "-fold", fold)
        await pair.ok(sent)


async def test_one_wallet_two_tables_two_instances(pair: Pair) -> None:
    who = "dave"
    tables = ("race-1", "race-2")
    await open_wallet(pair, who, FLOAT)
    for table, client in zip(tables, pair.clients, strict=True):
        await open_table(pair, table)
        await pair.ok(await pair.command(client, table, who, f"sit-{table}", {"type": "SitDown"}))

    answers: dict[str, list[Sent]] = defaultdict(list)
    deposits: list[Sent] = []
    for number in range(1, ROUNDS + 1):
        # Back to the float, so the storm outruns the money again.
        wallet = (await pair.send(pair.a, "GET", f"/v1/wallets/{who}", headers=OPERATOR)).body
        if wallet["balance"] > FLOAT:
            trim = {"transfer_id": f"trim-{number}", "amount": wallet["balance"] - FLOAT}
            path = f"/v1/wallets/{who}/withdrawals"
            await pair.ok(await pair.send(pair.b, "POST", path, trim, OPERATOR))
        storm = []
        for table, box in itertools.product(tables, range(1, BOXES + 1)):
            key = f"ante-{table}-{number}-{box}"
            body = {"type": "PlaceAnte", "box": box, "ante": ANTE}
            # The same request to both instances at once: a client retrying through a
            # load balancer after a lost answer.
            storm += [pair.command(client, table, who, key, body) for client in pair.clients]
        top_up = {"transfer_id": f"top-up-{number}", "amount": TOP_UP}
        storm += [
            pair.send(client, "POST", f"/v1/wallets/{who}/deposits", top_up, OPERATOR)
            for client in pair.clients
        ]
        results = await asyncio.gather(*storm)
        keys = [
            f"ante-{table}-{number}-{box}"
            for table, box in itertools.product(tables, range(1, BOXES + 1))
            for _ in pair.clients
        ]
        for key, sent in zip(keys, results, strict=False):
            answers[key].append(sent)
        deposits += results[len(keys) :]
        wallet = (await pair.send(pair.a, "GET", f"/v1/wallets/{who}", headers=OPERATOR)).body
        assert wallet["balance"] >= 0
        stake = {"transfer_id": f"stake-{number}", "amount": STAKE}
        path = f"/v1/wallets/{who}/deposits"
        await pair.ok(await pair.send(pair.a, "POST", path, stake, OPERATOR))
        # Deal where something was bet, then play both tables out at once, one per instance.
        dealt = []
        for table, client in zip(tables, pair.clients, strict=True):
            sent = await pair.command(
                client, table, who, f"deal-{table}-{number}", {"type": "Deal"}
            )
            if sent.status == 200:
                dealt.append((table, client))
            else:
                assert sent.body["code"] == "no_bets", sent.body
        await asyncio.gather(
            *(play_out(pair, client, table, who, number) for table, client in dealt)
        )

    # Every answer is a clean one.
    for key, sents in answers.items():
        for sent in sents:
            assert sent.status in (200, 409), (key, sent.status, sent.body)
            if sent.status == 409:
                assert sent.body["code"] == "insufficient_funds", (key, sent.body)
        accepted = [s.body for s in sents if s.status == 200]
        # One effect per key: every 200 for a key is the same answer, at most one is new.
        assert len({a["version"] for a in accepted}) <= 1, (key, accepted)
        assert sum(not a["duplicate"] for a in accepted) <= 1, (key, accepted)
    assert all(d.status == 200 for d in deposits)
    assert sum(not d.body["duplicate"] for d in deposits) == ROUNDS

    accepted_keys = {k for k, sents in answers.items() if any(s.status == 200 for s in sents)}
    # The float and the top-up cover at most 10 of a round's 12 antes: the race had teeth.
    assert len(accepted_keys) <= ROUNDS * (FLOAT + TOP_UP) // ANTE < len(answers)
    async with pair.pool.acquire() as conn:
        # No lost command: each 2xx is in the store; no phantom: nothing else is.
        recorded = {
            r["command_id"].partition(f"/{who}:")[2]
            for r in await conn.fetch(
                "SELECT command_id FROM commands WHERE command_id LIKE $1"
                " AND NOT result ? 'refused'",
                f"%/{who}:ante-%",
            )
        }
        assert recorded == accepted_keys
        # No double debit: one ante debit per accepted command, per (table, round, box).
        antes = await conn.fetch(
            "SELECT table_id, round, box, amount FROM ledger"
            " WHERE wallet_id = $1 AND reason = 'ante'",
            who,
        )
        assert len(antes) == len(accepted_keys)
        boxes = Counter((r["table_id"], r["round"], r["box"]) for r in antes)
        assert set(boxes.values()) == {1}
        assert all(r["amount"] == -ANTE for r in antes)
        # Never below zero, at any point of the ledger, and the ledger sums to the balance.
        balance = await conn.fetchval("SELECT balance FROM wallets WHERE wallet_id = $1", who)
        sums = await conn.fetchrow(
            "SELECT min(balance_after), sum(amount),"
            " sum(amount) FILTER (WHERE event_type = 'FundsDeposited'),"
            " coalesce(-sum(amount) FILTER (WHERE event_type = 'FundsWithdrawn'), 0)"
            " FROM ledger WHERE wallet_id = $1",
            who,
        )
        assert sums is not None
        low, total, deposited, withdrawn = sums
        assert low >= 0 and total == balance
        assert deposited == FLOAT + ROUNDS * (TOP_UP + STAKE)
        # Per round: what the wallet paid in minus what it got back is the house result.
        rounds = await conn.fetch(
            "SELECT r.table_id, r.round, r.staked - r.paid_back AS house,"
            " coalesce((SELECT -sum(l.amount) FROM ledger l WHERE l.table_id = r.table_id"
            "           AND l.round = r.round), 0) AS paid_in"
            " FROM rounds r WHERE r.table_id = ANY($1)",
            list(tables),
        )
        assert rounds and all(r["house"] == r["paid_in"] for r in rounds), rounds
        # Overall: what came in = what went out + the balance + what the house kept; no
        # stake is left open.
        assert deposited == withdrawn + balance + sum(r["house"] for r in rounds)
        report = await reconcile(ReconcileStore(conn))
        assert report.mismatches == [], report.mismatches
    print(
        f"races: {sum(len(s) for s in answers.values())} racing antes over {len(answers)} keys,"
        f" {len(accepted_keys)} accepted, {len(rounds)} rounds settled, {pair.busy} busy"
        f" answers retried; deposits {deposited} = withdrawals {withdrawn} + balance {balance}"
        f" + house {deposited - withdrawn - balance}"
    )


async def test_one_idempotency_key_one_effect(pair: Pair) -> None:
    who, table = "erin", "idem"
    await open_wallet(pair, who, 10_000)
    await open_wallet(pair, "frank", 10_000)
    await open_table(pair, table)
    for name in (who, "frank"):
        await pair.ok(await pair.command(pair.a, table, name, "sit", {"type": "SitDown"}))
    ante = {"type": "PlaceAnte", "box": 1, "ante": ANTE}

    # Eight identical requests at once, half to each instance: one effect, one answer.
    same = await asyncio.gather(
        *(pair.command(client, table, who, "same", ante) for client in pair.clients * 4)
    )
    assert {s.status for s in same} == {200}
    assert len({s.body["version"] for s in same}) == 1
    assert sum(not s.body["duplicate"] for s in same) == 1
    # The same key with another body is refused, on either instance, and does nothing.
    other = {"type": "PlaceAnte", "box": 2, "ante": ANTE}
    for client in pair.clients:
        sent = await pair.command(client, table, who, "same", other)
        assert sent.status == 422 and sent.body["code"] == "idempotency_key_reused"
    # Reordered: k2 lands after k1, then k1 is retried — answered as the first time.
    first = await pair.ok(await pair.command(pair.b, table, who, "k1", {**ante, "box": 2}))
    second = await pair.ok(
        await pair.command(pair.a, table, who, "k2", {**ante, "box": 3, "dark": True})
    )
    assert second["version"] > first["version"]
    again = await pair.ok(await pair.command(pair.a, table, who, "k1", {**ante, "box": 2}))
    assert again["duplicate"] and again["version"] == first["version"]
    # Another player's identical key is his own command, never erin's answer.
    franks = await pair.ok(await pair.command(pair.b, table, "frank", "k1", {**ante, "box": 4}))
    assert not franks["duplicate"]
    await pair.ok(await pair.command(pair.a, table, "frank", "deal", {"type": "Deal"}))
    await pair.ok(await pair.command(pair.a, table, who, "deal", {"type": "Deal"}))
    # After the deal the rules would refuse a bet; the retry still gets the first answer.
    late = await pair.ok(await pair.command(pair.b, table, who, "k1", {**ante, "box": 2}))
    assert late["duplicate"] and late["version"] == first["version"]

    # Deposits: one transfer id, six concurrent copies, one movement.
    deposit = {"transfer_id": "dep-x", "amount": 777}
    copies = await asyncio.gather(
        *(
            pair.send(client, "POST", f"/v1/wallets/{who}/deposits", deposit, OPERATOR)
            for client in pair.clients * 3
        )
    )
    assert {c.status for c in copies} == {200}
    assert sum(not c.body["duplicate"] for c in copies) == 1
    assert len({c.body["balance"] for c in copies}) == 1
    changed = {**deposit, "amount": 778}
    sent = await pair.send(pair.b, "POST", f"/v1/wallets/{who}/deposits", changed, OPERATOR)
    assert sent.status == 409 and sent.body["code"] == "transfer_id_reused"

    async with pair.pool.acquire() as conn:
        debits = await conn.fetch(
            "SELECT box, amount, reason FROM ledger WHERE wallet_id = $1 AND amount < 0"
            " ORDER BY global_position",
            who,
        )
        # box 1 ante, box 2 ante, box 3 ante + its dark Bet: nothing twice.
        assert [(r["box"], r["reason"]) for r in debits] == [
            (1, "ante"),
            (2, "ante"),
            (3, "ante"),
            (3, "bet"),
        ]
        moved = await conn.fetchval(
            "SELECT count(*) FROM ledger WHERE wallet_id = $1 AND transfer_id = 'dep-x'", who
        )
        assert moved == 1
        assert (await reconcile(ReconcileStore(conn))).mismatches == []


async def test_one_seat_one_box_one_winner(pair: Pair) -> None:
    table = "contest"
    await open_table(pair, table)
    trials = 8
    seat_wins = box_wins = 0
    for trial in range(trials):
        rivals = (f"p{trial}a", f"p{trial}b")
        for name in rivals:
            await open_wallet(pair, name, 1_000)
        # Both want seat 3, each through another instance.
        seats = await asyncio.gather(
            *(
                pair.command(client, table, name, "seat", {"type": "SitDown", "seat": 3})
                for name, client in zip(rivals, pair.clients, strict=True)
            )
        )
        assert sorted(s.status for s in seats) == [200, 409], seats
        loser = next(s for s in seats if s.status == 409)
        assert loser.body["code"] == "seat_taken"
        seat_wins += 1
        # The loser takes another seat; then both want box 2.
        late = rivals[[s.status for s in seats].index(409)]
        await pair.ok(await pair.command(pair.a, table, late, "seat-2", {"type": "SitDown"}))
        bets = await asyncio.gather(
            *(
                pair.command(
                    client, table, name, "bet", {"type": "PlaceAnte", "box": 2, "ante": ANTE}
                )
                for name, client in zip(rivals, pair.clients[::-1], strict=True)
            )
        )
        assert sorted(s.status for s in bets) == [200, 409], bets
        assert next(s for s in bets if s.status == 409).body["code"] == "box_taken"
        box_wins += 1
        winner = rivals[[s.status for s in bets].index(200)]
        async with pair.pool.acquire() as conn:
            paid = {
                r["wallet_id"]: r["paid"]
                for r in await conn.fetch(
                    "SELECT wallet_id, -sum(amount) FILTER (WHERE amount < 0) AS paid"
                    " FROM ledger WHERE wallet_id = ANY($1) GROUP BY wallet_id",
                    list(rivals),
                )
            }
        assert paid[winner] == ANTE and paid[rivals[1 - rivals.index(winner)]] is None
        # Clear the way for the next pair: the bet back, both seats free.
        await pair.ok(await pair.command(pair.b, table, winner, "cancel", {"type": "CancelBets"}))
        for name in rivals:
            await pair.ok(await pair.command(pair.a, table, name, "leave", {"type": "LeaveTable"}))
    assert (seat_wins, box_wins) == (trials, trials)
    async with pair.pool.acquire() as conn:
        assert (await reconcile(ReconcileStore(conn))).mismatches == []
