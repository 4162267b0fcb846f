"""One report end to end: run the shuffles, test them, write report.md, report.json, PNGs."""

from __future__ import annotations

import datetime
import os
import platform
import time
from pathlib import Path

import numpy as np
import scipy

from russian_poker.service.tools.rng.biased import Variant
from russian_poker.service.tools.rng.plots import heat_map, p_value_histogram
from russian_poker.service.tools.rng.report import Meta, Verdict, decide, write_json, write_markdown
from russian_poker.service.tools.rng.run import Progress, run
from russian_poker.service.tools.rng.stats import Tests, run_tests
from russian_poker.service.tools.rng.tally import Tally

__all__ = ["certify"]


def certify(
    shuffles: int,
    *,
    seed: str | None,
    out: Path | None,
    variant: Variant = "production",
    workers: int | None = None,
    progress: Progress | None = None,
    command: str = "",
) -> tuple[Verdict, Tests, Tally]:
    """Run and test ``shuffles`` shuffles; write the report into ``out`` unless it is None."""
    workers = workers or os.cpu_count() or 1
    began = time.perf_counter()
    tally = run(shuffles, label=seed, variant=variant, workers=workers, progress=progress)
    wall = time.perf_counter() - began  # the shuffles and their counts, not the tests
    tests = run_tests(tally)
    verdict = decide(tests)
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        meta = Meta(
            shuffles=shuffles,
            seed=seed,
            variant=variant,
            workers=workers,
            wall_s=round(wall, 2),
            command=command,
            created=datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
            software={
                "python": platform.python_version(),
                "numpy": np.__version__,
                "scipy": scipy.__version__,
                "cpus": str(os.cpu_count()),
            },
        )
        write_json(out / "report.json", meta, tally, tests, verdict)
        write_markdown(out / "report.md", meta, tally, tests, verdict)
        heat_map(out / "positions.png", tally)
        p_value_histogram(out / "p_values.png", tests)
    return verdict, tests, tally
