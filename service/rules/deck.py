"""The round's deck: derived from a secret key, replayable bit for bit (docs/rules.md §8).

The key — the round's server seed, or at the deal the deck key derived from it and the
players' client seeds (:mod:`service.rules.entropy`) — keys an HMAC-SHA256 byte stream
(block ``i`` = HMAC(key, i as 8 bytes big-endian));
32-bit words of that stream drive Fisher–Yates with rejection sampling, so no position is
favoured (no modulo bias). Discards go back at positions drawn from the same stream. A deck
is an immutable value: every operation returns the new deck, so ``decide`` and ``evolve``
call the same functions and always agree.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import secrets
from collections.abc import Callable, Sequence
from typing import Final

import msgspec

from russian_poker.service.rules.cards import FULL_DECK, Card

__all__ = ["SEED_BYTES", "Deck", "commitment", "new_seed", "shuffled", "stacked"]

SEED_BYTES: Final = 32
_WORD: Final = 4
_WORDS_PER_BLOCK: Final = 32 // _WORD
_SPACE: Final = 1 << 32


def new_seed() -> bytes:
    """A fresh secret seed from the OS's CSPRNG. Only the shell calls this, never the core."""
    return secrets.token_bytes(SEED_BYTES)


def commitment(seed: bytes) -> str:
    """SHA-256 of the seed, hex: published before any bet, checkable after the reveal."""
    return hashlib.sha256(seed).hexdigest()


# One block serves eight words; a shuffle reads about 51 words, so without the cache it would
# compute every block eight times. A memo of a pure function keeps the core pure.
@functools.lru_cache(maxsize=1024)
def _block(key: bytes, number: int) -> bytes:
    return hmac.digest(key, number.to_bytes(8, "big"), "sha256")


def _word(key: bytes, index: int) -> int:
    offset = (index % _WORDS_PER_BLOCK) * _WORD
    return int.from_bytes(_block(key, index // _WORDS_PER_BLOCK)[offset : offset + _WORD], "big")


def _below(
    key: bytes, cursor: int, n: int, word: Callable[[bytes, int], int] = _word
) -> tuple[int, int]:
    """A uniform integer in ``[0, n)`` and the next cursor; rejects the biased tail.

    ``word`` is the stream (a seam for the unit test of the rejection, which feeds it words
    at and above the limit; everything else uses the default)."""
    limit = _SPACE - _SPACE % n
    while True:
        value = word(key, cursor)
        cursor += 1
        if value < limit:
            return value % n, cursor


def shuffled(key: bytes) -> Deck:
    """The full deck, shuffled by Fisher–Yates from the key's stream (a server seed, or a
    deck key: both are 32 bytes)."""
    if len(key) != SEED_BYTES:
        raise ValueError(f"a seed is {SEED_BYTES} bytes")
    cards = list(FULL_DECK)
    cursor = 0
    for i in range(len(cards) - 1, 0, -1):
        j, cursor = _below(key, cursor, i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return Deck(key=key, cards=tuple(cards), cursor=cursor)


def stacked(key: bytes, top: Sequence[Card]) -> Deck:
    """A deck with ``top`` first and the other cards after them in a fixed order: test mode's
    scripted rounds. The seed still drives reinsertion, so those rounds replay too."""
    top = tuple(top)
    if len(set(top)) != len(top) or not set(top) <= set(FULL_DECK):
        raise ValueError("a stacked deck names distinct cards of the 52")
    rest = tuple(c for c in FULL_DECK if c not in set(top))
    return Deck(key=key, cards=top + rest, cursor=0)


class Deck(msgspec.Struct, frozen=True, kw_only=True):
    """The undealt cards, top first, and how far into the key's stream the round has read.

    ``key`` is the stream's key, not necessarily the round's seed: the seed to reveal is
    ``Round.seed`` (with client seeds the deck is keyed by the derived deck key)."""

    key: bytes
    cards: tuple[Card, ...]
    cursor: int

    def draw(self, count: int) -> tuple[tuple[Card, ...], Deck]:
        """The top ``count`` cards and the deck without them."""
        if not 0 <= count <= len(self.cards):
            raise ValueError(f"cannot draw {count} from {len(self.cards)} cards")
        drawn, rest = self.cards[:count], self.cards[count:]
        return drawn, Deck(key=self.key, cards=rest, cursor=self.cursor)

    def reinsert(self, discards: Sequence[Card]) -> Deck:
        """The deck with each discard put back at a random place, in the order given."""
        cards = list(self.cards)
        cursor = self.cursor
        for card in discards:
            position, cursor = _below(self.key, cursor, len(cards) + 1)
            cards.insert(position, card)
        return Deck(key=self.key, cards=tuple(cards), cursor=cursor)
