"""Two players and an observer at each preset's table, in three browser contexts, playing
full rounds by clicks on scripted decks: what each page shows (cards, stakes, results,
balances) is what the API shows that person, and every player action is clicked.

Each person is their own context (their own storage and token); Alice is on a desktop,
Bob on a 375 px phone, Eve watches without a seat. The operator's setup (wallets, tables,
decks) goes through the API; no player ever acts but by a click.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Browser, expect

from tests.client.people import Operator, Person, seat_at
from tests.processes import ServiceProcess
from tests.rules.scenario import deck_for

pytestmark = pytest.mark.asyncio(loop_scope="session")

PHONE = {"width": 375, "height": 812}


@pytest.fixture(scope="module")
async def operator(client_service: ServiceProcess) -> AsyncIterator[Operator]:
    back_office = Operator(client_service.url)
    for player in ("alice", "bob", "eve"):
        await back_office.fund(player, 1_000_000)
    try:
        yield back_office
    finally:
        await back_office.aclose()


async def table_of_three(
    browser: Browser, base: str, table_id: str
) -> tuple[Person, Person, Person]:
    alice = await seat_at(browser, base, "alice", table_id)
    bob = await seat_at(browser, base, "bob", table_id, **PHONE)
    eve = await seat_at(browser, base, "eve", table_id)
    return alice, bob, eve


async def leave(*people: Person) -> None:
    for person in people:
        person.watch.assert_clean()
        await person.close()


async def bet(
    person: Person,
    box: int,
    ante: int,
    *,
    bonus: int = 0,
    seed: str | None = None,
    dark: bool = False,
) -> None:
    """Pick the box, make up the ante (and bonus) with chips, and place the bet."""
    page = person.page
    await page.click(f"[data-testid=free-box-{box}]")
    for kind, amount in (("ante", ante), ("bonus", bonus)):
        await chips(person, kind, amount)
    if seed is not None:
        await page.fill("[data-testid=client-seed]", seed)
    if dark:
        await page.check("[data-testid=dark]")
    await person.click("PlaceAnte")
    await expect(page.locator(f"[data-testid=box-{box}]")).to_have_attribute(
        "data-player", person.name
    )


async def chips(person: Person, kind: str, amount: int) -> None:
    """Click chips, largest first, until the pending amount is `amount`."""
    page = person.page
    values = sorted(
        (
            int(v)
            for v in await page.locator(f"[data-chip={kind}]").evaluate_all(
                "cs => cs.map(c => c.dataset.value)"
            )
        ),
        reverse=True,
    )
    left = amount
    for value in values:
        while left >= value:
            await page.click(f"[data-chip={kind}][data-value='{value}']")
            left -= value
    assert left == 0, f"no chips make {amount}"
    await expect(page.locator(f"[data-testid=pending-{kind}]")).to_have_attribute(
        "data-amount", str(amount)
    )


async def shows_what_the_api_shows(person: Person, table_id: str) -> dict[str, Any]:
    """The page at the API's version shows that person's cards, stakes, results, balance."""
    view = await person.view(table_id)
    page = person.page
    await expect(page.locator("main")).to_have_attribute("data-version", str(view["version"]))
    current = view["round"]
    for box in current["boxes"] if current else []:
        where = page.locator(f"[data-testid=box-{box['box']}]")
        await expect(where).to_have_attribute("data-player", box["player"])
        cards = page.locator(f"[data-testid=cards-{box['box']}]")
        await expect(cards).to_have_attribute("data-cards", " ".join(box["cards"] or []))
        await expect(cards.locator("svg.card")).to_have_count(
            box["card_count"] if box["cards"] is None else len(box["cards"])
        )
        for stake in ("ante", "bonus", "bet", "insurance"):
            if box[stake]:
                await expect(where.locator(f"[data-stake={stake}]")).to_have_attribute(
                    "data-amount", str(box[stake])
                )
    if current and current["dealer"]["upcard"]:
        dealer = page.locator("[data-testid=dealer-cards]")
        await expect(dealer).to_have_attribute("data-upcard", current["dealer"]["upcard"])
        await expect(dealer).to_have_attribute(
            "data-cards", " ".join(current["dealer"]["cards"] or [])
        )
    settled = view["previous_round"]
    if settled:
        last = page.locator("[data-testid=last-round]")
        await expect(last).to_have_attribute("data-round", str(settled["number"]))
        await expect(page.locator("[data-testid=last-dealer-cards]")).to_have_attribute(
            "data-cards", " ".join(settled["dealer"]["cards"] or [])
        )
        for box in settled["boxes"]:
            result = page.locator(
                f"[data-testid=last-box-{box['box']}] [data-testid=result-{box['box']}]"
            )
            await expect(result).to_have_attribute("data-outcome", box["result"]["outcome"])
            await expect(result).to_have_attribute(
                "data-paid-back", str(box["result"]["paid_back"])
            )
            await expect(result).to_have_attribute("data-net", str(box["result"]["net"]))
    balance = await person.balance()
    if balance is not None:
        await expect(page.locator("[data-testid=balance]")).to_have_attribute(
            "data-amount", str(balance)
        )
    return view


async def everyone_sees_it(table_id: str, *people: Person) -> list[dict[str, Any]]:
    return [await shows_what_the_api_shows(person, table_id) for person in people]


async def refusal_shown(person: Person, code: str) -> None:
    box = person.page.locator("[data-testid=problem-box]")
    await expect(box).to_be_visible()
    await expect(box).to_have_attribute("data-code", code)


def cards_of(view: dict[str, Any], box: int) -> list[str]:
    return next(b["cards"] for b in view["round"]["boxes"] if b["box"] == box)


async def test_russian_two_players_and_an_observer(
    browser: Browser, client_service: ServiceProcess, operator: Operator, artifacts: Path
) -> None:
    """Insurance, a sixth card, a dealer draw asked and one declined, a refusal, cancel."""
    base = client_service.url
    table_id = await operator.open_table("russian")
    # Play order: Alice (ante 500) before Bob (ante 100). The dealer has no game; Bob's sixth
    # card is Qs; the dealer draw replaces the dealer's jack with the 3c (still no game).
    await operator.stack(
        table_id,
        deck_for(["Ah Ad Ac 5s 8d", "2s 3h 9c Jd Kc"], "2c 4d 7h 9s Jh", then="Qs 3c"),
    )
    alice, bob, eve = await table_of_three(browser, base, table_id)
    await alice.click("SitDown")
    await bob.click("SitDown")

    # Nothing to repeat in the first round: refused, and the page says so.
    await alice.click("RepeatBets")
    await refusal_shown(alice, "no_previous_bets")

    await bet(alice, 1, 500, bonus=100)
    await alice.click("CancelBets")
    await expect(alice.page.locator("[data-testid=free-box-1]")).to_be_visible()
    await bet(alice, 1, 500, bonus=100)
    await bet(bob, 3, 100, seed="bob's phone seed")
    await expect(eve.page.locator("[data-testid=seed-3]")).to_have_text("bob's phone seed")
    await everyone_sees_it(table_id, alice, bob, eve)

    await alice.click("Deal")
    await bob.click("Deal")
    await expect(alice.page.locator("[data-testid=turn-1]")).to_be_visible()
    views = await everyone_sees_it(table_id, alice, bob, eve)
    assert cards_of(views[0], 1) == ["Ah", "Ad", "Ac", "5s", "8d"]
    assert cards_of(views[2], 1) is None  # the observer sees backs: the land-casino preset

    # Alice insures three aces: the range comes from the view.
    low, high = next(b for b in views[0]["round"]["boxes"] if b["box"] == 1)["insurance_range"]
    await alice.page.fill("[data-testid=insure-1]", str(high))
    await alice.click("Insure", 1)
    await expect(bob.page.locator("[data-testid=turn-3]")).to_be_visible()

    await bob.click("BuyCard", 3)
    await expect(bob.page.locator("[data-testid=cards-3] svg.card")).to_have_count(6)
    await bob.click("Play", 3)

    # The dealer has no game: each box still in play is offered the dealer draw.
    await alice.click("RequestDealerExchange", 1)
    await bob.click("DeclineDealerExchange", 3)
    await expect(alice.page.locator("[data-testid=last-round]")).to_have_attribute(
        "data-round", "1"
    )
    views = await everyone_sees_it(table_id, alice, bob, eve)
    settled = views[0]["previous_round"]
    assert settled["dealer"]["cards"] == ["2c", "4d", "7h", "9s", "3c"]
    assert [b["result"]["dealer_draw"] for b in settled["boxes"]] == [True, False]
    assert low <= next(b for b in settled["boxes"] if b["box"] == 1)["insurance"] <= high

    await alice.page.screenshot(path=artifacts / "russian-player.png", full_page=True)
    await bob.page.screenshot(path=artifacts / "russian-phone.png", full_page=True)
    await eve.page.screenshot(path=artifacts / "russian-observer.png", full_page=True)
    await leave(alice, bob, eve)
