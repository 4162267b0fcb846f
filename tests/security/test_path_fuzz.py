"""Paths and query strings from a hostile client: never a 5xx, never a file system path.

Every route of the application's route table is called with its path parameters replaced
by arbitrary bytes (percent-encoded: NUL, invalid UTF-8, ``..``, separators), numbers past
every integer type, look-alike and invisible characters, and with query parameters out of
range, as an admin (who reaches deepest), an operator, a player and no one. The API fuzzer
(test_fuzz.py) covers bodies and in-schema values; this covers what no schema describes.
"""

from __future__ import annotations

import base64
import json
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, Final
from urllib.parse import quote

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from litestar import Litestar

import russian_poker.service.app
from russian_poker.service.app import create_app
from tests.api.conftest import bearer
from tests.api.live_server import serving
from tests.security.conftest import fresh_database, make_world, settings_for

CALLERS: Final = [
    bearer("admin", "root"),
    bearer("operator", "op"),
    bearer("player", "alice"),
    {},
]
NASTY: Final = [
    "%00",
    "a%00b",
    "js%2Fapp.js%00.html",
    "..",
    "..%2F..%2Fetc%2Fpasswd",
    "%2e%2e%2f",
    "%c0%ae%c0%ae",
    "%ff%fe",
    "99999999999999999999999",
    "-99999999999999999999999",
    "9223372036854775808",
    "2147483648",
    "-1",
    "0",
    "1e3",
    "NaN",
    "%E2%80%8B",  # a zero-width space
    "%D0%B0lice",  # a Cyrillic a
    "live",
    "alice",
    "default",
    "acme%3Aalice",
    "x" * 300,
]
QUERY_NAMES: Final = ["after_seq", "cursor", "after", "limit", "from", "to", "round_id"]
SEGMENT: Final = st.one_of(
    st.sampled_from(NASTY),
    st.binary(min_size=1, max_size=24).map(lambda raw: quote(raw, safe="")),
    st.text(min_size=1, max_size=12).map(lambda text: quote(text, safe="")),
)
QUERY_VALUE: Final = st.one_of(
    st.sampled_from(NASTY),
    st.integers(min_value=-(2**80), max_value=2**80).map(str),
)
SOURCE: Final = str(Path(russian_poker.service.app.__file__).parents[2])


def templates(app: Litestar) -> list[tuple[str, str]]:
    found = []
    for route in app.routes:
        template = re.sub(r"{(\w+):[a-z]+}", r"{\1}", route.path)
        for handler in route.route_handlers:  # type: ignore[attr-defined]
            found += [(m, template) for m in handler.http_methods if m not in ("HEAD", "OPTIONS")]
    return sorted(set(found))


@pytest.fixture(scope="module")
async def served(database_url: str, tmp_path_factory: Any) -> AsyncIterator[Any]:
    await fresh_database(database_url)
    app = create_app(settings_for(database_url, str(tmp_path_factory.mktemp("fuzz"))))
    async with serving(app) as url, httpx.AsyncClient(base_url=url, timeout=30) as client:
        await make_world(client)
        yield app, url


async def test_hostile_paths_and_queries_never_fail_the_server(served: Any) -> None:
    app, url = served
    routes = [(m, t) for m, t in templates(app) if "stream" not in t]
    seen: dict[int, int] = {}

    @settings(
        max_examples=400,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(
        route=st.sampled_from(routes),
        segments=st.lists(SEGMENT, min_size=3, max_size=3),
        query=st.dictionaries(st.sampled_from(QUERY_NAMES), QUERY_VALUE, max_size=3),
        caller=st.sampled_from(CALLERS),
    )
    def one(
        route: tuple[str, str], segments: list[str], query: dict[str, str], caller: Any
    ) -> None:
        method, template = route
        filled = iter(segments)
        path = re.sub(r"{\w+}", lambda _: next(filled, "x"), template)
        target = path + ("?" + "&".join(f"{k}={quote(v, safe='%')}" for k, v in query.items()))
        with httpx.Client(base_url=url, timeout=30) as client:
            # The path goes on the wire as written: no client-side normalising.
            request = client.build_request(
                method, target, headers={**caller, "Idempotency-Key": "fuzz"}, json={}
            )
            request.url = httpx.URL(url + target)
            response = client.send(request)
        seen[response.status_code] = seen.get(response.status_code, 0) + 1
        assert response.status_code < 500, (method, target, response.status_code, response.text)
        assert SOURCE not in response.text, (method, target, response.text)
        assert "site-packages" not in response.text, (method, target, response.text)

    import asyncio

    await asyncio.to_thread(one)
    assert sum(seen.values()) >= 400
    assert {400, 404} <= set(seen), seen
    print(f"path fuzz: {sum(seen.values())} requests, statuses {dict(sorted(seen.items()))}")


def _cursor_of(position: list[int]) -> str:
    return base64.urlsafe_b64encode(json.dumps(position).encode()).decode().rstrip("=")


async def test_the_findings_are_4xx(served: Any) -> None:
    """The exact requests of the security review: each answered 4xx, with nothing of where
    the service is installed."""
    _, url = served
    admin = bearer("admin", "root")
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        for path, expected in (
            ("/play/static/js/app.js%00.html", 404),
            ("/play/static/no-such-file.js", 404),
            ("/schema/assets/nothing.js", 404),
            ("/v1/audit/checkpoints?cursor=99999999999999999999999", 422),
            ("/v1/audit/availability?cursor=99999999999999999999999", 422),
            ("/v1/wallets/alice/ledger?cursor=9223372036854775808", 422),
            # A cursor in this service's own shape, past a bigint: still not one it gave out.
            (f"/v1/wallets/alice/ledger?cursor={_cursor_of([2**63])}", 422),
            ("/v1/tables/live/rounds/99999999999/proof", 400),
        ):
            response = await client.get(path, headers=admin)
            assert response.status_code == expected, (path, response.text)
            assert "site-packages" not in response.text and SOURCE not in response.text
