"""Hypothesis strategies for the oracle's differential test: rulesets, bets and decks.

Random rulesets are a preset plus valid overrides (every parameter docs/rules.md §4-§6 lets a table
set). Decks are stratified: each box and the dealer get a hand of a drawn *kind* (a target
category, a copy of the dealer's ranks for a tie, a dealer without a game), so that ties,
dealers without a game and every combination occur in a few hundred examples instead of
needing millions of shuffles. A kind is a bias, not a promise: the oracle classifies the
cards it is given.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from hypothesis import strategies as st

from russian_poker.events.paytables import BONUS_THRESHOLDS
from russian_poker.events.ruleset import Ruleset
from russian_poker.service.rules.presets import PRESETS, RulesetError, make_ruleset
from tests.rules.oracle.hands import CATEGORIES, DECK, five_card_hand, level, rank, suit
from tests.rules.oracle.payout import play_order

__all__ = ["Bet", "Plan", "Table", "plans", "tables"]

T = TypeVar("T")
Draw = Callable[[st.SearchStrategy[T]], T]

_MAX = 10**12
_PAID = CATEGORIES[1:]
HAND_KINDS = ("random", *CATEGORIES)
BOX_KINDS = (*HAND_KINDS, *["tie"] * 5, "pair+ak", "trips+ak", "ak", "ak")
DEALER_KINDS = (*HAND_KINDS, *["no_game"] * 6, "ak", "ak")


class Table:
    """A ruleset and how it was made (a plain class: Hypothesis prints its ``repr``)."""

    def __init__(self, preset: str, overrides: dict[str, Any], rules: Ruleset) -> None:
        self.preset, self.overrides, self.rules = preset, overrides, rules

    def __repr__(self) -> str:
        return f"make_ruleset({self.preset!r}, {self.overrides!r})"


def _maybe(draw: Draw[Any], strategy: st.SearchStrategy[Any]) -> Any:
    return draw(strategy) if draw(st.booleans()) else None


def _paytable(draw: Draw[Any], monotone: bool) -> dict[str, int]:
    if not monotone:
        return {c: draw(st.integers(0, 100_000) | st.sampled_from([0, 1, 2, 5])) for c in _PAID}
    value = draw(st.integers(0, 3))
    table: dict[str, int] = {}
    for category in _PAID:
        table[category] = min(value, 100_000)
        value += draw(st.sampled_from([0, 1, 1, 2, 5, 30, 1000]))
    return table


@st.composite
def tables(draw: Draw[Any]) -> Table:
    """A preset and valid overrides of (nearly) every parameter, each with chance 1/2."""
    preset = draw(st.sampled_from(sorted(PRESETS)))
    base = PRESETS[preset]
    o: dict[str, Any] = {}
    if draw(st.booleans()):
        low = draw(st.sampled_from([1, 7, 100, 250, 499, 500, 1000, 10**6, 10**9]))
        o["ante_min"] = low
        o["ante_max"] = min(_MAX, low * draw(st.sampled_from([1, 2, 10, 1000, 10**6])))
    ante_min, ante_max = o.get("ante_min", base.ante_min), o.get("ante_max", base.ante_max)
    bonus_enabled = draw(st.booleans()) if draw(st.booleans()) else base.bonus_enabled
    o["bonus_enabled"] = bonus_enabled
    if bonus_enabled:
        bonus_min = _maybe(draw, st.sampled_from([1, 100, max(1, ante_max // 100)]))
        if bonus_min is not None:
            o["bonus_min"] = bonus_min
        bonus_min = o.get("bonus_min", base.bonus_min)
        resolved_max = ante_max // 10 if "ante_max" in o else base.bonus_limit
        if resolved_max < bonus_min or draw(st.booleans()):
            o["bonus_max"] = min(_MAX, bonus_min * draw(st.sampled_from([1, 3, 1000])))
    if draw(st.booleans()):
        scale = draw(st.sampled_from([1, 3, 40, 1000]))
        o["max_payout"] = draw(st.sampled_from([1, min(_MAX, scale * ante_min), _MAX]))
    for name in (
        "double_combination",
        "straight_pair_counts_as_two_straights",
        "buy_sixth_card",
        "discards_return_to_deck",
        "ante_pays_on_win",
        "insurance_returned_after_dealer_draw",
    ):
        if draw(st.booleans()):
            o[name] = draw(st.booleans())
    if draw(st.booleans()):
        o["dealer_draw"] = draw(st.sampled_from([True, True, False]))
    if draw(st.booleans()):
        o["max_exchange_cards"] = draw(st.integers(0, 5))
    if draw(st.booleans()):
        o["draw_fee_antes"] = tuple(
            draw(st.lists(st.sampled_from([0, 1, 1, 2, 3, 100]), min_size=5, max_size=5))
        )
    if draw(st.booleans()):
        o["sixth_card_fee_antes"] = draw(st.sampled_from([0, 1, 2, 100]))
    if draw(st.booleans()):
        o["insurance_min_hand"] = draw(st.sampled_from([None, *CATEGORIES[2:]]))
    if draw(st.booleans()):
        o["insurance_max"] = draw(st.sampled_from(["payout", "half_payout"]))
    if draw(st.booleans()):
        o["dealer_redraw_limit"] = draw(st.sampled_from([None, 0, 1, 2]))
    double = o.get("double_combination", base.double_combination)
    if draw(st.booleans()):
        # Non-monotone Bet paytables only with one combination: with two, whether a straight
        # flush also "is" a straight (say) would matter, and the rules do not say.
        o["bet_paytable"] = _paytable(draw, monotone=double or draw(st.booleans()))
    if bonus_enabled and draw(st.booleans()):
        threshold = draw(st.sampled_from(BONUS_THRESHOLDS))
        o["bonus_min_hand"] = threshold
        floor = level("three_of_a_kind" if threshold == "three_aces" else threshold)
        # Every hand from the threshold up must be priced; a price below it must never pay.
        o["bonus_paytable"] = {
            c: draw(st.sampled_from([1, 2, 5, 40, 1000, 100_000]))
            for c in _PAID
            if level(c) >= floor or draw(st.booleans())
        }
    if draw(st.booleans()):
        o["boxes"] = draw(st.integers(1, 10))
    while True:
        boxes = o.get("boxes", base.boxes)
        light = o.get("light_boxes_per_player", base.light_boxes_per_player)
        if draw(st.booleans()) or light > boxes:
            o["light_boxes_per_player"] = draw(st.integers(1, boxes))
        try:
            return Table(preset=preset, overrides=o, rules=make_ruleset(preset, o))
        except RulesetError as exc:
            # The only refusal these overrides can meet: more boxes than one deck can serve.
            assert "too many for one" in str(exc), (preset, o, exc)
            o["boxes"] = boxes - 1


@dataclass(frozen=True)
class Bet:
    box: int
    player: str
    ante: int
    bonus: int
    dark: bool


class Plan:
    """The bets in the order they are placed, the hand kinds asked for, and the stacked
    deck, top first (a plain class: Hypothesis prints its one-line ``repr``)."""

    def __init__(self, bets: tuple[Bet, ...], kinds: dict[str, str], deck: tuple[str, ...]) -> None:
        self.bets, self.kinds, self.deck = bets, kinds, deck

    def __repr__(self) -> str:
        return f"Plan(bets={self.bets!r}, kinds={self.kinds!r}, deck={' '.join(self.deck)!r})"


def _amount(draw: Draw[Any], low: int, high: int, also: list[int]) -> int:
    """Boundaries, 499/500 and repeats are likelier than a uniform draw would make them."""
    near = [min(max(x, low), high) for x in (low, high, 499, 500, 10**6, 10**9, *also)]
    amount: int = draw(st.sampled_from(near) | st.integers(low, high))
    return amount


@st.composite
def plans(draw: Draw[Any], rules: Ruleset) -> Plan:
    numbers = draw(
        st.lists(st.integers(1, rules.boxes), min_size=1, max_size=min(rules.boxes, 4), unique=True)
    )
    bets: list[Bet] = []
    light: dict[str, int] = {}
    for number in numbers:
        owner = draw(st.sampled_from(["ann", "bob"]))
        ante = _amount(draw, rules.ante_min, rules.ante_max, [b.ante for b in bets])
        bonus = 0
        if rules.bonus_enabled and draw(st.booleans()):
            bonus = _amount(draw, rules.bonus_min, rules.bonus_limit, [])
        dark = light.get(owner, 0) >= rules.light_boxes_per_player or draw(st.integers(0, 4)) == 0
        if not dark:
            light[owner] = light.get(owner, 0) + 1
        bets.append(Bet(box=number, player=owner, ante=ante, bonus=bonus, dark=dark))
    order = play_order({b.box: b.ante for b in bets})
    pool = list(draw(st.permutations(DECK)))
    kinds = {"dealer": draw(st.sampled_from(DEALER_KINDS))}
    dealer = _hand(draw, kinds["dealer"], pool, None)
    hands = {}
    for number in order:
        kinds[f"box {number}"] = draw(st.sampled_from(BOX_KINDS))
        hands[number] = _hand(draw, kinds[f"box {number}"], pool, dealer)
    seats = [*(hands[n] for n in order), dealer]
    top = [hand[i] for i in range(5) for hand in seats]
    lures = _lures(draw, list(hands.values()), dealer, pool)
    rest = [*lures, *(c for c in pool if c not in lures)]
    return Plan(bets=tuple(bets), kinds=kinds, deck=(*top, *rest))


def _lures(
    draw: Draw[Any], hands: list[list[str]], dealer: list[str], pool: list[str]
) -> list[str]:
    """Cards moved to the top of the undealt deck, where the draws take them: a card of the
    rank of a box's card or next to it (a sixth card that makes two straights, a straight
    and a pair, two pairs), and the dealer's highest rank (a free dealer redraw, §5.5),
    in a drawn order."""
    lures: list[str] = []
    for hand in hands:
        if draw(st.booleans()):
            wanted = rank(draw(st.sampled_from(hand))) + draw(st.sampled_from([-1, 0, 1]))
            lures += [c for c in pool if rank(c) == wanted and c not in lures][:1]
    if draw(st.integers(0, 2)):
        high = max(rank(c) for c in dealer)
        same = [c for c in pool if rank(c) == high and c not in lures]
        lures = [*same, *lures] if draw(st.booleans()) else [*lures, *same]
    return lures


def _hand(draw: Draw[Any], kind: str, pool: list[str], dealer: list[str] | None) -> list[str]:
    """Five cards of ``kind`` taken out of ``pool``, or its first five if it cannot."""
    hand = _build(draw, kind, pool, dealer)
    if hand is None or len(set(hand)) != 5:
        hand = pool[:5]
    for card in hand:
        pool.remove(card)
    return hand


def _build(
    draw: Draw[Any], kind: str, pool: list[str], dealer: list[str] | None
) -> list[str] | None:
    def of_rank(r: int, n: int, taken: list[str]) -> list[str] | None:
        found = [c for c in pool if rank(c) == r and c not in taken][:n]
        return found if len(found) == n else None

    def fill(hand: list[str] | None, avoid_ak: bool = False) -> list[str] | None:
        """Complete with cards of ranks not yet in the hand (kickers that pair nothing)."""
        if hand is None:
            return None
        for card in pool:
            ranks = {rank(c) for c in hand}
            if len(hand) == 5:
                break
            if rank(card) in ranks or (avoid_ak and rank(card) in (13, 14) and ranks & {13, 14}):
                continue
            hand = [*hand, card]
        return hand

    def join(*parts: list[str] | None) -> list[str] | None:
        return None if any(p is None for p in parts) else [c for p in parts for c in p or []]

    ranks = st.integers(2, 14)
    if kind == "random":
        return pool[:5]
    if kind == "no_game":
        return fill([], avoid_ak=True)
    if kind == "ak":
        return fill(join(of_rank(14, 1, []), of_rank(13, 1, [])))
    if kind in ("pair+ak", "trips+ak"):
        # Two combinations in five cards (§3's `8h 8c As Kd 9s`); AA or KK pairs included.
        same = of_rank(draw(ranks), 2 if kind == "pair+ak" else 3, [])
        ace = of_rank(14, 1, same or [])
        return fill(join(same, ace, of_rank(13, 1, same or [])))
    if kind in ("pair", "three_of_a_kind", "four_of_a_kind"):
        return fill(of_rank(draw(ranks), {"pair": 2, "three_of_a_kind": 3}.get(kind, 4), []))
    if kind in ("two_pair", "full_house"):
        high, low = draw(ranks), draw(st.integers(2, 13))
        low += low >= high  # any other rank
        return fill(join(of_rank(high, 2 if kind == "two_pair" else 3, []), of_rank(low, 2, [])))
    if kind == "straight":
        top = draw(st.integers(5, 14))
        return join(*(of_rank(14 if r == 1 else r, 1, []) for r in range(top - 4, top + 1)))
    if kind in ("flush", "straight_flush", "royal_flush"):
        s = draw(st.sampled_from("shdc"))
        if kind == "flush":
            hand = [c for c in pool if suit(c) == s][:5]
            return hand if len(hand) == 5 else None
        top = 14 if kind == "royal_flush" else draw(st.integers(5, 13))
        wanted = {(14 if r == 1 else r) for r in range(top - 4, top + 1)}
        hand = [c for c in pool if suit(c) == s and rank(c) in wanted]
        return hand if len(hand) == 5 else None
    if kind == "tie" and dealer is not None:
        return _tie(pool, dealer)
    return None


def _tie(pool: list[str], dealer: list[str]) -> list[str] | None:
    """The dealer's ranks in other suits (one other suit throughout if it is a flush)."""
    if five_card_hand(dealer).category in ("flush", "straight_flush", "royal_flush"):
        for s in "shdc":
            flush = [c for c in pool if suit(c) == s and rank(c) in {rank(d) for d in dealer}]
            if len(flush) == 5:
                return flush
        return None
    hand: list[str] = []
    for card in dealer:
        same = [c for c in pool if rank(c) == rank(card) and c not in hand]
        if not same:
            return None
        hand.append(same[0])
    # Not a flush by accident (five of one suit would beat the dealer, not tie).
    return None if len({suit(c) for c in hand}) == 1 else hand
