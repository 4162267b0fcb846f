"""Playing N rounds on every core, reproducibly.

The rounds are cut into chunks of a fixed size (which depends only on the engine, never
on the number of processes). Chunk ``i`` draws all its randomness from
``SeedSequence(seed, spawn_key=(i,))``, so a seed names the same rounds whatever the
machine, and the exact integer tallies of the chunks add up to the same totals in any
order.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import Final

import msgspec
import numpy as np

from russian_poker.events.ruleset import Ruleset
from russian_poker.service.tools.simulation.actions import Strategy
from russian_poker.service.tools.simulation.engine import UniformReinserter, play_round
from russian_poker.service.tools.simulation.game import Game, compile_game
from russian_poker.service.tools.simulation.stats import Tally, tally_arrays, tally_results
from russian_poker.service.tools.simulation.strategies import make_strategy
from russian_poker.service.tools.simulation.vector import deal, play_batch

__all__ = [
    "Meter",
    "Plan",
    "Progress",
    "chunk_size",
    "default_workers",
    "play_chunk",
    "simulate",
    "vectorised",
]

VECTOR_CHUNK: Final = 1 << 18
ROUND_CHUNK: Final = 1 << 11
_DISCARDS_PER_ROUND: Final = 5
"""At most one draw per box, of at most five cards: the reinsertions a round can need."""

Progress = Callable[[int], None]
"""Told how many rounds have been played so far."""


@dataclass(frozen=True)
class Plan:
    rules: Ruleset
    strategy: str
    rounds: int
    seed: int
    ante: int | None = None
    bonus: int | None = None
    workers: int = 1


def default_workers() -> int:
    """Every core this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


_SETUP: dict[bytes, tuple[Game, Strategy]] = {}


def _setup(plan: Plan) -> tuple[Game, Strategy]:
    """The compiled game and the strategy, once per process and plan."""
    key = msgspec.json.encode([plan.rules, plan.strategy, plan.ante, plan.bonus])
    found = _SETUP.get(key)
    if found is None:
        game = compile_game(plan.rules, ante=plan.ante, bonus=plan.bonus)
        found = _SETUP[key] = (game, make_strategy(plan.strategy))
    return found


def vectorised(plan: Plan) -> bool:
    """Whether the plan's strategy runs on the vectorised engine (play or fold only)."""
    _, strategy = _setup(plan)
    return strategy.threshold is not None


def chunk_size(plan: Plan) -> int:
    return VECTOR_CHUNK if vectorised(plan) else ROUND_CHUNK


def play_chunk(plan: Plan, index: int, rounds: int) -> Tally:
    """Play chunk ``index`` of the plan: ``rounds`` rounds from its own seed."""
    game, strategy = _setup(plan)
    rng = np.random.default_rng(np.random.SeedSequence(plan.seed, spawn_key=(index,)))
    threshold = strategy.threshold
    if threshold is not None:
        return tally_arrays(*play_batch(deal(rng, rounds), threshold, game))
    decks = rng.permuted(np.tile(np.arange(52, dtype=np.int8), (rounds, 1)), axis=1).tolist()
    uniforms = rng.random((rounds, _DISCARDS_PER_ROUND)).tolist()
    return tally_results(
        [
            play_round(deck, strategy, game, UniformReinserter(u))
            for deck, u in zip(decks, uniforms, strict=True)
        ]
    )


def _jobs(plan: Plan) -> Iterator[tuple[int, int]]:
    size = chunk_size(plan)
    for index, start in enumerate(range(0, plan.rounds, size)):
        yield index, min(size, plan.rounds - start)


def simulate(plan: Plan, progress: Progress | None = None) -> Tally:
    """Play the plan's rounds on ``plan.workers`` processes; the exact tally."""
    total = Tally()
    _setup(plan)  # build the tables before forking, so workers inherit them
    jobs = list(_jobs(plan))
    if plan.workers <= 1 or len(jobs) <= 1:
        for index, rounds in jobs:
            total.add(play_chunk(plan, index, rounds))
            if progress:
                progress(total.rounds)
        return total
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    with ProcessPoolExecutor(max_workers=plan.workers, mp_context=context) as pool:
        pending: set[Future[Tally]] = set()
        queue = iter(jobs)
        window = 4 * plan.workers  # enough to keep every worker busy, few results in memory
        while True:
            for index, rounds in queue:
                pending.add(pool.submit(play_chunk, plan, index, rounds))
                if len(pending) >= window:
                    break
            if not pending:
                return total
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                total.add(future.result())
            if progress:
                progress(total.rounds)


class Meter:
    """Progress on a stream: rounds done, percentage, speed; at most twice a second."""

    def __init__(self, total: int, write: Callable[[str], object], *, live: bool) -> None:
        self.total = total
        self._write = write
        self._live = live
        self._start = self._last = time.monotonic()

    def __call__(self, done: int) -> None:
        now = time.monotonic()
        if done < self.total and now - self._last < (0.5 if self._live else 5.0):
            return
        self._last = now
        elapsed = max(now - self._start, 1e-9)
        rate = done / elapsed
        left = (self.total - done) / rate if rate else 0.0
        line = (
            f"simulate: {done:,}/{self.total:,} rounds ({100 * done / self.total:.1f}%), "
            f"{rate:,.0f} rounds/s, {left:.0f} s left"
        )
        self._write(("\r" + line) if self._live else line + "\n")
        if self._live and done >= self.total:
            self._write("\n")
