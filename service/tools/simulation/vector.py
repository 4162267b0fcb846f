"""Whole batches of rounds at once: the vectorised path for play-or-fold strategies.

A strategy that only plays or folds on its first five cards (``Strategy.threshold``: no
draw, no insurance, the ante win taken when the dealer has no game) needs just the top ten
cards of each round's deck. So a batch is dealt as a ``(10, N)`` array, evaluated with
``lookup`` and settled with array arithmetic: no Python per round. The money rules are
the same as ``engine.play_round`` (and the core's): ``tests/simulation`` plays the core's
own decks through both.
"""

from __future__ import annotations

from typing import Final, NamedTuple

import numpy as np
import numpy.typing as npt

from russian_poker.service.rules.hands import Category
from russian_poker.service.tools.simulation import lookup
from russian_poker.service.tools.simulation.game import THREE_ACES_RANK, TOP_RANK_SHIFT, Game

__all__ = ["Batch", "deal", "play_batch"]

_BITS: Final = np.left_shift(np.uint64(1), np.arange(52, dtype=np.uint64))
_FOLDED, _WON, _TIED, _LOST, _NO_GAME = range(5)

Int64s = npt.NDArray[np.int64]


class Batch(NamedTuple):
    """Per-round results of a batch, as ``engine.RoundResult`` fields (money in minor units)."""

    net: Int64s
    wagered: Int64s
    outcome: Int64s
    category: Int64s
    dealer_category: Int64s
    bonus_net: Int64s
    capped: Int64s


def deal(rng: np.random.Generator, rounds: int, cards: int = 10) -> npt.NDArray[np.uint8]:
    """The top ``cards`` cards of ``rounds`` uniformly shuffled decks, as ``(cards, rounds)``.

    Row ``i`` is each deck's ``i``-th card: drawn uniformly from the 52 and redrawn while it
    is one of the cards above it — uniform over the cards left, like Fisher–Yates, but with
    no ``(rounds, 52)`` deck to shuffle. Redraws are rare (at most 9 in 52 for ten cards).
    """
    out = np.empty((cards, rounds), dtype=np.uint8)
    used = np.zeros(rounds, dtype=np.uint64)
    for i in range(cards):
        card = rng.integers(0, 52, size=rounds, dtype=np.uint8)
        bit = _BITS[card]
        again = np.flatnonzero(used & bit)
        while again.size:
            redrawn = rng.integers(0, 52, size=again.size, dtype=np.uint8)
            card[again] = redrawn
            bit[again] = _BITS[redrawn]
            again = again[(used[again] & bit[again]) != 0]
        used |= bit
        out[i] = card
    return out


def play_batch(top: npt.NDArray[np.integer], threshold: int, game: Game) -> Batch:
    """Settle one light box per round that plays iff its strength is at least ``threshold``.

    ``top`` is ``(10, N)``: each round's top ten cards, dealt one at a time to the box and
    the dealer (box: rows 0, 2, 4, 6, 8; dealer: 1, 3, 5, 7, 9; the dealer's upcard is
    row 9). Money as ``payouts.main_settlement`` with no draw, no insurance and the ante
    win taken when the dealer has no game.
    """
    rules = game.rules
    ante = game.ante
    bet = 2 * ante
    cards = [top[i].astype(np.intp) for i in range(10)]
    player_index = lookup.indexes5(*cards[0:10:2])
    player = lookup.STRENGTH5[player_index]
    dealer = lookup.STRENGTH5[lookup.indexes5(*cards[1:10:2])]

    qualifies = dealer >= lookup.AK_MIN
    # won 1, tied 2, lost 3 from the sign of the comparison; folded 0; dealer no game 4.
    outcome = np.where(
        player >= threshold,
        np.where(qualifies, 2 - np.sign(player - dealer), _NO_GAME),
        _FOLDED,
    ).astype(np.int64)
    # Stakes come back on a win, a tie and against no game, so net = what is won or lost.
    by_outcome = np.array([-ante, 0, 0, -(ante + bet), game.cap(ante)], dtype=np.int64)
    net = by_outcome[outcome]
    capped = np.zeros_like(net)
    if game.cap(ante) < ante:
        capped[outcome == _NO_GAME] = ante - game.cap(ante)
    wins = np.flatnonzero(outcome == _WON)
    won = bet * game.multipliers5[player_index[wins]]
    if rules.ante_pays_on_win:
        won += ante
    limit = rules.max_payout
    paid = won if limit is None else np.minimum(won, limit)
    net[wins] = paid
    capped[wins] = won - paid
    wagered = np.where(outcome == _FOLDED, ante, ante + bet).astype(np.int64)

    category = (player >> lookup.CATEGORY_SHIFT).astype(np.int64)
    if game.bonus:
        multiple = np.array(game.bonus_multiples, dtype=np.int64)[category]
        if game.three_aces:
            top_rank = (player >> TOP_RANK_SHIFT) & 0xF
            not_aces = (category == Category.THREE_OF_A_KIND) & (top_rank != THREE_ACES_RANK)
            multiple[not_aces] = 0
        winnings = game.bonus * multiple
        if limit is not None:
            winnings = np.minimum(winnings, limit)
        bonus_net = np.where(multiple > 0, winnings, -game.bonus).astype(np.int64)
    else:
        bonus_net = np.zeros_like(net)
    return Batch(
        net=net,
        wagered=wagered,
        outcome=outcome,
        category=category,
        dealer_category=(dealer >> lookup.CATEGORY_SHIFT).astype(np.int64),
        bonus_net=bonus_net,
        capped=capped,
    )
