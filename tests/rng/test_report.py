"""The report catches deliberately biased shuffles and passes the production one."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from russian_poker.service.cli import main
from russian_poker.service.tools.rng.certify import certify

SMALL = 10_000


@pytest.mark.parametrize(
    ("variant", "failing"),
    [
        # a 52-cycle: no card ever stays in place, the card × position table is far off
        ("sattolo", {"positions", "exchange"}),
        # small remainders favoured by up to 25 %: positions, cards and cells far off
        ("mod8", {"positions"}),
    ],
)
def test_a_biased_shuffle_fails_the_report(variant: str, failing: set[str]) -> None:
    verdict, tests, _ = certify(SMALL, seed="tests/biased", out=None, variant=variant, workers=1)  # type: ignore[arg-type]
    assert not verdict.passed
    failed = {f for f, ok in verdict.families.items() if not ok}
    assert failing <= failed
    table = next(s for s in tests.statistics if s.name.startswith("card × position"))
    assert table.p_value < 1e-20


def test_the_production_shuffle_passes_at_small_n() -> None:
    verdict, tests, tally = certify(SMALL, seed="tests/biased", out=None, workers=1)
    assert verdict.passed, [(s.name, s.p_value) for s in tests.statistics]
    assert tally.shuffles == SMALL and len(tests.statistics) == 15


def test_the_command_writes_the_report(tmp_path: Path) -> None:
    out = tmp_path / "report"
    result = CliRunner().invoke(
        main,
        ["rng-report", "--shuffles", "4000", "--seed", "cli", "--out", str(out), "--workers", "2"],
    )
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("PASS")
    document = json.loads((out / "report.json").read_text())
    assert document["passed"] is True and document["meta"]["shuffles"] == 4000
    assert {s["family"] for s in document["statistics"]} == {
        "positions",
        "pairs",
        "runs",
        "serial",
        "gaps",
        "exchange",
    }
    assert all(0 <= s["p_value"] <= 1 and "df" in s for s in document["statistics"])
    assert "**Verdict: PASS**" in (out / "report.md").read_text()
    for png in ("positions.png", "p_values.png"):
        assert (out / png).read_bytes().startswith(b"\x89PNG")


def test_the_command_exits_1_when_the_shuffle_fails(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main,
        [
            "rng-report",
            "--shuffles",
            "4000",
            "--seed",
            "cli",
            "--out",
            str(tmp_path),
            "--workers",
            "1",
            "--variant",
            "sattolo",
        ],
    )
    assert result.exit_code == 1 and result.stdout.startswith("FAIL")


@pytest.mark.slow
def test_the_production_shuffle_passes_at_a_million_shuffles() -> None:
    began = time.perf_counter()
    verdict, tests, tally = certify(1_000_000, seed="tests/million", out=None)
    assert verdict.passed, [(s.name, s.p_value) for s in tests.statistics]
    assert tally.shuffles == 1_000_000
    print(f"10⁶ shuffles in {time.perf_counter() - began:.1f} s")
