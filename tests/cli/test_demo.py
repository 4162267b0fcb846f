"""``russian-poker demo``: bots play whole rounds through a real server, and the money adds up."""

from __future__ import annotations

import random
from typing import Any

import httpx
from click.testing import CliRunner

from russian_poker.events.postgres.pool import create_pool
from russian_poker.service.app import create_app
from russian_poker.service.cli import main
from russian_poker.service.settings import Settings
from russian_poker.service.tools.demo import PRESETS, choose, run_demo
from tests.api.conftest import SECRET, bearer
from tests.api.live_server import free_port, serving
from tests.service.conftest import truncate_everything

OPERATOR = bearer("operator", "op")


async def test_demo_plays_rounds_that_reconcile(database_url: str, tmp_path: Any) -> None:
    pool = await create_pool(database_url)
    await truncate_everything(pool)
    await pool.close()
    settings = Settings(database_url=database_url, jwt_secret=SECRET, data_dir=str(tmp_path))
    lines: list[str] = []
    async with (
        serving(create_app(settings)) as url,
        httpx.AsyncClient(base_url=url, timeout=30) as client,
    ):
        summary = await run_demo(client, SECRET, tables=2, rounds=3, seed=7, echo=lines.append)
        assert summary.errors == []
        assert [t.rounds for t in summary.tables] == [3, 3]
        assert [t.preset for t in summary.tables] == list(PRESETS[:2])
        assert len({t.table_id for t in summary.tables}) == 2
        assert sum("round 3/3" in line for line in lines) == 2

        house = 0
        for table in summary.tables:
            report = (
                await client.get(
                    "/v1/reports/rounds", params={"table_id": table.table_id}, headers=OPERATOR
                )
            ).json()
            assert sorted(r["round"] for r in report["items"]) == [1, 2, 3]
            assert all(r["boxes"] for r in report["items"])  # every round had bets
            assert sum(r["staked"] for r in report["items"]) == table.staked
            assert sum(r["paid_back"] for r in report["items"]) == table.paid_back
            house += sum(r["house_result"] for r in report["items"])
            view = (await client.get(f"/v1/tables/{table.table_id}", headers=OPERATOR)).json()
            assert view["seats"] == [None] * len(view["seats"])  # the bots left
        assert house == summary.house_result

        players = [p for t in summary.tables for p in t.players]
        assert 4 <= len(players) <= 6
        balances = 0
        deposited = 0
        for player in players:
            wallet = (await client.get(f"/v1/wallets/{player}", headers=OPERATOR)).json()
            balances += wallet["balance"]
            ledger = (
                await client.get(
                    f"/v1/wallets/{player}/ledger", params={"limit": 500}, headers=OPERATOR
                )
            ).json()
            deposited += sum(e["amount"] for e in ledger["items"] if e["kind"] == "FundsDeposited")
        # Nothing is left on the tables: what the bots hold plus what the house made is
        # exactly what was deposited.
        assert deposited == summary.deposited
        assert balances + house == deposited

        # The same seed places the same bets, whatever cards the shuffle deals this time.
        again = await run_demo(client, SECRET, tables=1, rounds=3, seed=7, echo=lines.append)
        assert again.tables[0].table_id != summary.tables[0].table_id
        assert await bets(client, again.tables[0].table_id) == await bets(
            client, summary.tables[0].table_id
        )


async def bets(client: httpx.AsyncClient, table_id: str) -> list[list[tuple[Any, ...]]]:
    """Each round's boxes as (box, ante, bonus, dark), oldest round first."""
    r = await client.get("/v1/reports/rounds", params={"table_id": table_id}, headers=OPERATOR)
    rounds = sorted(r.json()["items"], key=lambda x: x["round"])
    return [[(b["box"], b["ante"], b["bonus"], b["dark"]) for b in x["boxes"]] for x in rounds]


def test_bots_decide_from_their_actions() -> None:
    rng = random.Random(1)
    rules = {"max_exchange_cards": 1}
    box: dict[str, Any] = {"box": 2, "drew": False, "insurance_range": None}
    trips = {**box, "cards": ["7s", "7h", "7d", "Kc", "2s"], "insurance_range": [100, 600]}
    assert choose(
        {**trips, "actions": ["Play", "Fold", "BuyCard", "Exchange", "Insure"]}, rules, rng
    ) == {"type": "Insure", "box": 2, "amount": 100}
    pair = {**box, "cards": ["8h", "8c", "As", "Kd", "9s"], "actions": ["Play", "Fold"]}
    assert choose(pair, rules, rng) == {"type": "Play", "box": 2}
    trash = {
        **box,
        "cards": ["2c", "5d", "9h", "Jc", "Qs"],
        "actions": ["Play", "Fold", "Exchange"],
    }
    assert choose(trash, rules, rng) == {"type": "Exchange", "box": 2, "cards": ["2c"]}
    drawn = {**trash, "drew": True, "actions": ["Play", "Fold"]}
    assert choose(drawn, rules, rng) == {"type": "Fold", "box": 2}
    offer = ["RequestDealerExchange", "DeclineDealerExchange"]
    two_pair = {**box, "cards": ["5s", "5h", "Jc", "Jd", "Ah"], "actions": offer}
    assert choose(two_pair, rules, rng)["type"] == "RequestDealerExchange"
    assert choose({**pair, "actions": offer}, rules, rng)["type"] == "DeclineDealerExchange"


def test_demo_refuses_to_start_without_its_options() -> None:
    result = CliRunner().invoke(main, ["demo", "--rounds", "1"])
    assert result.exit_code == 2 and "--tables" in result.output


def test_demo_says_when_no_service_runs(tmp_path: Any) -> None:
    url = f"http://127.0.0.1:{free_port()}"
    env = {"RUSSIAN_POKER_DATA_DIR": str(tmp_path), "RUSSIAN_POKER_JWT_SECRET": SECRET}
    result = CliRunner(env=env).invoke(
        main, ["demo", "--url", url, "--tables", "1", "--rounds", "1", "--seed", "3"]
    )
    assert result.exit_code == 1
    assert f"no service at {url}" in result.output and "seed 3" in result.output
