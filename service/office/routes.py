"""``/office`` (the back office's one page) and its static files.

The page is served like the table client's: the token comes in the fragment (never sent to
a server), the same Content-Security-Policy allows nothing but this origin, and the page
reuses the client's DOM, i18n, API and fairness modules from ``/play/static/js``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from litestar import Response, get
from litestar.datastructures import CacheControlHeader
from litestar.router import Router

from russian_poker.service.app.policy import access
from russian_poker.service.app.static import static_router
from russian_poker.service.client.routes import PAGE_HEADERS, secured

__all__ = ["OFFICE_PATH", "office_router"]

OFFICE_PATH: Final = "/office"
WEB: Final = Path(__file__).parent / "web"


@get("/", include_in_schema=False, name="office-page")
async def office_page() -> Response[bytes]:
    """The back office; which view it shows is in the fragment (``#/rounds``, …)."""
    return Response(
        (WEB / "index.html").read_bytes(),
        media_type="text/html",
        headers={**PAGE_HEADERS, "Cache-Control": "no-cache"},
    )


def office_router() -> Router:
    """The page and, under ``/office/static``, its modules, styles and catalogues."""
    static = static_router(
        "/static",
        WEB,
        cache_control=CacheControlHeader(no_cache=True),
        name="office-static",
        after_request=secured,
    )
    return Router(path=OFFICE_PATH, route_handlers=[office_page, static], opt=access())
