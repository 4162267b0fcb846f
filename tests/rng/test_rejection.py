"""The rejection step of the production shuffle, with a controlled word source.

With 32-bit words the modulo bias is about 10⁻⁸: no sample of any feasible size sees it, so
the report cannot prove the rejection is there. This test can: removing the rejection (or
moving the limit) fails it."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from russian_poker.service.rules.deck import _below

SPACE = 1 << 32


def stream(words: Sequence[int]) -> Callable[[bytes, int], int]:
    """A word source that hands out ``words`` in order and fails past their end."""

    def word(key: bytes, index: int) -> int:
        assert key == b"k"
        return words[index]

    return word


@pytest.mark.parametrize("n", [3, 7, 43, 47, 51, 52])
def test_words_in_the_biased_tail_are_rejected_and_the_next_word_is_used(n: int) -> None:
    limit = SPACE - SPACE % n
    assert SPACE % n != 0  # every bound but a power of two has a tail
    tail = [limit, limit + (SPACE - 1 - limit) // 2, SPACE - 1]  # bottom, middle, top of it
    value, cursor = _below(b"k", 0, n, stream([*tail, n + 1]))
    assert (value, cursor) == (1, len(tail) + 1)  # three words consumed and thrown away
    # the largest accepted word is kept, reduced modulo n, and only one word is read
    assert _below(b"k", 0, n, stream([limit - 1])) == ((limit - 1) % n, 1)
    assert _below(b"k", 5, n, stream([0] * 5 + [limit - 1])) == ((limit - 1) % n, 6)


def test_the_accepted_range_is_a_whole_number_of_cycles_of_n() -> None:
    """What makes it unbiased: below the limit each residue has exactly limit / n words."""
    for n in range(2, 53):
        limit = SPACE - SPACE % n
        assert limit % n == 0 and SPACE - limit < n
        value, _ = _below(b"k", 0, n, stream([limit - n]))
        assert value == 0


@pytest.mark.parametrize("n", [2, 4, 8, 16, 32])
def test_a_power_of_two_has_no_tail(n: int) -> None:
    assert _below(b"k", 0, n, stream([SPACE - 1])) == (n - 1, 1)
