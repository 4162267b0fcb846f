"""The back office in Debian's Chromium, against a real service: round search, the round
viewer stepping through a round and checking its fairness proof and checkpoint inclusion in
the page (and failing a tampered proof), reports, the availability log and wallet calls,
for every role, in English and Russian, with the keyboard and at a phone's width. Every
page is watched: no console error, no request to another host."""

from __future__ import annotations

import json
import uuid
from typing import Any

import httpx
from playwright.async_api import Browser, Page, Route, expect

from russian_poker.service.app.auth import mint_token
from russian_poker.service.client.routes import CONTENT_SECURITY_POLICY
from tests.client.conftest import Watch, open_page
from tests.operators.harness import launch, register
from tests.processes import SECRET, ServiceProcess, token_headers
from tests.rules.scenario import deck_for
from tests.wallet.reference import ReferenceWallet

STRAIGHT = "5h 6c 7d 8s 9h"
DEALER = "Ah Kc 9d 7s 4c"
ADMIN = mint_token(SECRET, "admin", "root", 6 * 3600)
AUDITOR = mint_token(SECRET, "auditor", "regulator", 6 * 3600)  # the game's own auditor
OPERATOR = mint_token(SECRET, "operator", "floor", 6 * 3600)  # the default operator's staff


async def _send(http: httpx.AsyncClient, table_id: str, player: str, body: dict[str, Any]) -> None:
    headers = {**token_headers("player", player), "Idempotency-Key": uuid.uuid4().hex}
    answer = await http.post(f"/v1/tables/{table_id}/commands", json=body, headers=headers)
    assert answer.status_code == 200, answer.text


async def _world(base: str) -> None:
    """Table t1 of the default operator: round 1 on a stacked deck (a straight against a
    dealer who qualifies), round 2 shuffled and folded."""
    async with httpx.AsyncClient(base_url=base, headers=token_headers("operator", "op")) as http:
        if (await http.get("/v1/tables/t1")).status_code == 200:
            return  # the module's service already has it
        assert (await http.post("/v1/wallets", json={"wallet_id": "alice"})).is_success
        deposit = {"transfer_id": "fund", "amount": 100_000}
        assert (await http.post("/v1/wallets/alice/deposits", json=deposit)).is_success
        table = {
            "table_id": "t1",
            "test_deck": list(deck_for([STRAIGHT], DEALER)),
            "overrides": {"betting_timeout_s": 900, "decision_timeout_s": 900},
        }
        assert (await http.post("/v1/tables", json=table)).status_code == 201
        for body in (
            {"type": "SitDown"},
            {"type": "PlaceAnte", "box": 1, "ante": 100},
            {"type": "Deal"},
            {"type": "Play", "box": 1},
            {"type": "PlaceAnte", "box": 1, "ante": 100},
            {"type": "Deal"},
            {"type": "Fold", "box": 1},
        ):
            await _send(http, "t1", "alice", body)


async def _office(
    browser: Browser, base: str, token: str, *, width: int = 1280, lang: str = ""
) -> tuple[Page, Watch, Any]:
    context, page, watch = await open_page(browser, base, width=width)
    suffix = f"&lang={lang}" if lang else ""
    await page.goto(f"{base}/office#token={token}{suffix}")
    await expect(page.locator("main")).to_have_attribute("data-ready", "true")
    return page, watch, context


async def _step_to(page: Page, event_type: str) -> None:
    await page.locator(".step-list button", has_text=event_type).first.click()
    await expect(page.locator("[data-testid=step]")).to_have_attribute("data-event", event_type)


