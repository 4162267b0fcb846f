"""The client without a mouse, for a screen reader and on a phone: a round is reached with
the keyboard alone, focus survives the table's redraws, every card and button has a name,
and the page fits a 375 px screen with finger-sized buttons while a desktop shows the boxes
side by side.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any, Final

import httpx
from playwright.async_api import Browser, Page, expect

from tests.client.people import Operator, Person, player_token, seat_at
from tests.processes import ServiceProcess
from tests.rules.scenario import deck_for

EN: Final[dict[str, str]] = json.loads(
    (Path(__file__).parents[2] / "service/client/web/i18n/en.json").read_text(encoding="utf-8")
)
MAX_TABS: Final = 80
HAND: Final = "As Kd 7h 4c 2s"
DEALER: Final = "Qh Jh 9d 8c 3s"
DECK: Final = deck_for([HAND], DEALER)
"""One box: ace–king for the player; the dealer shows the three of spades."""
NAMES: Final = {
    "As": "Ace of spades",
    "Kd": "King of diamonds",
    "7h": "Seven of hearts",
    "4c": "Four of clubs",
    "2s": "Two of spades",
}
PHONE_WIDTH: Final = 375
FINGER: Final = 44
"""The smallest comfortable touch target, in CSS pixels (WCAG 2.5.5)."""


async def fresh_table(operator: Operator, *players: str) -> str:
    for player in players:
        await operator.fund(player, 1_000_000)
    table_id = await operator.open_table("russian")
    await operator.stack(table_id, DECK)
    return table_id


async def focused(page: Page, selector: str) -> bool:
    matches: bool = await page.evaluate(
        "s => document.activeElement !== null && document.activeElement.matches(s)", selector
    )
    return matches


async def focused_key(page: Page) -> str | None:
    key: str | None = await page.evaluate("() => document.activeElement?.dataset?.key ?? null")
    return key


async def tab_to(page: Page, selector: str, *, backwards: bool = False) -> None:
    """Press Tab (or Shift+Tab) until the focused element matches `selector`."""
    await expect(page.locator(selector).first).to_be_enabled()
    for _ in range(MAX_TABS):
        if await focused(page, selector):
            return
        await page.keyboard.press("Shift+Tab" if backwards else "Tab")
    assert await focused(page, selector), f"{MAX_TABS} presses of Tab never reached {selector}"


async def in_table(page: Page) -> bool:
    """Whether the keyboard focus is in the table (main), not lost to the page's body."""
    inside: bool = await page.evaluate("() => document.activeElement?.closest('main') !== null")
    return inside


async def phase(page: Page, name: str) -> None:
    await expect(page.locator("[data-testid=round-phase]")).to_have_attribute("data-phase", name)


async def command(base: str, player: str, table_id: str, body: dict[str, Any]) -> None:
    """Another player's command, over HTTP: a redraw the page did not cause."""
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        answer = await http.post(
            f"/v1/tables/{table_id}/commands",
            json=body,
            headers={
                "Authorization": f"Bearer {player_token(player)}",
                "Idempotency-Key": uuid.uuid4().hex,
            },
        )
    assert answer.status_code == 200, answer.text


async def redrawn_by(
    page: Page, base: str, player: str, table_id: str, body: dict[str, Any]
) -> None:
    """`player`'s command, and the page redrawn with the state it made."""
    version = int(await page.locator("main").get_attribute("data-version") or "0")
    await command(base, player, table_id, body)
    await page.wait_for_function(
        "v => Number(document.querySelector('main')?.dataset.version ?? -1) > v", arg=version
    )


async def play_to_decisions(person: Person, *, sit: bool = True) -> None:
    """With clicks: sit down, one ante chip, place the bet, ask for the deal."""
    page = person.page
    if sit:
        await person.click("SitDown")
    await expect(page.locator("[data-action=LeaveTable]")).to_be_visible()
    await page.locator("[data-chip=ante]").first.click()
    await person.click("PlaceAnte")
    await person.click("Deal")
    await phase(page, "decisions")


async def unnamed_buttons(page: Page) -> list[str]:
    """Buttons with no accessible name (no aria-label, labelling element or text)."""
    found: list[str] = await page.evaluate(
        """() => [...document.querySelectorAll('button, [role=button], summary, a[href]')]
            .filter((el) => el.getClientRects().length)
            .filter((el) => {
              const by = (el.getAttribute('aria-labelledby') || '').split(/\\s+/).filter(Boolean)
                .map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
              const name = el.getAttribute('aria-label') || by || el.textContent || el.title || '';
              return !name.trim();
            })
            .map((el) => el.outerHTML.slice(0, 120))"""
    )
    return found


