"""Signatures both ways (docs/wallet-protocol.md §4), end to end.

The service refuses an answer whose signature is wrong or from outside the 300 s window (an
old answer played back): for a bet that is an unknown outcome, so the bet is rolled back and
the command answered 503 with nothing recorded. The operator's wallet refuses a request
signed with another secret or played back after the window, and applies nothing.
"""

from __future__ import annotations

import time
import uuid

import httpx
import msgspec
import pytest

from russian_poker.service.wallet.signing import HEADER, WINDOW_S, sign
from tests.operators.casino import Casino
from tests.rules.scenario import deck_for
from tests.wallet.calls import bet_call
from tests.wallet.reference import ReferenceWallet

START = 10_000


@pytest.mark.parametrize("mode", ["bad_signature", "stale_signature"])
async def test_the_service_refuses_an_answer_it_cannot_trust(
    casino: Casino, reference_wallet: ReferenceWallet, mode: str
) -> None:
    await reference_wallet.set_player("alice", "EUR", START)
    await casino.register("acme", reference_wallet)
    alice = await casino.launch("acme", "alice")
    await casino.open_table(
        "acme.t1", "russian", deck_for(["2c 3d 4h 5s 7c"], "As Ks Qs Js 9s"), operator_id="acme"
    )
    await casino.send(alice, "acme.t1", "SitDown")
    before = await casino.view("acme.t1")

    await reference_wallet.fault(mode, calls=["bet"])
    refused = await casino.post(alice, "acme.t1", "PlaceAnte", box=1, ante=100, key="ante")
    assert refused.status_code == 503, refused.text
    assert refused.json()["code"] == "wallet_unavailable"
    assert refused.headers["retry-after"]
    assert (await casino.view("acme.t1"))["version"] == before["version"]
    # The operator did apply it (its answer was only signed wrong): the rollback undoes it.
    await casino.delivered()
    assert await reference_wallet.balance_of("alice") == START
    (bet,) = await casino.calls(kind="bet")
    assert bet["status"] == "rolled_back" and "answer refused" in bet["last_error"]
    (rollback,) = await casino.calls(kind="rollback")
    assert rollback["reference_transaction_id"] == bet["transaction_id"]
    assert rollback["status"] == "delivered"

    # Trusted again, the same key is a new attempt (a 503 is not remembered).
    again = await casino.post(alice, "acme.t1", "PlaceAnte", box=1, ante=100, key="ante")
    assert again.status_code == 200, again.text
    assert await reference_wallet.balance_of("alice") == START - 100


def _bet(transaction_id: str) -> bytes:
    return msgspec.json.encode(
        bet_call("alice", 100, transaction_id=transaction_id, operator="acme", round_id="acme.t1:1")
    )


@pytest.mark.parametrize(
    ("why", "signature"),
    [
        ("another secret", lambda body, secret: sign(secret + "x", body)),
        (
            "played back after the window",
            lambda body, secret: sign(secret, body, now=time.time() - WINDOW_S - 1),
        ),
        ("no signature", lambda body, secret: None),
    ],
)
async def test_the_operator_refuses_a_request_it_cannot_trust(
    reference_wallet: ReferenceWallet, why: str, signature: object
) -> None:
    await reference_wallet.set_player("alice", "EUR", START)
    body = _bet(f"bet-{uuid.uuid4().hex}")
    header = signature(body, reference_wallet.secret)  # type: ignore[operator]
    headers = {"content-type": "application/json", **({HEADER: header} if header else {})}
    async with httpx.AsyncClient(timeout=10) as client:
        answer = await client.post(f"{reference_wallet.url}/bet", content=body, headers=headers)
    assert answer.status_code == 200, why
    assert answer.json()["status"] == "invalid_signature", why
    assert await reference_wallet.balance_of("alice") == START, why
