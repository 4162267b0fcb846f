"""Every paged list: one envelope (`items`, `next_cursor`), one opaque cursor passed back as
`cursor`, pages that join up without a gap or a repeat, and a cursor the list did not give
out refused (docs/api-guide.md, "Lists, pages and windows")."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Any

import asyncpg
import pytest
from litestar.testing import AsyncTestClient

from tests.api.conftest import bearer

OPERATOR = bearer("operator", "op")
ADMIN = bearer("admin", "root")
ALICE = bearer("player", "alice")
ROUNDS = {"t1": 3, "t2": 2}

# (route, who reads it, how an item is told apart)
LISTS: list[tuple[str, dict[str, str], tuple[str, ...]]] = [
    ("/v1/players/alice/rounds", ALICE, ("table_id", "round")),
    ("/v1/reports/rounds", OPERATOR, ("table_id", "round")),
    ("/v1/wallets/alice/ledger", ALICE, ("position",)),
    ("/v1/audit/availability", ADMIN, ("position",)),
    ("/v1/audit/feed", ADMIN, ("position",)),
]


async def _send(client: AsyncTestClient, table: str, key: str, body: dict[str, Any]) -> None:  # type: ignore[type-arg]
    answer = await client.post(
        f"/v1/tables/{table}/commands", json=body, headers={**ALICE, "Idempotency-Key": key}
    )
    assert answer.status_code == 200, answer.text


@pytest.fixture
async def played(client: AsyncTestClient) -> AsyncTestClient:  # type: ignore[type-arg]
    """Alice folds 3 rounds at t1 and 2 at t2: 5 settled rounds, 6 ledger movements."""
    assert (
        await client.post("/v1/wallets", json={"wallet_id": "alice"}, headers=OPERATOR)
    ).status_code == 201
    deposit = {"transfer_id": "d1", "amount": 10_000}
    assert (
        await client.post("/v1/wallets/alice/deposits", json=deposit, headers=OPERATOR)
    ).status_code == 200
    for table, rounds in ROUNDS.items():
        opened = await client.post("/v1/tables", json={"table_id": table}, headers=OPERATOR)
        assert opened.status_code == 201, opened.text
        await _send(client, table, "sit", {"type": "SitDown"})
        for n in range(rounds):
            await _send(client, table, f"ante-{n}", {"type": "PlaceAnte", "box": 1, "ante": 100})
            await _send(client, table, f"deal-{n}", {"type": "Deal"})
            await _send(client, table, f"fold-{n}", {"type": "Fold", "box": 1})
    return client


MINIMUM = {
    "/v1/players/alice/rounds": 5,
    "/v1/reports/rounds": 5,
    "/v1/wallets/alice/ledger": 6,
    "/v1/audit/availability": 2,  # t1 and t2 opened
    "/v1/audit/feed": 20,
}


async def _at_least(
    client: AsyncTestClient,
    route: str,
    who: dict[str, str],
    count: int,  # type: ignore[type-arg]
) -> list[dict[str, Any]]:
    """The whole list once it holds ``count`` items: the availability log and the audit
    feed are projections, written a moment after the commands."""
    for _ in range(200):
        whole: list[dict[str, Any]] = (
            await client.get(route, params={"limit": 100}, headers=who)
        ).json()["items"]
        if len(whole) >= count:
            return whole
        await asyncio.sleep(0.05)
    raise AssertionError(f"{route}: {len(whole)} items, expected {count}")


async def _walk(
    client: AsyncTestClient,
    route: str,
    who: dict[str, str],
    limit: int,  # type: ignore[type-arg]
) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    cursor: str | None = None
    for _ in range(200):
        params: dict[str, Any] = {"limit": limit}
        if cursor is not None:
            params["cursor"] = cursor
        page = (await client.get(route, params=params, headers=who)).json()
        assert set(page) == {"items", "next_cursor"}, page
        assert len(page["items"]) <= limit
        items += page["items"]
        if page["next_cursor"] is None or page["next_cursor"] == cursor:
            return items  # the last page, or the feed's tail with nothing new
        assert isinstance(page["next_cursor"], str)
        cursor = page["next_cursor"]
    raise AssertionError(f"{route}: the cursor never stopped")


@pytest.mark.parametrize(("route", "who", "key"), LISTS)
async def test_pages_join_up_into_the_whole_list(
    played: AsyncTestClient,
    route: str,
    who: dict[str, str],
    key: tuple[str, ...],  # type: ignore[type-arg]
) -> None:
    first = await _at_least(played, route, who, MINIMUM[route])
    walked = [tuple(i[k] for k in key) for i in await _walk(played, route, who, limit=1)]
    whole = [tuple(i[k] for k in key) for i in await _at_least(played, route, who, len(first))]
    if route == "/v1/audit/feed":
        # A tail: events committed earlier become visible as other sessions' transactions
        # end (the horizon), so it may have grown between reads; never reordered.
        assert len(walked) >= len(first)
        assert walked[: len(whole)] == whole[: len(walked)]
    else:
        assert walked == whole


@pytest.mark.parametrize(("route", "who", "key"), LISTS)
async def test_a_cursor_the_list_did_not_give_out_is_refused(
    played: AsyncTestClient,
    route: str,
    who: dict[str, str],
    key: tuple[str, ...],  # type: ignore[type-arg]
) -> None:
    rounds_cursor = (
        await played.get("/v1/reports/rounds", params={"limit": 1}, headers=OPERATOR)
    ).json()["next_cursor"]
    ledger_cursor = (
        await played.get("/v1/wallets/alice/ledger", params={"limit": 1}, headers=ALICE)
    ).json()["next_cursor"]
    foreign = ledger_cursor if "rounds" in route else rounds_cursor
    for cursor in ("nope", "12", foreign):
        answer = await played.get(route, params={"cursor": cursor}, headers=who)
        assert answer.status_code == 422, (cursor, answer.text)
        assert answer.json()["code"] == "invalid_cursor"


async def test_rounds_settled_in_the_same_instant_are_never_skipped(
    played: AsyncTestClient,  # type: ignore[type-arg]
    database_url: str,
) -> None:
    # Two tables' rounds can settle in the same microsecond; a cursor of the time alone
    # would lose every round but one of the instant at a page's edge.
    connection = await asyncpg.connect(database_url)
    try:
        instant = datetime(2026, 12, 1, tzinfo=UTC)
        assert await connection.execute("UPDATE rounds SET settled_at = $1", instant) == "UPDATE 5"
    finally:
        await connection.close()
    for route, who, _ in LISTS[:2]:
        walked = await _walk(played, route, who, limit=1)
        expected = sorted(
            ((table, n) for table, count in ROUNDS.items() for n in range(1, count + 1)),
            reverse=True,
        )
        assert [(r["table_id"], r["round"]) for r in walked] == expected
