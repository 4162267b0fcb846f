"""The interactive docs at /schema load nothing from another host: they work offline."""

from __future__ import annotations

from html.parser import HTMLParser
from urllib.parse import urlsplit

import httpx

EXPECTED_TYPES = {".js": "javascript", ".css": "text/css", ".png": "image/png"}
INIT = "/schema/swagger-init.js"


class References(HTMLParser):
    """Every ``src`` and ``href`` of the page."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.urls += [value for name, value in attrs if name in ("src", "href") and value]


async def test_the_swagger_page_references_only_its_own_assets(api: httpx.AsyncClient) -> None:
    for page_path in ("/schema", "/schema/swagger"):
        page = await api.get(page_path)
        assert page.status_code == 200
        # No inline script: the page starts Swagger UI from its own file, under a policy
        # that allows scripts of this origin only.
        assert "<script>" not in page.text
        assert "script-src 'self'" in page.headers["content-security-policy"]
        parser = References()
        parser.feed(page.text)
        assert len(parser.urls) >= 5  # style, three scripts, favicon
        for url in parser.urls:
            parts = urlsplit(url)
            assert not parts.scheme and not parts.netloc, f"{page_path} loads {url}"
            asset = await api.get(url)
            assert asset.status_code == 200, url
            kind = next(t for suffix, t in EXPECTED_TYPES.items() if parts.path.endswith(suffix))
            assert kind in asset.headers["content-type"], (url, asset.headers["content-type"])
            assert len(asset.content) > (100 if url == INIT else 1000)
        start = (await api.get(INIT)).text
        assert "SwaggerUIBundle(" in start and '"/schema/openapi.json"' in start
        # Nor does the page or its start script fetch from elsewhere.
        assert "https://" not in page.text + start and "http://" not in page.text + start


async def test_the_assets_are_cached_and_unknown_ones_are_404(api: httpx.AsyncClient) -> None:
    asset = await api.get("/schema/assets/swagger-ui-bundle.js")
    assert "max-age=86400" in asset.headers["cache-control"]
    assert (await api.get("/schema/assets/nothing.js")).status_code == 404
