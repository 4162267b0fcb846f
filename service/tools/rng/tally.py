"""The counts the tests need, reduced from a batch and summed over batches.

Everything the report computes is a function of these sums, so workers send back a few
kilobytes per batch, never the shuffles themselves.
"""

from __future__ import annotations

import dataclasses
from typing import Final

import numpy as np
import numpy.typing as npt

from russian_poker.service.tools.rng.generate import CARDS, DEALT, EXCHANGE_MAX, Batch

__all__ = ["GAP_CELLS", "SUIT", "Tally", "empty", "merged", "tally"]

SUIT: Final = 13  # FULL_DECK lists the suits one after the other, 13 cards each
GAP_CELLS: Final = 25  # same-suit distances 1..24, and 25 or more pooled
_PLACES: Final = CARDS - DEALT + EXCHANGE_MAX  # at most 47 places for a reinserted discard
_MAX_REDONE: Final = 20

Counts = npt.NDArray[np.int64]


@dataclasses.dataclass(frozen=True, kw_only=True)
class Tally:
    """Sums over ``shuffles`` shuffles (card indices in ``FULL_DECK`` order)."""

    shuffles: int
    positions: Counts  # [card, position]
    pairs: Counts  # [a, b]: card a immediately followed by card b
    runs: Counts  # [r]: decks with r ascending runs (1..52)
    serial_sum: int  # Σ over decks of Σ_p card_p · card_(p+1)
    serial_squares: int  # Σ over decks of that per-deck sum squared
    across_sum: int  # Σ (2 top_k - 51)(2 top_(k+1) - 51) over consecutive shuffles
    across_pairs: int
    gaps: Counts  # [cell]: same-suit distances, summed over decks
    gap_outer: Counts  # Σ over decks of the per-deck distance histogram's outer product
    replacements: Counts  # [k - 1, slot, card]: the slot-th card received exchanging k
    reinserted: Counts  # [m, position]: where the m-th discard went back in
    redone: int  # shuffles with a rejected word, redone by the production code
    redone_examples: tuple[int, ...]  # the first few of their shuffle indices


def empty() -> Tally:
    """No shuffles yet."""
    zeros = np.zeros
    return Tally(
        shuffles=0,
        positions=zeros((CARDS, CARDS), np.int64),
        pairs=zeros((CARDS, CARDS), np.int64),
        runs=zeros(CARDS + 1, np.int64),
        serial_sum=0,
        serial_squares=0,
        across_sum=0,
        across_pairs=0,
        gaps=zeros(GAP_CELLS, np.int64),
        gap_outer=zeros((GAP_CELLS, GAP_CELLS), np.int64),
        replacements=zeros((EXCHANGE_MAX, EXCHANGE_MAX, CARDS), np.int64),
        reinserted=zeros((EXCHANGE_MAX, _PLACES), np.int64),
        redone=0,
        redone_examples=(),
    )


def _histogram(flat: npt.NDArray[np.int64], cells: int) -> Counts:
    return np.bincount(flat.ravel(), minlength=cells).astype(np.int64)


def tally(batch: Batch, start: int) -> Tally:
    """The counts of one batch whose first shuffle has index ``start``."""
    perms = batch.perms.astype(np.int64)
    rows = perms.shape[0]
    position = np.broadcast_to(np.arange(CARDS), perms.shape)
    runs = 1 + (perms[:, 1:] < perms[:, :-1]).sum(axis=1)
    serial = (perms[:, 1:] * perms[:, :-1]).sum(axis=1)
    top = 2 * perms[:, 0] - (CARDS - 1)
    # where each card lies, then the distances between consecutive cards of each suit
    where = np.empty_like(perms)
    where[np.arange(rows)[:, None], perms] = position
    by_suit = np.sort(where.reshape(rows, CARDS // SUIT, SUIT), axis=2)
    distance = np.minimum(np.diff(by_suit, axis=2), GAP_CELLS).reshape(rows, -1) - 1
    cell = np.arange(rows)[:, None] * GAP_CELLS + distance
    per_deck = _histogram(cell, rows * GAP_CELLS).reshape(rows, GAP_CELLS)
    received = np.zeros((EXCHANGE_MAX, EXCHANGE_MAX, CARDS), np.int64)
    reinserted = np.zeros((EXCHANGE_MAX, _PLACES), np.int64)
    for m in range(EXCHANGE_MAX):
        placed = batch.positions[:, m]
        reinserted[m] = _histogram(placed[placed >= 0], _PLACES)
        k = batch.discards == m + 1
        for slot in range(m + 1):
            received[m, slot] = _histogram(batch.replacements[k, slot], CARDS)
    return Tally(
        shuffles=rows,
        positions=_histogram(perms * CARDS + position, CARDS * CARDS).reshape(CARDS, CARDS),
        pairs=_histogram(perms[:, :-1] * CARDS + perms[:, 1:], CARDS * CARDS).reshape(CARDS, CARDS),
        runs=_histogram(runs, CARDS + 1),
        serial_sum=int(serial.sum()),
        serial_squares=int((serial * serial).sum()),
        across_sum=int((top[:-1] * top[1:]).sum()),
        across_pairs=max(rows - 1, 0),
        gaps=per_deck.sum(axis=0),
        gap_outer=per_deck.T @ per_deck,
        replacements=received,
        reinserted=reinserted,
        redone=len(batch.redone),
        redone_examples=tuple(start + r for r in batch.redone[:_MAX_REDONE]),
    )


def merged(a: Tally, b: Tally) -> Tally:
    """The sums of two tallies."""
    return Tally(
        shuffles=a.shuffles + b.shuffles,
        positions=a.positions + b.positions,
        pairs=a.pairs + b.pairs,
        runs=a.runs + b.runs,
        serial_sum=a.serial_sum + b.serial_sum,
        serial_squares=a.serial_squares + b.serial_squares,
        across_sum=a.across_sum + b.across_sum,
        across_pairs=a.across_pairs + b.across_pairs,
        gaps=a.gaps + b.gaps,
        gap_outer=a.gap_outer + b.gap_outer,
        replacements=a.replacements + b.replacements,
        reinserted=a.reinserted + b.reinserted,
        redone=a.redone + b.redone,
        redone_examples=tuple(sorted(a.redone_examples + b.redone_examples))[:_MAX_REDONE],
    )
