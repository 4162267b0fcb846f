"""docs/fairness.md re-implemented from its text alone, sharing no code with the service.

Only the standard library: if the service's deck code and this page ever disagree, the vector
tests say which field. Kept deliberately plain (a third party's first attempt would look like
this), so it is the document, not the code, that these tests check the code against.
"""

from __future__ import annotations

import hashlib
import hmac

__all__ = [
    "UNSHUFFLED",
    "commitment",
    "deal",
    "deck_key",
    "deck_key_message",
    "exchange",
    "shuffle",
    "Stream",
]

# "Suits in the order s h d c; within a suit, ranks 2 3 4 5 6 7 8 9 T J Q K A."
UNSHUFFLED = [rank + suit for suit in "shdc" for rank in "23456789TJQKA"]


def commitment(server_seed: bytes) -> str:
    return hashlib.sha256(server_seed).hexdigest()


def deck_key_message(seeds: dict[int, str]) -> bytes:
    message = b"russian-poker/deck/v1"
    for box in sorted(seeds):
        raw = seeds[box].encode("ascii")
        message += bytes([box]) + bytes([len(raw)]) + raw
    return message


def deck_key(server_seed: bytes, seeds: dict[int, str]) -> bytes:
    if not seeds:
        return server_seed
    return hmac.new(server_seed, deck_key_message(seeds), hashlib.sha256).digest()


class Stream:
    """Word i: bytes 4*(i % 8) .. +4 of HMAC-SHA256(key, (i // 8) as 8 bytes big-endian)."""

    def __init__(self, key: bytes) -> None:
        self.key = key
        self.cursor = 0

    def word(self) -> int:
        block = hmac.new(self.key, (self.cursor // 8).to_bytes(8, "big"), hashlib.sha256).digest()
        offset = 4 * (self.cursor % 8)
        self.cursor += 1
        return int.from_bytes(block[offset : offset + 4], "big")

    def below(self, n: int) -> int:
        """Uniform in [0, n): reject words >= 2**32 - (2**32 mod n), then take the rest mod n."""
        limit = 2**32 - (2**32 % n)
        while True:
            w = self.word()
            if w < limit:
                return w % n


def shuffle(key: bytes) -> tuple[list[str], Stream]:
    cards = list(UNSHUFFLED)
    stream = Stream(key)
    for i in range(51, 0, -1):
        j = stream.below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards, stream


def deal(
    deck: list[str], antes: dict[int, int]
) -> tuple[dict[int, list[str]], list[str], list[int]]:
    """Each box's five cards, the dealer's, and the play order; ``deck`` loses the cards."""
    order = sorted(antes, key=lambda box: (-antes[box], box))
    seats = len(order) + 1
    top = [deck.pop(0) for _ in range(5 * seats)]
    hands = {box: top[k::seats] for k, box in enumerate(order)}
    return hands, top[len(order) :: seats], order


def exchange(
    deck: list[str], stream: Stream, discards: list[str], returned: bool = True
) -> tuple[list[int], list[str]]:
    """Put the discards back (positions drawn in [0, len + 1)), then draw as many."""
    positions = []
    if returned:
        for card in discards:
            position = stream.below(len(deck) + 1)
            deck.insert(position, card)
            positions.append(position)
    received = [deck.pop(0) for _ in discards]
    return positions, received