async def card_labels(page: Page) -> list[dict[str, str | None]]:
    labels: list[dict[str, str | None]] = await page.evaluate(
        """() => [...document.querySelectorAll('svg.card')].map((el) => ({
            card: el.dataset.card ?? null, label: el.getAttribute('aria-label'),
            role: el.getAttribute('role')}))"""
    )
    return labels


async def no_horizontal_scroll(page: Page) -> None:
    width: int = await page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE_WIDTH, f"the page is {width} px wide on a {PHONE_WIDTH} px screen"


async def action_heights(page: Page) -> dict[str, float]:
    """The height of every visible action button, measured in one go: the stream may redraw
    the table between two calls, and a button measured must be the one found."""
    heights: dict[str, float] = await page.evaluate(
        """() => Object.fromEntries(
            [...document.querySelectorAll('button[data-action], button.chip, button.box.free')]
              .filter((el) => el.getClientRects().length)
              .map((el, i) => [el.dataset.action ?? el.dataset.key ?? String(i),
                               el.getBoundingClientRect().height]))"""
    )
    return heights


async def test_a_round_with_the_keyboard_alone(
    browser: Browser, client_service: ServiceProcess, operator: Operator
) -> None:
    table_id = await fresh_table(operator, "kira", "lev")
    person = await seat_at(browser, client_service.url, "kira", table_id)
    page = person.page
    try:
        await tab_to(page, "[data-action=SitDown]")
        await page.keyboard.press("Enter")
        await expect(page.locator("[data-action=LeaveTable]")).to_be_visible()

        chip = "[data-chip=ante][data-value='100']"
        await tab_to(page, chip)
        await page.keyboard.press("Space")
        pending = page.locator("[data-testid=pending-ante]")
        await expect(pending).to_have_attribute("data-amount", "100")
        # The form was redrawn; the same chip keeps the focus, so a second press adds again.
        assert await focused(page, chip)
        await page.keyboard.press("Enter")
        await expect(pending).to_have_attribute("data-amount", "200")
        assert await focused(page, chip)

        # Another player sitting down redraws the table from the stream: focus stays put.
        await redrawn_by(page, client_service.url, "lev", table_id, {"type": "SitDown"})
        await expect(page.locator("[data-testid=seat-2]")).to_have_attribute("data-player", "lev")
        assert await focused_key(page) == "chip-ante-100"

        # Any focusable part of the table survives a redraw: the paytables' summary too.
        await tab_to(page, "[data-testid=paytables] > summary")
        await redrawn_by(page, client_service.url, "lev", table_id, {"type": "LeaveTable"})
        await expect(page.locator("[data-testid=seat-2]")).to_have_attribute("data-player", "")
        assert await focused(page, "[data-testid=paytables] > summary")

        # Shift+Tab goes back to the boxes (picking one keeps the focus on it), Tab forward
        # again to the bet.
        free_box = "[data-testid=free-box-1]"
        await tab_to(page, free_box, backwards=True)
        await page.keyboard.press("Enter")
        await expect(page.locator(free_box)).to_have_attribute("aria-pressed", "true")
        assert await focused(page, free_box)
        await tab_to(page, "[data-action=PlaceAnte]")
        await page.keyboard.press("Enter")
        box = page.locator("[data-testid=box-1]")
        await expect(box).to_have_attribute("data-player", "kira")
        await expect(box.locator("[data-stake=ante]")).to_have_attribute("data-amount", "200")
        # The bet button is disabled now (nothing staked in the form): the focus stays in
        # the table, not thrown back to the top of the page.
        assert await in_table(page), await page.evaluate("() => document.activeElement.outerHTML")

        await tab_to(page, "[data-action=Deal]")
        await page.keyboard.press("Enter")
        await phase(page, "decisions")
        await expect(page.locator("[data-testid=cards-1]")).to_have_attribute("data-cards", HAND)
        assert await in_table(page)

        # The decision is the player's too: an exchange picked with the keyboard.
        await tab_to(page, "[data-action=Exchange][data-box='1']")
        await page.keyboard.press("Enter")
        pick = "[data-pick='2s']"
        await tab_to(page, pick)
        await page.keyboard.press("Space")
        await expect(page.locator(pick)).to_have_attribute("aria-pressed", "true")
        assert await focused(page, pick), "focus left the card just picked"
        await expect(page.locator(pick)).to_have_attribute(
            "aria-label", EN["action.select_card"].format(card="Two of spades")
        )
        person.watch.assert_clean()
    finally:
        await person.close()


