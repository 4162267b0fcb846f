"""Cards in the text notation of docs/rules.md §1: rank ``23456789TJQKA`` + suit ``shdc``."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

__all__ = [
    "FULL_DECK",
    "RANKS",
    "SUITS",
    "Card",
    "CardError",
    "format_cards",
    "parse_card",
    "parse_cards",
    "rank_of",
    "suit_of",
]

Card = str
"""A card as its two-character text, e.g. ``"As"``; the canonical form everywhere outside
the evaluator's internals, so events, views and logs need no conversion."""

RANKS: Final = "23456789TJQKA"
SUITS: Final = "shdc"
FULL_DECK: Final[tuple[Card, ...]] = tuple(r + s for s in SUITS for r in RANKS)

_RANK_VALUE: Final = {r: i + 2 for i, r in enumerate(RANKS)}
_SUIT_ALIASES: Final = {"♠": "s", "♥": "h", "♦": "d", "♣": "c"}
_CARD_SET: Final = frozenset(FULL_DECK)


class CardError(ValueError):
    """A text that is not a card, or a hand that repeats a card."""


def parse_card(text: str) -> Card:
    """Parse one card, accepting ``10`` for ``T``, any letter case and suit symbols."""
    raw = text.strip()
    if raw[:2] == "10":
        raw = "T" + raw[2:]
    if len(raw) != 2:
        raise CardError(f"not a card: {text!r} (expected rank 23456789TJQKA + suit shdc)")
    rank, suit = raw[0].upper(), _SUIT_ALIASES.get(raw[1], raw[1].lower())
    card = rank + suit
    if card not in _CARD_SET:
        raise CardError(f"not a card: {text!r} (expected rank 23456789TJQKA + suit shdc)")
    return card


def parse_cards(text: str | Iterable[str], *, distinct: bool = True) -> tuple[Card, ...]:
    """Parse cards separated by spaces or commas (or an iterable of card texts)."""
    parts = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    cards = tuple(parse_card(part) for part in parts)
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
