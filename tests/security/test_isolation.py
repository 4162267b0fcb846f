"""Nobody sees or touches what isn't theirs.

On table ``live`` alice (box 1) and bob (box 2) hold dealt hands and the dealer's hole cards
are down. Bob tries to act on alice's box and to read her money; bob, an observer (carol,
not seated), the operator and the auditor try to learn alice's cards, the dealer's hole
cards, the rest of the deck or the seed, through the table view, the live stream, refusals
and response headers. Nothing leaks and nothing changes.
"""

from __future__ import annotations

import asyncio
import base64
import json
import re
from typing import Any, Final

import httpx

from tests.api.conftest import bearer
from tests.security.conftest import (
    ALICE,
    ALICE_HAND,
    AUDITOR,
    BOB,
    BOB_HAND,
    DEALER_HAND,
    HIDDEN_FROM_BOB,
    OPERATOR,
    Server,
    make_world,
)

CAROL: Final = bearer("player", "carol")
HOLE_CARDS: Final = DEALER_HAND.split()[:4]
UPCARD: Final = DEALER_HAND.split()[4]


def leaked(text: str, cards: list[str]) -> list[str]:
    """The cards of ``cards`` that ``text`` names (as JSON strings, the way the API names
    cards)."""
    return [card for card in cards if re.search(rf"[\"']{card}[\"']", text)]


async def secrets_of_live(server: Server) -> list[str]:
    """The open round's seed as hex and base64, and its fixed deck, from the store itself."""
    row = await server.app.state.services.pool.fetchrow(
        "SELECT data FROM events WHERE stream_id = 'table-live' AND event_type = 'RoundOpened'"
        " ORDER BY stream_version DESC LIMIT 1"
    )
    data = json.loads(row["data"])
    seed = base64.b64decode(data["seed"])
    assert data["deck"], "the world's round is dealt from a fixed deck"
    return [seed.hex(), data["seed"], "".join(data["deck"]), json.dumps(data["deck"])]


async def first_stream_event(client: httpx.AsyncClient, who: dict[str, str]) -> str:
    """The live stream's first event (the current state) as text, and its headers."""
    async with client.stream("GET", "/v1/tables/live/stream", headers=who) as response:
        assert response.status_code == 200
        text = json.dumps(dict(response.headers))
        async for line in response.aiter_lines():
            text += line + "\n"
            if line.startswith("data:"):
                return text
    raise AssertionError("the stream ended without an event")


async def test_a_player_cannot_act_for_another_or_read_their_money(server: Server) -> None:
    await make_world(server.client)
    client = server.client
    live = (await client.get("/v1/tables/live", headers=OPERATOR)).json()
    before = await server.app.state.services.pool.fetch("SELECT * FROM wallets ORDER BY wallet_id")
    attempts: list[dict[str, Any]] = [
        {"type": "Fold", "box": 1},
        {"type": "Play", "box": 1},
        {"type": "BuyCard", "box": 1},
        {"type": "Exchange", "box": 1, "cards": ALICE_HAND.split()[:2]},
        {"type": "Insure", "box": 1, "amount": 100},
    ]
    for index, command in enumerate(attempts):
        response = await client.post(
            "/v1/tables/live/commands",
            json=command,
            headers={**BOB, "Idempotency-Key": f"steal-{index}"},
        )
        assert response.status_code == 403, (command, response.text)
        assert response.json()["code"] == "not_your_box"
    # The dealer-draw answers are not on offer now: refused on the phase, before the owner.
    for kind in ("RequestDealerExchange", "DeclineDealerExchange"):
        response = await client.post(
            "/v1/tables/live/commands",
            json={"type": kind, "box": 1},
            headers={**BOB, "Idempotency-Key": kind},
        )
        assert response.status_code in (403, 409), response.text
    # A player who is not even seated: refused before anything else is looked at.
    response = await client.post(
        "/v1/tables/live/commands",
        json={"type": "Fold", "box": 1},
        headers={**CAROL, "Idempotency-Key": "carol"},
    )
    assert 400 <= response.status_code < 500 and response.json()["code"] in {
        "not_your_box",
        "not_seated",
    }
    # Betting on alice's behalf cannot happen: a command carries no player, the token does.
    response = await client.post(
        "/v1/tables/betting/commands",
        json={"type": "CancelBets", "box": 1, "player": "alice"},
        headers={**BOB, "Idempotency-Key": "cancel"},
    )
    assert response.status_code == 400  # unknown field
    response = await client.post(
        "/v1/tables/betting/commands",
        json={"type": "CancelBets", "box": 1},
        headers={**BOB, "Idempotency-Key": "cancel-2"},
    )
    assert 400 <= response.status_code < 500
    assert (await client.get("/v1/tables/live", headers=OPERATOR)).json()["version"] == live[
        "version"
    ]
    assert (
        await server.app.state.services.pool.fetch("SELECT * FROM wallets ORDER BY wallet_id")
        == before
    )

    for path in (
        "/v1/wallets/alice",
        "/v1/wallets/alice/ledger",
        "/v1/wallets/alice/ledger?limit=1",
        "/v1/players/alice/rounds",
        "/v1/wallets/%61lice",  # the same id, percent-encoded
        "/v1/wallets/alice/",
        "/v1/players/%61lice/rounds",
    ):
        # Another player's things are not there for bob: their existence is not confirmed.
        response = await client.get(path, headers=BOB)
        assert response.status_code == 404, (path, response.status_code)
        assert "1000000" not in response.text.replace("_", "")
    for path in ("/v1/reports/rounds", "/v1/audit/feed", "/v1/audit/rounds/done/1"):
        assert (await client.get(path, headers=BOB)).status_code == 403, path
    # Their own, yes.
    assert (await client.get("/v1/wallets/bob", headers=BOB)).status_code == 200
    assert (await client.get("/v1/players/bob/rounds", headers=BOB)).status_code == 200


