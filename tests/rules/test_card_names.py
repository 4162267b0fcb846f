"""The card grammar (docs/rules.md §1): exactly a rank of 23456789TJQKA then a suit of shdc.
The API takes nothing else; only the rules still read the looser names an exchange recorded
before 0.2.0 may carry, so that its replay decides it as it was decided."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from russian_poker.service.rules.cards import (
    CARD_GRAMMAR,
    FULL_DECK,
    CardError,
    parse_card,
    parse_cards,
    parse_recorded_cards,
)

LOOSE = {"AS": "As", "kh": "Kh", "10h": "Th", "4♦": "4d", "K♠": "Ks", " Qc": "Qc", "jd ": "Jd"}


@given(st.text(max_size=4))
def test_a_card_is_exactly_one_of_the_52_names(text: str) -> None:
    if text in FULL_DECK:
        assert parse_card(text) == text
    else:
        with pytest.raises(CardError) as refused:
            parse_card(text)
        assert CARD_GRAMMAR in str(refused.value)


@pytest.mark.parametrize("loose", sorted(LOOSE))
def test_loose_names_are_refused_with_the_grammar(loose: str) -> None:
    with pytest.raises(CardError, match="a card is a rank of 23456789TJQKA then a suit of shdc"):
        parse_cards([loose])


def test_recorded_exchanges_keep_their_loose_names() -> None:
    assert parse_recorded_cards(list(LOOSE)) == tuple(LOOSE.values())
    with pytest.raises(CardError, match="card repeated: As"):
        parse_recorded_cards(["As", "aS"])
    with pytest.raises(CardError):
        parse_recorded_cards(["1s"])
