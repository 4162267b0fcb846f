"""The interactive API docs (Swagger UI at ``/schema``) served from this process, no CDN.

Litestar's Swagger page loads its script, style and favicon from public CDNs by default,
so it is blank on a casino's closed network. The ``swagger-ui-py`` package ships Swagger
UI's own distribution files; they are served here, under ``/schema/assets``, and the page
points at them.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path
from typing import Final

from litestar.datastructures import CacheControlHeader
from litestar.openapi.plugins import SwaggerRenderPlugin
from litestar.router import Router
from litestar.static_files import create_static_files_router

__all__ = ["ASSETS_PATH", "swagger_assets_router", "swagger_plugin"]

ASSETS_PATH: Final = "/schema/assets"
_DIST: Final = Path(str(files("swagger_ui") / "static"))
"""Imported as a resource, not as code: the package's Python (its own web integrations) is
not used."""


def swagger_plugin() -> SwaggerRenderPlugin:
    """Swagger UI on the local assets, favicon included."""
    return SwaggerRenderPlugin(
        js_url=f"{ASSETS_PATH}/swagger-ui-bundle.js",
        css_url=f"{ASSETS_PATH}/swagger-ui.css",
        standalone_preset_js_url=f"{ASSETS_PATH}/swagger-ui-standalone-preset.js",
        favicon=f"<link rel='icon' type='image/png' href='{ASSETS_PATH}/favicon-32x32.png'>",
    )


def swagger_assets_router() -> Router:
    """Swagger UI's files, cached by browsers for a day (they change with the package)."""
    return create_static_files_router(
        path=ASSETS_PATH,
        directories=[_DIST],
        include_in_schema=False,
        cache_control=CacheControlHeader(max_age=86_400),
        name="swagger-assets",
    )
