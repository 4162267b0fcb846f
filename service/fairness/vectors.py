"""The deck construction's test vectors (``docs/fairness/vectors.json``), made by the rules
engine itself, and their check.

Each vector plays one round's start through :func:`service.rules.decide.decide` — the code
that deals real rounds — from a fixed server seed and fixed client seeds: the commitment, the
deck key, the deck at the deal, the five cards of each box and of the dealer, and one
exchange (the first box in play order gives back its first two cards, which go back into the
deck at drawn positions before the replacements are drawn). A re-implementation (a browser
client, an auditor's script) loads the same file and must reproduce every field.

``python -m russian_poker.service.fairness.vectors`` rewrites the file; ``russian-poker verify
--vectors FILE`` and ``tests/fairness`` check it against the code.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

from russian_poker.events.codec import Event
from russian_poker.events.commands import (
    SYSTEM,
    Actor,
    Deal,
    Exchange,
    OpenRound,
    OpenTable,
    PlaceAnte,
    SitDown,
)
from russian_poker.events.game import CardsDealt, CardsExchanged
from russian_poker.service.rules.cards import FULL_DECK
from russian_poker.service.rules.decide import decide
from russian_poker.service.rules.deck import commitment, shuffled
from russian_poker.service.rules.entropy import DECK_DOMAIN, deck_key, deck_key_message
from russian_poker.service.rules.evolve import fold
from russian_poker.service.rules.presets import make_ruleset
from russian_poker.service.rules.state import Table

__all__ = ["FORMAT", "VECTORS_PATH", "build_vectors", "check_vectors", "main"]

FORMAT: Final = "russian-poker/fairness-vectors/v1"
VECTORS_PATH: Final = Path(__file__).resolve().parents[2] / "docs" / "fairness" / "vectors.json"
_STREAM_WORDS: Final = 16
_OPERATOR: Final = Actor(role="operator", id="operator")

_REJECTION_INDEX: Final = 6_799_318
"""``i`` of the first server seed SHA-256("russian-poker/vector/rejection/" + i) whose plain
shuffle rejects a word (found by search, so the vectors exercise rejection sampling): its
word 8, 0xfffffffc, drawn for i = 43 (n = 44), is not below 2**32 - 2**32 mod 44 =
0xfffffffc and is rejected, so j for i = 43 comes from word 9."""
_REJECTION_SEED: Final = hashlib.sha256(
    f"russian-poker/vector/rejection/{_REJECTION_INDEX}".encode()
).digest()

# name, server seed, boxes (box, ante, client seed), what the vector shows
_CASES: Final[list[tuple[str, bytes, list[tuple[int, int, str | None]], str]]] = [
    (
        "server seed only",
        bytes(range(32)),
        [(1, 100, None)],
        "No client seed: the deck key is the server seed itself (the plain shuffle).",
    ),
    (
        "two players' seeds",
        bytes(range(32)),
        [(1, 100, "alice's lucky seed"), (3, 200, "bob-42")],
        "Two client seeds (boxes 1 and 3); box 3's larger ante makes it first in play order.",
    ),
    (
        "seeds out of box order, one box without",
        bytes.fromhex("ff" * 32),
        [(4, 150, "z"), (2, 150, "a"), (3, 100, None)],
        "Client seeds enter the message in box-number order (2 then 4) whatever the order they"
        " were placed in; box 3 has none. Equal antes play in box-number order.",
    ),
    (
        "printable edge cases",
        hashlib.sha256(b"russian-poker/vector/edge").digest(),
        [
            (1, 100, " "),
            (2, 100, "".join(chr(c) for c in range(0x3F, 0x7F))),
        ],
        "A single space is a seed; the longest seed is 64 characters, space to '~' allowed.",
    ),
    (
        "a rejected word",
        _REJECTION_SEED,
        [(1, 100, None)],
        "A plain shuffle in which a 32-bit word falls in the biased tail and is rejected: word"
        " 8 (0xfffffffc), drawn for i = 43, is not below 2^32 - (2^32 mod 44) = 0xfffffffc,"
        " so j for i = 43 comes from word 9 and the shuffle reads 52 words.",
    ),
]


def _words(key: bytes, count: int) -> list[int]:
    stream = b"".join(
        hmac.digest(key, block.to_bytes(8, "big"), "sha256") for block in range((count + 7) // 8)
    )
    return [int.from_bytes(stream[4 * i : 4 * i + 4], "big") for i in range(count)]


def _positions(before: Sequence[str], discards: Sequence[str], after: Sequence[str]) -> list[int]:
    """Where each discard went in, in order: undone from the last inserted to the first."""
    cards = list(after)
    positions: list[int] = []
    for card in reversed(discards):
        positions.append(cards.index(card))
        cards.remove(card)
    assert cards == list(before), "reinsertion moved other cards"
    return positions[::-1]


def _vector(
    name: str, seed: bytes, boxes: list[tuple[int, int, str | None]], note: str
) -> dict[str, Any]:
    rules = make_ruleset("russian")
    state = fold(Table(), decide(Table(), OpenTable(ruleset=rules), _OPERATOR, table_id="vectors"))
    events: list[Event] = []

    def run(command: Any, actor: Actor) -> list[Event]:
        nonlocal state
        produced = decide(state, command, actor)
        state = fold(state, produced)
        events.extend(produced)
        return produced

    players = {box: Actor(role="player", id=f"player-{box}") for box, _, _ in boxes}
    for box in sorted(players):
        run(SitDown(seat=box), players[box])
    run(OpenRound(seed=seed), SYSTEM)
    for box, ante, client_seed in boxes:
        run(PlaceAnte(box=box, ante=ante, client_seed=client_seed), players[box])
    for box in sorted(players):
        run(Deal(), players[box])
    dealt = next(e for e in events if isinstance(e, CardsDealt))
    assert state.round is not None
    undealt = state.round.deck.cards
    seeds = [(box, s) for box, _, s in sorted(boxes) if s is not None]
    key = deck_key(seed, seeds)
    full = shuffled(key)
    first = dealt.hands[0]
    discards = first.cards[:2]
    exchanged = next(
        e
        for e in run(Exchange(box=first.box, cards=list(discards)), players[first.box])
        if isinstance(e, CardsExchanged)
    )
    after = state.round.deck.cards
    inserted = (*exchanged.received, *after)
    return {
        "name": name,
        "note": note,
        "server_seed": seed.hex(),
        "commitment": commitment(seed),
        "boxes": [{"box": b, "ante": a, "client_seed": s} for b, a, s in boxes],
        "deck_key_message": deck_key_message(seeds).hex() if seeds else None,
        "deck_key": key.hex(),
        "stream_words": _words(key, _STREAM_WORDS),
        "cursor_after_shuffle": full.cursor,
        "deck": list(full.cards),
        "deal": {
            "order": [h.box for h in dealt.hands],
            "hands": [{"box": h.box, "cards": list(h.cards)} for h in dealt.hands],
            "dealer": list(dealt.dealer_cards),
        },
        "exchange": {
            "box": first.box,
            "undealt_before": list(undealt),
            "discards": list(discards),
            "positions": _positions(undealt, discards, inserted),
            "undealt_after_reinsertion": list(inserted),
            "received": list(exchanged.received),
            "cursor_after": state.round.deck.cursor,
        },
    }


def build_vectors() -> dict[str, Any]:
    """Every vector, with the constants and a description of each field."""
    return {
        "format": FORMAT,
        "spec": "docs/fairness.md",
        "generated_by": "python -m russian_poker.service.fairness.vectors",
        "fields": {
            "server_seed": "32 bytes, hex: the secret seed the round commits to.",
            "commitment": "SHA-256 of the server seed's 32 bytes, lowercase hex.",
            "boxes": "The boxes with a bet at the deal: box number, ante, client seed (null:"
            " none), in the order the antes were placed: on purpose not always box order,"
            " which changes nothing (the deck key takes the seeds by box number, play order"
            " comes from the antes) and catches a verifier that takes them as listed.",
            "deck_key_message": "The HMAC message, hex: the domain tag, then for each box with a"
            " client seed in box-number order: box (1 byte), seed length (1 byte), seed"
            " (ASCII). Null when no box has a client seed.",
            "deck_key": "HMAC-SHA256(key = server seed, message = deck_key_message), hex; the"
            " server seed itself when no box has a client seed.",
            "stream_words": "The first 16 words of the deck key's stream: word i is bytes"
            " 4(i mod 8)..+4 of HMAC-SHA256(deck key, floor(i/8) as 8 bytes big-endian),"
            " read as an unsigned 32-bit big-endian integer.",
            "cursor_after_shuffle": "Words the shuffle read: 51, plus one per rejected word.",
            "deck": "The 52 cards at the deal, top first: unshuffled_deck shuffled by"
            " Fisher-Yates, i from 51 down to 1, j uniform in [0, i] by rejection sampling.",
            "deal": "Play order (larger ante first, equal antes by box number), each box's five"
            " cards and the dealer's: card k of the deck goes to seat k mod (boxes + 1), the"
            " dealer's seat last.",
            "exchange": "The first box in play order gives back its first two dealt cards:"
            " each goes back into the undealt deck at a position drawn uniformly from"
            " [0, length + 1) (0 is the top), in the order given, the stream continuing at"
            " the shuffle's cursor; then the replacements are drawn from the top.",
        },
        "unshuffled_deck": list(FULL_DECK),
        "deck_domain": DECK_DOMAIN.decode("ascii"),
        "vectors": [_vector(*case) for case in _CASES],
    }


def check_vectors(data: dict[str, Any]) -> list[str]:
    """Every field of ``data`` that the code no longer reproduces (empty: all pass)."""
    expected = build_vectors()
    problems: list[str] = []
    for field in ("format", "unshuffled_deck", "deck_domain"):
        if data.get(field) != expected[field]:
            problems.append(f"{field}: the code gives {expected[field]!r}")
    by_name = {v["name"]: v for v in expected["vectors"]}
    for vector in data.get("vectors", []):
        want = by_name.get(vector.get("name"))
        if want is None:
            problems.append(f"vector {vector.get('name')!r}: not one the code makes")
            continue
        for field, value in want.items():
            if vector.get(field) != value:
                problems.append(f"vector {want['name']!r} {field}: the code gives {value!r}")
    if len(data.get("vectors", [])) != len(expected["vectors"]):
        problems.append(f"{len(expected['vectors'])} vectors expected")
    return problems


def main() -> None:
    """Write the vectors file (``docs/fairness/vectors.json`` or the path given)."""
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else VECTORS_PATH
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(build_vectors(), indent=2, ensure_ascii=True) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
