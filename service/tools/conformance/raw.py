"""Raw HTTP access to an operator's wallet, for the conformance kit's signature scenarios.

:class:`~service.wallet.seamless.SeamlessWallet` always signs correctly and always checks
the answer; the kit also needs to send a request signed wrongly, stale or not at all, and to
look at the answer's signature itself. This transport signs only when asked to and returns
the answer as it came: status code, body bytes and ``X-Signature``.
"""

from __future__ import annotations

import time
from typing import NamedTuple

import httpx

from russian_poker.service.wallet.protocol import CallName
from russian_poker.service.wallet.signing import HEADER, sign, verify

__all__ = ["RawAnswer", "RawTransport"]


class RawAnswer(NamedTuple):
    """An answer exactly as received."""

    status_code: int
    body: bytes
    signature: str | None


class RawTransport:
    """``POST {url}/{call}`` with a body and a signature header of the caller's choosing."""

    def __init__(
        self,
        url: str,
        secret: str,
        *,
        timeout_ms: int = 2000,
        client: httpx.AsyncClient | None = None,
    ) -> None:
        self._url = url.rstrip("/")
        self._secret = secret
        self._timeout = timeout_ms / 1000
        self._client = client or httpx.AsyncClient(headers={"user-agent": "wallet-check/1"})
        self._own_client = client is None

    def __repr__(self) -> str:  # never the secret
        return f"RawTransport({self._url!r})"

    def sign(self, body: bytes, *, now: float | None = None) -> str:
        """A correct ``X-Signature`` for ``body`` at ``now`` (default: the clock)."""
        return sign(self._secret, body, now=time.time() if now is None else now)

    def verify(self, answer: RawAnswer) -> None:
        """Raise :class:`~service.wallet.signing.BadSignature` unless the answer is signed
        with the operator's secret, within the window of this clock."""
        verify(self._secret, answer.body, answer.signature)

    async def post(self, call: CallName | str, body: bytes, signature: str | None) -> RawAnswer:
        """Send ``body`` to ``{url}/{call}`` (a money call, or a notification's path) as is;
        ``signature`` ``None`` sends no ``X-Signature`` at all. Transport errors propagate
        (``httpx.HTTPError``)."""
        headers = {"content-type": "application/json"}
        if signature is not None:
            headers[HEADER] = signature
        response = await self._client.post(
            f"{self._url}/{call}", content=body, headers=headers, timeout=self._timeout
        )
        return RawAnswer(response.status_code, response.content, response.headers.get(HEADER))

    async def aclose(self) -> None:
        if self._own_client:
            await self._client.aclose()
