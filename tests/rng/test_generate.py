"""The vectorised batch is the production shuffle and exchange, bit for bit."""

from __future__ import annotations

import numpy as np

from russian_poker.service.rules.cards import FULL_DECK
from russian_poker.service.rules.deck import shuffled
from russian_poker.service.tools.rng.biased import batch
from russian_poker.service.tools.rng.generate import (
    CARDS,
    SHUFFLE_BOUNDS,
    derived_seed,
    exchange_counts,
    fisher_yates,
    production_batch,
    random_seeds,
    seeds,
    stream_words,
)

INDEX = {card: i for i, card in enumerate(FULL_DECK)}
# A real key whose shuffle draws a word in a rejected tail (about 1.5 keys in 10⁷ do; found by
# searching b"rng-test-rejection-key:" + i as 9 bytes big-endian, i = 112347): the production
# shuffle reads 52 words instead of 51.
REJECTING_KEY = b"rng-test-rejection-key:" + (112347).to_bytes(9, "big")


def assert_production(keys: list[bytes], start: int) -> tuple[int, ...]:
    discards = exchange_counts(start, len(keys))
    fast = production_batch(keys, discards)
    for row, key in enumerate(keys):
        deck = shuffled(key)
        assert fast.perms[row].tolist() == [INDEX[c] for c in deck.cards]
        k = int(discards[row])
        _, undealt = deck.draw(10)
        thrown = [deck.cards[p] for p in (0, 2, 4, 6, 8)[:k]]
        received, _ = undealt.reinsert(thrown).draw(k)
        assert fast.replacements[row].tolist() == [INDEX[c] for c in received] + [-1] * (5 - k)
        assert (fast.positions[row][:k] >= 0).all() and (fast.positions[row][k:] == -1).all()
    return fast.redone


def test_derived_seeds_shuffle_and_exchange_exactly_as_production() -> None:
    assert assert_production(seeds(1000, 300, "tests"), 1000) == ()


def test_fresh_seeds_shuffle_and_exchange_exactly_as_production() -> None:
    assert assert_production(random_seeds(200), 0) == ()


def test_a_rejected_word_is_redone_by_the_production_code() -> None:
    assert shuffled(REJECTING_KEY).cursor == CARDS  # one word thrown away
    keys = [*seeds(0, 20, "tests"), REJECTING_KEY, *seeds(20, 20, "tests")]
    assert assert_production(keys, 0) == (20,)  # detected, redone, and exactly production's
    # without the redo the vectorised path would have dealt another deck
    words = stream_words([REJECTING_KEY]).astype(np.int64)
    plain = fisher_yates(words[:, : CARDS - 1] % SHUFFLE_BOUNDS)
    assert plain[0].tolist() != [INDEX[c] for c in shuffled(REJECTING_KEY).cards]


def test_derived_seeds_are_documented_hmacs() -> None:
    import hashlib
    import hmac

    message = b"russian-poker rng-report shuffle " + (7).to_bytes(8, "big")
    assert derived_seed("S", 7) == hmac.new(b"S", message, hashlib.sha256).digest()
    assert seeds(7, 1, "S") == [derived_seed("S", 7)]


def test_the_biased_variants_are_permutations_with_their_defects() -> None:
    keys = seeds(0, 2000, "tests")
    discards = exchange_counts(0, 2000)
    sattolo = batch("sattolo", keys, discards).perms
    mod8 = batch("mod8", keys, discards).perms
    for perms in (sattolo, mod8):
        assert (np.sort(perms, axis=1) == np.arange(CARDS)).all()
    assert not (sattolo == np.arange(CARDS)).any()  # a single cycle: no card stays put
    assert (mod8 == np.arange(CARDS)).any()
