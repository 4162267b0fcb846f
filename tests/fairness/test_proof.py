"""A round's proof record checked end to end, and every kind of tampering named."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from russian_poker.events.codec import Event
from russian_poker.events.commands import (
    BuyCard,
    ChangeRuleset,
    CloseTable,
    Deal,
    Exchange,
    Fold,
    PlaceAnte,
    Play,
    RequestDealerExchange,
)
from russian_poker.events.game import CardsDealt
from russian_poker.events.wallet import WalletEvent
from russian_poker.service.fairness.check import check_proof
from russian_poker.service.fairness.proof import RoundProof, proof_from_events, round_events
from russian_poker.service.rules.entropy import deck_key
from russian_poker.service.rules.hands import evaluate, qualifies
from tests.rules.rounds import ANN, BOB
from tests.rules.scenario import OPERATOR, SEED, Scenario


def _table_events(scenario: Scenario) -> list[Event]:
    return [e for e in scenario.events if not isinstance(e, WalletEvent)]


def _dealt_round(client_seed: str) -> tuple[Scenario, CardsDealt]:
    scenario = Scenario(players={"ann": 100_000, "bob": 100_000})
    scenario.sit("ann", "bob")
    scenario.open_round()
    scenario.run(PlaceAnte(box=1, ante=100, client_seed=client_seed), ANN)
    scenario.run(PlaceAnte(box=2, ante=200, client_seed="bob's"), BOB)
    scenario.run(Deal(), ANN)
    (dealt,) = [e for e in scenario.run(Deal(), BOB) if isinstance(e, CardsDealt)]
    return scenario, dealt


def _played_round() -> Scenario:
    """Two players' seeds, an exchange, a sixth card and a dealer draw, all in one round."""
    for attempt in range(100):
        scenario, dealt = _dealt_round(f"ann #{attempt}")
        if not qualifies(evaluate(dealt.dealer_cards)):
            break
    else:
        pytest.fail("no dealer without a game in 100 rounds")
    ann = next(h for h in dealt.hands if h.box == 1)
    scenario.run(Exchange(box=1, cards=list(ann.cards[:2])), ANN)
    scenario.run(BuyCard(box=2), BOB)
    scenario.run(Play(box=1), ANN)
    scenario.run(Play(box=2), BOB)
    scenario.run(RequestDealerExchange(box=1), ANN)
    scenario.run(RequestDealerExchange(box=2), BOB)
    assert scenario.table.round is not None and scenario.table.round.phase == "settled"
    return scenario


@pytest.fixture(scope="module")
def proof() -> RoundProof:
    return proof_from_events("table-1", _table_events(_played_round()), 1)


def test_a_played_round_verifies(proof: RoundProof) -> None:
    assert [(b.box, b.client_seed) for b in proof.boxes] == [
        (1, proof.boxes[0].client_seed),
        (2, "bob's"),
    ]
    assert [d.kind for d in proof.draws] == ["exchange", "sixth_card"]
    assert proof.dealer_replacements
    verdict = check_proof(proof)
    assert verdict.ok, verdict.lines
    seeds = [(b.box, b.client_seed) for b in proof.boxes if b.client_seed]
    assert verdict.deck_key == deck_key(SEED, seeds).hex()
    assert verdict.cards_checked == 15 + 2 + 1 + len(proof.dealer_replacements)
    assert verdict.lines[-1].startswith("VERIFIED")


def _tampered(proof: RoundProof, change: Any) -> str:
    data = msgspec.json.decode(msgspec.json.encode(proof))  # JSON lists, as in a file
    change(data)
    verdict = check_proof(msgspec.convert(data, RoundProof))
    assert not verdict.ok
    assert verdict.mismatch is not None
    return verdict.mismatch


def test_a_seed_that_does_not_hash_to_the_commitment_fails(proof: RoundProof) -> None:
    mismatch = _tampered(proof, lambda d: d.update(server_seed="00" * 32))
    assert mismatch.startswith("commitment: SHA-256 of the server seed is")


