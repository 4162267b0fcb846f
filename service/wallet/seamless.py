"""The seamless adapter: the money calls as signed HTTP requests to the operator's wallet.

One keep-alive client per operator (``wallet.http``) carries the calls; every call
has the operator's own time-out (``timeout_ms``, §1). Anything but a signed, readable HTTP
200 answer is an :class:`UnknownOutcome` — including a wrong or stale signature on the
answer, which an attacker between the two sides could otherwise use to fake an ``ok``.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import msgspec

from russian_poker.service.wallet.http import CallFailed, OperatorHttp
from russian_poker.service.wallet.port import UnknownOutcome
from russian_poker.service.wallet.protocol import (
    Answer,
    BalanceCall,
    BetCall,
    Call,
    RollbackCall,
    WinCall,
)
from russian_poker.service.wallet.signing import HEADER, BadSignature, sign, verify

__all__ = ["SeamlessWallet"]

_answer = msgspec.json.Decoder(Answer)
_encoder = msgspec.json.Encoder()


class SeamlessWallet:
    """``POST {url}/{call}`` for each call, signed with the operator's secret."""

    def __init__(
        self,
        url: str,
        secret: str,
        *,
        timeout_ms: int = 2000,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._url = url.rstrip("/")
        self._secret = secret
        self._timeout = timeout_ms / 1000
        self._http = OperatorHttp(user_agent="russian-poker-wallet/1")
        self._clock = clock

    def __repr__(self) -> str:  # never the secret
        return f"SeamlessWallet({self._url!r})"

    async def balance(self, call: BalanceCall) -> Answer:
        return await self._post("balance", call)

    async def bet(self, call: BetCall) -> Answer:
        return await self._post("bet", call)

    async def win(self, call: WinCall) -> Answer:
        return await self._post("win", call)

    async def rollback(self, call: RollbackCall) -> Answer:
        return await self._post("rollback", call)

    async def aclose(self) -> None:
        await self._http.aclose()

    async def _post(self, name: str, call: Call) -> Answer:
        body = _encoder.encode(call)
        headers = {
            "content-type": "application/json",
            HEADER: sign(self._secret, body, now=self._clock()),
        }
        try:
            reply = await self._http.post(
                f"{self._url}/{name}", body, headers, timeout_s=self._timeout
            )
        except CallFailed as failed:
            raise UnknownOutcome(f"{name}: {failed}") from None
        if reply.status != 200:
            raise UnknownOutcome(f"{name}: HTTP {reply.status}")
        try:
            verify(self._secret, reply.body, reply.signature, now=self._clock())
        except BadSignature as bad:
            raise UnknownOutcome(f"{name}: answer refused: {bad}") from None
        try:
            answer = _answer.decode(reply.body)
        except msgspec.DecodeError:
            raise UnknownOutcome(f"{name}: the answer is not a wallet answer") from None
        if answer.status == "unknown":
            raise UnknownOutcome(f"{name}: the operator answered unknown")
        return answer
