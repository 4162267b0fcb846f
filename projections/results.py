"""How a settled box ended: the figures a player reads at the table and in game recall.

A pure function of the settled round's state. Every amount is in minor units and adds up:
``paid_back - staked == net``, and ``paid_back`` is exactly what the wallet was credited for
the box (main wager and bonus).
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from russian_poker.events.game import Outcome, PaidCombination
from russian_poker.events.paytables import CategoryLabel
from russian_poker.events.ruleset import Ruleset
from russian_poker.service.rules.hands import evaluate
from russian_poker.service.rules.state import Box

__all__ = ["BonusResult", "BoxResult", "InsuranceResult", "box_result"]


class BonusResult(msgspec.Struct, frozen=True, kw_only=True):
    """The bonus bet, settled right after the deal on the box's first five cards."""

    outcome: Annotated[
        Literal["won", "lost"],
        msgspec.Meta(
            description=(
                "`won` if the first five cards reached the table's `bonus_min_hand`, else `lost`."
            )
        ),
    ]
    stake: Annotated[
        int, msgspec.Meta(description="The bonus bet in minor units of the table's currency.")
    ]
    hand: Annotated[
        CategoryLabel | None,
        msgspec.Meta(description="The first five cards' hand the bonus was settled on."),
    ]
    won: Annotated[
        int,
        msgspec.Meta(
            description=(
                "Winnings after `max_payout`; the stake comes back besides when the bonus wins."
            )
        ),
    ]
    capped: Annotated[int, msgspec.Meta(description="Winnings withheld by `max_payout`.")]


class InsuranceResult(msgspec.Struct, frozen=True, kw_only=True):
    """Insurance against the dealer having no game, settled on the dealer's final hand."""

    outcome: Annotated[
        Literal["won", "lost", "returned"],
        msgspec.Meta(
            description=(
                "`won`: the dealer had no game (1:1); `lost`: the dealer had a game; `returned`: a "
                "dealer draw gave the dealer a game and the table returns insurance then."
            )
        ),
    ]
    stake: Annotated[
        int, msgspec.Meta(description="The insurance bet in minor units of the table's currency.")
    ]


class BoxResult(msgspec.Struct, frozen=True, kw_only=True):
    """One box's result: outcome, what it was paid for, and its money, to the unit."""

    outcome: Annotated[
        Outcome,
        msgspec.Meta(
            description=(
                "`won`, `lost` or `tied` against a qualifying dealer; `dealer_no_game` (the ante "
                "pays"
                " 1:1 and the Bet comes back, or, after a dealer draw that found no game, the Bet "
                "comes back and the ante was the fee); `folded` (the ante is lost)."
            )
        ),
    ]
    dealer_draw: Annotated[
        bool, msgspec.Meta(description="The box asked for the dealer draw: its ante was the fee.")
    ]
    hand: Annotated[
        CategoryLabel,
        msgspec.Meta(description="The box's final hand (best five of six with a sixth card)."),
    ]
    combinations: Annotated[
        tuple[PaidCombination, ...],
        msgspec.Meta(
            description=(
                "What the Bet was paid for: one combination, or two at a double-combination table."
            )
        ),
    ]
    staked: Annotated[
        int,
        msgspec.Meta(
            description=(
                "Everything the box put on the table: ante, bonus, Bet, insurance and draw fees."
            )
        ),
    ]
    fees: Annotated[
        int, msgspec.Meta(description="Draw fees (a sixth card or an exchange); never returned.")
    ]
    returned: Annotated[
        int, msgspec.Meta(description="Main-wager stakes (ante, Bet, insurance) given back.")
    ]
    won: Annotated[int, msgspec.Meta(description="Main-wager winnings, after `max_payout`.")]
    capped: Annotated[
        int, msgspec.Meta(description="Main-wager winnings withheld by `max_payout`.")
    ]
    paid_back: Annotated[
        int,
        msgspec.Meta(
            description=(
                "Everything credited for the box: main-wager and bonus stakes back plus winnings."
            )
        ),
    ]
    net: Annotated[
        int,
        msgspec.Meta(
            description="`paid_back - staked`: the player's gain (negative: loss) on this box."
        ),
    ]
    bonus: Annotated[
        BonusResult | None, msgspec.Meta(description="`None` when the box placed no bonus bet.")
    ]
    insurance: Annotated[
        InsuranceResult | None, msgspec.Meta(description="`None` when the box was not insured.")
    ]


def box_result(box: Box, rules: Ruleset) -> BoxResult | None:
    """The box's result once it is settled; ``None`` before."""
    if not box.settled or box.outcome is None:
        return None
    return BoxResult(
        outcome=box.outcome,
        dealer_draw=box.dealer_draw == "requested",
        hand=evaluate(box.cards).category.label,
        combinations=box.combinations,
        staked=box.staked,
        fees=box.fees,
        returned=box.returned,
        won=box.won,
        capped=box.capped,
        paid_back=box.paid_back,
        net=box.net,
        bonus=_bonus(box),
        insurance=_insurance(box, rules),
    )


def _bonus(box: Box) -> BonusResult | None:
    if not box.bonus:
        return None
    return BonusResult(
        outcome="won" if box.bonus_won else "lost",
        stake=box.bonus,
        hand=box.bonus_hand,
        won=box.bonus_won,
        capped=box.bonus_capped,
    )


def _insurance(box: Box, rules: Ruleset) -> InsuranceResult | None:
    if not box.insurance:
        return None
    # The outcome, not the dealer's final hand: a box that took the ante win was settled
    # against the dealer as revealed, before another box's dealer draw.
    if box.outcome == "dealer_no_game":
        outcome: Literal["won", "lost", "returned"] = "won"
    elif box.dealer_draw == "requested" and rules.insurance_returned_after_dealer_draw:
        outcome = "returned"
    else:
        outcome = "lost"
    return InsuranceResult(outcome=outcome, stake=box.insurance)
