"""An `Exchange` names cards exactly as the API's grammar spells them; any other spelling is
refused with `invalid_cards`, the grammar in the detail, and the table does not move."""

from __future__ import annotations

from typing import Any

import pytest
from litestar.testing import AsyncTestClient

from tests.api.conftest import bearer
from tests.rules.scenario import deck_for

OPERATOR = bearer("operator", "op")
ALICE = bearer("player", "alice")


async def _send(client: AsyncTestClient, key: str, body: dict[str, Any]) -> Any:  # type: ignore[type-arg]
    return await client.post(
        "/v1/tables/t1/commands", json=body, headers={**ALICE, "Idempotency-Key": key}
    )


@pytest.mark.parametrize("loose", ["AS", "as", "10h", "4♦", " As", "As "])
async def test_a_card_in_another_spelling_is_refused_and_nothing_moves(
    client: AsyncTestClient,
    loose: str,  # type: ignore[type-arg]
) -> None:
    assert (
        await client.post("/v1/wallets", json={"wallet_id": "alice"}, headers=OPERATOR)
    ).status_code == 201
    deposit = {"transfer_id": "d", "amount": 10_000}
    await client.post("/v1/wallets/alice/deposits", json=deposit, headers=OPERATOR)
    deck = deck_for(["As Th 4d 9c 2s"], "Kc Qc 2d 3h 5s")
    opened = await client.post(
        "/v1/tables",
        json={
            "table_id": "t1",
            "preset": "russian",
            "test_deck": list(deck),
            # Set aside, a discard cannot come straight back as its own replacement.
            "overrides": {"discards_return_to_deck": False},
        },
        headers=OPERATOR,
    )
    assert opened.status_code == 201, opened.text
    for key, body in [
        ("sit", {"type": "SitDown"}),
        ("ante", {"type": "PlaceAnte", "box": 1, "ante": 100}),
        ("deal", {"type": "Deal"}),
    ]:
        assert (await _send(client, key, body)).status_code == 200
    before = (await client.get("/v1/tables/t1", headers=ALICE)).json()["version"]

    refused = await _send(client, "x1", {"type": "Exchange", "box": 1, "cards": [loose]})
    assert refused.status_code == 422, refused.text
    problem = refused.json()
    assert problem["code"] == "invalid_cards"
    assert "a card is a rank of 23456789TJQKA then a suit of shdc" in problem["detail"]
    assert (await client.get("/v1/tables/t1", headers=ALICE)).json()["version"] == before

    # The same card, spelled as the view shows it, is exchanged.
    exchanged = await _send(client, "x2", {"type": "Exchange", "box": 1, "cards": ["As"]})
    assert exchanged.status_code == 200, exchanged.text
    (box,) = exchanged.json()["table"]["round"]["boxes"]
    assert "As" not in box["cards"] and box["drew"] is True