async def test_nobody_learns_hidden_cards_the_deck_or_the_seed(server: Server) -> None:
    await make_world(server.client)
    client = server.client
    secrets = await secrets_of_live(server)
    bob_sees = list(HIDDEN_FROM_BOB)
    observer_sees = [*HIDDEN_FROM_BOB, *BOB_HAND.split()]
    staff_sees = observer_sees  # operators run tables, not hands
    viewers = [
        ("bob", BOB, bob_sees),
        ("carol (observer)", CAROL, observer_sees),
        ("operator", OPERATOR, staff_sees),
        ("auditor", AUDITOR, staff_sees),
    ]
    for name, who, hidden in viewers:
        view = await client.get("/v1/tables/live", headers=who)
        text = json.dumps(dict(view.headers)) + view.text
        assert not leaked(text, hidden), (name, leaked(text, hidden))
        assert not [s for s in secrets if s in text], name
        round_ = view.json()["round"]
        assert round_["seed"] is None and round_["dealer"]["cards"] is None
        assert round_["dealer"]["upcard"] == UPCARD
        assert "deck" not in json.dumps(round_)
        streamed = await asyncio.wait_for(first_stream_event(client, who), 10)
        assert not leaked(streamed, hidden), (name, "stream", leaked(streamed, hidden))
        assert not [s for s in secrets if s in streamed], (name, "stream")
        lobby = await client.get("/v1/tables", headers=who)
        assert not leaked(lobby.text, hidden) and not [s for s in secrets if s in lobby.text]
    # Alice sees her own cards, and still none of the dealer's hole cards or the deck.
    mine = await client.get("/v1/tables/live", headers=ALICE)
    assert mine.json()["round"]["boxes"][0]["cards"] == ALICE_HAND.split()
    assert leaked(mine.text, ALICE_HAND.split()) == ALICE_HAND.split()  # the probe works
    assert not leaked(mine.text, [*HOLE_CARDS, *BOB_HAND.split()])

    # Refusals are no oracle: naming another box's card, a hole card, the next card of the
    # deck, the upcard or a card nobody holds gets the same answer, word for word.
    answers = set()
    probes = [BOB_HAND.split()[0], HOLE_CARDS[0], "Td", UPCARD, "Ks", ALICE_HAND.split()[0]]
    for index, card in enumerate(probes[:-1]):
        response = await client.post(
            "/v1/tables/live/commands",
            json={"type": "Exchange", "box": 1, "cards": [ALICE_HAND.split()[0], card]},
            headers={**ALICE, "Idempotency-Key": f"probe-{index}"},
        )
        assert response.status_code == 422, response.text
        body = response.json()
        answers.add((response.status_code, body["code"], body["detail"], body["title"]))
        text = json.dumps(dict(response.headers)) + response.text
        assert not leaked(text, [c for c in probes[:-1] if c != card] + HOLE_CARDS)
        assert not [s for s in secrets if s in text]
    assert len(answers) == 1, answers
    # Bob probing alice's box learns nothing either: the refusal is about ownership only.
    bob_answers: set[tuple[int, str]] = set()
    for index, card in enumerate([*ALICE_HAND.split()[:2], "Ks"]):
        response = await client.post(
            "/v1/tables/live/commands",
            json={"type": "Exchange", "box": 1, "cards": [card]},
            headers={**BOB, "Idempotency-Key": f"bob-probe-{index}"},
        )
        bob_answers.add((response.status_code, response.json()["detail"]))
    assert len(bob_answers) == 1, bob_answers
    # The auditor's feed hides the open round's secrets too.
    feed = await client.get("/v1/audit/feed?limit=1000", headers=AUDITOR)
    assert feed.status_code == 200
    assert not [s for s in secrets if s in feed.text]