def test_a_changed_client_seed_names_the_first_card(proof: RoundProof) -> None:
    def change(data: dict[str, Any]) -> None:
        data["boxes"][1]["client_seed"] = "bob's!"

    # Box 2 plays first (larger ante): its first card is the first one dealt.
    assert _tampered(proof, change).startswith("box 2 dealt card 1: the seeds give ")


def test_a_changed_card_is_named(proof: RoundProof) -> None:
    def dealt(data: dict[str, Any]) -> None:
        cards = data["dealt"][1]["cards"]
        cards[3], cards[4] = cards[4], cards[3]

    assert _tampered(proof, dealt).startswith("box 1 dealt card 4: the seeds give ")

    def exchanged(data: dict[str, Any]) -> None:
        data["draws"][0]["received"][1] = data["dealer"][0]

    assert _tampered(proof, exchanged).startswith("box 1 exchange card 2: the seeds give ")

    def sixth(data: dict[str, Any]) -> None:
        data["draws"][1]["received"] = [data["dealer"][1]]

    assert _tampered(proof, sixth).startswith("box 2 sixth card: the seeds give ")

    def dealer(data: dict[str, Any]) -> None:
        data["dealer_replacements"][0]["card"] = data["dealer"][2]

    assert _tampered(proof, dealer).startswith("dealer replacement 1: the seeds give ")


def test_a_changed_play_order_or_a_lost_draw_fails(proof: RoundProof) -> None:
    def order(data: dict[str, Any]) -> None:
        data["boxes"][0]["ante"] = 500

    assert _tampered(proof, order).startswith("deal order: boxes [1, 2]")

    def lost(data: dict[str, Any]) -> None:
        del data["draws"][0]

    assert _tampered(proof, lost).startswith("box 2 sixth card: the seeds give")


def test_a_round_called_off_before_the_deal_checks_its_commitment() -> None:
    scenario = Scenario(players={"ann": 10_000})
    scenario.sit("ann")
    scenario.open_round()
    scenario.run(PlaceAnte(box=1, ante=100, client_seed="never dealt"), ANN)
    scenario.run(CloseTable(reason="maintenance"), OPERATOR)
    proof = proof_from_events("table-1", _table_events(scenario), 1)
    assert proof.dealt == () and proof.boxes == ()
    verdict = check_proof(proof)
    assert verdict.ok and "no deal" in " ".join(verdict.lines)


def test_a_round_still_in_play_has_no_proof() -> None:
    scenario, _ = _dealt_round("x")
    with pytest.raises(LookupError, match="not settled"):
        proof_from_events("table-1", _table_events(scenario), 1)
    with pytest.raises(LookupError, match="no round 2"):
        proof_from_events("table-1", _table_events(scenario), 2)


def test_discards_set_aside_verify_too() -> None:
    scenario = Scenario(players={"ann": 10_000}, discards_return_to_deck=False)
    scenario.sit("ann")
    scenario.open_round()
    scenario.run(PlaceAnte(box=1, ante=100, client_seed="aside"), ANN)
    (dealt,) = [e for e in scenario.run(Deal(), ANN) if isinstance(e, CardsDealt)]
    scenario.run(Exchange(box=1, cards=list(dealt.hands[0].cards[:3])), ANN)
    scenario.run(Play(box=1), ANN)
    if scenario.table.round is not None and scenario.table.round.phase == "dealer_draw":
        scenario.run(RequestDealerExchange(box=1), ANN)
    proof = proof_from_events("table-1", _table_events(scenario), 1)
    assert proof.discards_return_to_deck is False
    assert check_proof(proof).ok
    # read as if the discards had gone back: the replacements no longer match
    mismatch = _tampered(proof, lambda d: d.update(discards_return_to_deck=True))
    assert mismatch.startswith("box 1 exchange card ")


