"""A real server on a fresh test database, and a world worth attacking on it.

``world`` leaves the database in an interesting state: funded wallets, a table with two
seated players in the middle of a dealt round (hidden cards exist), a table taking bets, and
a settled round in the history. Attacks and the fuzzer then reach the rules, not just 404s.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from litestar import Litestar

from russian_poker.events.postgres.pool import create_pool
from russian_poker.service.app import create_app
from russian_poker.service.settings import Settings
from tests.api.conftest import SECRET, bearer
from tests.api.live_server import serving
from tests.rules.scenario import deck_for
from tests.service.conftest import truncate_everything

__all__ = [
    "ALICE",
    "ALICE_HAND",
    "AUDITOR",
    "BOB",
    "BOB_HAND",
    "DEALER_HAND",
    "DEALT_DECK",
    "HIDDEN_FROM_BOB",
    "OPERATOR",
    "Server",
    "fresh_database",
    "make_world",
    "settings_for",
]

OPERATOR = bearer("operator", "op")
AUDITOR = bearer("auditor", "aud")
ALICE = bearer("player", "alice")
BOB = bearer("player", "bob")

# Table "live": alice (box 1) and bob (box 2) are dealt, the dealer's upcard is 5s.
ALICE_HAND = "As Kd 8h 8c 9s"
BOB_HAND = "2c 3d 4h 7s 9d"
DEALER_HAND = "Ac Qc 2d 3h 5s"
DRAWS = "Td Jd Qd Kh 6c 6d 7c 7h"
DEALT_DECK = deck_for([ALICE_HAND, BOB_HAND], DEALER_HAND, DRAWS)
HIDDEN_FROM_BOB = [*ALICE_HAND.split(), *DEALER_HAND.split()[:4], *DRAWS.split()]
"""Every card bob must not learn before the showdown: alice's, the dealer's hole cards and
the rest of the deck (5s, the upcard, is public)."""


def settings_for(database_url: str, data_dir: str, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "database_url": database_url,
        "jwt_secret": SECRET,
        "test_mode": True,
        "data_dir": data_dir,
        "clock": False,
        "rate_limit": 0,
        **overrides,
    }
    return Settings(**values)


async def fresh_database(database_url: str) -> None:
    pool = await create_pool(database_url, min_size=1, max_size=2)
    try:
        await truncate_everything(pool)
    finally:
        await pool.close()


class Server:
    """A running app: its base URL, the app (for its pool) and a client on it."""

    def __init__(self, url: str, app: Litestar, client: httpx.AsyncClient) -> None:
        self.url = url
        self.app = app
        self.client = client


@pytest.fixture
async def server(database_url: str, tmp_path: Any) -> AsyncIterator[Server]:
    await fresh_database(database_url)
    app = create_app(settings_for(database_url, str(tmp_path)))
    async with serving(app) as url, httpx.AsyncClient(base_url=url, timeout=30) as client:
        yield Server(url, app, client)


async def _ok(response: httpx.Response, *statuses: int) -> Any:
    assert response.status_code in (statuses or (200,)), response.text
    return response.json() if response.content else None


async def make_world(client: httpx.AsyncClient) -> None:
    """Wallets, a dealt round on ``live``, bets on ``betting``, a settled round on ``done``."""
    for name, amount in (("alice", 1_000_000), ("bob", 1_000_000), ("carol", 0)):
        await _ok(await client.post("/v1/wallets", json={"wallet_id": name}, headers=OPERATOR), 201)
        if amount:
            await _ok(
                await client.post(
                    f"/v1/wallets/{name}/deposits",
                    json={"transfer_id": f"seed-{name}", "amount": amount},
                    headers=OPERATOR,
                )
            )
    for table, deck in (("done", DEALT_DECK), ("live", DEALT_DECK), ("betting", ())):
        body: dict[str, Any] = {"table_id": table, "preset": "russian"}
        if deck:
            body["test_deck"] = list(deck)
        await _ok(await client.post("/v1/tables", json=body, headers=OPERATOR), 201)

    async def send(table: str, who: dict[str, str], key: str, command: dict[str, Any]) -> Any:
        return await _ok(
            await client.post(
                f"/v1/tables/{table}/commands",
                json=command,
                headers={**who, "Idempotency-Key": f"{table}-{key}"},
            )
        )

    for table in ("done", "live"):
        await send(table, ALICE, "a1", {"type": "SitDown"})
        await send(table, BOB, "b1", {"type": "SitDown"})
        await send(table, ALICE, "a2", {"type": "PlaceAnte", "box": 1, "ante": 100})
        await send(table, BOB, "b2", {"type": "PlaceAnte", "box": 2, "ante": 100})
        await send(table, ALICE, "a3", {"type": "Deal"})
        await send(table, BOB, "b3", {"type": "Deal"})
    await send("done", ALICE, "a4", {"type": "Fold", "box": 1})
    await send("done", BOB, "b4", {"type": "Fold", "box": 2})
    await send("betting", ALICE, "a1", {"type": "SitDown"})
    await send("betting", ALICE, "a2", {"type": "PlaceAnte", "box": 1, "ante": 100, "bonus": 100})
