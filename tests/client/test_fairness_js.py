"""The browser's fairness check (``service/client/web/js/fairness.js``) in Chromium.

A second implementation of docs/fairness.md, so it is held to the same vectors as the
service's code, to the proof records the rules engine writes (a dealer draw, discards set
aside, a stacked deck) and to a real round played over HTTP; every kind of tampering must
fail with the differing card named. One page loads the module once; each test evaluates in it.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, Final, cast

import httpx
import msgspec
import pytest
from playwright.async_api import Browser, Page, Route

from russian_poker.events.codec import Event
from russian_poker.events.commands import (
    BuyCard,
    Deal,
    Exchange,
    PlaceAnte,
    Play,
    RequestDealerExchange,
)
from russian_poker.events.game import CardsDealt
from russian_poker.events.wallet import WalletEvent
from russian_poker.service.fairness.check import check_proof
from russian_poker.service.fairness.proof import RoundProof, proof_from_events
from russian_poker.service.rules.hands import evaluate, qualifies
from tests.client.conftest import Watch, open_page
from tests.processes import ServiceProcess, token_headers
from tests.rules.rounds import ANN, BOB
from tests.rules.scenario import Scenario

VECTORS: Final = json.loads(
    (Path(__file__).parents[2] / "docs" / "fairness" / "vectors.json").read_text()
)
MODULE: Final = "/play/static/js/fairness.js"
BLANK: Final = "/play/fairness-check"
"""A blank page of the service's origin (served by a route): the module is tested alone,
whatever the client's own pages load."""

_Loaded = tuple[Page, Watch]


@pytest.fixture(scope="module")
async def fairness(browser: Browser, client_service: ServiceProcess) -> AsyncIterator[_Loaded]:
    """One page of the service's origin with the module imported as ``window.fairness``."""
    context, page, watch = await open_page(browser, client_service.url)

    async def blank(route: Route) -> None:
        await route.fulfill(content_type="text/html", body="<!doctype html><title>check</title>")

    await page.route(f"{client_service.url}{BLANK}", blank)
    await page.goto(client_service.url + BLANK)
    assert await page.evaluate("window.isSecureContext") is True
    await page.evaluate(f"async () => {{ window.fairness = await import({MODULE!r}); }}")
    try:
        yield page, watch
    finally:
        await context.close()


async def call(loaded: _Loaded, body: str, arg: Any = None) -> Any:
    """Evaluate ``body`` (an async function body with ``f``, the module, and ``arg``)."""
    page, _ = loaded
    return await page.evaluate(f"async (arg) => {{ const f = window.fairness; {body} }}", arg)


async def check_vector(loaded: _Loaded, vector: dict[str, Any]) -> dict[str, Any]:
    return cast(dict[str, Any], await call(loaded, "return await f.checkVector(arg);", vector))


async def verify(loaded: _Loaded, proof: dict[str, Any]) -> dict[str, Any]:
    return cast(dict[str, Any], await call(loaded, "return await f.verifyProof(arg);", proof))


def _vector(name: str) -> dict[str, Any]:
    found = next(v for v in VECTORS["vectors"] if v["name"] == name)
    return copy.deepcopy(cast(dict[str, Any], found))


def _flip_hex_digit(text: str, at: int = 0) -> str:
    digit = "1" if text[at] != "1" else "2"
    return text[:at] + digit + text[at + 1 :]


# -- the vectors ---------------------------------------------------------------------------


async def test_every_vector_passes(fairness: _Loaded) -> None:
    assert len(VECTORS["vectors"]) == 5
    for vector in VECTORS["vectors"]:
        assert await check_vector(fairness, vector) == {"ok": True, "mismatches": []}, vector[
            "name"
        ]
    whole = await call(fairness, "return await f.checkVectorFile(arg);", VECTORS)
    assert whole == {"ok": True, "mismatches": []}
    fairness[1].assert_clean()


