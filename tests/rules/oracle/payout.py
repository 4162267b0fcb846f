"""The money of one box, from the text of docs/rules.md §4-§7 (independent of the engine).

Amounts are integers in minor units. ``returned`` is stake given back, ``won`` is profit
after ``max_payout``, ``capped`` is profit withheld by it. The ruleset is read as data only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from russian_poker.events.ruleset import Ruleset
from tests.rules.oracle.hands import ACE, best_hand, bet_multiple, level, qualifies, rank

__all__ = [
    "BonusResult",
    "DealerStep",
    "Settlement",
    "bonus",
    "cap",
    "deal",
    "dealer_draw",
    "exchange_fee",
    "insurance_limits",
    "multiple",
    "play_order",
    "prices",
    "settle",
    "sixth_card_fee",
]

Outcome = Literal["won", "tied", "lost", "folded", "dealer_no_game"]


def prices(paytable: Mapping[Any, int]) -> dict[str, int]:
    """A paytable (``"N to 1"`` per category name) as plain data."""
    return {str(category): n for category, n in paytable.items()}


def cap(won: int, rules: Ruleset) -> tuple[int, int]:
    """``(paid, withheld)``: ``max_payout`` caps winnings per box and round (§4)."""
    if rules.max_payout is not None and won > rules.max_payout:
        return rules.max_payout, won - rules.max_payout
    return won, 0


def play_order(antes: dict[int, int]) -> list[int]:
    """Box numbers in play order: larger ante first, equal antes by box number (§4)."""
    return sorted(antes, key=lambda box: (-antes[box], box))


def deal(
    deck: Sequence[str], order: Sequence[int]
) -> tuple[dict[int, tuple[str, ...]], tuple[str, ...], list[str]]:
    """§5.2: one card at a time to each box in play order and to the dealer, five each.
    Returns the boxes' hands, the dealer's, and the undealt rest, top first."""
    hands: dict[int, list[str]] = {box: [] for box in order}
    dealer: list[str] = []
    cards = iter(deck)
    for _ in range(5):
        for box in order:
            hands[box].append(next(cards))
        dealer.append(next(cards))
    return {b: tuple(h) for b, h in hands.items()}, tuple(dealer), list(cards)


@dataclass(frozen=True)
class BonusResult:
    hand: str
    won: int
    capped: int
    paid_back: int
    """What the box gets back for the bonus: stake plus winnings, or 0 when it is lost."""


def bonus(first_five: Sequence[str], stake: int, rules: Ruleset) -> BonusResult:
    """§5.3: paid by the bonus paytable ("N to 1") if the first five cards reach
    ``bonus_min_hand`` (``three_aces``: three aces or any higher category), else lost."""
    hand = best_hand(first_five)
    threshold = rules.bonus_min_hand
    if threshold == "three_aces":
        trips = level("three_of_a_kind")
        reaches = hand.level > trips or (hand.level == trips and hand.key[0] == ACE)
    else:
        reaches = hand.level >= level(threshold)
    if not reaches:
        return BonusResult(hand=hand.category, won=0, capped=0, paid_back=0)
    won, capped = cap(stake * prices(rules.bonus_paytable)[hand.category], rules)
    return BonusResult(hand=hand.category, won=won, capped=capped, paid_back=stake + won)


def sixth_card_fee(rules: Ruleset, ante: int) -> int | None:
    """§5.4: the sixth card's fee, or ``None`` where the table sells none."""
    return rules.sixth_card_fee_antes * ante if rules.buy_sixth_card else None


def exchange_fee(rules: Ruleset, ante: int, count: int) -> int | None:
    """§5.4: the fee for exchanging ``count`` cards, or ``None`` if not allowed."""
    if not 1 <= count <= rules.max_exchange_cards:
        return None
    return rules.draw_fee_antes[count - 1] * ante


