"""The command route's fast path (``service.app.command_path``) answers as the route always has.

The same requests, well formed and not, go to an app with the fast path and to one where it
always steps aside (Litestar reads every request through the route's signature, as before
the fast path): statuses, problem bodies and headers are the same, and the fast path is
what answered the well-formed ones.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Final

import pytest
from litestar import Request
from litestar.testing import AsyncTestClient

from russian_poker.service.app import command_path, create_app
from russian_poker.service.app.command_path import WellFormed
from russian_poker.service.app.controllers import tables
from tests.api.conftest import bearer, fresh_settings

OPERATOR: Final = bearer("operator", "op")
ALICE: Final = bearer("player", "alice")
PATH: Final = "/v1/tables/t1/commands"
JSON: Final = {"content-type": "application/json"}
SIT: Final = b'{"type": "SitDown"}'

Sent = tuple[str, bytes, list[tuple[str, str]]]


def _requests() -> Iterator[Sent]:
    """(path, body, headers): refusals of every kind first, then commands that are played."""
    alice = [("authorization", ALICE["Authorization"]), ("content-type", "application/json")]
    key = [("idempotency-key", "k-1")]
    yield PATH, SIT, [("content-type", "application/json"), *key]  # no token
    yield PATH, SIT, [("authorization", "Bearer nonsense"), ("content-type", "application/json")]
    yield PATH, b"{", [("authorization", "Bearer nonsense"), ("content-type", "application/json")]
    yield PATH, SIT, [("authorization", OPERATOR["Authorization"]), *alice[1:], *key]
    yield PATH, SIT, alice  # no Idempotency-Key
    yield PATH, SIT, [*alice, ("idempotency-key", "")]
    yield PATH, SIT, [*alice, ("idempotency-key", "k" * 201)]
    yield PATH, b'{"type": "Nope"}', [*alice, ("idempotency-key", "k" * 201)]
    yield PATH, SIT, [*alice, *key, ("idempotency-key", "k-2")]  # joined: 'k-1, k-2'
    yield PATH, SIT, [*alice, *key, ("if-match", "twelve")]
    yield PATH, SIT, [*alice, *key, ("if-match", '"999"')]
    yield PATH, b"{", [*alice, *key]
    yield PATH, b"[1, 2]", [*alice, *key]
    yield PATH, b'{"type": "Nope"}', [*alice, *key]
    yield PATH, b'{"type": "PlaceAnte", "box": 1}', [*alice, *key]
    yield PATH, b'{"type": "PlaceAnte", "box": 1, "ante": -5}', [*alice, *key]
    yield PATH, b"[" * 20_000 + b"]" * 20_000, [*alice, *key]
    yield PATH, b"", [*alice, *key]
    yield (
        PATH,
        SIT,
        [("authorization", ALICE["Authorization"]), ("content-type", "text/plain"), *key],
    )
    yield PATH, b'{"type": "SitDown", "pad": "' + b"x" * 70_000 + b'"}', [*alice, *key]
    yield "/v1/tables/nowhere/commands", SIT, [*alice, *key]
    yield PATH, b'{"type": "Deal"}', [*alice, ("idempotency-key", "early-deal")]  # 409
    yield PATH, b'{"type": "Deal"}', [*alice, ("idempotency-key", "early-deal")]  # replayed
    # Amounts and boxes are JSON integers: as text, as a float or in exponent form they are
    # refused by both paths alike (Litestar's signature alone would convert them).
    for spelled in (b'"100"', b"100.0", b"1e2"):
        loose = b'{"type": "PlaceAnte", "box": 1, "ante": ' + spelled + b"}"
        yield PATH, loose, [*alice, ("idempotency-key", "loose-" + spelled.decode())]
    # Played (alice sat down above, on one of the two keys Litestar read): a bet, its
    # replay, and a command conditional on the version the table is at.
    bet = b'{"type": "PlaceAnte", "box": 1, "ante": 100}'
    yield PATH, bet, [*alice, ("idempotency-key", "bet")]
    yield PATH, bet, [*alice, ("idempotency-key", "bet")]
    cancel = b'{"type": "CancelBets", "box": 1}'
    yield PATH, cancel, [*alice, ("idempotency-key", "cancel"), ("if-match", '"4"')]


async def _answers(database_url: str, tmp_path: Any) -> list[tuple[int, dict[str, str], Any]]:
    settings = await fresh_settings(database_url, tmp_path, rate_limit=0, clock=False)
    answers = []
    async with AsyncTestClient(app=create_app(settings)) as client:
        created = await client.post("/v1/tables", json={"table_id": "t1"}, headers=OPERATOR)
        assert created.status_code == 201, created.text
        for call in (
            client.post("/v1/wallets", json={"wallet_id": "alice"}, headers=OPERATOR),
            client.post(
                "/v1/wallets/alice/deposits",
                json={"transfer_id": "d-1", "amount": 10_000},
                headers=OPERATOR,
            ),
        ):
            assert (await call).status_code in (200, 201)
        for path, body, headers in _requests():
            response = await client.post(path, content=body, headers=headers)
            kept = {
                name: value
                for name, value in response.headers.items()
                if name not in ("x-request-id", "date", "content-length")
            }
            answer = response.json()
            if response.status_code == 200:
                # The round's seed commitment is drawn anew by each app: compare the rest.
                answer = {k: answer[k] for k in ("version", "duplicate", "events")} | {
                    "phase": answer["table"]["round"]["phase"],
                    "seats": answer["table"]["seats"],
                }
            answers.append((response.status_code, kept, answer))
    return answers


async def test_the_fast_path_answers_as_the_signature_does(
    database_url: str, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    taken: list[WellFormed] = []
    well_formed = tables.well_formed

    async def spied(*args: Any) -> WellFormed | None:
        parsed = await well_formed(*args)
        if parsed is not None:
            taken.append(parsed)
        return parsed

    monkeypatch.setattr(tables, "well_formed", spied)
    fast = await _answers(database_url, tmp_path / "fast")

    async def never(*args: Any) -> None:
        return None

    monkeypatch.setattr(tables, "well_formed", never)
    signature = await _answers(database_url, tmp_path / "signature")

    for request, got, expected in zip(_requests(), fast, signature, strict=True):
        assert got == expected, (request[1][:60], request[2])
    statuses = [status for status, _, _ in fast]
    assert {400, 401, 403, 404, 409, 412, 413, 415, 428} <= set(statuses)
    assert statuses[-3:] == [200, 200, 200]
    assert fast[-2][1].get("idempotent-replayed") == "true"
    assert fast[-3][1].get("idempotent-replayed") is None
    assert fast[-7][1].get("idempotent-replayed") == "true"  # a refusal given again
    assert [status for status, _, _ in fast[-6:-3]] == [400, 400, 400]  # loose integers
    assert fast[-1][1]["content-type"] == "application/json"
    # The well-formed commands were the fast path's: the ones played and the refusals of
    # the key, If-Match, the table and the rules; none malformed. The token and the role
    # were refused before, by the access guard, for both paths alike.
    played = [str(p.data.__struct_config__.tag) for p in taken]
    assert played[-3:] == ["PlaceAnte", "PlaceAnte", "CancelBets"]
    assert len(taken) == 11, played


async def test_a_repeated_header_is_left_to_litestar() -> None:
    """Two ``Idempotency-Key`` (or ``If-Match``) headers: which one counts is the
    signature's reading, so the fast path steps aside without looking further."""
    for name in (b"idempotency-key", b"if-match"):
        headers = [
            (b"authorization", ALICE["Authorization"].encode()),
            (b"content-type", b"application/json"),
            (name, b"one"),
            (name, b"two"),
        ]

        async def receive() -> dict[str, Any]:
            return {"type": "http.request", "body": SIT, "more_body": False}

        scope = {
            "type": "http",
            "method": "POST",
            "headers": headers,
            "path_params": {"table_id": "t1"},
            "state": {},
        }
        request: Request[Any, Any, Any] = Request(scope, receive)  # type: ignore[arg-type]
        assert await command_path.well_formed(request) is None, name