async def test_cards_and_buttons_have_names(
    browser: Browser, client_service: ServiceProcess, operator: Operator
) -> None:
    table_id = await fresh_table(operator, "mira")
    person = await seat_at(browser, client_service.url, "mira", table_id)
    page = person.page
    try:
        assert await unnamed_buttons(page) == []
        await play_to_decisions(person)
        labels = await card_labels(page)
        assert len(labels) == 10, labels  # five of the box, four backs and the dealer's upcard
        assert all(entry["label"] and entry["label"].strip() for entry in labels), labels
        assert all(entry["role"] == "img" for entry in labels), labels
        hidden = [entry for entry in labels if entry["card"] == "hidden"]
        assert [entry["label"] for entry in hidden] == [EN["card.hidden"]] * 4
        assert "face-down" in EN["card.hidden"]
        for code, name in NAMES.items():
            await expect(
                page.locator(f"[data-testid=cards-1] [data-card='{code}']")
            ).to_have_attribute("aria-label", name)
        await expect(page.locator("[data-testid=dealer-cards] [data-card='3s']")).to_have_attribute(
            "aria-label", "Three of spades"
        )
        # Nothing of the dealer's hidden cards is in the page, not even in a label.
        assert await page.locator("[data-card=Qh], [data-card=Jh]").count() == 0
        assert await unnamed_buttons(page) == []

        await person.click("Exchange", 1, opens_form=True)
        await expect(page.locator("[data-pick]")).to_have_count(5)
        assert await unnamed_buttons(page) == []
        for code, name in NAMES.items():
            await expect(page.locator(f"[data-pick='{code}']")).to_have_attribute(
                "aria-label", EN["action.select_card"].format(card=name)
            )
        person.watch.assert_clean()
    finally:
        await person.close()


async def test_a_phone_screen(
    browser: Browser, client_service: ServiceProcess, operator: Operator
) -> None:
    table_id = await fresh_table(operator, "nina")
    person = await seat_at(
        browser, client_service.url, "nina", table_id, width=PHONE_WIDTH, height=812
    )
    page = person.page
    try:
        await person.click("SitDown")
        await page.locator("[data-chip=ante]").first.click()
        await expect(page.locator("[data-action=PlaceAnte]")).to_be_enabled()
        await no_horizontal_scroll(page)
        betting = await action_heights(page)
        assert {"PlaceAnte", "ClearBet", "LeaveTable"} <= set(betting), betting
        assert {name: h for name, h in betting.items() if h < FINGER} == {}

        await person.click("PlaceAnte")
        await person.click("Deal")
        await phase(page, "decisions")
        await no_horizontal_scroll(page)
        deciding = await action_heights(page)
        assert {"Play", "Fold", "Exchange", "BuyCard"} <= set(deciding), deciding
        assert {name: h for name, h in deciding.items() if h < FINGER} == {}

        await person.click("Exchange", 1, opens_form=True)
        await expect(page.locator("[data-pick]")).to_have_count(5)
        await no_horizontal_scroll(page)
        person.watch.assert_clean()
    finally:
        await person.close()


async def tops(page: Page, selector: str) -> list[float]:
    found: list[float] = await page.evaluate(
        "s => [...document.querySelectorAll(s)].map((el) => el.getBoundingClientRect().top)",
        selector,
    )
    return found


async def test_a_desktop_lays_the_boxes_side_by_side(
    browser: Browser, client_service: ServiceProcess, operator: Operator
) -> None:
    table_id = await fresh_table(operator, "oleg")
    person = await seat_at(browser, client_service.url, "oleg", table_id, width=1280)
    page = person.page
    try:
        await person.click("SitDown")
        await expect(page.locator(".boxes > .box")).to_have_count(4)
        betting = await tops(page, ".boxes > .box")
        assert len(set(betting)) < len(betting), f"every box in a row of its own: {betting}"

        await play_to_decisions(person, sit=False)
        await expect(page.locator(".boxes > article.box")).to_have_count(1)
        deciding = await tops(page, ".boxes > .box")
        assert deciding[0] in deciding[1:], f"the box in play is alone in its row: {deciding}"
        person.watch.assert_clean()
    finally:
        await person.close()
