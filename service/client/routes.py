"""``/play/`` (the lobby), ``/play/{table_id}`` (a table) and the client's static files.

Every page is the same ``index.html``: the client reads the table id from its address and
the token from the fragment, which browsers never send to a server. The Content-Security-
Policy allows nothing but this origin, so the page cannot load or call anything else, and
the token cannot be sent elsewhere by an injected script.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Final

from litestar import Response, get
from litestar.datastructures import CacheControlHeader
from litestar.router import Router

from russian_poker.service.app.policy import access
from russian_poker.service.app.static import static_router

__all__ = ["CLIENT_PATH", "CONTENT_SECURITY_POLICY", "PAGE_HEADERS", "client_router", "secured"]

CLIENT_PATH: Final = "/play"
WEB: Final = Path(__file__).parent / "web"
CONTENT_SECURITY_POLICY: Final = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'self'",
    ]
)
PAGE_HEADERS: Final = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    # As frame-ancestors says, for browsers that read only this one.
    "X-Frame-Options": "SAMEORIGIN",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
}


def _page() -> Response[bytes]:
    # Read per request, not at import: the page is small and a deploy's edit shows at once.
    return Response(
        (WEB / "index.html").read_bytes(),
        media_type="text/html",
        headers={**PAGE_HEADERS, "Cache-Control": "no-cache"},
    )


@get("/", include_in_schema=False, name="client-lobby")
async def lobby() -> Response[bytes]:
    """The lobby: the tables the token may see."""
    return _page()


@get("/{table_id:str}", include_in_schema=False, name="client-table")
async def table() -> Response[bytes]:
    """One table; the client reads its id from the address (the route only matches it)."""
    return _page()


async def secured(response: Response[Any]) -> Response[Any]:
    response.headers.update(PAGE_HEADERS)
    return response


def client_router() -> Router:
    """The pages and, under ``/play/static``, the modules, styles and catalogues."""
    static = static_router(
        "/static",
        WEB,
        # Revalidated each time: a client of one release never mixes with another's modules.
        cache_control=CacheControlHeader(no_cache=True),
        name="client-static",
        after_request=secured,
    )
    return Router(path=CLIENT_PATH, route_handlers=[lobby, table, static], opt=access())
