"""Two players and an observer at each preset's table, in three browser contexts, playing
full rounds by clicks on scripted decks: what each page shows (cards, stakes, results,
balances) is what the API shows that person, and every player action is clicked.

Each person is their own context (their own storage and token); Alice is on a desktop,
Bob on a 375 px phone, Eve watches without a seat. The operator's setup (wallets, tables,
decks) goes through the API; no player ever acts but by a click.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Browser, Request, Route, expect

from tests.client.conftest import open_page
from tests.client.people import Operator, Person, player_token, seat_at
from tests.processes import ServiceProcess
from tests.rules.scenario import deck_for

pytestmark = pytest.mark.asyncio(loop_scope="session")

PHONE = {"width": 375, "height": 812}


@pytest.fixture(scope="module", autouse=True)
async def funded(operator: Operator) -> None:
    """Alice, Bob and Eve have money enough for every round of the module."""
    for player in ("alice", "bob", "eve"):
        await operator.fund(player, 1_000_000)


async def table_of_three(
    browser: Browser, base: str, table_id: str
) -> tuple[Person, Person, Person]:
    alice = await seat_at(browser, base, "alice", table_id)
    bob = await seat_at(browser, base, "bob", table_id, **PHONE)
    eve = await seat_at(browser, base, "eve", table_id)
    return alice, bob, eve


async def seated(
    browser: Browser, base: str, operator: Operator, preset: str, deck: Sequence[str]
) -> tuple[str, Person, Person, Person]:
    """A table of ``preset`` dealing ``deck`` first, Alice and Bob seated, Eve watching."""
    table_id = await operator.open_table(preset)
    await operator.stack(table_id, deck)
    alice, bob, eve = await table_of_three(browser, base, table_id)
    await alice.click("SitDown")
    await bob.click("SitDown")
    return table_id, alice, bob, eve


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
    page = person.page
    view = await same_version(person, table_id)
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
    # The countdowns are the view's deadlines (the server's due times), each still ticking.
    for deadline in view["deadlines"]:
        name = deadline["wait"] + (f"-{deadline['box']}" if deadline["box"] else "")
        timer = page.locator(f"[data-testid=timer-{name}]")
        await expect(timer).to_have_attribute("data-due", deadline["due_at"])
        assert int(await timer.get_attribute("data-seconds") or -1) > 0
    await expect(page.locator(".timer")).to_have_count(len(view["deadlines"]))
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


async def same_version(person: Person, table_id: str) -> dict[str, Any]:
    """The API's view for `person` once their page shows the same version. A click returns
    before its command is answered, so either side may be ahead for a moment: the page is
    waited for, and the API read again when the page has moved past what it said."""
    for _ in range(20):
        view = await person.view(table_id)
        await person.page.wait_for_function(
            "v => Number(document.querySelector('main').dataset.version ?? -1) >= v",
            arg=view["version"],
        )
        if await person.page.locator("main").get_attribute("data-version") == str(view["version"]):
            return view
    raise AssertionError(f"{person.name}'s page never settled on the API's version")


async def everyone_sees_it(table_id: str, *people: Person) -> list[dict[str, Any]]:
    return [await shows_what_the_api_shows(person, table_id) for person in people]


async def refusal_shown(person: Person, code: str, table_id: str, command: dict[str, Any]) -> None:
    """The page shows the refusal's code and the server's own words for it: the same
    command sent again over HTTP (a refusal changes nothing) gives the detail shown."""
    box = person.page.locator("[data-testid=problem-box]")
    await expect(box).to_be_visible()
    await expect(box).to_have_attribute("data-code", code)
    async with person.http as http:
        answer = await http.post(
            f"/v1/tables/{table_id}/commands",
            json=command,
            headers={"Idempotency-Key": f"check-{uuid.uuid4().hex}"},
        )
    assert answer.status_code in (409, 422), answer.text
    assert answer.json()["code"] == code
    await expect(box.locator("[data-testid=problem]")).to_have_text(answer.json()["detail"])


def euros(cents: int) -> str:
    return f"{cents // 100}.{cents % 100:02d}"


def cards_of(view: dict[str, Any], box: int) -> list[str]:
    return next(b["cards"] for b in view["round"]["boxes"] if b["box"] == box)


async def test_russian_two_players_and_an_observer(
    browser: Browser, client_service: ServiceProcess, operator: Operator, artifacts: Path
) -> None:
    """Insurance, a sixth card, a dealer draw asked and one declined, a refusal, cancel."""
    base = client_service.url
    # Play order: Alice (ante 500) before Bob (ante 100). The dealer has no game; Bob's sixth
    # card is Qs; the dealer draw replaces the dealer's jack with the 3c (still no game).
    table_id, alice, bob, eve = await seated(
        browser,
        base,
        operator,
        "russian",
        deck_for(["Ah Ad Ac 5s 8d", "2s 3h 9c Jd Kc"], "2c 4d 7h 9s Jh", then="Qs 3c"),
    )

    # Nothing to repeat in the first round: refused, and the page says so.
    await alice.click("RepeatBets")
    await refusal_shown(alice, "no_previous_bets", table_id, {"type": "RepeatBets"})

    # The observer opens the paytables; they stay open through every redraw that follows.
    await eve.page.click("[data-testid=paytables] > summary")
    await expect(eve.page.locator("[data-testid=paytables]")).to_have_attribute("open", "")
    await bet(alice, 1, 500, bonus=100)
    await alice.click("CancelBets")
    await expect(alice.page.locator("[data-testid=free-box-1]")).to_be_visible()
    await bet(alice, 1, 500, bonus=100)
    await bet(bob, 3, 100, seed="bob's phone seed")
    await expect(eve.page.locator("[data-testid=seed-3]")).to_have_text("bob's phone seed")
    await everyone_sees_it(table_id, alice, bob, eve)
    await expect(eve.page.locator("[data-testid=paytables]")).to_have_attribute("open", "")
    await expect(eve.page.locator("[data-testid=paytables] caption").first).to_be_visible()

    await alice.click("Deal")
    await bob.click("Deal")
    await expect(alice.page.locator("[data-testid=turn-1]")).to_be_visible()
    views = await everyone_sees_it(table_id, alice, bob, eve)
    assert cards_of(views[0], 1) == ["Ah", "Ad", "Ac", "5s", "8d"]
    assert cards_of(views[2], 1) is None  # the observer sees backs: the land-casino preset
    await alice.page.screenshot(path=artifacts / "player.png", full_page=True)

    # Alice insures three aces: the range comes from the view.
    low, high = next(b for b in views[0]["round"]["boxes"] if b["box"] == 1)["insurance_range"]
    # One cent over the range is refused by the server, and the page shows why; the page
    # takes amounts as the player types them (euros and cents), sent as integer cents.
    await alice.page.fill("[data-testid=insure-1]", euros(high + 1))
    await alice.click("Insure", 1)
    await refusal_shown(
        alice,
        "insurance_out_of_range",
        table_id,
        {"type": "Insure", "box": 1, "amount": high + 1},
    )
    await alice.page.fill("[data-testid=insure-1]", euros(high))
    await alice.click("Insure", 1)
    await expect(bob.page.locator("[data-testid=turn-3]")).to_be_visible()

    await bob.page.screenshot(path=artifacts / "phone.png", full_page=True)
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
    assert next(b for b in settled["boxes"] if b["box"] == 1)["insurance"] == high
    assert low < high

    # Game recall: the round with every step, from the recall endpoint and its proof.
    await alice.page.click("[data-testid=history-open]")
    entry = alice.page.locator(f"[data-testid=history-{table_id}-1]")
    await entry.locator("summary").click()
    steps = alice.page.locator(f"[data-testid=steps-{table_id}-1]")
    await expect(steps).to_contain_text("Box 1 was dealt Ah Ad Ac 5s 8d")
    await expect(steps).to_contain_text("Box 3 bought Qs")
    await expect(steps).to_contain_text("The dealer replaced Jh with 3c")
    await expect(steps).to_contain_text("Box 1 insured for")
    net = next(b for b in settled["boxes"] if b["box"] == 1)["result"]["net"]
    await expect(entry).to_have_attribute("data-net", str(net))
    await alice.page.screenshot(path=artifacts / "recall.png")
    await alice.page.click("#history-close")

    await alice.page.screenshot(path=artifacts / "player-settled.png", full_page=True)
    await bob.page.screenshot(path=artifacts / "phone-settled.png", full_page=True)
    await eve.page.screenshot(path=artifacts / "observer-settled.png", full_page=True)
    await leave(alice, bob, eve)


async def test_online_public_cards_exchange_fold_repeat_leave_and_fairness(
    browser: Browser, client_service: ServiceProcess, operator: Operator, artifacts: Path
) -> None:
    """The online preset shows every box's cards to the table, the observer included."""
    base = client_service.url
    table_id, alice, bob, eve = await seated(
        browser,
        base,
        operator,
        "russian-online",
        deck_for(["2h 7d 9s Jc Kd", "3s 5c 8h Td Qc"], "Ah Kh 4c 6d 8s"),
    )
    await bet(alice, 1, 100, seed="alice")
    await bet(bob, 2, 100)
    await alice.click("Deal")
    await bob.click("Deal")
    await expect(eve.page.locator("[data-testid=cards-2]")).to_have_attribute(
        "data-cards", "3s 5c 8h Td Qc"
    )
    views = await everyone_sees_it(table_id, alice, bob, eve)
    assert cards_of(views[2], 1) == ["2h", "7d", "9s", "Jc", "Kd"]  # public to the observer
    await eve.page.screenshot(path=artifacts / "observer.png", full_page=True)

    # Alice exchanges her two lowest cards by selecting them, then plays.
    await alice.click("Exchange", 1, opens_form=True)
    for card in ("2h", "7d"):
        await alice.page.click(f"[data-pick='{card}']")
        await expect(alice.page.locator(f"[data-pick='{card}']")).to_have_attribute(
            "aria-pressed", "true"
        )
    await alice.page.click("[data-action=Exchange][data-confirm]")
    await expect(alice.page.locator("[data-testid=cards-1]")).not_to_have_attribute(
        "data-cards", "2h 7d 9s Jc Kd"
    )
    views = await everyone_sees_it(table_id, alice, bob, eve)
    kept = cards_of(views[0], 1)
    assert {"9s", "Jc", "Kd"} <= set(kept) and len(kept) == 5
    await alice.click("Play", 1)
    await bob.click("Fold", 2)
    await expect(eve.page.locator("[data-testid=last-round]")).to_have_attribute("data-round", "1")
    await everyone_sees_it(table_id, alice, bob, eve)

    # Round 2, shuffled (no test deck): Alice repeats her bets, Bob leaves the table.
    await alice.click("RepeatBets")
    await expect(alice.page.locator("[data-testid=box-1]")).to_have_attribute(
        "data-player", "alice"
    )
    await bob.click("LeaveTable")
    await expect(eve.page.locator("[data-testid=seat-2]")).to_have_attribute("data-player", "")
    await alice.click("Deal")
    while True:
        view = await shows_what_the_api_shows(alice, table_id)
        if view["previous_round"]["number"] == 2:
            break
        await alice.click("Play", 1)
    await everyone_sees_it(table_id, alice, eve)

    # The fairness check: the seed against the commitment shown before the bets, and every
    # card from the seeds, in the browser.
    await alice.page.click("[data-testid=fairness-check]")
    verdict = alice.page.locator("[data-testid=fairness-result]")
    await expect(verdict).to_have_attribute("data-ok", "true")

    # The same check against a proof whose seed was tampered with fails.
    async def tampered(route: Route) -> None:
        answer = await route.fetch()
        proof = await answer.json()
        seed = proof["server_seed"]
        proof["server_seed"] = ("1" if seed[0] != "1" else "2") + seed[1:]
        await route.fulfill(response=answer, json=proof)

    await alice.page.route("**/rounds/2/proof", tampered)
    await alice.page.click("[data-testid=fairness-check]")
    await expect(verdict).to_have_attribute("data-ok", "false")
    await expect(verdict).to_contain_text("does not match the commitment")
    await alice.page.unroute("**/rounds/2/proof")
    await leave(alice, bob, eve)