async def test_the_exported_steps_give_the_worked_example(fairness: _Loaded) -> None:
    vector = _vector("two players' seeds")
    derived = await call(
        fairness,
        """
        const seed = f.fromHex(arg.server_seed);
        const seeds = arg.boxes.map((b) => ({box: b.box, seed: b.client_seed}));
        const key = await f.deckKey(seed, seeds);
        const {deck, cursor} = await f.shuffledDeck(key);
        return {
            commitment: await f.commitmentMatches(arg.server_seed, arg.commitment),
            key: f.toHex(key), deck, cursor,
            words: await f.streamWords(key, 3),
        };
        """,
        vector,
    )
    assert derived == {
        "commitment": True,
        "key": vector["deck_key"],
        "deck": vector["deck"],
        "cursor": 51,
        "words": [1951193779, 1749680540, 3377463636],  # docs/fairness.md §7
    }
    rejected = _vector("a rejected word")
    assert rejected["cursor_after_shuffle"] == 52
    assert (await check_vector(fairness, rejected))["ok"] is True
    fairness[1].assert_clean()


async def test_a_tampered_server_seed_fails_the_commitment_and_the_deck(
    fairness: _Loaded,
) -> None:
    vector = _vector("two players' seeds")
    vector["server_seed"] = _flip_hex_digit(vector["server_seed"], 10)
    derived = await call(
        fairness,
        """
        const seeds = arg.boxes.map((b) => ({box: b.box, seed: b.client_seed}));
        const key = await f.deckKey(f.fromHex(arg.server_seed), seeds);
        return {
            commitment: await f.commitmentMatches(arg.server_seed, arg.commitment),
            deck: (await f.shuffledDeck(key)).deck,
        };
        """,
        vector,
    )
    assert derived["commitment"] is False
    assert sorted(derived["deck"]) == sorted(vector["deck"])  # still the 52 cards ...
    assert derived["deck"] != vector["deck"]  # ... in another order
    result = await check_vector(fairness, vector)
    assert result["ok"] is False
    steps = [m.split(":")[0] for m in result["mismatches"]]
    assert {"commitment", "deck_key"} <= set(steps)
    assert any(m.startswith("deck card ") for m in result["mismatches"])
    fairness[1].assert_clean()


async def test_a_tampered_client_seed_fails_naming_the_card(fairness: _Loaded) -> None:
    vector = _vector("two players' seeds")
    vector["boxes"][1]["client_seed"] = "bob-43"
    result = await check_vector(fairness, vector)
    assert result["ok"] is False
    assert result["mismatches"][0].startswith("deck_key_message: recorded ")
    deck = [m for m in result["mismatches"] if m.startswith("deck card ")]
    assert len(deck) == 1 and ", derived " in deck[0]
    assert not any(m.startswith("commitment") for m in result["mismatches"])
    fairness[1].assert_clean()


async def test_a_swapped_dealt_card_is_named(fairness: _Loaded) -> None:
    vector = _vector("two players' seeds")
    cards = vector["deal"]["hands"][0]["cards"]  # box 3: 3h 2h 8s Tc Ks
    cards[2], cards[3] = cards[3], cards[2]
    result = await check_vector(fairness, vector)
    assert result["mismatches"] == ["box 3 card 3: dealt Tc, derived 8s"]
    fairness[1].assert_clean()


async def test_a_changed_exchange_position_is_named(fairness: _Loaded) -> None:
    vector = _vector("two players' seeds")
    vector["exchange"]["positions"][1] = 35
    result = await check_vector(fairness, vector)
    assert result["mismatches"] == ["exchange position 2: recorded 35, derived 34"]
    vector = _vector("two players' seeds")
    vector["exchange"]["received"] = ["7c", "Ts"]
    result = await check_vector(fairness, vector)
    assert result["mismatches"] == ["exchange card 1: received 7c, derived Ts"]
    fairness[1].assert_clean()


async def test_without_a_secure_context_the_functions_say_so(browser: Browser) -> None:
    """Over plain http from a host that is not this machine, browsers hide crypto.subtle."""
    origin = "http://fairness.example"
    context, page, watch = await open_page(browser, origin)
    modules = Path(__file__).parents[2] / "service/client/web/js"

    async def serve(route: Route) -> None:
        if route.request.url.endswith(".js"):
            name = route.request.url.rsplit("/", 1)[1]
            await route.fulfill(content_type="text/javascript", body=(modules / name).read_text())
        else:
            await route.fulfill(content_type="text/html", body="<!doctype html><title>x</title>")

    try:
        await page.route(f"{origin}/**", serve)
        await page.goto(f"{origin}/play/")
        assert await page.evaluate("window.isSecureContext") is False
        message = await page.evaluate(
            """async () => {
                const f = await import('/play/static/js/fairness.js');
                try { await f.commitmentMatches('00', '00'); return 'no error'; }
                catch (error) { return error.message; }
            }"""
        )
        assert "secure context" in message and "https or from localhost" in message
        watch.assert_clean()
    finally:
        await context.close()


