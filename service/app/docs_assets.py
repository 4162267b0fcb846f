"""The interactive API docs (Swagger UI at ``/schema``) served from this process, no CDN, no
inline script.

Litestar's Swagger page loads its script, style and favicon from public CDNs by default,
so it is blank on a casino's closed network; and it starts Swagger UI from an inline script
holding the whole document, which a Content-Security-Policy without ``'unsafe-inline'``
refuses. The ``swagger-ui-py`` package ships Swagger UI's own distribution files; they are
served here, under ``/schema/assets``; the page points at them and at a small script of its
own (``/schema/swagger-init.js``) that loads ``/schema/openapi.json``, so the page runs under
the app's strict HTML policy (``service.app.middleware.HTML_POLICY``).
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path
from typing import Any, Final

from litestar import Request, Response, get
from litestar.datastructures import CacheControlHeader
from litestar.openapi.plugins import SwaggerRenderPlugin
from litestar.router import Router

from russian_poker.service.app.policy import access
from russian_poker.service.app.static import static_router

__all__ = ["ASSETS_PATH", "docs_router", "swagger_assets_router", "swagger_plugin"]

ASSETS_PATH: Final = "/schema/assets"
INIT_PATH: Final = "/schema/swagger-init.js"
_DIST: Final = Path(str(files("swagger_ui") / "static"))
"""Imported as a resource, not as code: the package's Python (its own web integrations) is
not used."""

_INIT: Final = b"""// Starts Swagger UI on the service's own OpenAPI document (no inline script).
window.addEventListener("DOMContentLoaded", () => {
  window.ui = SwaggerUIBundle({
    url: "/schema/openapi.json",
    dom_id: "#swagger-container",
    deepLinking: true,
    showExtensions: true,
    showCommonExtensions: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  });
});
"""


class _LocalSwagger(SwaggerRenderPlugin):
    """Swagger UI on the local assets and the local start script."""

    def render(self, request: Request[Any, Any, Any], openapi_schema: dict[str, Any]) -> bytes:
        title = openapi_schema["info"]["title"]
        return f"""<!DOCTYPE html>
<html>
  <head>
    <title>{title}</title>
    {self.favicon}
    <meta charset="utf-8"/>
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <link href="{self.css_url}" rel="stylesheet">
    <script src="{self.js_url}"></script>
    <script src="{self.standalone_preset_js_url}"></script>
    <script src="{INIT_PATH}"></script>
  </head>
  <body><div id="swagger-container"></div></body>
</html>
""".encode()


def swagger_plugin() -> SwaggerRenderPlugin:
    """Swagger UI on the local assets, favicon included."""
    return _LocalSwagger(
        js_url=f"{ASSETS_PATH}/swagger-ui-bundle.js",
        css_url=f"{ASSETS_PATH}/swagger-ui.css",
        standalone_preset_js_url=f"{ASSETS_PATH}/swagger-ui-standalone-preset.js",
        favicon=f"<link rel='icon' type='image/png' href='{ASSETS_PATH}/favicon-32x32.png'>",
    )


@get(INIT_PATH.removeprefix("/schema"), include_in_schema=False, sync_to_thread=False)
def _swagger_init() -> Response[bytes]:
    return Response(
        _INIT,
        media_type="text/javascript",
        headers={"Cache-Control": "no-cache"},
    )


def docs_router() -> Router:
    """``/schema``: the document, the Swagger page (its render plugin adds them) and its
    start script; public."""
    return Router(
        path="/schema", route_handlers=[_swagger_init], opt=access(), include_in_schema=False
    )


def swagger_assets_router() -> Router:
    """Swagger UI's files, cached by browsers for a day (they change with the package)."""
    return static_router(
        ASSETS_PATH,
        _DIST,
        cache_control=CacheControlHeader(max_age=86_400),
        name="swagger-assets",
    )
