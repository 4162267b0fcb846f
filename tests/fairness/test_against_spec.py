"""The rules engine against the independent implementation of docs/fairness.md, on random
server seeds, client seeds, antes and exchanges (Hypothesis): every dealt card, every
replacement, and the revealed seed."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from russian_poker.events.commands import Actor, Deal, Exchange, Fold, PlaceAnte, SitDown
from russian_poker.events.game import CardsDealt, CardsExchanged, RoundSettled
from tests.fairness import spec
from tests.rules.scenario import Scenario

PRINTABLE = st.characters(min_codepoint=0x20, max_codepoint=0x7E)
BOXES = st.dictionaries(
    st.integers(1, 4),
    st.tuples(
        st.sampled_from([100, 200, 300]), st.none() | st.text(PRINTABLE, min_size=1, max_size=64)
    ),
    min_size=1,
)


@settings(max_examples=60, deadline=None)
@given(
    server_seed=st.binary(min_size=32, max_size=32),
    boxes=BOXES,
    discards=st.integers(1, 5),
    returned=st.booleans(),
)
def test_the_engine_deals_what_the_document_says(
    server_seed: bytes, boxes: dict[int, tuple[int, str | None]], discards: int, returned: bool
) -> None:
    players = {box: Actor(role="player", id=f"p{box}") for box in boxes}
    scenario = Scenario(
        players={a.id: 1_000_000 for a in players.values()}, discards_return_to_deck=returned
    )
    for box in sorted(boxes):
        scenario.run(SitDown(seat=box), players[box])
    scenario.open_round(seed=server_seed)
    for box, (ante, client_seed) in boxes.items():
        scenario.run(PlaceAnte(box=box, ante=ante, client_seed=client_seed), players[box])
    events = [e for box in sorted(boxes) for e in scenario.run(Deal(), players[box])]
    (dealt,) = [e for e in events if isinstance(e, CardsDealt)]

    seeds = {box: s for box, (_, s) in boxes.items() if s is not None}
    deck, stream = spec.shuffle(spec.deck_key(server_seed, seeds))
    hands, dealer, order = spec.deal(deck, {box: ante for box, (ante, _) in boxes.items()})
    assert [(h.box, list(h.cards)) for h in dealt.hands] == [(b, hands[b]) for b in order]
    assert list(dealt.dealer_cards) == dealer

    first = order[0]
    given_back = hands[first][:discards]
    (swapped,) = [
        e
        for e in scenario.run(Exchange(box=first, cards=given_back), players[first])
        if isinstance(e, CardsExchanged)
    ]
    _, received = spec.exchange(deck, stream, given_back, returned=returned)
    assert list(swapped.received) == received

    settled = [e for box in order for e in scenario.run(Fold(box=box), players[box])]
    (reveal,) = [e for e in settled if isinstance(e, RoundSettled)]
    assert reveal.seed == server_seed
    assert reveal.commitment == spec.commitment(server_seed)