# -- proof records the rules engine writes -------------------------------------------------


def _table_events(scenario: Scenario) -> list[Event]:
    return [e for e in scenario.events if not isinstance(e, WalletEvent)]


def _proof_json(scenario: Scenario) -> dict[str, Any]:
    proof = proof_from_events("table-1", _table_events(scenario), 1)
    return cast(dict[str, Any], json.loads(msgspec.json.encode(proof)))  # as the API serves it


def _round_with_a_dealer_draw() -> Scenario:
    """Two seeds, an exchange, a sixth card and a dealer draw."""
    for attempt in range(200):
        scenario = Scenario(players={"ann": 100_000, "bob": 100_000})
        scenario.sit("ann", "bob")
        scenario.open_round()
        scenario.run(PlaceAnte(box=1, ante=100, client_seed=f"ann #{attempt}"), ANN)
        scenario.run(PlaceAnte(box=2, ante=200, client_seed="bob's"), BOB)
        scenario.run(Deal(), ANN)
        (dealt,) = [e for e in scenario.run(Deal(), BOB) if isinstance(e, CardsDealt)]
        if not qualifies(evaluate(dealt.dealer_cards)):
            break
    else:
        pytest.fail("no dealer without a game in 200 rounds")
    ann = next(h for h in dealt.hands if h.box == 1)
    scenario.run(Exchange(box=1, cards=list(ann.cards[:2])), ANN)
    scenario.run(BuyCard(box=2), BOB)
    scenario.run(Play(box=1), ANN)
    scenario.run(Play(box=2), BOB)
    scenario.run(RequestDealerExchange(box=1), ANN)
    scenario.run(RequestDealerExchange(box=2), BOB)
    return scenario


def _one_box_exchange(*, discards_return_to_deck: bool, deck: tuple[str, ...] = ()) -> Scenario:
    scenario = Scenario(players={"ann": 10_000}, discards_return_to_deck=discards_return_to_deck)
    scenario.sit("ann")
    scenario.open_round(deck)
    scenario.run(PlaceAnte(box=1, ante=100, client_seed="aside"), ANN)
    (dealt,) = [e for e in scenario.run(Deal(), ANN) if isinstance(e, CardsDealt)]
    scenario.run(Exchange(box=1, cards=list(dealt.hands[0].cards[:3])), ANN)
    scenario.run(Play(box=1), ANN)
    if scenario.table.round is not None and scenario.table.round.phase == "dealer_draw":
        scenario.run(RequestDealerExchange(box=1), ANN)
    return scenario


async def test_a_round_with_a_dealer_draw_verifies_and_agrees_with_the_service(
    fairness: _Loaded,
) -> None:
    proof = _proof_json(_round_with_a_dealer_draw())
    assert proof["dealer_replacements"] and [d["kind"] for d in proof["draws"]] == [
        "exchange",
        "sixth_card",
    ]
    verdict = await verify(fairness, proof)
    assert (verdict["ok"], verdict["verifiable"], verdict["commitment_ok"]) == (True, True, True)
    assert verdict["first_mismatch"] is None
    assert verdict["checks"][-1]["detail"].startswith("VERIFIED: round table-1:1, ")
    python = check_proof(msgspec.convert(proof, RoundProof))
    assert (verdict["deck_key"], verdict["deck"]) == (python.deck_key, list(python.deck))
    assert verdict["cards_checked"] == python.cards_checked

    replaced = copy.deepcopy(proof)
    first = replaced["dealer_replacements"][0]
    real = first["card"]
    first["card"] = next(c for c in python.deck if c != real)
    verdict = await verify(fairness, replaced)
    assert verdict["ok"] is False
    assert (
        verdict["first_mismatch"] == f"dealer replacement 1: drew {first['card']}, derived {real}"
    )

    aside = copy.deepcopy(proof)
    aside["dealer_replacements"][0]["replaced"] = next(
        c for c in proof["dealer"] if c != proof["dealer_replacements"][0]["replaced"]
    )
    verdict = await verify(fairness, aside)
    assert verdict["first_mismatch"].startswith("dealer replacement 1: set aside ")
    fairness[1].assert_clean()


