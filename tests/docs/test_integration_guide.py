"""docs/integration.md says what the code does.

The guide is for operators who build against it, so every fact they could copy is checked
against the code it describes:

* each JSON example decodes, strictly, into the protocol struct the game encodes, and
  encodes back to the same fields (none left out);
* the Python signing example runs as printed, and signs and verifies interchangeably with
  the game's own signing code; the test vector is what the game computes;
* the error table has a row for every status of the protocol, and says for each refusal of
  a bet the problem type the game answers with;
* every problem type, setting and metric it names exists, with the status it gives;
* the reasons, fault modes, broken variants and conformance scenarios it lists are exactly
  the code's;
* each Mermaid diagram is a sequence diagram whose arrows join declared participants.
"""

from __future__ import annotations

import json
import re
import runpy
import subprocess
import sys
from pathlib import Path
from typing import Any, Final, get_args

import msgspec
import pytest
from prometheus_client import REGISTRY

from russian_poker.service.app.catalogue import CATALOGUE
from russian_poker.service.application.money.seamless import CREDIT_REASON, REFUSED_STATUSES
from russian_poker.service.settings import _VARIABLES
from russian_poker.service.tools.conformance.scenarios import SCENARIOS
from russian_poker.service.tools.reference_wallet.faults import BROKEN_MODES, FAULT_MODES
from russian_poker.service.wallet.protocol import (
    DEBIT_REASONS,
    Answer,
    BalanceCall,
    BetCall,
    RollbackCall,
    Status,
    WinCall,
)
from russian_poker.service.wallet.signing import sign, verify

ROOT: Final = Path(__file__).parents[2]
GUIDE: Final = (ROOT / "docs" / "integration.md").read_text()

EXAMPLES: Final[dict[str, type[msgspec.Struct]]] = {
    "balance request": BalanceCall,
    "balance answer": Answer,
    "bet request": BetCall,
    "bet answer": Answer,
    "insufficient funds answer": Answer,
    "win request": WinCall,
    "win answer": Answer,
    "rollback request": RollbackCall,
    "rollback answer": Answer,
}


def _block(marker: str, language: str) -> str:
    found = re.search(
        rf"<!-- {re.escape(marker)} -->\n```{language}\n(.*?)\n```\n", GUIDE, re.DOTALL
    )
    assert found, f"docs/integration.md has no {language} block after <!-- {marker} -->"
    return found.group(1)


def _section(heading: str) -> str:
    """The text under a heading, up to the next heading of the same or a higher level
    (a ``#`` line inside a code block is no heading)."""
    level = len(heading.split(" ", 1)[0])
    lines = GUIDE.splitlines()
    start = lines.index(heading) + 1
    fenced = False
    for end in range(start, len(lines)):
        line = lines[end]
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and re.match(rf"#{{1,{level}}} ", line):
            return "\n".join(lines[start:end])
    return "\n".join(lines[start:])


def _table_rows(text: str) -> list[list[str]]:
    """The cells of every table row in ``text`` (header and rule rows left out)."""
    rows = []
    for line in text.splitlines():
        if not line.startswith("|") or set(line) <= set("|-: "):
            continue
        rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return rows[1:] if rows else rows


def _codes(cell: str) -> list[str]:
    return re.findall(r"`([^`]+)`", cell)


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_each_json_example_is_exactly_what_the_protocol_encodes(name: str) -> None:
    shown = _block(f"example: {name}", "json")
    struct = EXAMPLES[name]
    decoded = msgspec.json.decode(shown.encode(), type=struct, strict=True)
    # Encoded back, nothing is added or dropped: the example shows every field sent.
    assert json.loads(msgspec.json.encode(decoded)) == json.loads(shown)


def test_the_examples_transaction_ids_have_the_shapes_the_guide_gives() -> None:
    bet = msgspec.json.decode(_block("example: bet request", "json"), type=BetCall)
    win = msgspec.json.decode(_block("example: win request", "json"), type=WinCall)
    undo = msgspec.json.decode(_block("example: rollback request", "json"), type=RollbackCall)
    assert re.fullmatch(r"bet-[0-9a-f]{32}-\d+", bet.transaction_id)
    assert re.fullmatch(r"win-[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}", win.transaction_id)
    assert undo.transaction_id == f"rollback-{undo.reference_transaction_id}"
    assert undo.reference_transaction_id == bet.transaction_id
    assert (undo.amount, undo.reason, undo.round_closed) == (bet.amount, bet.reason, False)
    assert bet.transaction_id in win.reference_transaction_ids and win.round_closed


