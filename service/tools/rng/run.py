"""Shuffles spread over every core in batches, their tallies summed, progress on stderr."""

from __future__ import annotations

import multiprocessing
import os
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Final

from russian_poker.service.tools.rng.biased import Variant, batch
from russian_poker.service.tools.rng.generate import exchange_counts, seeds
from russian_poker.service.tools.rng.tally import Tally, empty, merged, tally

__all__ = ["BATCH", "Progress", "run", "run_batch", "stderr_progress"]

BATCH: Final = 10_000  # shuffles per task: about 0.2 s of work, a few kB of counts back

Progress = Callable[[int, int, float], None]


def run_batch(variant: Variant, label: str | None, start: int, count: int) -> Tally:
    """The tally of shuffles ``start .. start + count - 1`` (a worker's task)."""
    return tally(batch(variant, seeds(start, count, label), exchange_counts(start, count)), start)


def stderr_progress(done: int, total: int, elapsed: float) -> None:
    """One self-overwriting line: shuffles done, rate and the time left."""
    rate = done / elapsed if elapsed > 0 else 0.0
    left = (total - done) / rate if rate > 0 else 0.0
    end = "\n" if done == total else ""
    print(
        f"\rrng-report: {done:,}/{total:,} shuffles, {rate:,.0f}/s, {left:,.0f} s left",
        end=end,
        file=sys.stderr,
        flush=True,
    )


def run(
    shuffles: int,
    *,
    label: str | None,
    variant: Variant = "production",
    workers: int | None = None,
    progress: Progress | None = None,
) -> Tally:
    """The tally of ``shuffles`` shuffles, on ``workers`` processes (default: every core).

    Shuffle k's seed depends only on (label, k), so the result does not depend on the number
    of workers or the order batches finish in."""
    workers = workers or os.cpu_count() or 1
    starts = range(0, shuffles, BATCH)
    total = empty()
    began = time.perf_counter()

    def add(part: Tally) -> None:
        nonlocal total
        total = merged(total, part)
        if progress is not None:
            progress(total.shuffles, shuffles, time.perf_counter() - began)

    if workers == 1:
        for start in starts:
            add(run_batch(variant, label, start, min(BATCH, shuffles - start)))
        return total
    # spawn, not fork: the caller may be a threaded server or test runner
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        futures = [
            pool.submit(run_batch, variant, label, start, min(BATCH, shuffles - start))
            for start in starts
        ]
        for future in as_completed(futures):
            add(future.result())
    return total
