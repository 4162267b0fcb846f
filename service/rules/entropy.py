"""Player entropy (docs/rules.md §8, ``player_seeds``): the deck key from the server seed and the
players' client seeds.

A client seed is 1..64 printable ASCII characters (0x20..0x7E, space included), used
byte for byte as sent: no trimming, no normalisation. At the deal, if any box has a client
seed, the round's deck is shuffled again from the *deck key*::

    deck_key = HMAC-SHA256(key = server seed,
                           msg = "russian-poker/deck/v1"
                                 || for each box with a client seed, in box-number order:
                                    box number (1 byte) || seed length (1 byte) || seed (ASCII))

Every field after the fixed domain tag is length-prefixed, so two different lists of
(box, seed) give two different messages; HMAC under the secret server seed makes the key
unpredictable to the players, and the players' seeds, sent after the commitment, keep the
house from choosing the deck alone. With no client seed the deck key *is* the server seed,
so such a round is the plain server-seed shuffle. ``docs/fairness.md`` specifies all of it
with test vectors.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable
from typing import Final

from russian_poker.service.rules.deck import Deck, shuffled
from russian_poker.service.rules.state import Round

__all__ = [
    "CLIENT_SEED_MAX",
    "DECK_DOMAIN",
    "client_seed_problem",
    "client_seeds",
    "deck_key",
    "deck_key_message",
    "dealing_deck",
]

DECK_DOMAIN: Final = b"russian-poker/deck/v1"
"""The domain tag that starts the deck-key message (ASCII, 21 bytes, no terminator)."""
CLIENT_SEED_MAX: Final = 64
_PRINTABLE: Final = frozenset(range(0x20, 0x7F))
_MAX_BOX: Final = 255


def client_seed_problem(text: str) -> str | None:
    """Why ``text`` is not a client seed, or ``None`` if it is one."""
    if not 1 <= len(text) <= CLIENT_SEED_MAX:
        return f"a client seed is 1..{CLIENT_SEED_MAX} characters, got {len(text)}"
    if any(ord(c) not in _PRINTABLE for c in text):
        return "a client seed is printable ASCII only (0x20..0x7E, space included)"
    return None


def deck_key_message(seeds: Iterable[tuple[int, str]]) -> bytes:
    """The HMAC message: the domain tag, then each (box, seed) in box-number order."""
    message = bytearray(DECK_DOMAIN)
    previous = 0
    for box, seed in sorted(seeds):
        problem = client_seed_problem(seed)
        if problem is not None:
            raise ValueError(problem)
        if not previous < box <= _MAX_BOX:
            raise ValueError(f"boxes are distinct numbers 1..{_MAX_BOX}, got {box}")
        previous = box
        raw = seed.encode("ascii")
        message += bytes((box, len(raw))) + raw
    return bytes(message)


def deck_key(server_seed: bytes, seeds: Iterable[tuple[int, str]]) -> bytes:
    """The key the round's deck is shuffled from: the server seed itself without client
    seeds, else HMAC-SHA256 of :func:`deck_key_message` under the server seed."""
    listed = list(seeds)
    if not listed:
        return server_seed
    return hmac.new(server_seed, deck_key_message(listed), hashlib.sha256).digest()


def client_seeds(current: Round) -> tuple[tuple[int, str], ...]:
    """The round's (box, client seed) pairs, in box-number order (cancelled boxes are gone)."""
    return tuple((b.number, b.client_seed) for b in current.boxes if b.client_seed is not None)


def dealing_deck(current: Round) -> Deck:
    """The deck the deal takes its cards from. ``decide`` and ``evolve`` both call this, so
    they agree. A test-mode stacked deck keeps its scripted order whatever the seeds."""
    seeds = client_seeds(current)
    if current.scripted or not seeds:
        return current.deck
    return shuffled(deck_key(current.seed, seeds))
