"""A seamless operator's player plays with a live session of their own, at every command.

The findings of the security review, each replayed: a token without a session, once seated,
placed antes that went to the operator's wallet; a token kept betting after its session was
ended; a token carried another player's session. Each is refused now, before any call to the
operator, and nothing of the command is recorded. Wins owed are still paid.
"""

from __future__ import annotations

from typing import Any

import httpx

from russian_poker.service.app.auth import mint_token
from tests.api.conftest import SECRET
from tests.operators.casino import Casino, Player, staff
from tests.rules.scenario import deck_for
from tests.wallet.reference import ReferenceWallet

DECK = deck_for(["Qs Qd Qh 5c 7d", "Js Jd Jh 4c 8d"], "9s 9c Ah Kd 2h")
"""Both boxes win: three of a kind each against a dealer with a pair."""


def token(player: str, *, session_id: str | None = None, currency: str | None = None) -> Any:
    """A token the service would sign for acme's ``player`` (an insider's, or a developer's)."""
    minted = mint_token(
        SECRET,
        "player",
        f"acme:{player}",
        operator="acme",
        session_id=session_id,
        currency=currency,
    )
    return {"Authorization": f"Bearer {minted}"}


async def table(casino: Casino, reference_wallet: ReferenceWallet) -> tuple[Player, Player]:
    for name in ("dave", "erin"):
        await reference_wallet.set_player(name, "EUR", 10_000)
    await casino.register("acme", reference_wallet)
    dave = await casino.launch("acme", "dave")
    erin = await casino.launch("acme", "erin")
    await casino.open_table("t1", "russian", DECK, operator_id="acme")
    await casino.send(dave, "acme.t1", "SitDown")
    return dave, erin


async def command(casino: Casino, headers: dict[str, str], key: str, **body: Any) -> httpx.Response:
    return await casino.client.post(
        "/v1/tables/acme.t1/commands", json=body, headers={**headers, "Idempotency-Key": key}
    )


async def test_a_token_without_a_session_plays_nothing_even_once_seated(
    casino: Casino, reference_wallet: ReferenceWallet
) -> None:
    await table(casino, reference_wallet)
    version = (await casino.view("acme.t1"))["version"]
    bare = token("dave")  # seated with a session; now a development token without one
    for key, body in (
        ("ante", {"type": "PlaceAnte", "box": 1, "ante": 100}),
        ("leave", {"type": "LeaveTable"}),
        ("sit", {"type": "SitDown"}),
    ):
        refused = await command(casino, bare, key, **body)
        assert refused.status_code == 403, refused.text
        assert refused.json()["code"] == "session_required"
    assert (await casino.view("acme.t1"))["version"] == version
    assert await casino.calls(kind="bet") == []
    assert await reference_wallet.balance_of("dave") == 10_000


async def test_an_ended_session_stops_every_command_at_once_and_is_still_paid(
    casino: Casino, reference_wallet: ReferenceWallet
) -> None:
    dave, _ = await table(casino, reference_wallet)
    await casino.send(dave, "acme.t1", "PlaceAnte", box=1, ante=100)
    await casino.send(dave, "acme.t1", "Deal")
    settled = await casino.send(dave, "acme.t1", "Play", box=1)  # his box won: credits owed
    net = settled["previous_round"]["boxes"][0]["result"]["net"]
    assert net > 0
    ended = await casino.client.delete(
        f"/v1/sessions/{dave.session_id}", headers=staff("operator", "acme")
    )
    assert ended.status_code == 200
    for key, body in (
        ("ante", {"type": "PlaceAnte", "box": 1, "ante": 100}),
        ("repeat", {"type": "RepeatBets"}),
        ("leave", {"type": "LeaveTable"}),
    ):
        refused = await command(casino, dave.headers, key, **body)
        assert refused.status_code == 403, refused.text
        assert refused.json()["code"] == "session_ended"
    # What the round owes him is delivered all the same.
    await casino.delivered()
    assert await reference_wallet.balance_of("dave") == 10_000 + net
    assert {c["status"] for c in await casino.calls(kind="win")} == {"delivered"}
    assert len(await casino.calls(kind="bet")) == 2  # the ante and the Bet, nothing after