def multiple(cards: Sequence[str], rules: Ruleset) -> int:
    return bet_multiple(
        cards,
        prices(rules.bet_paytable),
        double_combination=rules.double_combination,
        straight_pair_counts_as_two_straights=rules.straight_pair_counts_as_two_straights,
    )


def insurance_limits(cards: Sequence[str], ante: int, rules: Ruleset) -> tuple[int, int] | None:
    """§5.4: with ``insurance_min_hand`` or better, from one ante up to what the Bet would
    win on the current hand (which ``max_payout`` caps, §5.6), or half of it; ``None`` when
    the box may not insure (no insurance, a lower hand, or a ceiling under one ante)."""
    if rules.insurance_min_hand is None:
        return None
    if best_hand(cards).level < level(rules.insurance_min_hand):
        return None
    ceiling, _ = cap(2 * ante * multiple(cards, rules), rules)
    if rules.insurance_max == "half_payout":
        ceiling //= 2
    return (ante, ceiling) if ceiling >= ante else None


@dataclass(frozen=True)
class DealerStep:
    replaced: str
    card: str
    free: bool


def dealer_draw(
    dealer: Sequence[str], next_card: Callable[[], str], rules: Ruleset
) -> tuple[tuple[str, ...], list[DealerStep]]:
    """§5.5: the dealer's highest card is set aside and replaced from the deck; while the
    new card has the rank of the one it replaced and the dealer still has no game, it is
    replaced again, free, at most ``dealer_redraw_limit`` times (``None``: unlimited)."""
    hand = list(dealer)
    steps: list[DealerStep] = []
    out = max(hand, key=rank)  # no game means no pair: the highest card is unique
    free_redraws = 0
    while True:
        card = next_card()
        steps.append(DealerStep(replaced=out, card=card, free=bool(steps)))
        hand[hand.index(out)] = card
        if rank(card) != rank(out) or qualifies(hand):
            break
        limit = rules.dealer_redraw_limit
        if limit is not None and free_redraws >= limit:
            break
        out, free_redraws = card, free_redraws + 1
    return tuple(hand), steps


@dataclass(frozen=True)
class Settlement:
    outcome: Outcome
    returned: int
    won: int
    capped: int


def settle(
    rules: Ruleset,
    *,
    ante: int,
    cards: Sequence[str],
    dealer: Sequence[str],
    folded: bool = False,
    insurance: int = 0,
    asked_dealer_draw: bool = False,
) -> Settlement:
    """The main wager of one box (ante, Bet = 2 × ante, insurance) against the dealer's
    final hand for it (§5.4-§5.6; ``dealer`` is the hand after the dealer draw if this box
    asked for one). Draw fees are spent and never come back."""
    if folded:
        return Settlement(outcome="folded", returned=0, won=0, capped=0)
    bet = 2 * ante
    # A box that asked for the dealer draw gave its ante as the fee (§5.5).
    ante_in = 0 if asked_dealer_draw else ante
    if not qualifies(dealer):
        # §5.5: ante 1:1, Bet returned; insurance pays 1:1 when the dealer has no game (§5.6).
        return _capped(rules, "dealer_no_game", ante_in + bet + insurance, ante_in + insurance)
    # The dealer has a game: insurance is lost, or returned where a dealer draw gave it one.
    kept = insurance if asked_dealer_draw and rules.insurance_returned_after_dealer_draw else 0
    player, house = best_hand(cards), best_hand(dealer)
    if player > house:
        ante_win = ante_in if rules.ante_pays_on_win else 0
        won = bet * multiple(cards, rules) + ante_win
        return _capped(rules, "won", ante_in + bet + kept, won)
    if player == house:
        return _capped(rules, "tied", ante_in + bet + kept, 0)
    return _capped(rules, "lost", kept, 0)


def _capped(rules: Ruleset, outcome: Outcome, returned: int, won: int) -> Settlement:
    paid, withheld = cap(won, rules)
    return Settlement(outcome=outcome, returned=returned, won=paid, capped=withheld)
