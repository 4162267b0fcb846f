"""Two deliberately broken shuffles, for showing that the report catches real mistakes.

Both read the same HMAC stream as production and share its exchange; only the draws of the
Fisher–Yates steps differ:

* ``sattolo``: the off-by-one, j drawn from ``[0, i)`` instead of ``[0, i]`` (Sattolo's
  algorithm): a card never stays where it was, every permutation is one 52-cycle.
* ``mod8``: each j is an 8-bit word (one stream byte) reduced modulo ``i + 1`` with no
  rejection, so small remainders are up to 25 % more likely than the rest.

Their rare rejected-tail rows are left as they come (no redo): their bias is what matters.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Literal

import numpy as np

from russian_poker.service.tools.rng.generate import (
    CARDS,
    SHUFFLE_BOUNDS,
    Batch,
    Ints,
    exchange,
    fisher_yates,
    production_batch,
    stream_words,
)

__all__ = ["VARIANTS", "Variant", "batch"]

Variant = Literal["production", "sattolo", "mod8"]
VARIANTS: Final[tuple[Variant, ...]] = ("production", "sattolo", "mod8")


def batch(variant: Variant, seeds: Sequence[bytes], discards: Ints) -> Batch:
    """The shuffles and exchanges of ``seeds`` by ``variant``."""
    if variant == "production":
        return production_batch(seeds, discards)
    words = stream_words(seeds)
    if variant == "sattolo":
        draws = words[:, : CARDS - 1].astype(np.int64) % (SHUFFLE_BOUNDS - 1)
    else:
        octets = words.astype(">u4").view(np.uint8).reshape(len(seeds), -1)
        draws = octets[:, : CARDS - 1].astype(np.int64) % SHUFFLE_BOUNDS
    perms = fisher_yates(draws)
    replacements, positions, _ = exchange(perms, words, discards)
    return Batch(perms=perms, discards=discards, replacements=replacements, positions=positions)
