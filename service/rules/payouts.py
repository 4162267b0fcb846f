"""The money of a box: what each stake returns and wins (docs/rules.md §5-§7).

Pure integer arithmetic in minor units. ``returned`` is stake given back, ``won`` is profit;
``max_payout`` caps the profit of the main wager (ante + Bet + insurance) and, separately,
of the bonus, per box and round.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import msgspec

from russian_poker.events.game import Outcome
from russian_poker.events.ruleset import Ruleset
from russian_poker.service.rules.cards import Card, rank_of
from russian_poker.service.rules.combinations import Combination, bet_multiplier, paid_combinations
from russian_poker.service.rules.hands import Category, Hand, evaluate
from russian_poker.service.rules.state import Box

__all__ = [
    "Settlement",
    "bet_paytable",
    "bonus_win",
    "insurance_range",
    "main_settlement",
    "paid_for",
]


class Settlement(msgspec.Struct, frozen=True, kw_only=True):
    outcome: Outcome
    returned: int
    won: int
    capped: int = 0


def bet_paytable(rules: Ruleset) -> Mapping[Category, int]:
    return {Category.from_label(k): v for k, v in rules.bet_paytable.items()}


def paid_for(cards: Sequence[Card], rules: Ruleset) -> tuple[Combination, ...]:
    """The combinations the Bet is paid for if this hand beats a qualifying dealer."""
    return paid_combinations(
        cards,
        paytable=bet_paytable(rules),
        double_combination=rules.double_combination,
        straight_pair_counts_as_two_straights=rules.straight_pair_counts_as_two_straights,
    )


def _cap(won: int, rules: Ruleset) -> tuple[int, int]:
    if rules.max_payout is None or won <= rules.max_payout:
        return won, 0
    return rules.max_payout, won - rules.max_payout


def bonus_win(first_five: Sequence[Card], stake: int, rules: Ruleset) -> tuple[Hand, int, int]:
    """``(hand, won, capped)`` for a bonus bet on the box's first five cards."""
    hand = evaluate(first_five)
    floor = Category.from_label(rules.bonus_threshold_category)
    qualifies = hand.category > floor or (
        hand.category == floor
        and (rules.bonus_min_hand != "three_aces" or rank_of(hand.cards[0]) == 14)
    )
    multiple = rules.bonus_paytable.get(hand.category.label, 0) if qualifies else 0
    won, capped = _cap(stake * multiple, rules)
    return hand, won, capped


def insurance_range(box: Box, rules: Ruleset) -> tuple[int, int] | None:
    """The allowed insurance amounts for the box's current hand, or ``None`` if uninsurable.

    From one ante up to what the Bet would win on this hand, after ``max_payout`` (or half
    of it).
    """
    if rules.insurance_min_hand is None:
        return None
    hand = evaluate(box.cards)
    if hand.category < Category.from_label(rules.insurance_min_hand):
        return None
    ceiling = 2 * box.ante * bet_multiplier(paid_for(box.cards, rules), bet_paytable(rules))
    ceiling, _ = _cap(ceiling, rules)  # the Bet never wins more than ``max_payout``
    if rules.insurance_max == "half_payout":
        ceiling //= 2
    if ceiling < box.ante:
        return None
    return box.ante, ceiling


def main_settlement(
    box: Box,
    player_hand: Hand,
    dealer_hand: Hand,
    dealer_qualifies: bool,
    rules: Ruleset,
) -> Settlement:
    """Settle a box still in play against the dealer's final hand.

    A box that asked for the dealer draw has already given up its ante as the fee.
    """
    asked = box.dealer_draw == "requested"
    ante = 0 if asked else box.ante
    bet, insurance = box.bet, box.insurance
    if not dealer_qualifies:
        # Ante 1:1 (unless it paid for the draw), Bet back, insurance 1:1.
        return _capped("dealer_no_game", ante + bet + insurance, ante + insurance, rules)
    kept_insurance = insurance if asked and rules.insurance_returned_after_dealer_draw else 0
    if player_hand.strength > dealer_hand.strength:
        multiple = bet_multiplier(paid_for(box.cards, rules), bet_paytable(rules))
        ante_win = ante if rules.ante_pays_on_win else 0
        return _capped("won", ante + bet + kept_insurance, bet * multiple + ante_win, rules)
    if player_hand.strength == dealer_hand.strength:
        return _capped("tied", ante + bet + kept_insurance, 0, rules)
    return _capped("lost", kept_insurance, 0, rules)


def _capped(outcome: Outcome, returned: int, won: int, rules: Ruleset) -> Settlement:
    paid, capped = _cap(won, rules)
    return Settlement(outcome=outcome, returned=returned, won=paid, capped=capped)