async def test_an_expired_session_is_ended(
    casino: Casino, reference_wallet: ReferenceWallet
) -> None:
    dave, _ = await table(casino, reference_wallet)
    await casino.pool.execute(
        "UPDATE game_sessions SET expires_at = now() - interval '1 second' WHERE session_id = $1",
        dave.session_id,
    )
    refused = await command(casino, dave.headers, "ante", type="PlaceAnte", box=1, ante=100)
    assert refused.status_code == 403, refused.text
    assert refused.json()["code"] == "session_ended"
    assert await casino.calls(kind="bet") == []


async def test_a_session_ended_by_another_instance_stops_the_next_command(
    casino: Casino, reference_wallet: ReferenceWallet
) -> None:
    """This instance knows the session as open (dave sat down with it); another instance
    ended it. Whether it is still open is checked by the command's own statements: the
    bets' lock before any call, the append for a command without a bet."""
    dave, _ = await table(casino, reference_wallet)
    await casino.pool.execute(
        "UPDATE game_sessions SET ended_at = now() WHERE session_id = $1", dave.session_id
    )
    version = (await casino.view("acme.t1"))["version"]
    for key, body in (
        ("ante", {"type": "PlaceAnte", "box": 1, "ante": 100}),
        ("leave", {"type": "LeaveTable"}),
    ):
        refused = await command(casino, dave.headers, key, **body)
        assert refused.status_code == 403, refused.text
        assert refused.json()["code"] == "session_ended"
    assert (await casino.view("acme.t1"))["version"] == version
    assert await casino.calls(kind="bet") == []
    assert await reference_wallet.balance_of("dave") == 10_000


async def test_after_the_end_a_retry_gets_its_first_answer_and_a_bad_command_the_rules(
    casino: Casino, reference_wallet: ReferenceWallet
) -> None:
    """The append checks the session after the command's id and the versions: a command
    already answered is answered as the first time, and one the rules refuse never gets as
    far as the statements."""
    dave, _ = await table(casino, reference_wallet)
    body = {"type": "PlaceAnte", "box": 1, "ante": 100}
    first = await command(casino, dave.headers, "before-the-end", **body)
    assert first.status_code == 200, first.text
    await casino.pool.execute(
        "UPDATE game_sessions SET ended_at = now() WHERE session_id = $1", dave.session_id
    )
    again = await command(casino, dave.headers, "before-the-end", **body)
    assert again.status_code == 200, again.text
    assert again.json()["version"] == first.json()["version"]
    refused = await command(casino, dave.headers, "fold-now", type="Fold", box=1)
    assert refused.status_code != 200 and refused.json()["code"] != "session_ended", refused.text
    assert len(await casino.calls(kind="bet")) == 1  # the first ante's, sent once


async def test_a_token_carrying_another_players_session_is_refused(
    casino: Casino, reference_wallet: ReferenceWallet
) -> None:
    dave, erin = await table(casino, reference_wallet)
    await casino.send(erin, "acme.t1", "SitDown")
    await casino.client.delete(f"/v1/sessions/{dave.session_id}", headers=staff("operator", "acme"))
    forged = [
        token("erin", session_id=dave.session_id, currency="EUR"),  # dave's (ended) session
        token("erin", session_id=erin.session_id, currency="USD"),  # her own, another currency
        token("erin", session_id="s-000000000000000000000000", currency="EUR"),  # none such
    ]
    for index, headers in enumerate(forged):
        refused = await command(casino, headers, f"ante-{index}", type="PlaceAnte", box=2, ante=100)
        assert refused.status_code == 403, refused.text
        assert refused.json()["code"] == "session_invalid"
    assert await casino.calls(kind="bet") == []
    # Her own token still plays.
    placed = await command(casino, erin.headers, "ante", type="PlaceAnte", box=2, ante=100)
    assert placed.status_code == 200, placed.text
