"""The production shuffle for a whole batch of seeds at once, bit for bit.

:func:`service.rules.deck.shuffled` reads 32-bit big-endian words of the stream
HMAC-SHA256(seed, block index as 8 bytes big-endian) and runs Fisher–Yates from the top
position down, with rejection of the biased tail of each word. Without a rejection a shuffle
reads exactly 51 words (7 blocks hold 56), and an exchange's reinsertions read the next ones.
So a batch computes 7 HMAC blocks per seed (hashlib, one call per block: unavoidable), views
them as a ``(rows, 56)`` word matrix and does every Fisher–Yates step for all rows with numpy.
A row where any word it reads lies in a rejected tail (about 1.5 in 10⁷ shuffles) is redone
with the production functions themselves, so every row is exactly what the game would deal.

The exchange simulated per shuffle is the game's (docs/rules.md §5, ``decisions.exchange``): five
cards to the player and five to the dealer dealt alternately (the player gets positions 0, 2,
4, 6, 8), the player discards his first ``k`` cards in that order, each goes back into the
undealt deck at a position drawn from the stream (:meth:`Deck.reinsert`), and the top ``k``
cards are the replacements.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Sequence
from typing import Final

import msgspec
import numpy as np
import numpy.typing as npt

from russian_poker.service.rules.cards import FULL_DECK
from russian_poker.service.rules.deck import SEED_BYTES, shuffled

__all__ = [
    "BLOCKS",
    "CARDS",
    "DEALT",
    "EXCHANGE_MAX",
    "SHUFFLE_BOUNDS",
    "Batch",
    "derived_seed",
    "exchange",
    "exchange_counts",
    "Ints",
    "fisher_yates",
    "limits",
    "production_batch",
    "production_row",
    "random_seeds",
    "seeds",
    "stream_words",
]

CARDS: Final = 52
BLOCKS: Final = 7  # 56 words: 51 for the shuffle, 5 for the largest exchange
DEALT: Final = 10  # one box and the dealer, five cards each
EXCHANGE_MAX: Final = 5
_PLAYER: Final = tuple(range(0, DEALT, 2))
_SPACE: Final = 1 << 32
# Step t of Fisher–Yates (i = 51 - t) draws j uniform in [0, i + 1): these are the bounds n.
SHUFFLE_BOUNDS: Final = np.arange(CARDS, 1, -1, dtype=np.int64)
_INDEX: Final = {card: i for i, card in enumerate(FULL_DECK)}
_SEED_LABEL: Final = b"russian-poker rng-report shuffle "

Words = npt.NDArray[np.uint32]
Ints = npt.NDArray[np.int64]


class Batch(msgspec.Struct, frozen=True, kw_only=True):
    """Shuffles as card indices (``FULL_DECK`` order) and their simulated exchanges."""

    perms: npt.NDArray[np.int8]  # (rows, 52): the deck top first
    discards: Ints  # (rows,): k, the number of cards exchanged
    replacements: Ints  # (rows, 5): the cards received, -1 past k
    positions: Ints  # (rows, 5): where discard m went back in, -1 past k
    redone: tuple[int, ...] = ()  # rows with a rejected word, recomputed by the production code


def limits(bounds: Ints) -> Ints:
    """The rejection limit of each bound: a word at or above it is redrawn (``deck._below``)."""
    return _SPACE - _SPACE % bounds


def derived_seed(label: str, index: int) -> bytes:
    """Shuffle ``index``'s seed under ``--seed label``: HMAC-SHA256(key = label as UTF-8,
    message = ``"russian-poker rng-report shuffle "`` + index as 8 bytes big-endian)."""
    return hmac.digest(label.encode(), _SEED_LABEL + index.to_bytes(8, "big"), "sha256")


def random_seeds(count: int) -> list[bytes]:
    """Fresh seeds from the OS's CSPRNG, the production source (``deck.new_seed``), read in one
    call and cut into 32-byte seeds."""
    raw = secrets.token_bytes(SEED_BYTES * count)
    return [raw[i : i + SEED_BYTES] for i in range(0, len(raw), SEED_BYTES)]


def seeds(start: int, count: int, label: str | None) -> list[bytes]:
    """Seeds of shuffles ``start .. start + count - 1``: derived when labelled, else fresh."""
    if label is None:
        return random_seeds(count)
    return [derived_seed(label, k) for k in range(start, start + count)]


def stream_words(batch: Sequence[bytes], blocks: int = BLOCKS) -> Words:
    """The first ``8 * blocks`` words of each seed's stream, as a ``(rows, 8 * blocks)``
    matrix: word w is bytes 4w..4w+3 of the concatenated blocks, big-endian (``deck._word``)."""
    counters = [b.to_bytes(8, "big") for b in range(blocks)]
    raw = b"".join(hmac.digest(seed, c, "sha256") for seed in batch for c in counters)
    return np.frombuffer(raw, dtype=">u4").reshape(len(batch), 8 * blocks).astype(np.uint32)


def fisher_yates(draws: Ints) -> npt.NDArray[np.int8]:
    """Fisher–Yates for every row: step t swaps position ``51 - t`` with ``draws[:, t]``."""
    rows = draws.shape[0]
    perms = np.tile(np.arange(CARDS, dtype=np.int8), (rows, 1))
    every = np.arange(rows)
    for t in range(CARDS - 1):
        i = CARDS - 1 - t
        j = draws[:, t]
        top = perms[:, i].copy()
        perms[:, i] = perms[every, j]
        perms[every, j] = top
    return perms


def exchange(
    perms: npt.NDArray[np.int8], words: Words, discards: Ints
) -> tuple[Ints, Ints, npt.NDArray[np.bool_]]:
    """Replacements, reinsertion positions and the rows whose words hit a rejected tail.

    Only the top five cards of the undealt deck can be received, so a five-card window is
    tracked: a discard put back at position p < 5 enters it and pushes the rest down."""
    rows = perms.shape[0]
    hand = perms[:, _PLAYER].astype(np.int64)
    window = perms[:, DEALT : DEALT + EXCHANGE_MAX].astype(np.int64)
    positions = np.full((rows, EXCHANGE_MAX), -1, dtype=np.int64)
    rejected = np.zeros(rows, dtype=np.bool_)
    column = np.arange(EXCHANGE_MAX)[None, :]
    for m in range(EXCHANGE_MAX):
        bound = CARDS - DEALT + m + 1  # the deck holds 42 + m cards: 43 + m places
        word = words[:, CARDS - 1 + m].astype(np.int64)
        active = discards > m
        rejected |= active & (word >= _SPACE - _SPACE % bound)
        place = (word % bound)[:, None]
        pushed = np.concatenate([window[:, :1], window[:, :-1]], axis=1)
        entered = np.where(
            column < place, window, np.where(column == place, hand[:, m : m + 1], pushed)
        )
        window = np.where(active[:, None], entered, window)
        positions[:, m] = np.where(active, place[:, 0], -1)
    replacements = np.where(column < discards[:, None], window, -1)
    return replacements, positions, rejected


def exchange_counts(start: int, count: int) -> Ints:
    """How many cards shuffle k exchanges: ``1 + k % 5``, so each of 1..5 is equally common."""
    return 1 + np.arange(start, start + count, dtype=np.int64) % EXCHANGE_MAX


def production_row(seed: bytes, discards: int) -> tuple[list[int], list[int], list[int]]:
    """One shuffle and exchange by the production code itself: the deck, the replacements and
    the reinsertion positions (recovered from the final deck, last discard first)."""
    deck = shuffled(seed)
    perm = [_INDEX[c] for c in deck.cards]
    _, undealt = deck.draw(DEALT)
    thrown = [deck.cards[p] for p in _PLAYER[:discards]]
    refilled = undealt.reinsert(thrown)
    received, _ = refilled.draw(discards)
    remaining = list(refilled.cards)
    places: list[int] = []
    for card in reversed(thrown):
        places.append(remaining.index(card))
        remaining.remove(card)
    return perm, [_INDEX[c] for c in received], places[::-1]


def production_batch(batch: Sequence[bytes], discards: Ints) -> Batch:
    """The production shuffle and exchange of every seed, vectorised, exactly."""
    words = stream_words(batch)
    wide = words.astype(np.int64)
    steps = wide[:, : CARDS - 1]
    draws = steps % SHUFFLE_BOUNDS
    perms = fisher_yates(draws)
    replacements, positions, rejected = exchange(perms, words, discards)
    rejected |= (steps >= limits(SHUFFLE_BOUNDS)).any(axis=1)
    redone = tuple(int(r) for r in np.flatnonzero(rejected))
    for r in redone:
        k = int(discards[r])
        perm, received, places = production_row(batch[r], k)
        perms[r] = perm
        replacements[r] = received + [-1] * (EXCHANGE_MAX - k)
        positions[r] = places + [-1] * (EXCHANGE_MAX - k)
    return Batch(
        perms=perms,
        discards=discards,
        replacements=replacements,
        positions=positions,
        redone=redone,
    )
