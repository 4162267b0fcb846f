"""Hands per second: the simulator's evaluator against phevaluator, eval7 and treys.

    pip install -e '.[bench]'
    PYTHONPATH=. .venv/bin/python benchmarks/evaluator.py [--hands 1000000] [--runs 5]

All evaluators see the same random five- and six-card hands, in the same run, each in the
form it takes (card ints, ``Card`` objects...), converted before the clock starts. Modes:

- ``batch``: the whole array in one call (``lookup.strengths``); the libraries have no
  batch entry point, so their batch is a list comprehension over pre-converted hands;
- ``per hand``: one Python call per hand (our ``lookup.strength5`` / ``strength6``).

Each figure is the median over ``--runs`` runs of hands / CPU second of this process
(``time.process_time``, so other load on the machine does not count against anyone); the
wall-clock rate is printed too. Before timing, every library's ordering of 20,000 random
pairs of hands is checked against ours (equal, better or worse must agree).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from russian_poker.service.rules.cards import FULL_DECK
from russian_poker.service.tools.simulation import lookup

Hands = npt.NDArray[np.int8]


def _rate(work: Callable[[], Any], count: int, runs: int) -> tuple[float, float]:
    """Median hands per CPU second and per wall second."""
    cpu, wall = [], []
    for _ in range(runs):
        started_cpu, started_wall = time.process_time(), time.perf_counter()
        work()
        cpu.append(count / max(time.process_time() - started_cpu, 1e-9))
        wall.append(count / max(time.perf_counter() - started_wall, 1e-9))
    return statistics.median(cpu), statistics.median(wall)


def _ours(hands: Hands) -> dict[str, Callable[[], Any]]:
    rows = hands.tolist()
    one = lookup.strength5 if hands.shape[1] == 5 else None

    def per_hand() -> list[int]:
        if one is not None:
            return [one(*h) for h in rows]
        return [lookup.strength6(h) for h in rows]

    return {"ours batch (numpy)": lambda: lookup.strengths(hands), "ours per hand": per_hand}


def _libraries(hands: Hands) -> dict[str, tuple[Callable[[], Any], Callable[[int], int]]]:
    """name -> (work, strength of hand i as 'higher is better')."""
    found: dict[str, tuple[Callable[[], Any], Callable[[int], int]]] = {}
    size = hands.shape[1]
    texts = [[FULL_DECK[c] for c in h] for h in hands.tolist()]
    try:
        from phevaluator import _pheval  # type: ignore[import-untyped]

        rank_first = {
            r + s: 4 * "23456789TJQKA".index(r) + "cdhs".index(s)
            for r in "23456789TJQKA"
            for s in "shdc"
        }
        ph = [tuple(rank_first[c] for c in h) for h in texts]
        native = _pheval.evaluate_5cards if size == 5 else _pheval.evaluate_6cards
        found["phevaluator"] = (lambda: [native(*h) for h in ph], lambda i: -native(*ph[i]))
    except ImportError:
        print("phevaluator is not installed (pip install -e '.[bench]')")
    try:
        import eval7  # type: ignore[import-untyped]

        e7 = [[eval7.Card(c) for c in h] for h in texts]
        evaluate = eval7.evaluate
        found["eval7"] = (lambda: [evaluate(h) for h in e7], lambda i: evaluate(e7[i]))
    except ImportError:
        print("eval7 is not installed (pip install -e '.[bench]')")
    try:
        import treys  # type: ignore[import-untyped]

        evaluator = treys.Evaluator()
        tr = [[treys.Card.new(c) for c in h] for h in texts]
        score = evaluator._five if size == 5 else evaluator._six
        found["treys"] = (lambda: [score(h) for h in tr], lambda i: -score(tr[i]))
    except ImportError:
        print("treys is not installed (pip install -e '.[bench]')")
    return found


def _agree(
    name: str,
    theirs: Callable[[int], int],
    strengths: npt.NDArray[np.int32],
    rng: np.random.Generator,
) -> None:
    ours: list[int] = strengths.tolist()
    pairs = rng.integers(0, len(ours), size=(20_000, 2))
    for a, b in pairs.tolist():
        mine = (ours[a] > ours[b]) - (ours[a] < ours[b])
        other = (theirs(a) > theirs(b)) - (theirs(a) < theirs(b))
        if mine != other:
            raise SystemExit(f"{name} orders hands {a} and {b} differently")


def bench(size: int, count: int, runs: int, rng: np.random.Generator) -> None:
    decks = rng.permuted(np.tile(np.arange(52, dtype=np.int8), (count, 1)), axis=1)
    hands = np.ascontiguousarray(decks[:, :size])
    print(f"\n{size}-card hands ({count:,}), median of {runs} runs, hands per CPU second (wall):")
    results: dict[str, float] = {}
    for name, work in _ours(hands).items():
        cpu, wall = _rate(work, count, runs)
        results[name] = cpu
        print(f"  {name:<22} {cpu:>14,.0f}  ({wall:,.0f})")
    ours = lookup.strengths(hands)
    for name, (work, strength) in _libraries(hands).items():
        _agree(name, strength, ours, rng)
        cpu, wall = _rate(work, count, runs)
        results[name] = cpu
        print(f"  {name:<22} {cpu:>14,.0f}  ({wall:,.0f})")
    baselines = {k: v for k, v in results.items() if not k.startswith("ours")}
    if baselines:
        fastest = max(baselines, key=baselines.__getitem__)
        for name in ("ours batch (numpy)", "ours per hand"):
            print(f"  {name} / {fastest}: {results[name] / baselines[fastest]:.1f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    for size in (5, 6):
        bench(size, args.hands, args.runs, rng)


if __name__ == "__main__":
    main()
