"""The theoretical RTP of a ruleset, to set beside the actual one.

Two wagers, two figures:

- **main** (ante, Bet, insurance, draw fees): the simulator's RTP of the ``basic`` strategy
  (``service/tools/simulation/basic.py``, the strategy docs/game-math.md documents). The main
  game's return depends on how the players play, so this is the return of sound play, not a
  promise: players who fold good hands return less. For the presets the figure is the
  published 2 × 10⁷-round simulation of docs/game-math.md (:data:`PRESET_MAIN`); for any
  other ruleset it is simulated on first use (:data:`SIMULATED_ROUNDS` rounds, seed
  :data:`SIMULATION_SEED`, about 20 s on one core) in a worker process, and kept.
- **bonus**: exact, by enumerating the 2,598,960 five-card hands (no strategy involved,
  about a second), for every ruleset.

Figures are cached per ruleset fingerprint for the life of the process; the fingerprint
names the ruleset and paytable exactly, so a cached figure never goes stale.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass
from fractions import Fraction
from typing import Final

import numpy as np

from russian_poker.events.ruleset import Ruleset
from russian_poker.service.rules.presets import PRESETS

__all__ = [
    "PRESET_MAIN",
    "SIMULATED_ROUNDS",
    "SIMULATION_SEED",
    "Theory",
    "TheoryCache",
    "bonus_rtp",
    "compute",
]

SIMULATED_ROUNDS: Final = 200_000
SIMULATION_SEED: Final = 2026


@dataclass(frozen=True)
class MainFigure:
    rtp: float
    ci95: tuple[float, float]
    rounds: int
    source: str


PRESET_MAIN: Final[dict[str, MainFigure]] = {
    # docs/game-math.md, "Every preset and strategy": russian-poker simulate --strategy basic
    # --rounds 2e7 --seed 2026; RTP = 1 - element of risk, its 95 % CI likewise.
    "oasis": MainFigure(0.99167, (0.99118, 0.99217), 20_000_000, "docs/game-math.md"),
    "russian": MainFigure(0.96106, (0.96055, 0.96158), 20_000_000, "docs/game-math.md"),
    "russian-online": MainFigure(0.95340, (0.95291, 0.95389), 20_000_000, "docs/game-math.md"),
}


@dataclass(frozen=True)
class Theory:
    """A ruleset's theoretical figures."""

    fingerprint: str
    main_rtp: float
    main_ci95: tuple[float, float]
    main_rounds: int
    main_source: str
    """Where the main figure comes from: a document, or ``simulated``."""
    bonus_rtp: Fraction | None
    """Exact; None when the ruleset offers no bonus."""


def bonus_rtp(rules: Ruleset) -> Fraction | None:
    """The bonus bet's exact return on the first five cards (as ``exact.bonus_figures``,
    for any ruleset rather than a preset name)."""
    from russian_poker.service.tools.simulation import lookup
    from russian_poker.service.tools.simulation.exact import HANDS, all_hands
    from russian_poker.service.tools.simulation.game import compile_game

    game = compile_game(rules)
    stake = game.bonus
    if not stake:
        return None
    values = lookup.strengths(all_hands())
    distinct = np.unique(values)
    multiples = np.array([game.bonus_multiple(int(v)) for v in distinct])
    per_hand = multiples[np.searchsorted(distinct, values)]
    won = np.array([game.cap(stake * int(m)) for m in range(int(per_hand.max()) + 1)])
    # A winning hand gets its stake back besides the winnings; a losing one loses it.
    net = np.where(per_hand > 0, won[per_hand], -stake)
    return 1 + Fraction(int(net.sum(dtype=np.int64)), HANDS * stake)


def _preset_of(rules: Ruleset) -> str | None:
    for name, preset in PRESETS.items():
        if preset == rules:
            return name
    return None


def compute(rules: Ruleset, rounds: int = SIMULATED_ROUNDS) -> Theory:
    """The figures of ``rules`` (blocking: run it in a worker process)."""
    preset = _preset_of(rules)
    bonus = bonus_rtp(rules) if rules.bonus_enabled else None
    if preset is not None and preset in PRESET_MAIN:
        main = PRESET_MAIN[preset]
    else:
        from russian_poker.service.tools.simulation.runner import Plan, simulate
        from russian_poker.service.tools.simulation.stats import summarise

        plan = Plan(rules=rules, strategy="basic", rounds=rounds, seed=SIMULATION_SEED)
        summary = summarise(simulate(plan), ante=rules.ante_min, bonus=0)
        low, high = summary["rtp_ci95"]
        main = MainFigure(float(summary["rtp"]), (float(low), float(high)), rounds, "simulated")
    return Theory(
        fingerprint=rules.fingerprint,
        main_rtp=main.rtp,
        main_ci95=main.ci95,
        main_rounds=main.rounds,
        main_source=main.source,
        bonus_rtp=bonus,
    )


class TheoryCache:
    """Theoretical figures per fingerprint, computed once each, off the event loop."""

    def __init__(self, executor: Executor | None = None, rounds: int = SIMULATED_ROUNDS) -> None:
        self._executor = executor
        self._rounds = rounds
        self._known: dict[str, Theory] = {}
        self._pending: dict[str, asyncio.Future[Theory]] = {}

    def known(self, fingerprint: str) -> Theory | None:
        """The figures if they are ready (never waits)."""
        return self._known.get(fingerprint)

    def request(self, rules: Ruleset) -> None:
        """Start computing ``rules``' figures if nobody has (the result lands in the cache)."""
        fingerprint = rules.fingerprint
        if fingerprint in self._known or fingerprint in self._pending:
            return
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(self._executor_(), compute, rules, self._rounds)
        self._pending[fingerprint] = future

        def landed(done: asyncio.Future[Theory]) -> None:
            self._pending.pop(fingerprint, None)
            if not done.cancelled() and done.exception() is None:
                self._known[fingerprint] = done.result()

        future.add_done_callback(landed)

    async def get(self, rules: Ruleset) -> Theory:
        """The figures, waiting for them if need be."""
        found = self._known.get(rules.fingerprint)
        if found is not None:
            return found
        self.request(rules)
        pending = self._pending.get(rules.fingerprint)
        if pending is None:  # computed between the two looks
            return self._known[rules.fingerprint]
        return await asyncio.shield(pending)

    def _executor_(self) -> Executor:
        if self._executor is None:
            # One process: the simulation is pure Python and numpy; in a thread it would hold
            # the GIL against the event loop serving requests.
            # Spawned (a child of this process, not of a forkserver) and told to end with
            # it: a service killed with SIGKILL left its forkserver's idle worker behind,
            # one interpreter with numpy loaded per kill, for good.
            self._executor = ProcessPoolExecutor(
                max_workers=1,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_end_with_parent,
            )
        return self._executor

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)


def _end_with_parent() -> None:
    """In the simulation's worker: receive SIGTERM when the service process dies, however
    it dies (Linux ``PR_SET_PDEATHSIG``; elsewhere the worker ends at the pool's shutdown)."""
    import ctypes
    import signal
    import sys

    if not sys.platform.startswith("linux"):
        return
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(1, int(signal.SIGTERM))  # 1: PR_SET_PDEATHSIG
