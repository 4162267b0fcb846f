"""Checking a round proof end to end: commitment, deck key, and every card taken from the deck.

The deck is re-derived from the record's seeds alone (``docs/fairness.md``) and then played
through the record: the deal, each draw in order, the dealer draw. The first card that differs
stops the check (every later card would be off anyway) and is named with what the seeds say
it should have been.
"""

from __future__ import annotations

import hashlib
from typing import Final

import msgspec

from russian_poker.service.fairness.proof import PROOF_FORMAT, RoundProof
from russian_poker.service.rules.cards import FULL_DECK
from russian_poker.service.rules.deck import SEED_BYTES, Deck, shuffled, stacked
from russian_poker.service.rules.entropy import client_seed_problem, deck_key

__all__ = ["Verdict", "check_proof"]

_DECK: Final = frozenset(FULL_DECK)


class Verdict(msgspec.Struct, kw_only=True):
    """What the check found: ``ok``, the lines of its report, and the first mismatch."""

    ok: bool = True
    lines: list[str] = msgspec.field(default_factory=list)
    mismatch: str | None = None
    deck_key: str | None = None
    deck: tuple[str, ...] = ()
    """The full deck at the deal, top first, as the seeds make it."""
    cards_checked: int = 0

    def fail(self, message: str) -> Verdict:
        self.ok = False
        self.mismatch = message
        self.lines.append(f"MISMATCH: {message}")
        return self


class _Mismatch(Exception):
    pass


def _compare(
    verdict: Verdict, where: str, expected: tuple[str, ...], recorded: tuple[str, ...]
) -> None:
    for index, (want, have) in enumerate(zip(expected, recorded, strict=False)):
        if want != have:
            card = "" if len(expected) == 1 else f" card {index + 1}"
            raise _Mismatch(f"{where}{card}: the seeds give {want}, recorded {have}")
        verdict.cards_checked += 1
    if len(expected) != len(recorded):
        raise _Mismatch(f"{where}: {len(expected)} card(s) expected, {len(recorded)} recorded")


def check_proof(proof: RoundProof) -> Verdict:
    """Check ``proof``; the verdict says ``ok`` only if every check passed."""
    verdict = Verdict()
    if proof.format != PROOF_FORMAT:
        return verdict.fail(f"format {proof.format!r} is not {PROOF_FORMAT!r}")
    try:
        seed = bytes.fromhex(proof.server_seed)
    except ValueError:
        return verdict.fail("server_seed is not hex")
    if len(seed) != SEED_BYTES:
        return verdict.fail(f"server_seed is {len(seed)} bytes, not {SEED_BYTES}")
    digest = hashlib.sha256(seed).hexdigest()
    if digest != proof.commitment.lower():
        return verdict.fail(
            f"commitment: SHA-256 of the server seed is {digest}, the round committed to "
            f"{proof.commitment}"
        )
    verdict.lines.append(f"commitment {proof.commitment} = SHA-256(server seed): ok")
    rules = _rules_problem(proof)
    if rules is not None:
        return verdict.fail(rules)
    seeds = [(b.box, b.client_seed) for b in proof.boxes if b.client_seed is not None]
    for box, text in seeds:
        problem = client_seed_problem(text)
        if problem is not None:
            return verdict.fail(f"box {box} client seed: {problem}")
    try:
        key = deck_key(seed, seeds)
    except ValueError as error:
        return verdict.fail(f"client seeds: {error}")
    verdict.deck_key = key.hex()
    if proof.stacked_deck is not None:
        if not set(proof.stacked_deck) <= _DECK or len(set(proof.stacked_deck)) != len(
            proof.stacked_deck
        ):
            return verdict.fail("stacked_deck names cards that are not distinct cards of the 52")
        deck = stacked(seed, proof.stacked_deck)
        verdict.lines.append("test mode: a stacked deck (the seeds do not order it)")
    else:
        deck = shuffled(key)
        named = ", ".join(f"box {b}" for b, _ in seeds) or "none"
        verdict.lines.append(f"deck key {key.hex()} (client seeds: {named})")
    verdict.deck = deck.cards
    try:
        _play(verdict, proof, deck)
    except _Mismatch as mismatch:
        return verdict.fail(str(mismatch))
    verdict.lines.append(
        f"VERIFIED: round {proof.table_id}:{proof.round}, {verdict.cards_checked} card(s) "
        "match the deck the seeds make"
    )
    return verdict


def _rules_problem(proof: RoundProof) -> str | None:
    """The dealer's replacements the table's rules allow: none without the dealer draw;
    after the paid draw, at most ``dealer_redraw_limit`` free ones."""
    replaced = proof.dealer_replacements
    if replaced and not proof.dealer_draw:
        return "dealer_replacements: the table has no dealer draw, the round records some"
    free = sum(1 for r in replaced if r.free)
    if proof.dealer_redraw_limit is not None and free > proof.dealer_redraw_limit:
        return (
            f"dealer_replacements: {free} free redraw(s), the table allows"
            f" {proof.dealer_redraw_limit}"
        )
    return None


def _play(verdict: Verdict, proof: RoundProof, deck: Deck) -> None:
    if not proof.dealt:
        verdict.lines.append("no deal: nothing but the commitment to check")
        return
    antes = {b.box: b.ante for b in proof.boxes}
    order = [hand.box for hand in proof.dealt]
    expected_order = sorted(antes, key=lambda b: (-antes[b], b))
    if order != expected_order:
        raise _Mismatch(
            f"deal order: boxes {expected_order} by ante and box number, recorded {order}"
        )
    seats = len(order) + 1
    cards, deck = deck.draw(5 * seats)
    for index, hand in enumerate(proof.dealt):
        _compare(verdict, f"box {hand.box} dealt", tuple(cards[index::seats]), hand.cards)
    _compare(verdict, "dealer dealt", tuple(cards[len(order) :: seats]), proof.dealer)
    verdict.lines.append(f"deal: {5 * seats} cards to {len(order)} box(es) and the dealer: ok")
    for draw in proof.draws:
        if draw.kind == "exchange" and proof.discards_return_to_deck:
            deck = deck.reinsert(draw.discarded)
        received, deck = deck.draw(len(draw.received))
        what = "sixth card" if draw.kind == "sixth_card" else "exchange"
        _compare(verdict, f"box {draw.box} {what}", received, draw.received)
        verdict.lines.append(f"box {draw.box} {what}: {' '.join(received)}: ok")
    for number, replacement in enumerate(proof.dealer_replacements, start=1):
        (card,), deck = deck.draw(1)
        _compare(verdict, f"dealer replacement {number}", (card,), (replacement.card,))
        verdict.lines.append(f"dealer replacement {number}: {replacement.replaced} -> {card}: ok")
