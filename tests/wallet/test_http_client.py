"""The seamless adapter's HTTP client against a real HTTP server on loopback: what a
wallet's web stack may do to an answer, and what counts as no answer at all."""

from __future__ import annotations

import gzip
import socket
from collections.abc import AsyncIterator, Callable

import msgspec
import pytest
from aiohttp import web

from russian_poker.service.wallet.port import UnknownOutcome
from russian_poker.service.wallet.protocol import Answer
from russian_poker.service.wallet.seamless import SeamlessWallet
from russian_poker.service.wallet.signing import HEADER, sign
from tests.wallet.calls import balance_call

SECRET = "a wallet secret of some length"

Handler = Callable[[web.Request], web.StreamResponse]


@pytest.fixture
async def serve() -> AsyncIterator[Callable[[Handler], str]]:
    runners: list[web.AppRunner] = []

    async def started(handler: Handler) -> str:
        app = web.Application()
        app.router.add_post("/balance", handler)
        runner = web.AppRunner(app)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        runners.append(runner)
        port = runner.addresses[0][1]
        return f"http://127.0.0.1:{port}"

    yield started
    for runner in runners:
        await runner.cleanup()


def _signed(body: bytes) -> dict[str, str]:
    return {HEADER: sign(SECRET, body), "content-type": "application/json"}


async def _no_answer(url: str, why: str) -> None:
    """A ``balance`` call to ``url`` is an unknown outcome, for the reason ``why``."""
    wallet = SeamlessWallet(url, SECRET, timeout_ms=2000)
    try:
        with pytest.raises(UnknownOutcome, match=why):
            await wallet.balance(balance_call("alice"))
    finally:
        await wallet.aclose()


async def test_a_gzipped_answer_is_verified_over_its_json(serve: Callable[..., str]) -> None:
    """A compressing proxy in front of the wallet: the signature is over the JSON."""
    body = msgspec.json.encode(Answer(status="ok", balance=4200))

    async def gzipped(request: web.Request) -> web.Response:
        assert "gzip" in request.headers.get("accept-encoding", "")
        return web.Response(
            body=gzip.compress(body), headers={**_signed(body), "content-encoding": "gzip"}
        )

    wallet = SeamlessWallet(await serve(gzipped), SECRET)
    try:
        answer = await wallet.balance(balance_call("alice"))
    finally:
        await wallet.aclose()
    assert answer.status == "ok" and answer.balance == 4200


async def test_an_answer_over_a_mebibyte_is_no_answer(serve: Callable[..., str]) -> None:
    async def oversized(request: web.Request) -> web.Response:
        padded = b'{"status":"ok","message":"' + b"x" * (1 << 20) + b'"}'
        return web.Response(body=padded, headers=_signed(padded))

    await _no_answer(await serve(oversized), "longer than 1 MiB")


async def test_a_redirect_is_an_answer_never_followed(serve: Callable[..., str]) -> None:
    """A signed call is never re-sent to another URL by the client."""
    followed: list[str] = []

    async def elsewhere(request: web.Request) -> web.Response:
        followed.append(request.path)
        return web.Response(body=b"{}")

    target = await serve(elsewhere)

    async def moved(request: web.Request) -> web.Response:
        raise web.HTTPPermanentRedirect(f"{target}/balance")

    await _no_answer(await serve(moved), "balance: HTTP 308")
    assert followed == []


async def test_a_closed_client_sends_nothing_more(serve: Callable[..., str]) -> None:
    """An operator's adapter replaced while a call holds the old one: no answer, no leak."""
    seen: list[str] = []

    async def answered(request: web.Request) -> web.Response:
        seen.append(request.path)
        return web.Response(body=b"{}")

    wallet = SeamlessWallet(await serve(answered), SECRET)
    await wallet.aclose()
    with pytest.raises(UnknownOutcome, match="the client was closed"):
        await wallet.balance(balance_call("alice"))
    assert seen == []


async def test_nothing_listening_is_could_not_connect() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    await _no_answer(f"http://127.0.0.1:{port}", "balance: could not connect")
