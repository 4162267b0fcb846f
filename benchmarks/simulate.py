"""Rounds per second of Caribbean Stud (``oasis``, no draws) through each engine.

    PYTHONPATH=. .venv/bin/python benchmarks/simulate.py [--rounds 20000000] [--runs 5]

One light box per round, strategy ``pair-or-better`` (``raise-all`` too for the vectorised
engine), the same rules everywhere:

- ``core``: ``decide``/``evolve`` with real commands and events (``tests/simulation/core``),
  one process;
- ``per-round engine``: ``engine.play_round`` on card ints, one process;
- ``vectorised, 1 process``: ``runner.play_chunk`` on batches of 2**18 rounds;
- ``vectorised, N processes``: the whole ``simulate`` command path on every core (wall
  clock, pool start-up included), what ``russian-poker simulate`` does.

Medians of ``--runs`` runs. One-process figures are per CPU second of this process
(``time.process_time``), so other load on the machine does not count; the all-core figure
can only be wall clock, so it shows the load: the script prints the load average.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import statistics
import time
from collections.abc import Callable

import numpy as np

from russian_poker.service.rules.presets import make_ruleset
from russian_poker.service.tools.simulation.engine import UniformReinserter, play_round
from russian_poker.service.tools.simulation.game import compile_game
from russian_poker.service.tools.simulation.runner import (
    VECTOR_CHUNK,
    Plan,
    default_workers,
    play_chunk,
    simulate,
)
from russian_poker.service.tools.simulation.strategies import make_strategy
from tests.simulation.core import CoreTable, seed_of


def _median(
    runs: int, rounds: int, work: Callable[[int], None], clock: Callable[[], float]
) -> float:
    rates = []
    for run in range(runs):
        started = clock()
        work(run)
        rates.append(rounds / max(clock() - started, 1e-9))
    return statistics.median(rates)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rounds", type=float, default=2e7, help="rounds of the all-core runs")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    rules = make_ruleset("oasis")
    game = compile_game(rules)
    strategy = make_strategy("pair-or-better")
    cpu = time.process_time
    results: dict[str, float] = {}

    core_rounds = 200
    table = CoreTable(rules)

    def core(run: int) -> None:
        for i in range(core_rounds):
            table.play(seed_of(f"bench/{run}", i), strategy, game)

    results["core (decide/evolve), 1 process"] = _median(args.runs, core_rounds, core, cpu)

    engine_rounds = 50_000
    rng = np.random.default_rng(1)
    decks = rng.permuted(np.tile(np.arange(52, dtype=np.int8), (engine_rounds, 1)), axis=1)
    deck_lists = decks.tolist()
    uniforms = rng.random((engine_rounds, 5)).tolist()

    def engine(run: int) -> None:
        for deck, u in zip(deck_lists, uniforms, strict=True):
            play_round(deck, strategy, game, UniformReinserter(u))

    results["per-round engine, 1 process"] = _median(args.runs, engine_rounds, engine, cpu)

    for name in ("pair-or-better", "raise-all"):
        plan = Plan(rules=rules, strategy=name, rounds=VECTOR_CHUNK, seed=1)
        play_chunk(plan, 0, VECTOR_CHUNK)  # build the tables first

        def vector(run: int, plan: Plan = plan) -> None:
            for i in range(4):
                play_chunk(plan, 4 * run + i, VECTOR_CHUNK)

        label = f"vectorised, 1 process ({name})"
        results[label] = _median(args.runs, 4 * VECTOR_CHUNK, vector, cpu)

    workers = default_workers()
    for name in ("pair-or-better", "raise-all"):
        rounds = int(args.rounds)
        plan = Plan(rules=rules, strategy=name, rounds=rounds, seed=2, workers=workers)

        def everything(run: int, plan: Plan = plan) -> None:
            simulate(dataclasses.replace(plan, seed=run))

        label = f"vectorised, {workers} processes ({name}, wall clock)"
        results[label] = _median(args.runs, rounds, everything, time.perf_counter)

    load = os.getloadavg()
    print(f"Caribbean Stud rounds per second, median of {args.runs} runs")
    print(f"(load average {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} on {os.cpu_count()} CPUs)")
    base = results["core (decide/evolve), 1 process"]
    for label, rate in results.items():
        print(f"  {label:<52} {rate:>14,.0f}   {rate / base:>9,.0f}x core")


if __name__ == "__main__":
    main()