async def test_an_auditor_finds_a_round_steps_through_it_and_checks_it(
    browser: Browser, office_service: ServiceProcess
) -> None:
    base = office_service.url
    await _world(base)
    page, watch, context = await _office(browser, base, AUDITOR)
    try:
        await expect(page.locator("[data-testid=who]")).to_have_attribute("data-role", "auditor")
        await page.fill("[data-testid=search-table]", "t1")
        await page.click("[data-testid=search-go]")
        rows = page.locator("[data-testid=rounds] tbody tr")
        await expect(rows).to_have_count(2)
        await page.click("[data-testid=round-link-t1-1]")

        # Step by step: the first event, the next with the keyboard, then the deal.
        step = page.locator("[data-testid=step]")
        await expect(step).to_have_attribute("data-event", "RoundOpened")
        await page.focus("[data-testid=step-next]")
        await page.keyboard.press("Enter")
        await expect(step).to_have_attribute("data-index", "1")
        await _step_to(page, "CardsDealt")
        await expect(page.locator("[data-testid=box-cards-1] .cards")).to_have_attribute(
            "data-cards", STRAIGHT
        )
        await expect(page.locator("[data-testid=step-dealer] .cards")).to_have_attribute(
            "data-cards", DEALER
        )
        await _step_to(page, "RoundSettled")
        await expect(page.locator("[data-testid=box-result-1]")).not_to_be_empty()
        await expect(page.locator("[data-testid=totals]")).to_contain_text("100")  # the record

        # A stacked deck is no fair draw, and the page says so.
        await page.click("[data-testid=fairness-check]")
        fairness = page.locator("[data-testid=fairness-result]")
        await expect(fairness).to_have_attribute("data-ok", "false")

        # Round 2 was shuffled: every card follows from the seeds, checked in the page.
        await page.goto(f"{base}/office#/round/t1/2")
        await expect(page.locator("main")).to_have_attribute("data-page", "round")
        await page.click("[data-testid=fairness-check]")
        await expect(fairness).to_have_attribute("data-ok", "true")

        # Its events are in a signed checkpoint (one is made every second).
        inclusion = page.locator("[data-testid=inclusion-result]")
        for _ in range(30):
            await page.click("[data-testid=inclusion-check]")
            await expect(inclusion).not_to_have_attribute("data-ok", "")
            if await inclusion.get_attribute("data-ok") == "true":
                break
            await page.wait_for_timeout(500)
        await expect(inclusion).to_have_attribute("data-ok", "true")

        # The same proof with the ante edited in its event: the page refuses it.
        async def tampered(route: Route) -> None:
            answer = await route.fetch()
            proof = await answer.json()
            for event in proof["events"]:
                if event["event_type"] == "AntePlaced":
                    event["data"] = event["data"].replace('"ante": 100', '"ante": 101')
            await route.fulfill(response=answer, body=json.dumps(proof))

        await page.route("**/inclusion", tampered)
        await page.click("[data-testid=inclusion-check]")
        await expect(inclusion).to_have_attribute("data-ok", "false")
        await expect(inclusion).to_contain_text("does not match its hash")
        await page.unroute("**/inclusion")

        # In Russian: the chrome and the page, <html lang> too.
        await page.select_option("[data-testid=language]", "ru")
        await expect(page.locator("html")).to_have_attribute("lang", "ru")
        await expect(page.locator("[data-testid=nav-rounds]")).to_have_text("Раунды")
        await expect(page.locator("[data-testid=fairness-check]")).to_have_text(
            "Проверить честность"
        )
        watch.assert_clean()
    finally:
        await context.close()


async def test_each_role_sees_its_own(browser: Browser, office_service: ServiceProcess) -> None:
    base = office_service.url
    await _world(base)

    # An admin: the reconciliation of the whole books, balanced; the availability log.
    page, watch, context = await _office(browser, base, ADMIN)
    await page.click("[data-testid=nav-reports]")
    await expect(page.locator("[data-testid=reconciliation]")).to_have_attribute(
        "data-clean", "true"
    )
    await expect(page.locator("[data-testid=rtp-plot-t1] circle.actual")).not_to_have_count(0)
    await page.click("[data-testid=nav-availability]")
    await expect(page.locator("[data-testid=availability] tr[data-kind=opened]")).to_have_count(1)
    watch.assert_clean()
    await context.close()

    # The table's operator: its RTP and daily GGR, not the whole books; in Russian.
    page, watch, context = await _office(browser, base, OPERATOR, lang="ru")
    await expect(page.locator("html")).to_have_attribute("lang", "ru")
    await page.click("[data-testid=nav-reports]")
    await expect(page.locator("[data-testid=ggr] td[data-figure=stakes]")).not_to_have_count(0)
    await expect(page.locator("[data-testid=rtp-plot-t1]")).to_be_visible()
    await expect(page.locator("[data-testid=reconciliation]")).to_have_count(0)
    watch.assert_clean()
    await context.close()

    # Another operator's staff: the round is not theirs to see.
    other = mint_token(SECRET, "operator", "staff", 6 * 3600, operator="beta")
    page, watch, context = await _office(browser, base, other)
    await page.goto(f"{base}/office#/round/t1/1")
    await expect(page.locator("[data-testid=no-round]")).to_be_visible()
    await expect(page.locator("[data-testid=problem]")).to_be_visible()
    watch.assert_clean()
    await context.close()

    # A player, and nobody: told what the page is for.
    page, watch, context = await _office(browser, base, mint_token(SECRET, "player", "alice"))
    await expect(page.locator("[data-testid=not-for-players]")).to_be_visible()
    await context.close()
    context, page, watch = await open_page(browser, base)
    await page.goto(f"{base}/office")
    await expect(page.locator("[data-testid=no-token]")).to_be_visible()
    watch.assert_clean()
    await context.close()


async def test_the_viewer_fits_a_phone(browser: Browser, office_service: ServiceProcess) -> None:
    base = office_service.url
    await _world(base)
    page, watch, context = await _office(browser, base, AUDITOR, width=390)
    for route in ("#/round/t1/1", "#/reports", "#/rounds?table=t1"):
        await page.goto(f"{base}/office{route}")
        await expect(page.locator("main")).to_have_attribute("data-ready", "true")
        await page.wait_for_load_state("networkidle")
        wide = await page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert wide <= 0, f"{route} scrolls sideways by {wide}px at a phone's width"
    watch.assert_clean()
    await context.close()