async def test_discards_set_aside_verify_and_the_rule_matters(fairness: _Loaded) -> None:
    proof = _proof_json(_one_box_exchange(discards_return_to_deck=False))
    assert proof["discards_return_to_deck"] is False
    assert (await verify(fairness, proof))["ok"] is True
    proof["discards_return_to_deck"] = True  # read as if the discards had gone back
    verdict = await verify(fairness, proof)
    assert verdict["ok"] is False
    assert verdict["first_mismatch"].startswith("box 1 exchange card ")
    fairness[1].assert_clean()


async def test_a_stacked_deck_is_not_verifiable(fairness: _Loaded) -> None:
    top = ("As", "Ks", "Qs", "Js", "Ts", "2h", "3h", "4h", "5h", "7c")
    proof = _proof_json(_one_box_exchange(discards_return_to_deck=True, deck=top))
    assert proof["stacked_deck"] is not None
    verdict = await verify(fairness, proof)
    assert (verdict["ok"], verdict["verifiable"], verdict["commitment_ok"]) == (False, False, True)
    assert "stacked in test mode" in verdict["first_mismatch"]
    fairness[1].assert_clean()


async def test_bad_records_are_refused_not_crashed_on(fairness: _Loaded) -> None:
    proof = _proof_json(_one_box_exchange(discards_return_to_deck=True))
    cases: list[tuple[dict[str, Any], str]] = []
    other = copy.deepcopy(proof)
    other["format"] = "something/else"
    cases.append((other, "format "))
    short = copy.deepcopy(proof)
    short["server_seed"] = short["server_seed"][:-2]
    cases.append((short, "server_seed is 31 bytes"))
    odd = copy.deepcopy(proof)
    odd["server_seed"] = "zz" + odd["server_seed"][2:]
    cases.append((odd, "server_seed is not hex"))
    tab = copy.deepcopy(proof)
    tab["boxes"][0]["client_seed"] = "a\tb"
    cases.append((tab, "box 1 client seed: character U+0009"))
    order = copy.deepcopy(proof)
    order["boxes"][0]["ante"] = 5
    order["boxes"].append({"box": 2, "player": "bob", "ante": 10, "client_seed": None})
    cases.append((order, "deal order: boxes 2, 1"))
    never = copy.deepcopy(proof)
    never["draws"][0]["discarded"][0] = next(
        c for c in VECTORS["unshuffled_deck"] if c not in proof["dealt"][0]["cards"]
    )
    cases.append((never, "box 1 exchange: gives back "))
    broken = copy.deepcopy(proof)
    broken["dealt"][0]["cards"] = None
    cases.append((broken, "malformed record: "))
    for record, start in cases:
        verdict = await verify(fairness, record)
        assert verdict["ok"] is False, start
        assert verdict["first_mismatch"].startswith(start), verdict["first_mismatch"]
    fairness[1].assert_clean()


# -- a real round over HTTP ----------------------------------------------------------------

OPERATOR: Final = token_headers("operator", "op")
ANN_SEED: Final = "ann's browser seed"
BOB_SEED: Final = "bob ~ 7"


class _Table:
    """One table of the client service, played by named players over HTTP."""

    def __init__(self, client: httpx.AsyncClient, table_id: str) -> None:
        self.client = client
        self.table_id = table_id
        self.keys = 0

    async def send(self, player: str, kind: str, **fields: Any) -> dict[str, Any]:
        self.keys += 1
        r = await self.client.post(
            f"/v1/tables/{self.table_id}/commands",
            json={"type": kind, **fields},
            headers={
                **token_headers("player", player),
                "Idempotency-Key": f"{self.table_id}-{self.keys}",
            },
        )
        assert r.status_code == 200, r.text
        return cast(dict[str, Any], r.json()["table"])

    async def round(self, who: str, number: int) -> dict[str, Any]:
        r = await self.client.get(
            f"/v1/tables/{self.table_id}", headers=token_headers("player", who)
        )
        assert r.status_code == 200, r.text
        view = r.json()
        shown = (view["round"], view["previous_round"])
        return cast(dict[str, Any], next(s for s in shown if s and s["number"] == number))


