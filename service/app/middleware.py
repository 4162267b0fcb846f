"""One raw ASGI middleware per request: its request id and its Prometheus request metrics;
and the security headers every answer carries.

It replaces two layers (a request-id middleware and Litestar's ``PrometheusMiddleware``)
that each wrapped ``send`` and, for the metrics, built a ``Request``, two label dicts and
four ``labels()`` look-ups under the client library's lock on every request. Here the
metrics' children are resolved once per route, method and status and kept, and the request
id is bound to the log context without structlog's ``bound_contextvars`` (which copies the
whole context to save and restore it).

The series are Litestar's own, so dashboards and alerts keep working: the same names
(``litestar_requests_total``, ``litestar_request_duration_seconds``,
``litestar_requests_in_progress``, ``litestar_requests_error_total``), the same labels in the
same order (``method``, ``path``, ``status_code``, ``app_name``), ``path`` the route template,
and, as Litestar measures it, the duration up to the last body message and the in-progress
gauge labelled with status 200. Installed as an app middleware, it runs after routing, so a
path no route matches is not counted (the cardinality guarantee of docs/deploy.md).

Every answer, whatever produced it (a route, a refusal, Litestar's own 404 or 405: the
headers are added by :func:`security_headers`, a ``before_send`` hook, which sees them all), says
``X-Content-Type-Options: nosniff``, refuses to be framed and sends no ``Referer``; an HTML
page without a Content-Security-Policy of its own gets :data:`HTML_POLICY`; and an API
answer (``/v1``) that says nothing of caching is ``no-store``: API answers carry tokens,
balances and a player's own cards, which no browser or proxy should keep.
"""

from __future__ import annotations

import random
import time
import uuid
from typing import Final

import structlog
from litestar.enums import ScopeType
from litestar.types import ASGIApp, Message, Receive, Scope, Send
from prometheus_client import Counter, Gauge, Histogram

__all__ = ["APP_NAME", "HTML_POLICY", "REQUEST_ID_KEY", "request_middleware", "security_headers"]

APP_NAME: Final = "russian_poker"
REQUEST_ID_KEY: Final = "request_id"
"""Where the request id lives in the scope's ``state`` (see ``observability.request_id_of``)."""

_LABELS: Final = ("method", "path", "status_code", "app_name")
_REQUESTS: Final = Counter("litestar_requests_total", "Total requests", _LABELS)
_DURATION: Final = Histogram(
    "litestar_request_duration_seconds", "Request duration, in seconds", _LABELS
)
_IN_PROGRESS: Final = Gauge(
    "litestar_requests_in_progress",
    "Total requests currently in progress",
    _LABELS,
    multiprocess_mode="livesum",
)
_ERRORS: Final = Counter("litestar_requests_error_total", "Total errors in requests", _LABELS)

_Finished = tuple[Counter, Histogram, Counter | None]
_finished: dict[tuple[str, str, int], _Finished] = {}
_started: dict[tuple[str, str], Gauge] = {}
"""Bound children by labels: a handful of routes, methods and statuses, so never large."""

_HEADER: Final = b"x-request-id"
_random: Final = random.Random()

HTML_POLICY: Final = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        # Swagger UI sets styles from its script; nothing else of these pages is inline.
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
    ]
)
"""The Content-Security-Policy of an HTML page that sets none (the API docs, problem pages)."""
_ALWAYS: Final = (
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
)
_CSP: Final = b"content-security-policy"
_CACHE_CONTROL: Final = b"cache-control"
_CONTENT_TYPE: Final = b"content-type"
_NO_STORE: Final = (_CACHE_CONTROL, b"no-store")
_HTML_CSP: Final = (_CSP, HTML_POLICY.encode())


async def security_headers(message: Message, scope: Scope) -> None:
    """The app's ``before_send`` hook: an answer's start gets the headers it lacks."""
    if message["type"] == "http.response.start":
        api = scope["path"].startswith("/v1/")
        message["headers"] = _secured(list(message.get("headers", ())), api)


def _secured(headers: list[tuple[bytes, bytes]], api: bool) -> list[tuple[bytes, bytes]]:
    """``headers`` with the security headers each answer must carry, where it has none."""
    present = {name.lower() for name, _ in headers}
    added = [header for header in _ALWAYS if header[0] not in present]
    if api and _CACHE_CONTROL not in present:
        added.append(_NO_STORE)
    if _CSP not in present:
        kind = next((v for n, v in headers if n.lower() == _CONTENT_TYPE), b"")
        if kind.lower().startswith(b"text/html"):
            added.append(_HTML_CSP)
    return [*headers, *added] if added else headers


def _finished_children(method: str, path: str, status: int) -> _Finished:
    children = _finished.get((method, path, status))
    if children is None:
        labels = (method, path, status, APP_NAME)
        children = (
            _REQUESTS.labels(*labels),
            _DURATION.labels(*labels),
            _ERRORS.labels(*labels) if status >= 500 else None,
        )
        _finished[(method, path, status)] = children
    return children


def _in_progress(method: str, path: str) -> Gauge:
    gauge = _started.get((method, path))
    if gauge is None:
        gauge = _started[(method, path)] = _IN_PROGRESS.labels(method, path, 200, APP_NAME)
    return gauge


def _request_id(scope: Scope) -> str:
    """The client's ``X-Request-ID`` if it is printable and at most 128 characters, else a
    new UUID (version 4, from a per-process generator: an id, not a secret, and drawing it
    costs no system call as ``uuid4``'s ``urandom`` does)."""
    given = b""
    for name, value in scope["headers"]:
        if name == _HEADER:
            given = value  # the last one wins, as it always has
    text = given.decode("latin-1")
    if 0 < len(text) <= 128 and text.isprintable():
        return text
    return str(uuid.UUID(int=_random.getrandbits(128), version=4))


def request_middleware(app: ASGIApp) -> ASGIApp:
    """Give every HTTP request an id (bound to its log lines, echoed as ``X-Request-ID``)
    and count it in the request metrics. The service has no WebSocket route: other scopes
    pass untouched."""

    async def middleware(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != ScopeType.HTTP:
            await app(scope, receive, send)
            return
        method = scope["method"]
        path = scope["path_template"]
        request_id = _request_id(scope)
        echoed = (_HEADER, request_id.encode())
        scope.setdefault("state", {})[REQUEST_ID_KEY] = request_id
        started = time.perf_counter()
        status = 200
        duration = 0.0

        async def send_wrapped(message: Message) -> None:
            nonlocal status, duration
            if message["type"] == "http.response.start":
                status = message["status"]
                message["headers"] = [*message.get("headers", ()), echoed]
            elif message["type"] == "http.response.body":
                duration = time.perf_counter() - started
            await send(message)

        in_progress = _in_progress(method, path)
        in_progress.inc()
        tokens = structlog.contextvars.bind_contextvars(request_id=request_id)
        try:
            await app(scope, receive, send_wrapped)
        finally:
            structlog.contextvars.reset_contextvars(**tokens)
            in_progress.dec()
            count, seconds, errors = _finished_children(method, path, status)
            if errors is not None:
                errors.inc()
            count.inc()
            seconds.observe(duration)

    return middleware
