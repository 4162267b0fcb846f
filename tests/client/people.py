"""People at a table in the browser: the operator's setup over HTTP, and one browser
context per player or observer with the page of the table open.

The setup (wallets, tables, scripted decks) is the operator's and goes through the API;
everything a player does in the tests is a click in their own page.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import httpx
from playwright.async_api import Browser, BrowserContext, Page, expect

from russian_poker.service.app.auth import mint_token
from tests.client.conftest import Watch, open_page
from tests.processes import SECRET, token_headers

__all__ = ["Operator", "Person", "player_token", "seat_at"]


def player_token(player: str) -> str:
    return mint_token(SECRET, "player", player, 6 * 3600)


class Operator:
    """The casino's back office: wallets, tables and test decks, over HTTP."""

    def __init__(self, base: str) -> None:
        self.http = httpx.AsyncClient(
            base_url=base, headers=token_headers("operator", "op"), timeout=30
        )

    async def aclose(self) -> None:
        await self.http.aclose()

    async def fund(self, player: str, amount: int, currency: str = "EUR") -> None:
        await self.http.post("/v1/wallets", json={"wallet_id": player, "currency": currency})
        answer = await self.http.post(
            f"/v1/wallets/{player}/deposits",
            json={"transfer_id": f"fund-{uuid.uuid4().hex}", "amount": amount},
        )
        assert answer.status_code == 200, answer.text

    async def open_table(self, preset: str, *, name: str = "", **overrides: Any) -> str:
        table_id = f"{preset}-{uuid.uuid4().hex[:6]}"
        answer = await self.http.post(
            "/v1/tables",
            json={
                "table_id": table_id,
                "preset": preset,
                "name": name,
                # Minutes to click in: no time-out may fire while a slow machine plays.
                "overrides": {"betting_timeout_s": 900, "decision_timeout_s": 900, **overrides},
            },
        )
        assert answer.status_code == 201, answer.text
        return table_id

    async def stack(self, table_id: str, cards: Sequence[str]) -> None:
        answer = await self.http.put(
            f"/v1/tables/{table_id}/test-deck", json={"cards": list(cards)}
        )
        assert answer.status_code == 200, answer.text


@dataclass
class Person:
    """One person's browser context, with the table open."""

    name: str
    context: BrowserContext
    page: Page
    watch: Watch
    base: str

    @property
    def http(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(
            base_url=self.base, headers={"Authorization": f"Bearer {player_token(self.name)}"}
        )

    async def view(self, table_id: str) -> dict[str, Any]:
        """The table as the API shows it to this person."""
        async with self.http as http:
            answer = await http.get(f"/v1/tables/{table_id}")
        assert answer.status_code == 200, answer.text
        view: dict[str, Any] = answer.json()
        return view

    async def balance(self) -> int | None:
        async with self.http as http:
            answer = await http.get("/v1/me")
        balance: int | None = answer.json()["balance"]
        return balance

    async def click(self, action: str, box: int | None = None, *, opens_form: bool = False) -> None:
        """Click the button of `action` (for `box`) and wait for the server's answer to the
        command it sends, so a view read afterwards already holds its effect. A button that
        only opens a form (the exchange's card picker) sends nothing and is not waited on."""
        selector = f"[data-action={action}]" + (f"[data-box='{box}']" if box else "")
        button = self.page.locator(selector).first
        await expect(button).to_be_enabled()
        if opens_form:
            await button.click()
            return
        async with self.page.expect_response(
            lambda answer: answer.request.method == "POST" and answer.url.endswith("/commands")
        ):
            await button.click()

    async def close(self) -> None:
        await self.context.close()


async def seat_at(
    browser: Browser,
    base: str,
    name: str,
    table_id: str,
    *,
    width: int = 1280,
    height: int = 900,
    locale: str = "en-GB",
) -> Person:
    """A new context for `name` with the table open from a launch-style URL."""
    context, page, watch = await open_page(browser, base, width=width, height=height, locale=locale)
    await page.goto(f"{base}/play/{table_id}#token={player_token(name)}")
    await expect(page.locator("[data-testid=connection]")).to_have_attribute("data-state", "live")
    return Person(name, context, page, watch, base)