async def test_support_staff_find_the_round_behind_a_wallet_transaction(
    browser: Browser, office_service: ServiceProcess, reference_wallet: ReferenceWallet
) -> None:
    base = office_service.url
    admin = {"Authorization": f"Bearer {ADMIN}"}
    staff = mint_token(SECRET, "operator", "support", 6 * 3600, operator="acme")
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        wallet = {
            "mode": "seamless",
            "url": reference_wallet.url,
            "secret": reference_wallet.secret,
            "timeout_ms": 2000,
        }
        await register(http, admin, "acme", wallet, ["EUR"])
        await reference_wallet.set_player("ann", "EUR", 10_000)
        ann = await launch(http, {"Authorization": f"Bearer {staff}"}, "acme", "ann", "EUR")
        table = {"table_id": "vip", "test_deck": list(deck_for([STRAIGHT], DEALER))}
        opened = await http.post(
            "/v1/tables", json=table, headers={"Authorization": f"Bearer {staff}"}
        )
        assert opened.status_code == 201, opened.text
        table_id = opened.json()["table_id"]
        for body in (
            {"type": "SitDown"},
            {"type": "PlaceAnte", "box": 1, "ante": 100},
            {"type": "Deal"},
            {"type": "Play", "box": 1},
        ):
            headers = {**ann.headers, "Idempotency-Key": uuid.uuid4().hex}
            answer = await http.post(f"/v1/tables/{table_id}/commands", json=body, headers=headers)
            assert answer.status_code == 200, answer.text

    page, watch, context = await _office(browser, base, staff)
    try:
        await page.click("[data-testid=nav-transactions]")
        calls = page.locator("[data-testid=transactions] tbody tr")
        await expect(calls).not_to_have_count(0)
        bet = await calls.first.get_attribute("data-transaction")
        assert bet
        every = await calls.count()  # the one round's calls: its bets and its win

        # Each call's "round details" link opens its round in the viewer.
        await calls.first.locator(f"[data-testid='round-link-{table_id}-1']").click()
        await expect(page.locator("main")).to_have_attribute("data-page", "round")
        await expect(page.locator("[data-testid=step]")).to_be_visible()

        # The transaction id a player quotes leads to its round, and the round's calls.
        await page.click("[data-testid=nav-rounds]")
        await page.fill("[data-testid=search-transaction]", bet)
        await page.click("[data-testid=search-go]")
        await page.click(f"[data-testid='round-link-{table_id}-1']")
        await expect(page.locator("[data-testid=step]")).to_be_visible()
        listed = page.locator(f"[data-testid=calls] tr[data-transaction='{bet}']")
        await expect(listed.locator("[data-testid=call-status]")).to_have_text("committed")
        await expect(page.locator("[data-testid=calls] tbody tr")).to_have_count(every)
        watch.assert_clean()
    finally:
        await context.close()


async def test_the_office_is_served_under_the_clients_policy(
    office_service: ServiceProcess,
) -> None:
    async with httpx.AsyncClient(base_url=office_service.url) as http:
        for path in ("/office", "/office/static/js/office.js"):
            answer = await http.get(path)
            assert answer.status_code == 200, path
            assert answer.headers["content-security-policy"] == CONTENT_SECURITY_POLICY, path


async def test_rounds_by_player_and_by_window(
    browser: Browser, office_service: ServiceProcess
) -> None:
    base = office_service.url
    await _world(base)
    page, watch, context = await _office(browser, base, AUDITOR)
    try:
        rows = page.locator("[data-testid=rounds] tbody tr")
        # The player's rounds.
        await page.fill("[data-testid=search-player]", "alice")
        await page.click("[data-testid=search-go]")
        await expect(rows).to_have_count(2)
        # The same within a window that holds them, and one that does not.
        for since, count in (("2000-01-01T00:00", 2), ("2999-01-01T00:00", 0)):
            await page.fill("[data-testid=search-from]", since)
            await page.click("[data-testid=search-go]")
            if count:
                await expect(rows).to_have_count(count)
            else:
                await expect(page.locator("[data-testid=no-rounds]")).to_be_visible()
        # A table's rounds in a window.
        await page.fill("[data-testid=search-player]", "")
        await page.fill("[data-testid=search-table]", "t1")
        await page.fill("[data-testid=search-from]", "2000-01-01T00:00")
        await page.fill("[data-testid=search-to]", "2999-01-01T00:00")
        await page.click("[data-testid=search-go]")
        await expect(rows).to_have_count(2)
        await page.fill("[data-testid=search-to]", "2001-01-01T00:00")
        await page.click("[data-testid=search-go]")
        await expect(page.locator("[data-testid=no-rounds]")).to_be_visible()
        # Each day's actual RTP is drawn against its theoretical 99 % band.
        await page.click("[data-testid=nav-reports]")
        plot = page.locator("[data-testid=rtp-plot-t1]")
        await expect(plot.locator("rect.band")).not_to_have_count(0)
        watch.assert_clean()
    finally:
        await context.close()
