"""Cards in the text notation of docs/rules.md §1: rank ``23456789TJQKA`` + suit ``shdc``.

The grammar is strict: ``As`` is a card, ``AS``, ``as``, ``10s``, ``A♠`` and `` As`` are not.
One exception, :func:`parse_recorded_cards`, reads what exchanges recorded before 0.2.0 may
name (``10h``, any case, suit symbols) so that replaying them decides them as they were."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Final

__all__ = [
    "FULL_DECK",
    "RANKS",
    "SUITS",
    "Card",
    "CardError",
    "format_cards",
    "CARD_GRAMMAR",
    "parse_card",
    "parse_cards",
    "parse_recorded_cards",
    "rank_of",
    "suit_of",
]

Card = str
"""A card as its two-character text, e.g. ``"As"``; the canonical form everywhere outside
the evaluator's internals, so events, views and logs need no conversion."""

RANKS: Final = "23456789TJQKA"
SUITS: Final = "shdc"
FULL_DECK: Final[tuple[Card, ...]] = tuple(r + s for s in SUITS for r in RANKS)

CARD_GRAMMAR: Final = "a card is a rank of 23456789TJQKA then a suit of shdc, e.g. As, Td, 2c"

_RANK_VALUE: Final = {r: i + 2 for i, r in enumerate(RANKS)}
_SUIT_ALIASES: Final = {"♠": "s", "♥": "h", "♦": "d", "♣": "c"}
_CARD_SET: Final = frozenset(FULL_DECK)


class CardError(ValueError):
    """A text that is not a card, or a hand that repeats a card."""


def parse_card(text: str) -> Card:
    """One card, exactly as the grammar spells it."""
    if text not in _CARD_SET:
        raise CardError(f"not a card: {text[:20]!r}; {CARD_GRAMMAR}")
    return text


def _recorded_card(text: str) -> Card:
    raw = text.strip()
    if raw[:2] == "10":
        raw = "T" + raw[2:]
    if len(raw) != 2:
        raise CardError(f"not a card: {text[:20]!r}; {CARD_GRAMMAR}")
    return parse_card(raw[0].upper() + _SUIT_ALIASES.get(raw[1], raw[1].lower()))


def parse_cards(text: str | Iterable[str], *, distinct: bool = True) -> tuple[Card, ...]:
    """Cards separated by spaces or commas (or an iterable of card texts), each exactly as
    the grammar spells it."""
    return _parsed(text, parse_card, distinct=distinct)


def parse_recorded_cards(cards: Iterable[str]) -> tuple[Card, ...]:
    """Cards as an exchange recorded before 0.2.0 may name them: ``10`` for ``T``, any
    letter case, suit symbols. Only the rules read these, so that a replay decides a recorded
    command as it was decided; the API refuses them (service.app.controllers.commands)."""
    return _parsed(cards, _recorded_card, distinct=True)


def _parsed(
    text: str | Iterable[str], card: Callable[[str], Card], *, distinct: bool
) -> tuple[Card, ...]:
    parts = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    cards = tuple(card(part) for part in parts)
    if distinct and len(set(cards)) != len(cards):
        repeated = sorted({c for c in cards if cards.count(c) > 1})
        raise CardError(f"card repeated: {' '.join(repeated)}")
    return cards


def format_cards(cards: Sequence[Card]) -> str:
    """The hand as space-separated text, e.g. ``"As Kd Th 9c 2s"``."""
    return " ".join(cards)


def rank_of(card: Card) -> int:
    """Rank value 2..14 (ace high)."""
    return _RANK_VALUE[card[0]]


def suit_of(card: Card) -> str:
    """Suit letter, one of ``shdc``."""
    return card[1]