async def test_oasis_dark_box_and_a_one_card_exchange(
    browser: Browser, client_service: ServiceProcess, operator: Operator, artifacts: Path
) -> None:
    base = client_service.url
    # Play order: Alice (ante 200) then Bob's dark box (ante 100); the dealer has a pair.
    table_id, alice, bob, eve = await seated(
        browser,
        base,
        operator,
        "oasis",
        deck_for(["Ac Kc 5h 6h Js", "4s 4d 9c Th 2c"], "Kd Qd 9d 9h 2s", then="3h"),
    )
    await bet(alice, 2, 200)
    await bet(bob, 5, 100, dark=True)
    await expect(eve.page.locator("[data-testid=box-5]")).to_have_class(re.compile(r"\bdark\b"))
    await alice.click("Deal")
    await bob.click("Deal")
    await everyone_sees_it(table_id, alice, bob, eve)
    # The dark box plays by itself: Bob has no decision to click.
    await expect(bob.page.locator("[data-testid=decisions-5]")).to_have_count(0)
    await alice.click("Exchange", 2, opens_form=True)
    await alice.page.click("[data-pick='Js']")
    await alice.page.click("[data-action=Exchange][data-confirm]")
    await expect(alice.page.locator("[data-testid=cards-2]")).not_to_have_attribute(
        "data-cards", "Ac Kc 5h 6h Js"
    )
    await alice.click("Play", 2)
    await expect(bob.page.locator("[data-testid=last-round]")).to_have_attribute("data-round", "1")
    views = await everyone_sees_it(table_id, alice, bob, eve)
    dark = next(b for b in views[1]["previous_round"]["boxes"] if b["box"] == 5)
    assert dark["dark"] and dark["bet"] == 200
    await bob.page.screenshot(path=artifacts / "oasis-phone.png", full_page=True)
    await leave(alice, bob, eve)


