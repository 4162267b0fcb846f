"""The verdict at 99 % confidence, and the report as Markdown and JSON.

Decision rule (Bonferroni over every primary statistic): with m primary statistics, one fails
when its p-value is below 0.01 / m; a family fails when one of its statistics fails; the
report passes when no family fails. Whatever the dependence between the statistics, a perfect
shuffle then fails the report with probability at most 1 %, so a real one passes at 99 %
confidence and a run does not flake. The per-line and per-cell p-values behind the "worst"
statistics are in the JSON and the histogram, not counted again.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final

import msgspec

from russian_poker.service.tools.rng.stats import Statistic, Tests
from russian_poker.service.tools.rng.tally import Tally

__all__ = ["ALPHA", "Meta", "Verdict", "decide", "write_json", "write_markdown"]

ALPHA: Final = 0.01


class Meta(msgspec.Struct, frozen=True, kw_only=True):
    """How the report was made."""

    shuffles: int
    seed: str | None  # the --seed label, or None for fresh seeds from secrets.token_bytes
    variant: str
    workers: int
    wall_s: float
    command: str
    created: str  # ISO 8601 UTC
    software: dict[str, str]


class Verdict(msgspec.Struct, frozen=True, kw_only=True):
    """Every statistic with its pass mark, each family's and the overall verdict."""

    threshold: float
    passed: bool
    families: dict[str, bool]
    failed: tuple[bool, ...]  # per statistic, in Tests.statistics order


def decide(tests: Tests, alpha: float = ALPHA) -> Verdict:
    """The report's verdict by the rule above."""
    threshold = alpha / len(tests.statistics)
    failed = tuple(s.p_value < threshold for s in tests.statistics)
    families: dict[str, bool] = {}
    for s, bad in zip(tests.statistics, failed, strict=True):
        families[s.family] = families.get(s.family, True) and not bad
    return Verdict(
        threshold=threshold, passed=all(families.values()), families=families, failed=failed
    )


def _statistic(s: Statistic, failed: bool) -> dict[str, Any]:
    return {**msgspec.to_builtins(s), "passed": not failed}


def write_json(path: Path, meta: Meta, tally: Tally, tests: Tests, verdict: Verdict) -> None:
    """Everything: how it was run, each statistic and p-value, the verdict, the raw counts of
    the small tables (the 52 × 52 tables are in the figures, not repeated here)."""
    document = {
        "meta": msgspec.to_builtins(meta),
        "rate_per_s": meta.shuffles / meta.wall_s if meta.wall_s > 0 else None,
        "decision_rule": __doc__.split("\n\n")[1].replace("\n", " ") if __doc__ else "",
        "alpha": ALPHA,
        "threshold": verdict.threshold,
        "passed": verdict.passed,
        "families": verdict.families,
        "statistics": [
            _statistic(s, f) for s, f in zip(tests.statistics, verdict.failed, strict=True)
        ],
        "line_p_values": {k: [round(p, 6) for p in v] for k, v in tests.line_p_values.items()},
        "redone_shuffles": {"count": tally.redone, "first_indices": list(tally.redone_examples)},
        "counts": {
            "runs": tally.runs.tolist(),
            "gaps": tally.gaps.tolist(),
            "reinserted": tally.reinserted.tolist(),
        },
    }
    path.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n")


def _number(x: float | None) -> str:
    if x is None:
        return "–"
    if x != 0 and (abs(x) < 1e-3 or abs(x) >= 1e6):
        return f"{x:.3e}"
    return f"{x:.4f}" if abs(x) < 10 else f"{x:.1f}"


def write_markdown(path: Path, meta: Meta, tally: Tally, tests: Tests, verdict: Verdict) -> None:
    """The human-readable report: the verdict first, then every statistic."""
    rate = meta.shuffles / meta.wall_s if meta.wall_s > 0 else 0.0
    seed = (
        f"`--seed {meta.seed}` (derived per shuffle)"
        if meta.seed
        else "fresh, from `secrets.token_bytes`"
    )
    lines = [
        "# RNG certification report",
        "",
        f"**Verdict: {'PASS' if verdict.passed else 'FAIL'}** at 99 % confidence "
        f"(family-wise: a statistic fails below p = 0.01 / {len(tests.statistics)} = "
        f"{verdict.threshold:.2e}).",
        "",
        f"- Shuffles: {meta.shuffles:,} ({meta.variant}); seeds: {seed}",
        f"- Command: `{meta.command}`",
        f"- Wall time: {meta.wall_s:,.1f} s on {meta.workers} worker processes, "
        f"{rate:,.0f} shuffles/s",
        f"- Rows redone by the production code (a rejected word): {tally.redone}"
        + (f" (shuffles {', '.join(map(str, tally.redone_examples))})" if tally.redone else ""),
        f"- Created {meta.created}; " + ", ".join(f"{k} {v}" for k, v in meta.software.items()),
        "",
        "| family | verdict |",
        "|---|---|",
        *(f"| {f} | {'pass' if ok else '**FAIL**'} |" for f, ok in verdict.families.items()),
        "",
        "| family | statistic | test | value | df | p-value | |",
        "|---|---|---|---:|---:|---:|---|",
    ]
    for s, failed in zip(tests.statistics, verdict.failed, strict=True):
        lines.append(
            f"| {s.family} | {s.name} | {s.test} | {_number(s.statistic)} | {_number(s.df)} | "
            f"{_number(s.p_value) if s.p_value > 0 else '< 1e-300'} | "
            f"{'**FAIL**' if failed else 'pass'} |"
        )
    lines += [
        "",
        "'worst' rows give the smallest of several p-values as the value and its Bonferroni-"
        "adjusted p-value. Figures: `positions.png` (each card's frequency at each position, "
        "1 = expected), `p_values.png` (the per-cell and per-line p-values, uniform for a fair "
        "shuffle). Method: docs/rng.md.",
        "",
    ]
    path.write_text("\n".join(lines))
