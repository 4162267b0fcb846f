"""Player entropy in the rules core (docs/rules.md §8, ``player_seeds``): the deck key, the deal
from
it, the reveal of the server seed, and the refusals."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from russian_poker.events.codec import Event
from russian_poker.events.commands import (
    CancelBets,
    Deal,
    Exchange,
    Fold,
    PlaceAnte,
    RepeatBets,
    StackDeck,
)
from russian_poker.events.game import AntePlaced, CardsDealt, CardsExchanged, RoundSettled
from russian_poker.projections.views import Viewer, table_view
from russian_poker.service.rules.deck import Deck, commitment, shuffled, stacked
from russian_poker.service.rules.entropy import (
    CLIENT_SEED_MAX,
    client_seed_problem,
    dealing_deck,
    deck_key,
    deck_key_message,
)
from tests.rules.rounds import ANN, BOB, refused
from tests.rules.scenario import OPERATOR, SEED, Scenario, deck_for

PRINTABLE = st.characters(min_codepoint=0x20, max_codepoint=0x7E)
CLIENT_SEED = st.text(PRINTABLE, min_size=1, max_size=CLIENT_SEED_MAX)
SEED_LISTS = st.dictionaries(st.integers(1, 10), CLIENT_SEED, max_size=4)
SERVER_SEEDS = st.binary(min_size=32, max_size=32)


@given(SEED_LISTS, SEED_LISTS)
def test_different_seed_lists_make_different_messages(a: dict[int, str], b: dict[int, str]) -> None:
    # Length-prefixed fields after a fixed tag: the message is injective, so different lists
    # of (box, seed) can only share a deck key by an HMAC-SHA256 collision.
    if a != b:
        assert deck_key_message(a.items()) != deck_key_message(b.items())


@given(SERVER_SEEDS, SEED_LISTS, SEED_LISTS)
def test_different_seed_lists_make_different_keys(
    server: bytes, a: dict[int, str], b: dict[int, str]
) -> None:
    if a != b:
        assert deck_key(server, a.items()) != deck_key(server, b.items())


@given(SERVER_SEEDS, st.dictionaries(st.integers(1, 10), CLIENT_SEED, min_size=1, max_size=4))
def test_the_key_depends_on_the_server_seed_and_on_nothing_but_box_order(
    server: bytes, seeds: dict[int, str]
) -> None:
    key = deck_key(server, seeds.items())
    assert key != server and len(key) == 32
    assert deck_key(server, reversed(list(seeds.items()))) == key
    other = hashlib.sha256(server).digest()
    assert deck_key(other, seeds.items()) != key


@given(SERVER_SEEDS)
def test_without_client_seeds_the_key_is_the_server_seed(server: bytes) -> None:
    assert deck_key(server, []) == server


@given(CLIENT_SEED)
def test_every_printable_seed_of_1_to_64_characters_is_accepted(seed: str) -> None:
    assert client_seed_problem(seed) is None


@pytest.mark.parametrize(
    "seed", ["", "x" * 65, "caf\u00e9", "tab\there", "new\nline", "\x7f", "\u263a"]
)
def test_other_texts_are_refused(seed: str) -> None:
    assert client_seed_problem(seed) is not None


def _dealt(events: list[Event]) -> CardsDealt:
    (dealt,) = [e for e in events if isinstance(e, CardsDealt)]
    return dealt


def _betting(**overrides: object) -> Scenario:
    scenario = Scenario(players={"ann": 10_000, "bob": 10_000}, **overrides)
    scenario.sit("ann", "bob")
    scenario.open_round()
    return scenario


def test_a_round_with_client_seeds_is_dealt_from_the_deck_key() -> None:
    scenario = _betting()
    scenario.run(PlaceAnte(box=1, ante=100, client_seed="ann's seed"), ANN)
    scenario.run(PlaceAnte(box=2, ante=200, client_seed="bob"), BOB)
    scenario.run(Deal(), ANN)
    dealt = _dealt(scenario.run(Deal(), BOB))
    key = deck_key(SEED, [(1, "ann's seed"), (2, "bob")])
    deck = shuffled(key).cards
    # Box 2 (larger ante) is first in play order; one card at a time, the dealer last.
    assert [h.box for h in dealt.hands] == [2, 1]
    assert dealt.hands[0].cards == deck[0:15:3] and dealt.hands[1].cards == deck[1:15:3]
    assert dealt.dealer_cards == deck[2:15:3]
    assert deck[:15] != shuffled(SEED).cards[:15]
    # evolve agrees with decide: the table rebuilt from the events alone holds the same deck.
    assert scenario.replayed() == scenario.table
    assert scenario.table.round is not None
    assert scenario.table.round.deck.cards == deck[15:]


def test_without_client_seeds_the_round_is_the_plain_shuffle() -> None:
    scenario = _betting()
    scenario.run(PlaceAnte(box=1, ante=100), ANN)
    assert scenario.table.round is not None
    assert dealing_deck(scenario.table.round) == shuffled(SEED)
    dealt = _dealt(scenario.run(Deal(), ANN))
    assert dealt.hands[0].cards == shuffled(SEED).cards[0:10:2]


def test_a_cancelled_box_takes_its_seed_with_it() -> None:
    scenario = _betting()
    scenario.run(PlaceAnte(box=1, ante=100), ANN)
    scenario.run(PlaceAnte(box=2, ante=100, client_seed="gone"), BOB)
    scenario.run(CancelBets(), BOB)
    assert scenario.table.round is not None
    assert dealing_deck(scenario.table.round) == shuffled(SEED)


def test_the_reveal_is_the_server_seed_not_the_deck_key() -> None:
    scenario = _betting()
    scenario.run(PlaceAnte(box=1, ante=100, client_seed="reveal me"), ANN)
    scenario.run(Deal(), ANN)
    settled = scenario.run(Fold(box=1), ANN)
    (reveal,) = [e for e in settled if isinstance(e, RoundSettled)]
    assert reveal.seed == SEED
    assert reveal.commitment == commitment(SEED) == hashlib.sha256(reveal.seed).hexdigest()
    assert scenario.table.round is not None
    view = table_view(scenario.table, 1, Viewer(role="observer"))
    assert view.round is not None and view.round.seed == SEED.hex()


def test_client_seeds_are_public_at_once() -> None:
    scenario = _betting()
    scenario.run(PlaceAnte(box=1, ante=100, client_seed="everyone sees this"), ANN)
    observer = table_view(scenario.table, 1, Viewer(role="observer"))
    assert observer.round is not None
    assert [b.client_seed for b in observer.round.boxes] == ["everyone sees this"]


def test_a_stacked_deck_keeps_its_order_whatever_the_seeds() -> None:
    scenario = Scenario(players={"ann": 10_000})
    scenario.sit("ann")
    scripted = deck_for(["8h 8c 8d 5s Jc"], "Ah Kc 9d 7s 4c")
    scenario.open_round(deck=scripted)
    scenario.run(PlaceAnte(box=1, ante=100, client_seed="ignored in test mode"), ANN)
    dealt = _dealt(scenario.run(Deal(), ANN))
    assert dealt.hands[0].cards == ("8h", "8c", "8d", "5s", "Jc")
    # and a deck stacked after the seed was placed too
    scenario = _betting()
    scenario.run(PlaceAnte(box=1, ante=100, client_seed="s"), ANN)
    scenario.run(StackDeck(deck=scripted), OPERATOR)
    dealt = _dealt(scenario.run(Deal(), ANN))
    assert dealt.hands[0].cards == ("8h", "8c", "8d", "5s", "Jc")


def _repeated(client_seed: str | None) -> list[tuple[int, str | None]]:
    scenario = _betting()
    scenario.run(PlaceAnte(box=1, ante=100, client_seed="first"), ANN)
    scenario.run(PlaceAnte(box=2, ante=100, client_seed="second"), ANN)
    scenario.run(Deal(), ANN)
    scenario.run(Fold(box=1), ANN)
    scenario.run(Fold(box=2), ANN)
    scenario.open_round(seed=bytes(32))
    placed = scenario.run(RepeatBets(client_seed=client_seed), ANN)
    return [(e.box, e.client_seed) for e in placed if isinstance(e, AntePlaced)]


def test_repeat_bets_places_its_own_seed_with_every_box_and_never_repeats_one() -> None:
    assert _repeated("again") == [(1, "again"), (2, "again")]
    assert _repeated(None) == [(1, None), (2, None)]


def test_refusals() -> None:
    off = _betting(player_seeds=False)
    refused(off, PlaceAnte(box=1, ante=100, client_seed="no"), ANN, "client_seeds_not_accepted")
    off.run(PlaceAnte(box=1, ante=100), ANN)  # without a seed the table plays on
    on = _betting()
    for bad in ("", "x" * 65, "\u00e9t\u00e9"):
        refused(on, PlaceAnte(box=1, ante=100, client_seed=bad), ANN, "invalid_client_seed")


def test_a_stacked_decks_stream_is_the_server_seeds_from_word_zero() -> None:
    """docs/fairness.md §2: with a stacked deck the reinsertion stream is keyed by the server
    seed itself (not the deck key, though a client seed was given) and starts at word 0."""
    scenario = Scenario(players={"ann": 10_000})
    scenario.sit("ann")
    scripted = deck_for(["8h 8c 8d 5s Jc"], "Ah Kc 9d 7s 4c")
    scenario.open_round(deck=scripted)
    scenario.run(PlaceAnte(box=1, ante=100, client_seed="a seed"), ANN)
    scenario.run(Deal(), ANN)
    exchanged = [
        e
        for e in scenario.run(Exchange(box=1, cards=["5s", "Jc"]), ANN)
        if isinstance(e, CardsExchanged)
    ]
    # The deal took the top 10 cards; the stream has read nothing yet.
    undealt = Deck(key=SEED, cards=stacked(SEED, scripted).cards[10:], cursor=0)
    expected, left = undealt.reinsert(("5s", "Jc")).draw(2)
    assert exchanged[0].received == expected
    assert scenario.table.round is not None and scenario.table.round.deck.cards == left.cards
    # Keyed by the deck key, the discards would have gone elsewhere.
    keyed = Deck(key=deck_key(SEED, [(1, "a seed")]), cards=undealt.cards, cursor=0)
    assert keyed.reinsert(("5s", "Jc")).draw(2)[1].cards != left.cards
