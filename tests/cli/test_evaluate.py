"""``russian-poker evaluate``: one JSON object per hand, from arguments or stdin."""

from __future__ import annotations

import json

from click.testing import CliRunner

from russian_poker.service.cli import main


def run(*args: str, stdin: str | None = None) -> tuple[int, list[dict[str, object]]]:
    result = CliRunner().invoke(main, ["evaluate", *args], input=stdin)
    lines = [json.loads(line) for line in result.output.splitlines() if line.startswith("{")]
    return result.exit_code, lines


def test_seed_example_pays_pair_and_ak() -> None:
    code, (hand,) = run("As", "Kd", "8h", "8c", "9s")
    assert code == 0
    assert hand["hand"] == "pair"
    assert hand["combinations"] == ["pair", "ak"]
    assert hand["bet_multiplier"] == 2
    assert hand["cards"] == ["8h", "8c", "As", "Kd", "9s"]


def test_oasis_pays_one_combination() -> None:
    _, (hand,) = run("--ruleset", "oasis", "As Kd 8h 8c 9s")
    assert hand["combinations"] == ["pair"] and hand["bet_multiplier"] == 1


def test_stdin_one_object_per_line_and_strength_orders_hands() -> None:
    code, hands = run(stdin="8s 7h 6d 5c 4s 3h\nAh Kh Qh Jh Th\n2c 3d 5h 7s 9d\n")
    assert code == 0
    assert [h["hand"] for h in hands] == ["straight", "royal_flush", "no_game"]
    assert hands[0]["combinations"] == ["straight", "straight"]
    assert hands[0]["bet_multiplier"] == 8
    assert hands[1]["strength"] > hands[0]["strength"] > hands[2]["strength"]
    assert hands[2]["bet_multiplier"] == 0


def test_bad_hands_are_reported_not_crashed() -> None:
    code, lines = run(stdin="As Kd\nAs As Kd Qh Jc\n")
    assert code == 1
    assert all("error" in line for line in lines) and len(lines) == 2
    code, _ = run("Zz", "Kd", "8h", "8c", "9s")
    assert code == 2
