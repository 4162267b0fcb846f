"""``russian-poker simulate``: options, the JSON line, progress on stderr, reproducibility."""

from __future__ import annotations

import json
from typing import Any

from click.testing import CliRunner

from russian_poker.service.cli import main


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["simulate", *args])
    return result.exit_code, result.stdout, result.stderr


def last_json(stdout: str) -> dict[str, Any]:
    value: dict[str, Any] = json.loads(stdout.strip().splitlines()[-1])
    return value


def test_json_is_the_last_line_and_a_seed_reproduces_on_any_number_of_processes() -> None:
    args = ["--ruleset", "oasis", "--strategy", "pair-or-better", "--rounds", "3e5", "--seed", "7"]
    code, out, err = run(*args, "--json", "--workers", "1")
    assert code == 0, err
    one = last_json(out)
    for key in ("rounds", "house_edge", "house_edge_ci95", "element_of_risk", "rtp"):
        assert key in one
    assert one["rounds"] == 300_000 and one["seed"] == 7 and one["engine"] == "vectorised"
    low, high = one["house_edge_ci95"]
    assert low < one["house_edge"] < high
    assert abs(one["rtp"] + one["element_of_risk"] - 1) < 1e-12
    assert "300,000/300,000 rounds" in err  # progress goes to stderr
    _, out, _ = run(*args, "--json", "--workers", "2")
    two = last_json(out)
    for volatile in ("seconds", "rounds_per_second", "workers"):
        del one[volatile], two[volatile]
    assert one == two


def test_basic_strategy_and_overrides_in_the_text_report() -> None:
    code, out, err = run(
        "--ruleset",
        "russian",
        "--strategy",
        "basic",
        "--rounds",
        "3000",
        "--seed",
        "1",
        "--set",
        "max_payout=1500",
        "--set",
        "insurance_max=half_payout",
        "--workers",
        "1",
    )
    assert code == 0, err
    assert "house edge" in out and "element of risk" in out and "per-round engine" in out
    assert "sixth" in out and "bonus RTP" in out


def test_bad_parameters_are_usage_errors() -> None:
    base = ["--strategy", "basic", "--rounds", "10"]
    assert run("--ruleset", "russian", *base, "--set", "boxs=3")[0] == 2
    assert run("--ruleset", "russian", *base, "--set", "nonsense")[0] == 2
    assert run("--ruleset", "russian", "--strategy", "basic", "--rounds", "0.5")[0] == 2
    assert run("--ruleset", "oasis", *base, "--bonus", "50", "--set", "bonus_enabled=false")[0] == 2


def test_the_per_round_engine_is_reproducible_on_any_number_of_processes() -> None:
    args = ["--ruleset", "oasis", "--strategy", "basic", "--rounds", "5000", "--seed", "3"]
    runs = []
    for workers in ("1", "2"):
        code, out, err = run(*args, "--json", "--workers", workers)
        assert code == 0, err
        summary = last_json(out)
        assert summary["engine"] == "per-round" and summary["draws"]["exchange_1"] > 0
        for volatile in ("seconds", "rounds_per_second", "workers"):
            del summary[volatile]
        runs.append(summary)
    assert runs[0] == runs[1]
