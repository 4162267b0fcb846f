"""The client's languages: the catalogues agree, every text the code asks for exists, and
the page really speaks the language chosen (the select, or the launch URL's ``&lang=``),
money included, from the integer minor units the API gives.
"""

from __future__ import annotations

import json
import re
import typing
from pathlib import Path
from typing import Any, Final

import pytest
from playwright.async_api import Browser, Page, expect

from russian_poker.events.game import Outcome
from russian_poker.events.paytables import BONUS_THRESHOLDS, CATEGORY_LABELS
from russian_poker.events.ruleset import Ruleset
from russian_poker.service.rules.cards import RANKS, SUITS
from russian_poker.service.rules.state import Phase, Table
from tests.client.conftest import open_page
from tests.client.people import Operator, Person, player_token, seat_at
from tests.processes import ServiceProcess

WEB: Final = Path(__file__).parents[2] / "service" / "client" / "web"
EN: Final[dict[str, str]] = json.loads((WEB / "i18n" / "en.json").read_text(encoding="utf-8"))
RU: Final[dict[str, str]] = json.loads((WEB / "i18n" / "ru.json").read_text(encoding="utf-8"))
SOURCES: Final = {
    path.name: path.read_text(encoding="utf-8") for path in sorted((WEB / "js").glob("*.js"))
}

PLACEHOLDER: Final = re.compile(r"\{(\w+)\}")
LITERAL_KEY: Final = re.compile(r"""(?<![\w.])(?:t|has)\(\s*(?:"([^"]+)"|'([^']+)')""")
TEMPLATE_KEY: Final = re.compile(r"(?<![\w.])(?:t|has)\(\s*`([^`$]*)\$\{")
CHOICE_KEY: Final = re.compile(
    r"""(?<![\w.])t\(\s*[^()"'`,]+\?\s*"([^"]+)"\s*:\s*"([^"]+)"\s*[,)]"""
)
NAMESPACES: Final = {key.split(".")[0] for key in EN}
QUOTED: Final = re.compile(r""""([a-z]+(?:\.[A-Za-z0-9_]+)+)\"""")

BALANCE: Final = 123_456
"""Minor units: EUR 1,234.56 — thousands and a fraction, which every language writes its way."""


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


def literal_keys() -> dict[str, str]:
    """Every catalogue key the code names in full: key → the file naming it."""
    found: dict[str, str] = {}
    for name, source in SOURCES.items():
        for match in LITERAL_KEY.finditer(source):
            found[match.group(1) or match.group(2)] = name
        for match in CHOICE_KEY.finditer(source):
            found[match.group(1)] = name
            found[match.group(2)] = name
        # Keys listed as data (lobby's column heads): quoted strings of a catalogue namespace.
        for match in QUOTED.finditer(source):
            if match.group(1).split(".")[0] in NAMESPACES and not match.group(1).endswith(".js"):
                found.setdefault(match.group(1), name)
    return found


def template_prefixes() -> dict[str, str]:
    """The fixed starts of keys the code builds (``phase.${...}``): prefix → file."""
    return {
        match.group(1): name
        for name, source in SOURCES.items()
        for match in TEMPLATE_KEY.finditer(source)
    }


# -- the catalogues themselves -------------------------------------------------------------


def test_russian_has_exactly_the_english_keys() -> None:
    assert sorted(set(EN) - set(RU)) == [], "missing from ru.json"
    assert sorted(set(RU) - set(EN)) == [], "in ru.json but not in en.json"


@pytest.mark.parametrize("key", sorted(EN))
def test_same_placeholders(key: str) -> None:
    assert placeholders(RU[key]) == placeholders(EN[key]), (EN[key], RU[key])
    assert RU[key].strip(), "an empty text"


def test_russian_is_translated() -> None:
    """Texts with words in them are in Cyrillic (codes, names and symbols may stay)."""
    untranslated = [
        key
        for key, text in RU.items()
        if re.search(r"[A-Za-z]{3}", PLACEHOLDER.sub("", text))
        and not re.search(r"[А-Яа-яЁё]", text)
    ]
    assert untranslated == []


def test_card_names_read_naturally_in_russian() -> None:
    def name(catalogue: dict[str, str], card: str) -> str:
        return catalogue["card.name"].format(
            rank=catalogue[f"rank.{card[0]}"], suit=catalogue[f"suit.{card[1]}"]
        )

    assert name(EN, "As") == "Ace of spades"
    assert name(RU, "As") == "Туз пик"
    assert name(RU, "Qh") == "Дама червей"
    assert name(RU, "Td") == "Десятка бубен"
    assert name(RU, "2c") == "Двойка треф"


# -- what the code asks for ----------------------------------------------------------------


def test_the_scan_finds_the_code_s_keys() -> None:
    """The scanner itself: it must see keys of each kind, or the next tests prove nothing."""
    keys = literal_keys()
    assert {"action.SitDown", "card.name", "bet.ante", "bet.bonus", "lobby.open"} <= set(keys)
    assert {"phase.", "status.", "game.", "rank.", "suit.", "result.", "timer.", "conn."} <= set(
        template_prefixes()
    )


def test_every_key_the_code_uses_exists() -> None:
    missing = {key: name for key, name in literal_keys().items() if key not in EN}
    assert missing == {}


