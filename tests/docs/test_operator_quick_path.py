"""The README's operator quick path runs as written.

The block after the ``operator-path`` marker is cut out of README.md and run with bash,
literally, against ``./dev serve`` — once on a database given by ``DATABASE_URL`` and once
on the embedded PostgreSQL, which the block finds with ``db status`` as a newcomer's shell
would. The block starts the reference operator wallet itself (a separate process), registers
a seamless operator with it, launches a session and plays a round with the session's token.
As in ``test_readme``, a ``curl`` first on ``PATH`` notes every call's HTTP status, so the
test sees that every call answered 2xx; the table's first deck is scripted (test mode) so
both ways the round can go are taken: a dealer with a game (alice loses everything and the
round is closed by a win of 0) and one without (alice asks for the dealer draw).

Afterwards the test reads both ledgers: the operator's (the reference wallet's tables in
the same database) moved by exactly the round's net, and the game's money calls for the
player are the committed bets and delivered wins of one round, the last of them closing it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, Final, NamedTuple

import asyncpg
import httpx
import pytest

from tests.docs.serving import README, ROOT, curl_recorder, dev_serve
from tests.docs.test_readme import ALICE_HAND, DEALERS
from tests.processes import SECRET, create_database, drop_database, eventually, free_port
from tests.rules.scenario import deck_for

START: Final = 100_000
TABLE: Final = "acme.vip-1"
_CALL: Final = re.compile(r"^(\d{3}) ([A-Z]+) (\S+)$")


def quick_path() -> str:
    """The bash block after the ``operator-path`` marker."""
    found = re.search(r"<!-- operator-path -->\n```bash\n(.*?)\n```\n", README, re.DOTALL)
    assert found, "README.md has no operator quick path block"
    return found.group(1)


class Served(NamedTuple):
    url: str
    database: str
    """The service's database, for the test's own reads (the block finds it by itself)."""
    env: dict[str, str]
    """What the block's shell has: the service's configuration, as in the newcomer's."""


def _environment(**extra: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("RUSSIAN_POKER_", "PYTEST")) and k != "DATABASE_URL"
    }
    env.update(extra)
    return env


