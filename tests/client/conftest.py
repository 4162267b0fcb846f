"""The browser client's fixtures: a real service process and Debian's Chromium.

One service (test mode on, so rounds can be played on fixed decks) serves ``/play/`` for
the whole module; Chromium is driven by Playwright's Python package through
``executable_path`` (no browser is ever downloaded). Every page opened through
:func:`watched_page` records its console errors, uncaught exceptions and every request to a
host other than the service's, and the test fails if any occurred.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Final
from urllib.parse import urlsplit

import pytest
from playwright.async_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Page,
    Playwright,
    Request,
    Response,
    async_playwright,
    expect,
)

from tests.processes import ServiceProcess, service_on_fresh_database

if TYPE_CHECKING:
    from tests.client.people import Operator

__all__ = ["ARTIFACTS", "Watch", "chromium_path", "open_page"]

# A bound, not a measurement: on a loaded 2-core machine a page may take seconds to show a
# state; nothing here asserts how fast it did.
expect.set_options(timeout=20_000)

ARTIFACTS: Final = Path(os.environ.get("CLIENT_ARTIFACTS", "test-artifacts/client"))
"""Where screenshots go (`.gitignore`d); CI keeps the directory as the run's artifacts."""


_NETWORK_LOG: Final = "Failed to load resource:"


def chromium_path() -> str:
    """Debian's Chromium (``.ci/run`` installs the package when it is missing)."""
    found = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(found).exists():
        pytest.fail("Debian's chromium is not installed: apt-get install chromium (.ci/run does)")
    return found


@dataclass
class Watch:
    """What a page did that a clean client never does."""

    origin: str
    errors: list[str] = field(default_factory=list)
    foreign: list[str] = field(default_factory=list)

    def console(self, message: ConsoleMessage) -> None:
        # Chromium logs every 4xx/5xx answer and refused connection as a console error of
        # its own ("Failed to load resource"): a refusal or a restart the test provokes is
        # not the client's error. The client's own errors (console.error, uncaught
        # exceptions) all count, and so does any of the client's own files failing to load.
        if message.type == "error" and not message.text.startswith(_NETWORK_LOG):
            self.errors.append(f"console: {message.text}")

    def exception(self, error: Exception) -> None:
        self.errors.append(f"uncaught: {error}")

    def response(self, response: Response) -> None:
        if (
            urlsplit(response.url).path.startswith(("/play/", "/office/"))
            and response.status >= 400
        ):
            self.errors.append(f"the client's file {response.url}: HTTP {response.status}")

    def request(self, request: Request) -> None:
        parts = urlsplit(request.url)
        if parts.scheme in ("data", "blob", "about"):
            return
        if f"{parts.scheme}://{parts.netloc}" != self.origin:
            self.foreign.append(request.url)

    def assert_clean(self) -> None:
        assert not self.errors, self.errors
        assert not self.foreign, f"requests to other hosts: {self.foreign}"


@pytest.fixture(scope="module")
async def client_service(
    server_url: str, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[ServiceProcess]:
    """A real ``russian-poker serve`` in test mode, on its own database."""
    async with service_on_fresh_database(
        server_url,
        "client",
        tmp_path_factory.mktemp("client-service"),
        env={"RUSSIAN_POKER_TEST_MODE": "true"},
    ) as service:
        yield service


@pytest.fixture(scope="module")
async def operator(client_service: ServiceProcess) -> AsyncIterator[Operator]:
    """The casino's back office on the module's service (tests fund what they need)."""
    from tests.client.people import Operator  # people imports this module

    back_office = Operator(client_service.url)
    try:
        yield back_office
    finally:
        await back_office.aclose()


@pytest.fixture(scope="module")
async def playwright() -> AsyncIterator[Playwright]:
    async with async_playwright() as driver:
        yield driver


@pytest.fixture(scope="module")
async def browser(playwright: Playwright) -> AsyncIterator[Browser]:
    # No sandbox: CI runs as root, where Chromium's sandbox refuses to start.
    browser = await playwright.chromium.launch(
        executable_path=chromium_path(), args=["--no-sandbox"]
    )
    try:
        yield browser
    finally:
        await browser.close()


async def open_page(
    browser: Browser, origin: str, *, width: int = 1280, height: int = 900, locale: str = "en-GB"
) -> tuple[BrowserContext, Page, Watch]:
    """A fresh context (its own storage: another person) and a page watched for errors."""
    context = await browser.new_context(viewport={"width": width, "height": height}, locale=locale)
    page = await context.new_page()
    watch = Watch(origin)
    page.on("console", watch.console)
    page.on("pageerror", watch.exception)
    page.on("request", watch.request)
    page.on("response", watch.response)
    return context, page, watch


@pytest.fixture
def artifacts() -> Iterator[Path]:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    yield ARTIFACTS