def test_the_signing_example_runs_as_printed() -> None:
    ran = subprocess.run(
        [sys.executable, "-c", _block("signing-example", "python")],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert ran.returncode == 0, ran.stderr
    (header,) = re.findall(r"^X-Signature: (\S+)$", ran.stdout, re.MULTILINE)
    # What it printed is a valid signature of the answer it signed, to the game.
    verify("a-long-random-shared-secret", b'{"status":"ok","balance":100000}', header)


def test_the_signing_example_and_the_game_sign_for_each_other(tmp_path: Path) -> None:
    example = tmp_path / "signing_example.py"
    example.write_text(_block("signing-example", "python"))
    module: dict[str, Any] = runpy.run_path(str(example), run_name="signing_example")
    secret = "a-long-random-shared-secret"
    body = _block("example: bet request", "json").encode()
    assert module["verify"](secret, body, sign(secret, body)) is True
    assert verify(secret, body, module["sign"](secret, body)) > 0
    assert module["verify"]("another-secret-entirely", body, sign(secret, body)) is False
    assert module["verify"](secret, body, None) is False
    assert module["verify"](secret, body, "t=x,v1=y") is False
    at = 1_767_225_600
    assert module["sign"](secret, body, now=at) == sign(secret, body, now=at)


def test_the_signing_vector_is_what_the_game_computes() -> None:
    balance = msgspec.json.decode(_block("example: balance request", "json"), type=BalanceCall)
    compact = msgspec.json.encode(balance)
    assert f"`{compact.decode()}`" in GUIDE, "the vector's body is not the compact example"
    (line,) = _block("signing-vector", "").splitlines()
    header = line.removeprefix("X-Signature: ")
    assert header == sign("a-long-random-shared-secret", compact, now=1_767_225_600)


def test_the_error_table_has_every_status_and_what_a_bet_refusal_becomes() -> None:
    rows = _table_rows(_section("## Errors").split("The problem types a player", 1)[0])
    by_status: dict[str, list[str]] = {}
    for row in rows:
        for status in _codes(row[0]):
            by_status[status] = row
    assert set(get_args(Status)) <= set(by_status), set(get_args(Status)) - set(by_status)
    for status, code in REFUSED_STATUSES.items():
        bet = by_status[status][1]
        assert bet.startswith("refused"), (status, bet)
        assert f"{CATALOGUE[code].status} {code}" in _codes(bet), (status, bet)
    for status in set(get_args(Status)) - set(REFUSED_STATUSES) - {"ok"}:
        assert "unknown outcome" in by_status[status][1], status
    # A rollback is final on ok and transaction_not_found only; a win on ok only.
    assert "final" in by_status["transaction_not_found"][3]
    for status in set(get_args(Status)) - {"ok"}:
        assert by_status[status][2].startswith("sent again"), status
    for status in set(get_args(Status)) - {"ok", "transaction_not_found"}:
        assert "sent again" in by_status[status][3], status


def test_every_problem_type_named_exists_with_the_status_given() -> None:
    named = set(re.findall(r"/problems/([a-z_]+)", GUIDE))
    assert named, "the guide names no problem types"
    unknown = named - set(CATALOGUE)
    assert not unknown, unknown
    tables = _section("## Errors").split("The problem types a player", 1)[1]
    for row in _table_rows(tables):
        if row[0].isdigit():
            (code,) = re.findall(r"/problems/([a-z_]+)", row[1])
            assert CATALOGUE[code].status == int(row[0]), (code, row[0])


def test_every_setting_and_metric_named_exists() -> None:
    settings = set(re.findall(r"\bRUSSIAN_POKER_[A-Z_]+\b", GUIDE))
    assert settings - set(_VARIABLES) == set(), settings - set(_VARIABLES)
    import russian_poker.service.observability  # noqa: F401  (registers the metrics)

    # A counter is collected under its name without ``_total``, which exposition adds.
    registered = {
        metric.name + ("_total" if metric.type == "counter" else "")
        for metric in REGISTRY.collect()
    }
    metrics = set(re.findall(r"\brussian_poker_wallet_[a-z_]+\b", GUIDE))
    assert metrics and metrics <= registered, metrics - registered


def test_the_reasons_table_is_the_codes() -> None:
    rows = _table_rows(_section("## Reasons"))
    debits = [_codes(row[1])[0] for row in rows if row[0] == "bet"]
    assert sorted(debits) == sorted(DEBIT_REASONS)
    credits = {_codes(row[1])[0]: row[2] for row in rows if row[0] == "win"}
    for game, protocol in CREDIT_REASON.items():
        assert f"the game's `{game}`" in credits[protocol], (game, protocol)


def test_fault_modes_broken_variants_and_scenarios_are_the_codes() -> None:
    wallet = _section("## The reference wallet")
    faults, broken = wallet.split("**Broken variants**", 1)
    faults = faults.split("**Fault modes.**", 1)[1]
    assert [_codes(r[0])[0] for r in _table_rows(faults)] == list(FAULT_MODES)
    assert [_codes(r[0])[0] for r in _table_rows(broken)] == list(BROKEN_MODES)
    kit = _table_rows(_section("## The conformance kit"))
    assert [row[0] for row in kit] == [name for name, _ in SCENARIOS]


_PARTICIPANT: Final = re.compile(r"^participant (\w+)( as .+)?$")
_ARROW: Final = re.compile(r"^(\w+)(->>|-->>|-x|--x|->|-->)(\w+): .+$")
_NOTE: Final = re.compile(r"^Note (over|left of|right of) (\w+)(,(\w+))?: .+$")


def test_the_sequence_diagrams_are_well_formed() -> None:
    diagrams = re.findall(r"```mermaid\n(.*?)\n```", GUIDE, re.DOTALL)
    assert len(diagrams) == 4, "a normal round, a refused bet, a time-out, a crash"
    for diagram in diagrams:
        # A `;` ends a statement in Mermaid: inside a message it would cut the line.
        assert ";" not in diagram
        lines = [line.strip() for line in diagram.splitlines() if line.strip()]
        assert lines[0] == "sequenceDiagram"
        declared: set[str] = set()
        for line in lines[1:]:
            if line == "autonumber":
                continue
            if participant := _PARTICIPANT.match(line):
                declared.add(participant.group(1))
            elif arrow := _ARROW.match(line):
                assert {arrow.group(1), arrow.group(3)} <= declared, line
            elif note := _NOTE.match(line):
                assert {note.group(2), note.group(4) or note.group(2)} <= declared, line
            else:
                raise AssertionError(f"not a sequence diagram line: {line!r}")
