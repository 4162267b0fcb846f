"""The table page says what it does: the betting form shows what it sends (bets placed on
several boxes in a row, each time the form empties and its button is disabled until chips
are added again), and the header says whether the viewer plays or watches."""

from __future__ import annotations

import asyncio

from playwright.async_api import Browser, Route, expect

from tests.client.people import Operator, seat_at
from tests.processes import ServiceProcess


async def test_bets_on_several_boxes_in_a_row(
    browser: Browser, client_service: ServiceProcess, operator: Operator
) -> None:
    # An online table: every box may be played light by one player.
    table_id = await operator.open_table("russian-online")
    await operator.fund("form-fay", 100_000)
    person = await seat_at(browser, client_service.url, "form-fay", table_id)
    page = person.page
    place = page.locator("[data-action=PlaceAnte]")
    pending = page.locator("[data-testid=pending-ante]")

    async def late(route: Route) -> None:
        # The answer comes after the live stream's state of the same version, as it may
        # on any network: the form must not keep the bet the stream's redraw showed.
        response = await route.fetch()
        await asyncio.sleep(0.5)
        await route.fulfill(response=response)

    await page.route("**/v1/tables/*/commands", late)
    try:
        await person.click("SitDown")
        for box in (1, 2, 3):
            await expect(page.locator(".bet-box")).to_have_text(f"Box: {box}")
            await page.locator("[data-chip=ante]").first.click()
            await expect(pending).not_to_have_attribute("data-amount", "0")
            shown = int(await pending.get_attribute("data-amount") or 0)
            await person.click("PlaceAnte")
            # Placed: the form is empty again and cannot send an empty ante.
            await expect(pending).to_have_attribute("data-amount", "0")
            await expect(place).to_be_disabled()
            view = await person.view(table_id)
            staked = {b["box"]: b["ante"] for b in view["round"]["boxes"] if b["ante"]}
            assert staked.get(box) == shown, staked
        person.watch.assert_clean()  # no refusal, no console error
    finally:
        await person.close()


async def test_the_header_says_whether_one_plays_or_watches(
    browser: Browser, client_service: ServiceProcess, operator: Operator
) -> None:
    table_id = await operator.open_table("russian")
    await operator.fund("head-hal", 1_000)
    person = await seat_at(browser, client_service.url, "head-hal", table_id)
    who = person.page.locator("#who")
    try:
        await expect(who).to_have_text("Watching as head-hal")
        # Watching, one is still a player with rounds of one's own to recall.
        await expect(person.page.get_by_test_id("history-open")).to_be_visible()
        await person.click("SitDown")
        await expect(who).to_have_text("Player head-hal")
        await expect(who).to_have_attribute("data-seated", "true")
        person.watch.assert_clean()
    finally:
        await person.close()


async def test_a_page_that_never_saw_the_commitment_does_not_say_it_did(
    browser: Browser, client_service: ServiceProcess, operator: Operator
) -> None:
    table_id = await operator.open_table("russian")
    await operator.fund("fair-fin", 1_000)
    fin = await seat_at(browser, client_service.url, "fair-fin", table_id)
    late = None
    try:
        await fin.click("SitDown")
        await fin.page.locator("[data-chip=ante]").first.click()
        await fin.click("PlaceAnte")
        await fin.click("Deal")
        await fin.click("Fold", 1)
        last = fin.page.locator("[data-testid=last-round]")
        await expect(last).to_have_attribute("data-round", "1")

        # Opened after the round's bets: it never saw round 1's commitment.
        late = await seat_at(browser, client_service.url, "late-lou", table_id)
        for person, said in (
            (fin, "Fair: the seed matches the commitment shown"),
            (late, "did not see"),
        ):
            await person.page.click("[data-testid=fairness-check]")
            verdict = person.page.locator("[data-testid=fairness-result]")
            await expect(verdict).to_have_attribute("data-ok", "true")
            await expect(verdict).to_contain_text(said)
        await expect(late.page.locator("[data-testid=fairness-result]")).not_to_contain_text(
            "Fair:"
        )
    finally:
        await fin.close()
        if late is not None:
            await late.close()


async def test_an_operators_player_sees_their_own_name(
    browser: Browser, client_service: ServiceProcess
) -> None:
    import httpx

    from russian_poker.service.tokens import mint_token
    from tests.client.conftest import open_page
    from tests.processes import SECRET, token_headers

    base = client_service.url
    staff = {"Authorization": "Bearer " + mint_token(SECRET, "operator", "op", operator="acmepg")}
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        registered = await http.post(
            "/v1/operators",
            json={
                "operator_id": "acmepg",
                "name": "Acme",
                "currencies": ["EUR"],
                "wallet": {"mode": "internal"},
            },
            headers=token_headers("admin", "adm"),
        )
        assert registered.status_code == 201, registered.text
        table = await http.post(
            "/v1/tables", json={"table_id": "own-names", "preset": "russian"}, headers=staff
        )
        assert table.status_code == 201, table.text
        table_id = table.json()["table_id"]
    token = mint_token(SECRET, "player", "acmepg:ona", operator="acmepg")
    context, page, watch = await open_page(browser, base)
    try:
        await page.goto(f"{base}/play/{table_id}#token={token}")
        who = page.locator("#who")
        await expect(who).to_have_text("Watching as ona")  # not "acmepg:ona"
        watch.assert_clean()
    finally:
        await context.close()
