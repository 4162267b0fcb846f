"""The test vectors (docs/fairness/vectors.json): current with the code, and reproduced by an
independent implementation of docs/fairness.md (tests/fairness/spec.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from russian_poker.service.cli import main
from russian_poker.service.fairness.vectors import VECTORS_PATH, build_vectors, check_vectors
from tests.fairness import spec

VECTORS: dict[str, Any] = json.loads(VECTORS_PATH.read_text())


def test_the_file_is_what_the_code_makes() -> None:
    # Stale? python -m russian_poker.service.fairness.vectors
    assert build_vectors() == VECTORS
    assert check_vectors(VECTORS) == []


def test_a_changed_vector_is_named() -> None:
    changed = json.loads(json.dumps(VECTORS))
    changed["vectors"][1]["deck"][7] = "Zz"
    assert check_vectors(changed) == [
        f'vector "two players\' seeds" deck: the code gives {VECTORS["vectors"][1]["deck"]!r}'
    ]


def test_the_unshuffled_deck_is_the_documented_one() -> None:
    assert VECTORS["unshuffled_deck"] == spec.UNSHUFFLED
    assert VECTORS["deck_domain"] == "russian-poker/deck/v1"


@pytest.mark.parametrize("vector", VECTORS["vectors"], ids=lambda v: v["name"])
def test_the_independent_implementation_reproduces(vector: dict[str, Any]) -> None:
    server_seed = bytes.fromhex(vector["server_seed"])
    seeds = {b["box"]: b["client_seed"] for b in vector["boxes"] if b["client_seed"] is not None}
    assert spec.commitment(server_seed) == vector["commitment"]
    if seeds:
        assert spec.deck_key_message(seeds).hex() == vector["deck_key_message"]
    else:
        assert vector["deck_key_message"] is None
    key = spec.deck_key(server_seed, seeds)
    assert key.hex() == vector["deck_key"]
    words = spec.Stream(key)
    assert [words.word() for _ in range(16)] == vector["stream_words"]
    deck, stream = spec.shuffle(key)
    assert deck == vector["deck"]
    assert stream.cursor == vector["cursor_after_shuffle"]
    hands, dealer, order = spec.deal(deck, {b["box"]: b["ante"] for b in vector["boxes"]})
    assert order == vector["deal"]["order"]
    assert [{"box": b, "cards": hands[b]} for b in order] == vector["deal"]["hands"]
    assert dealer == vector["deal"]["dealer"]
    swap = vector["exchange"]
    assert deck == swap["undealt_before"]
    assert swap["discards"] == hands[swap["box"]][:2]
    positions, received = spec.exchange(deck, stream, swap["discards"])
    assert positions == swap["positions"]
    assert received == swap["received"]
    assert received + deck == swap["undealt_after_reinsertion"]
    assert stream.cursor == swap["cursor_after"]


def test_the_vectors_cover_what_a_reimplementation_gets_wrong() -> None:
    vectors = VECTORS["vectors"]
    assert any(v["cursor_after_shuffle"] > 51 for v in vectors), "no rejected word"
    assert any(v["deck_key_message"] is None for v in vectors), "no plain shuffle"
    assert any(len({b["ante"] for b in v["boxes"]}) > 1 for v in vectors), "one ante only"
    seeds = [b["client_seed"] for v in vectors for b in v["boxes"] if b["client_seed"]]
    assert " " in seeds and any(len(s) == 64 for s in seeds) and any("~" in s for s in seeds)
    placed = [[b["box"] for b in v["boxes"] if b["client_seed"]] for v in vectors]
    assert any(boxes != sorted(boxes) for boxes in placed), "seeds always placed in box order"


def test_the_worked_example_in_the_doc_is_the_vector() -> None:
    doc = (VECTORS_PATH.parents[1] / "fairness.md").read_text()
    example = next(v for v in VECTORS["vectors"] if v["name"] == "two players' seeds")
    for text in (example["commitment"], example["deck_key"], *example["deal"]["dealer"]):
        assert text in doc
    deck = example["deck"]
    assert " ".join(deck[:26]) in doc and " ".join(deck[26:]) in doc
    for hand in example["deal"]["hands"]:
        assert f"box {hand['box']}:  {' '.join(hand['cards'])}" in doc
    message = [
        re.split(r"\s{2,}", line)[0].replace(" ", "")
        for line in doc.splitlines()
        if line.startswith(("7275737369616e", "01 12 ", "03 06 "))
    ]
    assert "".join(message) == example["deck_key_message"]
    first = example["stream_words"][0]
    assert f"`j = {first} mod 52 = {first % 52}`" in doc
    swap = example["exchange"]
    assert f"`below(38) = {swap['positions'][0]}`" in doc
    assert f"`below(39) = {swap['positions'][1]}`" in doc
    assert f"`{' '.join(swap['received'])}`" in doc


def test_the_cli_checks_a_vector_file(tmp_path: Path) -> None:
    ok = CliRunner().invoke(main, ["verify", "--vectors", str(VECTORS_PATH)])
    assert ok.exit_code == 0 and "VERIFIED: 5 vector(s)" in ok.output, ok.output
    changed = json.loads(VECTORS_PATH.read_text())
    changed["vectors"][0]["deck_key"] = "00" * 32
    path = tmp_path / "vectors.json"
    path.write_text(json.dumps(changed))
    bad = CliRunner().invoke(main, ["verify", "--vectors", str(path)])
    assert bad.exit_code == 1
    assert "MISMATCH: vector 'server seed only' deck_key: the code gives" in bad.output
