"""The theoretical RTP of a ruleset, to set beside the actual one.

Two wagers, two figures, and the server computes neither by simulation:

- **main** (ante, Bet, insurance, draw fees): the simulated RTP of the ``basic`` strategy
  (the strategy docs/game-math.md documents). The main game's return depends on how the
  players play, so this is the return of sound play, not a promise: players who fold good
  hands return less. For the presets the figure is the published 2 × 10⁷-round simulation
  of docs/game-math.md (:data:`PRESET_MAIN`). Any other ruleset's is simulated offline by
  ``russian-poker rtp-theory`` (the tools extra) and stored by fingerprint in
  ``ruleset_theory`` (migration 0017); the server only reads it, and until it is there the
  figure is null.
- **bonus**: exact, for every ruleset, computed here: the bonus is settled on the first five
  cards alone, so it is enough to settle one hand of each of the 7,462 kinds (ranks, and
  whether they are suited) with the core's own ``bonus_win`` and weigh it by how many of the
  2,598,960 hands are of that kind (tests/simulation/test_theory_exact.py: equal to the
  enumeration of every hand). About 55 ms, once per ruleset and process, in a thread.

Figures are kept per ruleset fingerprint for the life of the process once complete; the
fingerprint names the ruleset and paytable exactly, so a kept figure never goes stale.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement
from math import comb, prod
from typing import Final, Protocol

from russian_poker.events.ruleset import Ruleset
from russian_poker.service.rules.cards import RANKS, SUITS, Card
from russian_poker.service.rules.payouts import bonus_win
from russian_poker.service.rules.presets import PRESETS

__all__ = [
    "HANDS",
    "PRESET_MAIN",
    "SIMULATED_ROUNDS",
    "SIMULATION_SEED",
    "MainFigure",
    "Theory",
    "TheoryCache",
    "TheorySource",
    "bonus_rtp",
    "preset_of",
    "theory",
]

HANDS: Final = comb(52, 5)
SIMULATED_ROUNDS: Final = 200_000
"""What ``russian-poker rtp-theory`` simulates by default (about ±0.5 % at 95 %)."""
SIMULATION_SEED: Final = 2026


@dataclass(frozen=True)
class MainFigure:
    rtp: float
    ci95: tuple[float, float]
    rounds: int
    source: str


PRESET_MAIN: Final[dict[str, MainFigure]] = {
    # docs/game-math.md, "Every preset and strategy": russian-poker simulate --strategy basic
    # --rounds 2e7 --seed 2026; RTP = 1 - element of risk, its 95 % CI likewise.
    "oasis": MainFigure(0.99167, (0.99118, 0.99217), 20_000_000, "docs/game-math.md"),
    "russian": MainFigure(0.96106, (0.96055, 0.96158), 20_000_000, "docs/game-math.md"),
    "russian-online": MainFigure(0.95340, (0.95291, 0.95389), 20_000_000, "docs/game-math.md"),
}


@dataclass(frozen=True)
class Theory:
    """A ruleset's theoretical figures."""

    fingerprint: str
    main_rtp: float | None
    """None until ``russian-poker rtp-theory`` has stored it (a preset's is always known)."""
    main_ci95: tuple[float, float] | None
    main_rounds: int | None
    main_source: str | None
    """Where the main figure comes from: a document, or ``simulated``."""
    bonus_rtp: Fraction | None
    """Exact; None when the ruleset offers no bonus."""


def _kinds() -> Iterator[tuple[tuple[Card, ...], int]]:
    """One five-card hand of each kind (its ranks, and whether all five are suited) and how
    many of the 2,598,960 hands are of that kind."""
    for ranks in combinations_with_replacement(RANKS, 5):
        counts = Counter(ranks)
        if max(counts.values()) > 4:
            continue
        if len(counts) == 5:
            yield tuple(rank + SUITS[0] for rank in ranks), 4
            # Not all one suit: the last card's suit differs from the first four's.
            yield tuple(rank + SUITS[i // 4] for i, rank in enumerate(ranks)), 4**5 - 4
            continue
        # A repeated rank cannot be suited: its cards take suits 0, 1, ... of that rank.
        cards = tuple(rank + SUITS[i] for rank, n in counts.items() for i in range(n))
        yield cards, prod(comb(4, n) for n in counts.values())


@cache
def hand_kinds() -> tuple[tuple[tuple[Card, ...], int], ...]:
    kinds = tuple(_kinds())
    assert sum(weight for _, weight in kinds) == HANDS
    return kinds


def bonus_rtp(rules: Ruleset) -> Fraction | None:
    """The bonus bet's exact return on the first five cards, at the bonus minimum (where
    ``max_payout`` bites least); None when the ruleset offers no bonus."""
    stake = rules.bonus_min
    if not rules.bonus_enabled or stake <= 0:
        return None
    net = 0
    for cards, weight in hand_kinds():
        _, won, capped = bonus_win(cards, stake, rules)
        # A qualifying hand (stake × multiple > 0 before the cap) gets its stake back
        # besides its winnings; any other loses the stake.
        net += weight * (won if won + capped > 0 else -stake)
    return 1 + Fraction(net, HANDS * stake)


def preset_of(rules: Ruleset) -> str | None:
    for name, preset in PRESETS.items():
        if preset == rules:
            return name
    return None


def theory(rules: Ruleset, main: MainFigure | None, bonus: Fraction | None) -> Theory:
    """The figures of ``rules``, given its stored main figure (a preset's is its own) and
    its :func:`bonus_rtp`."""
    preset = preset_of(rules)
    if preset is not None and preset in PRESET_MAIN:
        main = PRESET_MAIN[preset]
    return Theory(
        fingerprint=rules.fingerprint,
        main_rtp=main.rtp if main else None,
        main_ci95=main.ci95 if main else None,
        main_rounds=main.rounds if main else None,
        main_source=main.source if main else None,
        bonus_rtp=bonus,
    )


class TheorySource(Protocol):
    async def stored_main(self, fingerprint: str) -> MainFigure | None:
        """A custom ruleset's main figure as ``rtp-theory`` stored it."""


class TheoryCache:
    """Theoretical figures per fingerprint: complete ones kept, a missing main figure looked
    up in the store again next time (``rtp-theory`` may have stored it since)."""

    def __init__(self) -> None:
        self._known: dict[str, Theory] = {}
        self._bonus: dict[str, Fraction | None] = {}

    async def get(self, rules: Ruleset, source: TheorySource) -> Theory:
        """The figures; the main one None while no figure is stored for a custom ruleset."""
        found = self._known.get(rules.fingerprint)
        if found is not None:
            return found
        main = None
        if preset_of(rules) not in PRESET_MAIN:
            main = await source.stored_main(rules.fingerprint)
        if rules.fingerprint not in self._bonus:
            # In a thread: the enumeration is pure Python, and the event loop keeps serving
            # between its GIL switches.
            self._bonus[rules.fingerprint] = await asyncio.to_thread(bonus_rtp, rules)
        found = theory(rules, main, self._bonus[rules.fingerprint])
        if found.main_rtp is not None:
            self._known[rules.fingerprint] = found
        return found
