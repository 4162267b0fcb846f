"""The interactive docs at /schema load nothing from another host: they work offline."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from urllib.parse import urlsplit

import httpx

EXPECTED_TYPES = {".js": "javascript", ".css": "text/css", ".png": "image/png"}


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
        assert "SwaggerUIBundle" in page.text
        parser = References()
        parser.feed(page.text)
        assert len(parser.urls) >= 4  # style, two scripts, favicon
        for url in parser.urls:
            parts = urlsplit(url)
            assert not parts.scheme and not parts.netloc, f"{page_path} loads {url}"
            asset = await api.get(url)
            assert asset.status_code == 200, url
            kind = next(t for suffix, t in EXPECTED_TYPES.items() if parts.path.endswith(suffix))
            assert kind in asset.headers["content-type"], (url, asset.headers["content-type"])
            assert len(asset.content) > 1000
        # Nor does any inline script fetch from elsewhere, other than the spec it is given.
        # The spec's own example values (an operator's wallet `"url"`) are data, not fetched.
        text = re.sub(r'"url":\s*"[^"]*"', '"url": ""', page.text)
        assert "https://" not in text and "http://" not in text


async def test_the_assets_are_cached_and_unknown_ones_are_404(api: httpx.AsyncClient) -> None:
    asset = await api.get("/schema/assets/swagger-ui-bundle.js")
    assert "max-age=86400" in asset.headers["cache-control"]
    assert (await api.get("/schema/assets/nothing.js")).status_code == 404
