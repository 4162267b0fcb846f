"""The README's browser block runs as written, and the address it prints opens the table.

The block is cut out of README.md and run with bash (its ``./dev russian-poker token`` signs
with the service's secret), with ``API`` pointing at the test's service; the printed
address is then opened in Chromium, as a newcomer would paste it.
"""

from __future__ import annotations

import os
import re
import subprocess

from playwright.async_api import Browser, expect

from tests.client.conftest import open_page
from tests.client.people import Operator
from tests.docs.serving import README, ROOT
from tests.processes import SECRET, ServiceProcess


def browser_block() -> str:
    found = re.search(r"<!-- browser -->\n```bash\n(.*?)\n```\n", README, re.DOTALL)
    assert found, "README.md has no browser block"
    return found.group(1)


async def test_the_readme_address_opens_alices_table(
    browser: Browser, client_service: ServiceProcess
) -> None:
    operator = Operator(client_service.url)
    try:
        answer = await operator.http.post("/v1/tables", json={"table_id": "t1"})
        assert answer.status_code in (201, 409), answer.text
    finally:
        await operator.aclose()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RUSSIAN_POKER_", "PYTEST"))}
    env.update(API=client_service.url, RUSSIAN_POKER_JWT_SECRET=SECRET)
    ran = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", browser_block()],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert ran.returncode == 0, ran.stderr
    address = ran.stdout.strip().splitlines()[-1]
    assert address.startswith(f"{client_service.url}/play/t1#token=")

    context, page, watch = await open_page(browser, client_service.url)
    await page.goto(address)
    await expect(page.locator("[data-testid=connection]")).to_have_attribute("data-state", "live")
    await expect(page.locator("#table-title")).to_have_text("t1")
    await expect(page.locator("#who")).to_contain_text("alice")
    await expect(page.locator("[data-action=SitDown]")).to_be_visible()
    watch.assert_clean()
    await context.close()