def _embedded_url(env: dict[str, str]) -> str:
    """The embedded server's URL, as ``db status`` prints it."""
    status = subprocess.run(
        ["./dev", "russian-poker", "db", "status"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    found = re.search(r"^url: (\S+)$", status, re.MULTILINE)
    assert found, status
    return found.group(1)


@pytest.fixture
async def served(
    request: pytest.FixtureRequest, server_url: str, tmp_path: Path
) -> AsyncIterator[Served]:
    """``./dev serve`` in test mode on a fresh database: one named by ``DATABASE_URL``, or
    the embedded server of a fresh data directory."""
    embedded = request.param == "embedded"
    if embedded:
        # Under the system temporary directory, readable by all: as root, pgserver runs
        # PostgreSQL as an unprivileged user who must reach the data directory.
        data = Path(tempfile.mkdtemp(prefix="russian-poker-quick-", dir=tempfile.gettempdir()))
        data.chmod(0o755)
        database = ""
    else:
        data = tmp_path / "data"
        database = await create_database(server_url, "quickpath")
    config = {"RUSSIAN_POKER_DATA_DIR": str(data), "RUSSIAN_POKER_JWT_SECRET": SECRET}
    if database:
        config["DATABASE_URL"] = database
    try:
        async with dev_serve(
            _environment(**config, RUSSIAN_POKER_TEST_MODE="true"), tmp_path / "serve.log"
        ) as url:
            if embedded:
                database = await asyncio.to_thread(_embedded_url, _environment(**config))
            yield Served(url, database, config)
    finally:
        if embedded:
            # Whatever a failed run left running of the embedded server, then its data.
            subprocess.run(
                ["./dev", "russian-poker", "db", "stop", "--force"],
                cwd=ROOT,
                env=_environment(**config),
                capture_output=True,
                timeout=120,
                check=False,
            )
            shutil.rmtree(data, ignore_errors=True)
        else:
            await drop_database(server_url, database)


def _run_block(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """The block in bash, in a process group of its own: whatever it leaves running (the
    reference wallet, if it failed before stopping it) goes with the group."""
    process = subprocess.Popen(
        ["bash", "-c", quick_path()],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        stdout, stderr = process.communicate(timeout=300)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    return subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)


def _printed(stdout: str) -> list[dict[str, Any]]:
    """Every JSON object the block printed on a line of its own, in order."""
    found = []
    for line in stdout.splitlines():
        if line.startswith("{"):
            try:
                found.append(json.loads(line))
            except json.JSONDecodeError:
                continue  # the balance line, with its note after the JSON
    return found


# Each database mode and each of the block's branches once, not every pair: a run costs
# 8-10 s, and the branch a dealer takes does not depend on where the database is.
@pytest.mark.parametrize(
    ("served", "dealer"),
    [("embedded", "dealer_has_no_game"), ("database_url", "dealer_qualifies")],
    indirect=["served"],
)
async def test_the_operator_quick_path_runs_as_written(
    served: Served, tmp_path: Path, dealer: str
) -> None:
    conn = await asyncpg.connect(served.database)
    try:
        # The first round of the table the block opens deals these cards.
        await conn.execute(
            "INSERT INTO test_decks (table_id, deck) VALUES ($1, $2)",
            TABLE,
            list(deck_for([ALICE_HAND], DEALERS[dealer])),
        )
    finally:
        await conn.close()
    tools, calls_log = curl_recorder(tmp_path, "the README's operator quick path")
    env = _environment(
        **served.env,
        API=served.url,
        WALLET_PORT=str(free_port()),
        CURL_LOG=str(calls_log),
        PATH=f"{tools}:{os.environ['PATH']}",
    )
    ran = await asyncio.to_thread(_run_block, env)
    assert ran.returncode == 0, ran.stderr

    # Every call answered 2xx, the wallet's readiness wait included (curl retries a refused
    # connection itself: one call, its last status).
    calls = [_CALL.match(line) for line in calls_log.read_text().splitlines()]
    assert calls and all(calls), calls_log.read_text()
    statuses = [(m.group(1), m.group(2), m.group(3)) for m in calls if m]
    assert all(status.startswith("2") for status, _, _ in statuses), statuses
    paths = [(method, httpx.URL(url).path) for _, method, url in statuses]
    assert paths.count(("POST", "/v1/operators")) == 1, paths
    assert paths.count(("POST", "/v1/operators/acme/credentials")) == 1, paths
    assert paths.count(("POST", "/v1/sessions")) == 1, paths
    commands = [p for m, p in paths if m == "POST" and p == f"/v1/tables/{TABLE}/commands"]
    # SitDown, PlaceAnte, Deal, Play; and RequestDealerExchange when offered.
    assert len(commands) == (5 if dealer == "dealer_has_no_game" else 4), paths

    printed = _printed(ran.stdout)
    registered = next(p for p in printed if p.get("operator_id") == "acme")
    assert registered["wallet"]["mode"] == "seamless"
    assert registered["wallet"]["secret_set"] is True and "secret" not in registered["wallet"]
    session = next(p for p in printed if "session_token" in p)
    assert session["game_player_id"] == "acme:alice"
    assert session["launch_url"].endswith("#token=" + session["session_token"])
    # The ante was taken at the operator before anything else happened.
    balances = [p["balance"] for p in printed if p.get("player_id") == "alice" and "blocked" in p]
    assert balances[:2] == [START, START - 100], balances

    # The round settled: the last command's answer shows it as the previous round.
    answers = [p for p in printed if "table" in p and "events" in p]
    settled = answers[-1]["table"]["previous_round"]
    assert settled["phase"] == "settled"
    (box,) = settled["boxes"]
    result = box["result"]
    assert result["staked"] == 100 + 200  # ante and Bet
    net = result["net"]
    assert net == result["paid_back"] - result["staked"]
    if dealer == "dealer_qualifies":
        assert net == -300  # queen high against ace-king: everything lost
    assert f"<- {START} + the round's net, {net}" in ran.stdout

    conn = await asyncpg.connect(served.database)
    try:
        # The operator's ledger moved by the round's net, to the unit.
        balance = await conn.fetchval(
            "SELECT balance FROM reference_wallet.players WHERE player_id = 'alice'"
        )
        assert balance == START + net

        # The game's money calls: the two bets committed, the wins delivered, and only the
        # last of them closes the round, naming both bets.
        async def delivered() -> bool:
            owed = await conn.fetchval(
                "SELECT count(*) FROM wallet_transactions WHERE status NOT IN"
                " ('committed', 'delivered')"
            )
            return bool(owed == 0)

        await eventually(delivered, message="every call of the round answered")
        rows = [
            dict(r)
            for r in await conn.fetch(
                "SELECT transaction_id, kind, amount, reason, round, round_closed,"
                " reference_transaction_ids, status FROM wallet_transactions"
                " WHERE operator_id = 'acme' AND player_id = 'alice' ORDER BY seq"
            )
        ]
    finally:
        await conn.close()
    bets = [r for r in rows if r["kind"] == "bet"]
    wins = [r for r in rows if r["kind"] == "win"]
    assert [b["reason"] for b in bets] == ["ante", "bet"]
    assert [b["amount"] for b in bets] == [100, 200]
    assert wins and [w["round_closed"] for w in wins] == [False] * (len(wins) - 1) + [True]
    assert {r["round"] for r in rows} == {1}
    assert wins[-1]["reference_transaction_ids"] == [b["transaction_id"] for b in bets]
    assert sum(w["amount"] for w in wins) - sum(b["amount"] for b in bets) == net
    if net == -300:
        assert [w["amount"] for w in wins] == [0]  # nothing came back: a win of 0 closes
    # Transaction ids have the shapes the integration guide gives.
    for bet in bets:
        assert re.fullmatch(r"bet-[0-9a-f]{32}-\d+", bet["transaction_id"]), bet
    for win in wins:
        assert re.fullmatch(
            r"win-[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}|win-close-acme\.vip-1:1:alice",
            win["transaction_id"],
        ), win
    if net == -300:
        assert wins[-1]["transaction_id"] == "win-close-acme.vip-1:1:alice"
    # The operator's export reconciles with the game's list, and the block says so.
    assert f"reconciled {len(rows)} transactions" in ran.stdout, ran.stdout[-2000:]
    # The block printed the game's list of the round's calls, as the operator reads it.
    (page,) = [p for p in printed if "items" in p]
    assert [(c["transaction_id"], c["amount"], c["status"]) for c in page["items"]] == [
        (r["transaction_id"], r["amount"], r["status"]) for r in rows
    ]