async def _play_a_round(client: httpx.AsyncClient) -> dict[str, Any]:
    """Ann (box 1) exchanges two cards, bob (box 2, the larger ante) buys a sixth card; both
    play and ask for the dealer draw if the dealer has no game. The round's proof."""
    for name in ("ann", "bob"):
        r = await client.post("/v1/wallets", json={"wallet_id": name}, headers=OPERATOR)
        assert r.status_code == 201, r.text
        r = await client.post(
            f"/v1/wallets/{name}/deposits",
            json={"transfer_id": f"dep-{name}", "amount": 100_000},
            headers=OPERATOR,
        )
        assert r.status_code in (200, 201), r.text
    r = await client.post(
        "/v1/tables",
        json={"table_id": "fair", "preset": "russian", "overrides": {}, "test_deck": []},
        headers=OPERATOR,
    )
    assert r.status_code == 201, r.text
    table = _Table(client, "fair")
    await table.send("ann", "SitDown")
    await table.send("bob", "SitDown")
    await table.send("ann", "PlaceAnte", box=1, ante=100, client_seed=ANN_SEED)
    await table.send("bob", "PlaceAnte", box=2, ante=200, client_seed=BOB_SEED)
    await table.send("ann", "Deal")
    await table.send("bob", "Deal")
    ann = next(b for b in (await table.round("ann", 1))["boxes"] if b["box"] == 1)
    await table.send("ann", "Exchange", box=1, cards=ann["cards"][:2])
    await table.send("bob", "BuyCard", box=2)
    await table.send("ann", "Play", box=1)
    await table.send("bob", "Play", box=2)
    if (await table.round("ann", 1))["phase"] == "dealer_draw":
        await table.send("ann", "RequestDealerExchange", box=1)
        await table.send("bob", "RequestDealerExchange", box=2)
    assert (await table.round("ann", 1))["phase"] == "settled"
    r = await client.get("/v1/tables/fair/rounds/1/proof", headers=token_headers("player", "ann"))
    assert r.status_code == 200, r.text
    return cast(dict[str, Any], r.json())


async def test_a_round_played_over_http_verifies_in_the_browser(
    fairness: _Loaded, client_service: ServiceProcess
) -> None:
    async with httpx.AsyncClient(base_url=client_service.url, timeout=30) as client:
        proof = await _play_a_round(client)
    assert proof["stacked_deck"] is None
    assert [(b["box"], b["client_seed"]) for b in proof["boxes"]] == [
        (1, ANN_SEED),
        (2, BOB_SEED),
    ]
    assert [d["kind"] for d in proof["draws"]] == ["exchange", "sixth_card"]
    verdict = await verify(fairness, proof)
    assert (verdict["ok"], verdict["commitment_ok"], verdict["first_mismatch"]) == (
        True,
        True,
        None,
    )
    assert check_proof(msgspec.convert(proof, RoundProof)).deck_key == verdict["deck_key"]

    tampered = copy.deepcopy(proof)
    tampered["server_seed"] = _flip_hex_digit(tampered["server_seed"], 7)
    verdict = await verify(fairness, tampered)
    assert (verdict["ok"], verdict["commitment_ok"]) == (False, False)
    assert verdict["first_mismatch"].startswith("commitment: SHA-256 of the server seed is ")
    # The cards are still checked against the tampered seed: they no longer follow from it.
    assert [c["ok"] for c in verdict["checks"] if c["step"] == "cards"] == [False]

    seeded = copy.deepcopy(proof)
    seeded["boxes"][1]["client_seed"] = "bob ~ 8"
    verdict = await verify(fairness, seeded)
    assert verdict["commitment_ok"] is True
    # Box 2 is dealt first; its first card could still coincide (1 in 52), a later not all.
    assert re.fullmatch(
        r"(box [12]|dealer) card [1-5]: dealt \w\w, derived \w\w", verdict["first_mismatch"]
    )

    swapped = copy.deepcopy(proof)
    hand = swapped["dealt"][0]["cards"]
    hand[1], hand[2] = hand[2], hand[1]
    verdict = await verify(fairness, swapped)
    assert verdict["first_mismatch"] == (
        f"box {swapped['dealt'][0]['box']} card 2: dealt {hand[1]}, derived {hand[2]}"
    )
    fairness[1].assert_clean()
