"""The wallet's HTTP answers: signed JSON, and the broken ones the faults need.

An answer is encoded once and signed over exactly those bytes, which are the bytes sent:
re-encoding after signing (or letting the framework serialise a struct) could change a
byte and break the signature (§4).
"""

from __future__ import annotations

from typing import Any

import msgspec
from litestar import Request, Response
from litestar.response.base import ASGIResponse
from litestar.types import Receive, Send

from russian_poker.service.wallet.signing import HEADER, sign

__all__ = ["CutResponse", "signed"]

_encode = msgspec.json.Encoder().encode


def signed(
    content: msgspec.Struct,
    secret: str | None,
    *,
    status_code: int = 200,
    signed_at: float | None = None,
) -> Response[bytes]:
    """``content`` as JSON with ``X-Signature`` over its bytes (none if ``secret`` is None),
    signed at ``signed_at`` (default: now)."""
    body = _encode(content)
    headers = {HEADER: sign(secret, body, now=signed_at)} if secret is not None else {}
    return Response(body, status_code=status_code, media_type="application/json", headers=headers)


class _HeadersOnly(ASGIResponse):
    """Sends the status line and headers, with a ``content-length`` promising a body,
    then nothing: the server closes the connection on a response left incomplete, and the
    client sees the answer broken off (the service's client: a failed call; httpx:
    ``RemoteProtocolError``)."""

    __slots__ = ()

    async def send_body(self, send: Send, receive: Receive) -> None:
        return


class CutResponse(Response[bytes]):
    """The connection breaks before the answer is complete. Whether the call was applied
    (``drop_after_apply``) or not (``drop_before_apply``, ``down``), the caller cannot know:
    that is the point."""

    def to_asgi_response(
        self, app: Any, request: Request[Any, Any, Any], **kwargs: Any
    ) -> ASGIResponse:
        return _HeadersOnly(
            body=self.content,
            headers=self.headers,
            media_type=self.media_type,
            status_code=self.status_code,
        )
