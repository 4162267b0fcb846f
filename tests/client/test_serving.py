"""How the service serves the client: the pages, the files, the headers, the package.

The pages and every file carry the Content-Security-Policy that keeps the client to its own
origin; nothing outside ``service/client/web`` is served; and every file of the client is
named by the package data, so an installed wheel (the Docker image) serves it too.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Final

import httpx
import pytest

from russian_poker.service.client.routes import CONTENT_SECURITY_POLICY, WEB
from tests.processes import ServiceProcess

ROOT: Final = Path(__file__).parents[2]


@pytest.mark.parametrize("path", ["/play/", "/play", "/play/t1", "/play/some-table_2"])
async def test_every_page_is_the_client_under_its_policy(
    client_service: ServiceProcess, path: str
) -> None:
    async with httpx.AsyncClient(base_url=client_service.url) as http:
        answer = await http.get(path)
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/html")
    assert answer.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    assert answer.headers["referrer-policy"] == "no-referrer"
    assert '<script type="module" src="/play/static/js/app.js">' in answer.text


@pytest.mark.parametrize(
    ("path", "media"),
    [
        ("/play/static/js/app.js", "text/javascript"),
        ("/play/static/css/client.css", "text/css"),
        ("/play/static/i18n/ru.json", "application/json"),
    ],
)
async def test_files_have_their_type_and_the_policy(
    client_service: ServiceProcess, path: str, media: str
) -> None:
    async with httpx.AsyncClient(base_url=client_service.url) as http:
        answer = await http.get(path)
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith(media)
    assert answer.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    assert answer.headers["x-content-type-options"] == "nosniff"
    assert "no-cache" in answer.headers["cache-control"]


@pytest.mark.parametrize(
    "path",
    [
        "/play/static/nothing.js",
        "/play/static/%2e%2e/routes.py",
        "/play/static/..%2f..%2fsettings.py",
        "/play/static/js/%2e%2e/%2e%2e/routes.py",
    ],
)
async def test_nothing_outside_the_client_is_served(
    client_service: ServiceProcess, path: str
) -> None:
    async with httpx.AsyncClient(base_url=client_service.url) as http:
        answer = await http.get(path)
    assert answer.status_code == 404
    assert "import" not in answer.text


def test_the_package_data_names_every_file_of_the_client() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    data = project["tool"]["setuptools"]["package-data"]
    prefix = "russian_poker.service.client.web"
    files = {p for p in WEB.rglob("*") if p.is_file()}
    # Each data directory is a package; Path.glob's `*` stays within one directory, as
    # setuptools' does.
    packaged = {
        p
        for package, patterns in data.items()
        if package == prefix or package.startswith(prefix + ".")
        for pattern in patterns
        for p in WEB.joinpath(*package.removeprefix(prefix).split(".")).glob(pattern)
    }
    assert files and packaged <= files
    assert not files - packaged, f"not in the wheel: {sorted(map(str, files - packaged))}"
