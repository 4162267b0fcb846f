"""POSTs to operators' URLs: the money calls and the notifications, over one keep-alive
client per caller.

aiohttp, because a wallet call is on a bet's critical path: measured under load, httpx cost
about 1 ms of the server's CPU per call and aiohttp under half of it (docs/benchmarks.md,
"Issue 26"). A POST is never sent twice by the client itself, nor followed to another URL:
a broken kept-alive connection is a failed call and a redirect an answer, both of which the
caller treats as an unknown outcome.
"""

from __future__ import annotations

from typing import Final

import aiohttp
import msgspec

from russian_poker.service.wallet.signing import HEADER

__all__ = ["CallFailed", "OperatorHttp", "Reply"]

_MAX_ANSWER: Final = 1 << 20
"""The longest answer read (1 MiB): a wallet's answers are a few hundred bytes."""


class Reply(msgspec.Struct, frozen=True, kw_only=True):
    """An HTTP answer, read whole."""

    status: int
    body: bytes
    signature: str | None
    """The answer's signature header (``signing.HEADER``), if any."""


class CallFailed(Exception):
    """No HTTP answer: why, in words that name neither a secret nor the library."""


class OperatorHttp:
    """``post(url, body, headers, timeout_s)`` on a session created on first use (an
    aiohttp session belongs to the event loop that runs it)."""

    def __init__(self, *, user_agent: str, connections: int = 64) -> None:
        self._user_agent = user_agent
        self._connections = connections
        self._session: aiohttp.ClientSession | None = None
        self._closed = False

    async def post(
        self, url: str, body: bytes, headers: dict[str, str], *, timeout_s: float
    ) -> Reply:
        """Raises :class:`CallFailed` for a time-out, a refused or broken connection, or an
        answer longer than 1 MiB."""
        if self._closed:
            raise CallFailed("the client was closed (the operator's registration changed)")
        session = self._session or self._open()
        try:
            async with session.post(
                url,
                data=body,
                headers=headers,
                timeout=aiohttp.ClientTimeout(total=timeout_s),
                # A redirect would re-send the signed call elsewhere: an answer like any other.
                allow_redirects=False,
            ) as response:
                answer = bytearray()
                async for chunk in response.content.iter_chunked(65_536):
                    answer += chunk
                    if len(answer) > _MAX_ANSWER:
                        raise CallFailed("the answer is longer than 1 MiB")
                return Reply(
                    status=response.status,
                    body=bytes(answer),
                    signature=response.headers.get(HEADER),
                )
        except aiohttp.ConnectionTimeoutError:
            raise CallFailed(f"could not connect within {timeout_s:g} s") from None
        except TimeoutError:
            raise CallFailed(f"no answer within {timeout_s:g} s") from None
        except aiohttp.ClientConnectorError:
            raise CallFailed("could not connect") from None
        except (aiohttp.ServerDisconnectedError, aiohttp.ClientOSError):
            raise CallFailed("the connection broke before the answer") from None
        except aiohttp.ClientError as error:
            raise CallFailed(f"a bad answer ({type(error).__name__})") from None
        except RuntimeError:
            # Closed by aclose() while this call was on its way.
            raise CallFailed(
                "the client was closed (the operator's registration changed)"
            ) from None

    async def aclose(self) -> None:
        """Close the connections; a later :meth:`post` fails (``CallFailed``), never reopens."""
        self._closed = True
        if self._session is not None:
            await self._session.close()
            self._session = None

    def _open(self) -> aiohttp.ClientSession:
        self._session = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=self._connections, limit_per_host=0),
            headers={"user-agent": self._user_agent},
            # A wallet behind a compressing proxy answers gzip: its signature is over the
            # JSON, so the answer is read decompressed (as before, with httpx).
            auto_decompress=True,
            raise_for_status=False,
            # HTTPS_PROXY / NO_PROXY honoured, as they were with httpx.
            trust_env=True,
        )
        return self._session