def test_a_ruleset_changed_after_the_round_opened_is_the_rounds() -> None:
    # The shell opens the next round as soon as one settles, so a change between rounds
    # lands after that round's RoundOpened, while no bet stands: the round plays by it.
    scenario = Scenario(players={"ann": 10_000})
    scenario.sit("ann")
    scenario.open_round()
    assert scenario.table.rules.discards_return_to_deck
    aside = msgspec.structs.replace(scenario.table.rules, discards_return_to_deck=False)
    scenario.run(ChangeRuleset(ruleset=aside, reason="discards set aside"), OPERATOR)
    scenario.run(PlaceAnte(box=1, ante=100), ANN)
    (dealt,) = [e for e in scenario.run(Deal(), ANN) if isinstance(e, CardsDealt)]
    scenario.run(Exchange(box=1, cards=list(dealt.hands[0].cards[:3])), ANN)
    scenario.run(Fold(box=1), ANN)
    proof = proof_from_events("table-1", _table_events(scenario), 1)
    assert proof.discards_return_to_deck is False
    assert check_proof(proof).ok


def test_a_proof_names_the_rules_its_cards_depend_on(proof: RoundProof) -> None:
    assert (proof.ruleset_version, proof.dealer_draw, proof.dealer_redraw_limit) == (1, True, None)
    assert proof.ruleset_fingerprint is not None and len(proof.ruleset_fingerprint) == 16
    assert proof.discards_return_to_deck is True


def test_dealer_replacements_the_rules_do_not_allow_fail(proof: RoundProof) -> None:
    assert proof.dealer_replacements
    mismatch = _tampered(proof, lambda d: d.update(dealer_draw=False))
    assert mismatch == "dealer_replacements: the table has no dealer draw, the round records some"
    free = sum(1 for r in proof.dealer_replacements if r.free)
    if free:
        mismatch = _tampered(proof, lambda d: d.update(dealer_redraw_limit=free - 1))
        assert mismatch.startswith(f"dealer_replacements: {free} free redraw(s)")


def test_the_ruleset_version_follows_changes() -> None:
    scenario = Scenario(players={"ann": 10_000})
    scenario.sit("ann")
    scenario.open_round()
    limited = msgspec.structs.replace(scenario.table.rules, dealer_redraw_limit=2)
    scenario.run(ChangeRuleset(ruleset=limited, reason="two free redraws"), OPERATOR)
    scenario.run(PlaceAnte(box=1, ante=100), ANN)
    scenario.run(Deal(), ANN)
    scenario.run(Fold(box=1), ANN)
    proof = proof_from_events("table-1", _table_events(scenario), 1)
    assert (proof.ruleset_version, proof.dealer_redraw_limit) == (2, 2)
    assert proof.ruleset_fingerprint == limited.fingerprint
    assert check_proof(proof).ok


def test_a_rounds_own_events_give_the_same_proof_as_the_whole_stream(proof: RoundProof) -> None:
    """round_events (one pass over a stream, for bundles of thousands of rounds) keeps what
    a proof needs: the ruleset in force and the round itself."""
    scenario = Scenario(players={"ann": 10_000})
    scenario.sit("ann")
    for number in (1, 2, 3):
        scenario.open_round()
        if number == 2:
            limited = msgspec.structs.replace(scenario.table.rules, dealer_redraw_limit=1)
            scenario.run(ChangeRuleset(ruleset=limited, reason="one redraw"), OPERATOR)
        scenario.run(PlaceAnte(box=1, ante=100), ANN)
        scenario.run(Deal(), ANN)
        scenario.run(Fold(box=1), ANN)
    events = _table_events(scenario)
    by_round = round_events(events)
    assert sorted(by_round) == [1, 2, 3]
    for number in (1, 2, 3):
        whole = proof_from_events("table-1", events, number)
        assert proof_from_events("table-1", by_round[number], number) == whole
    assert proof_from_events("table-1", by_round[3], 3).ruleset_version == 2