def test_every_built_key_has_a_family() -> None:
    missing = {
        prefix: name
        for prefix, name in template_prefixes().items()
        if not any(key.startswith(prefix) for key in EN)
    }
    assert missing == {}


def literal_values(annotation: Any) -> tuple[str, ...]:
    return tuple(str(value) for value in typing.get_args(annotation))


FAMILIES: Final[dict[str, tuple[str, ...]]] = {
    "phase": literal_values(Phase),
    "status": literal_values(typing.get_type_hints(Table)["status"]),
    "game": literal_values(typing.get_type_hints(Ruleset)["game"]),
    "hand": (*CATEGORY_LABELS, *BONUS_THRESHOLDS),
    "result": literal_values(Outcome),
    "rank": tuple(RANKS),
    "suit": tuple(SUITS),
    "timer": ("betting", "decision", "dealer_draw"),
    "conn": ("connecting", "reconnecting", "live"),
    "box.decision": ("play", "fold"),
    "history": ("requested", "declined"),
}


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_every_member_of_a_family_has_a_text(family: str) -> None:
    members = FAMILIES[family]
    assert members, f"no values found for {family}"
    missing = [member for member in members if f"{family}.{member}" not in EN]
    assert missing == []


# -- the page ------------------------------------------------------------------------------


async def funded_table(operator: Operator, player: str) -> str:
    await operator.fund(player, BALANCE)
    return await operator.open_table("russian")


def spaces(text: str) -> str:
    """Intl puts no-break spaces (U+00A0, U+202F) in numbers; compare them as spaces."""
    return re.sub(r"[\u00a0\u202f]", " ", text)


async def expect_language(page: Page, catalogue: dict[str, str], lang: str) -> None:
    await expect(page.locator("html")).to_have_attribute("lang", lang)
    await expect(page.locator("[data-action=SitDown]")).to_have_text(catalogue["action.SitDown"])
    await expect(page.locator("#skip")).to_have_text(catalogue["app.skip"])
    await expect(page.locator("[data-testid=to-lobby]")).to_have_text(catalogue["app.lobby"])
    await expect(page.locator("#seats-title")).to_have_text(catalogue["table.seats"])
    await expect(page.locator("#dealer-title")).to_have_text(catalogue["dealer.title"])
    assert await page.title() == catalogue["app.title"]
    phase = catalogue["phase.betting"]
    await expect(page.locator("[data-testid=round-phase]")).to_contain_text(phase)


async def expect_balance(page: Page, person: Person, catalogue: dict[str, str], shown: str) -> None:
    balance = await person.balance()
    assert balance == BALANCE
    element = page.locator("[data-testid=balance]")
    await expect(element).to_have_attribute("data-amount", str(balance))
    await expect(element).to_contain_text(catalogue["app.balance"])
    assert shown in spaces(await element.inner_text())


async def card_name(page: Page, card: str) -> str:
    """The name the running client gives a card (the app's own i18n module instance)."""
    name: str = await page.evaluate(
        "async (card) => (await import('/play/static/js/i18n.js')).cardName(card)", card
    )
    return name


async def test_switching_to_russian_translates_the_page(
    browser: Browser, client_service: ServiceProcess, operator: Operator
) -> None:
    table_id = await funded_table(operator, "ivan")
    person = await seat_at(browser, client_service.url, "ivan", table_id)
    page = person.page
    try:
        await expect_language(page, EN, "en")
        await expect_balance(page, person, EN, "€1,234.56")
        assert await card_name(page, "As") == "Ace of spades"

        await page.select_option("[data-testid=language]", "ru")
        await expect_language(page, RU, "ru")
        await expect_balance(page, person, RU, "1 234,56 €")
        assert await card_name(page, "As") == "Туз пик"
        await expect(page.locator("[data-testid=language]")).to_have_attribute(
            "aria-label", RU["app.language"]
        )

        # The choice is the player's: it holds over a reload.
        await page.reload()
        await expect(page.locator("[data-testid=connection]")).to_have_attribute(
            "data-state", "live"
        )
        await expect_language(page, RU, "ru")

        await page.select_option("[data-testid=language]", "en")
        await expect_language(page, EN, "en")
        person.watch.assert_clean()
    finally:
        await person.close()


async def test_a_launch_url_with_lang_ru_opens_in_russian(
    browser: Browser, client_service: ServiceProcess, operator: Operator
) -> None:
    table_id = await funded_table(operator, "olga")
    context, page, watch = await open_page(browser, client_service.url)
    try:
        await page.goto(
            f"{client_service.url}/play/{table_id}#token={player_token('olga')}&lang=ru"
        )
        await expect(page.locator("[data-testid=connection]")).to_have_attribute(
            "data-state", "live"
        )
        await expect(page.locator("[data-testid=connection]")).to_have_text(RU["conn.live"])
        person = Person("olga", context, page, watch, client_service.url)
        await expect_language(page, RU, "ru")
        await expect_balance(page, person, RU, "1 234,56 €")
        assert await page.locator("[data-testid=language]").input_value() == "ru"
        assert "token=" not in page.url
        watch.assert_clean()
    finally:
        await context.close()