async def test_the_stream_resumes_after_a_server_restart_with_last_event_id(
    browser: Browser, client_service: ServiceProcess, operator: Operator
) -> None:
    base = client_service.url
    table_id = await operator.open_table("russian-online")
    alice, bob, eve = await table_of_three(browser, base, table_id)
    streams: list[str | None] = []

    def on_request(request: Request) -> None:
        if request.url.endswith(f"/v1/tables/{table_id}/stream"):
            streams.append(request.headers.get("last-event-id"))

    alice.page.on("request", on_request)
    await alice.click("SitDown")
    await bob.click("SitDown")
    await bet(alice, 1, 100)
    await bet(bob, 2, 100)
    await alice.click("Deal")
    await bob.click("Deal")
    before = await shows_what_the_api_shows(alice, table_id)

    await client_service.terminate()
    await expect(alice.page.locator("[data-testid=connection]")).to_have_attribute(
        "data-state", "reconnecting"
    )
    await client_service.start_ready()
    # Bob acts as soon as the server is back; Alice's page learns it from the stream.
    await bob.click("Fold", 2)
    await expect(alice.page.locator("[data-testid=connection]")).to_have_attribute(
        "data-state", "live"
    )
    after = await everyone_sees_it(table_id, alice, bob, eve)
    assert after[0]["version"] > before["version"]
    assert streams, "the page never opened the stream"
    resumed = [header for header in streams if header is not None]
    assert resumed and int(resumed[0]) >= before["version"], streams
    await leave(alice, bob, eve)


