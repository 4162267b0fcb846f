"""The interactive docs at ``/schema`` can act: "Authorize" takes a bearer token, and "Try it
out" on ``sendCommand`` sends a player's command with it, in Debian's Chromium."""

from __future__ import annotations

from playwright.async_api import Browser, expect

from tests.client.conftest import open_page
from tests.client.people import Operator, player_token
from tests.processes import ServiceProcess


async def test_try_it_out_sends_a_command_with_a_token(
    browser: Browser, client_service: ServiceProcess, operator: Operator
) -> None:
    table_id = await operator.open_table("russian")
    await operator.fund("schema-sam", 1000)
    context, page, _ = await open_page(browser, client_service.url)
    try:
        await page.goto(f"{client_service.url}/schema")
        await page.get_by_role("button", name="Authorize").first.click()
        await page.locator(".modal-ux input[type=text]").first.fill(player_token("schema-sam"))
        # Swagger UI labels its buttons for screen readers: "Apply credentials", "Close".
        await page.locator(".modal-ux button.authorize").click()
        await page.locator(".modal-ux button.btn-done").click()

        operation = page.locator("#operations-tables-sendCommand")
        await operation.locator(".opblock-summary").click()
        await operation.get_by_role("button", name="Try it out").click()
        await operation.locator("input[placeholder='table_id']").fill(table_id)
        await operation.locator("input[placeholder='Idempotency-Key']").fill("schema-sit-1")
        await operation.locator("textarea.body-param__text").fill('{"type": "SitDown", "seat": 1}')
        await operation.get_by_role("button", name="Execute").click()

        # The answer as the docs show it: 200, and the view of a table where Sam now sits.
        live = operation.locator(".live-responses-table tbody .response-col_status").first
        await expect(live).to_have_text("200", timeout=15_000)
        body = operation.locator(".live-responses-table tbody .response-col_description pre").first
        await expect(body).to_contain_text('"player_id": "schema-sam"')
    finally:
        await context.close()
