"""The README's commands run as written.

The curl walk-through is cut out of README.md and run with bash, literally, against a
service started with the quick start's own ``./dev serve`` (on a free port: the block reads
``API`` from the environment, with the README's port as its default). A ``curl`` first on
``PATH`` passes every call to the real one and notes its HTTP status, so the test sees that
every call answered 2xx. The deck of the table's first round is scripted (test mode) so both
ways the walk-through can go are taken: a dealer with a game, and one without, where Alice
asks for the dealer draw. ``evaluate``'s example output is checked the same way.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Final

import asyncpg
import httpx
import pytest

from tests.docs.serving import README, ROOT, curl_recorder, dev_serve
from tests.processes import SECRET, create_database, drop_database, token_headers
from tests.rules.scenario import deck_for

ALICE_HAND: Final = "2c 3d 9h Jc Qs"
DEALERS: Final = {
    "dealer_qualifies": "Ah Kd 7c 5s 2h",  # AK: a game
    "dealer_has_no_game": "Qh Jd 7c 5s 4h",  # queen high: the dealer draw is offered
}


def walk_through() -> str:
    """The bash block after the ``walk-through`` marker."""
    found = re.search(r"<!-- walk-through -->\n```bash\n(.*?)\n```\n", README, re.DOTALL)
    assert found, "README.md has no walk-through block"
    return found.group(1)


@pytest.fixture
async def served(server_url: str, tmp_path: Path) -> AsyncIterator[tuple[str, str]]:
    """``./dev serve`` on a fresh database (test mode, for the scripted deck): its URL and
    the database's."""
    database = await create_database(server_url, "readme")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RUSSIAN_POKER_", "PYTEST"))}
    env.update(
        DATABASE_URL=database,
        RUSSIAN_POKER_DATA_DIR=str(tmp_path / "data"),
        RUSSIAN_POKER_JWT_SECRET=SECRET,
        RUSSIAN_POKER_TEST_MODE="true",
    )
    try:
        async with dev_serve(env, tmp_path / "serve.log") as url:
            yield url, database
    finally:
        await drop_database(server_url, database)


@pytest.mark.parametrize("dealer", sorted(DEALERS))
async def test_the_walk_through_runs_as_written(
    served: tuple[str, str], tmp_path: Path, dealer: str
) -> None:
    url, database = served
    conn = await asyncpg.connect(database)
    try:
        # The first round of the table the walk-through opens deals these cards.
        await conn.execute(
            "INSERT INTO test_decks (table_id, deck) VALUES ('t1', $1)",
            list(deck_for([ALICE_HAND], DEALERS[dealer])),
        )
    finally:
        await conn.close()
    tools, calls = curl_recorder(tmp_path, "the README's walk-through")
    env = {k: v for k, v in os.environ.items() if not k.startswith("RUSSIAN_POKER_")}
    env.update(
        API=url,
        CURL_LOG=str(calls),
        PATH=f"{tools}:{os.environ['PATH']}",
        RUSSIAN_POKER_JWT_SECRET=SECRET,
        RUSSIAN_POKER_DATA_DIR=str(tmp_path / "data"),
    )
    ran = await asyncio.to_thread(
        subprocess.run,
        ["bash", "-c", walk_through()],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert ran.returncode == 0, ran.stderr
    statuses = [line.split(" ", 2) for line in calls.read_text().splitlines()]
    assert all(status.startswith("2") for status, _, _ in statuses), statuses
    commands = [u for _, method, u in statuses if method == "POST" and u.endswith("/commands")]
    # SitDown, PlaceAnte, Deal, Exchange, Play; and RequestDealerExchange when offered.
    assert len(commands) == (6 if dealer == "dealer_has_no_game" else 5), statuses
    assert len(statuses) == 3 + len(commands) + 2

    # What the block printed last but one is the table, its round settled with a result.
    printed = [json.loads(line) for line in ran.stdout.splitlines() if line.startswith("{")]
    table = printed[-2]
    settled = table["previous_round"]
    assert settled["phase"] == "settled" and settled["seed"]
    if dealer == "dealer_qualifies":
        assert settled["dealer"]["cards"] == DEALERS[dealer].split()
    (box,) = settled["boxes"]
    result = box["result"]
    assert result["dealer_draw"] is (dealer == "dealer_has_no_game")
    assert result["staked"] == 100 + 100 + 100 + 200  # ante, bonus, exchange fee, Bet
    assert result["net"] == result["paid_back"] - result["staked"]
    assert result["bonus"]["outcome"] == "lost"  # queen high: no bonus
    async with httpx.AsyncClient(base_url=url) as client:
        wallet = await client.get("/v1/wallets/alice", headers=token_headers("player", "alice"))
    assert wallet.json()["balance"] == 100_000 + result["net"]
    assert printed[-1]["items"], "the ledger printed by the walk-through is empty"


def test_evaluate_prints_what_the_readme_shows() -> None:
    found = re.search(r"`evaluate` prints one JSON object.*?```json\n(.*?)\n```", README, re.DOTALL)
    assert found, "README.md shows no evaluate output"
    shown = json.loads(found.group(1))
    ran = subprocess.run(
        ["./dev", "russian-poker", "evaluate", *shown["cards"]],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert json.loads(ran.stdout) == shown