async def test_a_503_is_retried_with_the_same_idempotency_key(
    browser: Browser, client_service: ServiceProcess, operator: Operator
) -> None:
    base = client_service.url
    table_id = await operator.open_table("russian")
    alice = await seat_at(browser, base, "alice", table_id)
    keys: list[str] = []

    async def busy_once(route: Route) -> None:
        keys.append(route.request.headers["idempotency-key"])
        if len(keys) == 1:
            await route.fulfill(
                status=503,
                headers={"Retry-After": "1"},
                json={"status": 503, "title": "Service Unavailable", "detail": "busy"},
            )
        else:
            await route.continue_()

    await alice.page.route("**/commands", busy_once)
    await alice.click("SitDown")
    await expect(alice.page.locator("[data-testid=retry-status]")).to_be_visible()
    await expect(alice.page.locator("[data-testid=seat-1]")).to_have_attribute(
        "data-player", "alice"
    )
    await expect(alice.page.locator("[data-testid=retry-status]")).to_be_hidden()
    assert len(keys) == 2 and keys[0] == keys[1]
    view = await shows_what_the_api_shows(alice, table_id)
    assert view["seats"].count("alice") == 1
    await leave(alice)


async def test_the_lobby_lists_the_tables_and_opens_one(
    browser: Browser, client_service: ServiceProcess, operator: Operator
) -> None:
    base = client_service.url
    table_id = await operator.open_table("oasis")
    named = await operator.open_table("russian", name="Neva 1")
    context, page, watch = await open_page(browser, base)
    await page.goto(f"{base}/play/#token={player_token('carol')}")
    assert "token" not in page.url  # taken off the address bar at once
    # A table is listed by its name when it has one, else by its id.
    await expect(page.locator(f"[data-testid=open-{named}]")).to_have_text("Neva 1")
    link = page.locator(f"[data-testid=open-{table_id}]")
    await expect(link).to_have_text(table_id)
    await link.click()
    await expect(page.locator("[data-testid=connection]")).to_have_attribute("data-state", "live")
    await expect(page.locator("#table-title")).to_have_text(table_id)
    await page.goto(f"{base}/play/{named}")
    await expect(page.locator("#table-title")).to_have_text("Neva 1")
    watch.assert_clean()
    await context.close()
