"""A JSON answer encoded once and sent as two prepared messages.

Litestar turns a handler's ``Response`` into an ``ASGIResponse`` by merging header dicts,
chaining cookie lists, resolving type encoders and filling a mutable header list one
``add`` at a time, then encodes the headers again when it sends them: general machinery
that the command route, which answers with a body and at most one header of its own, pays
on every command. :class:`EncodedAnswer` is still a ``Response`` (the route's signature and
its OpenAPI document are unchanged) but it sends exactly what Litestar would (the same
body from the same encoder, the same headers in the same order) without that machinery.
Anything it does not know how to send as simply (cookies, background tasks, headers added
by a layer) goes through Litestar's own conversion.
"""

from __future__ import annotations

from typing import Any, TypeVar

from litestar import Request, Response
from litestar.response.base import ASGIResponse
from litestar.serialization import encode_json
from litestar.types import Receive, Scope, Send

__all__ = ["EncodedAnswer"]

T = TypeVar("T")

_JSON_TYPE = "application/json"
_JSON = _JSON_TYPE.encode()
_CONTENT_HEADERS = frozenset(("content-type", "content-length"))


class _Prepared(ASGIResponse):
    """An ``ASGIResponse`` whose two messages are built already."""

    __slots__ = ("_messages",)

    def __init__(self, status: int, headers: list[tuple[bytes, bytes]], body: bytes) -> None:
        # ASGIResponse's own set-up is what this class exists to skip.
        self._messages = (
            {"type": "http.response.start", "status": status, "headers": headers},
            {"type": "http.response.body", "body": body, "more_body": False},
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        start, body = self._messages
        await send(start)  # type: ignore[arg-type]
        await send(body)  # type: ignore[arg-type]


class EncodedAnswer(Response[T]):
    """A 2xx ``application/json`` answer with a few plain headers of its own."""

    def to_asgi_response(
        self,
        app: Any,
        request: Request[Any, Any, Any],
        *,
        headers: dict[str, str] | None = None,
        cookies: Any = None,
        background: Any = None,
        media_type: Any = None,
        **kwargs: Any,
    ) -> ASGIResponse:
        status = self.status_code
        simple = (
            status is not None
            and 200 <= status < 300
            and status != 204
            and not headers
            and not cookies
            and not self.cookies
            and background is None
            and self.background is None
            and self.media_type is None
            and (media_type or _JSON_TYPE) == _JSON_TYPE
            and not kwargs.get("type_encoders")
            and not self.response_type_encoders
            and not kwargs.get("is_head_response")
            and not _CONTENT_HEADERS & {name.lower() for name in self.headers}
        )
        if not simple or status is None:
            return super().to_asgi_response(
                app,
                request,
                headers=headers,
                cookies=cookies,
                background=background,
                media_type=media_type,
                **kwargs,
            )
        body = encode_json(self.content)
        encoded = [
            (name.lower().encode("latin-1"), value.encode("latin-1"))
            for name, value in self.headers.items()
        ]
        # As ASGIResponse sets them after the response's own.
        encoded.append((b"content-type", _JSON))
        encoded.append((b"content-length", str(len(body)).encode("latin-1")))
        return _Prepared(status, encoded, body)
