"""Settled rounds: game recall for players and per-round, per-player reports for operators.

Written by the settling command's own append statement, from the round's final state (every box
knows its stakes, fees, outcome and payouts by then), so a player who just saw a round end
finds it in their history on the next read.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

import msgspec

from russian_poker.events.game import Outcome, RoundAbandoned, RoundSettled
from russian_poker.events.ruleset import Ruleset
from russian_poker.events.writes import AbandonedRound, SettledBox, SettledRound
from russian_poker.projections.fields import Ante, BonusStake, BoxNumber, Commitment, Owner
from russian_poker.projections.paging import NextCursor
from russian_poker.projections.results import BoxResult, box_result
from russian_poker.service.rules.hands import evaluate
from russian_poker.service.rules.state import Box, Round, Table

__all__ = [
    "BoxRecord",
    "RoundPage",
    "RoundPosition",
    "RoundRecord",
    "settled_round",
    "settled_write",
]


class BoxRecord(msgspec.Struct, frozen=True, kw_only=True):
    """One box of a settled round, as its player and the operator see it afterwards."""

    box: BoxNumber
    player: Owner
    ante: Ante
    bonus: BonusStake
    dark: Annotated[
        bool,
        msgspec.Meta(
            description="The box was played dark (Bet placed with the ante, automatic play)."
        ),
    ]
    bet: Annotated[
        int,
        msgspec.Meta(
            description=(
                "The Bet (2 x ante) in minor units of the table's currency; 0 if the "
                "box folded before playing."
            )
        ),
    ]
    insurance: Annotated[
        int,
        msgspec.Meta(description="Insurance in minor units of the table's currency; 0 if none."),
    ]
    fees: Annotated[
        int,
        msgspec.Meta(
            description=(
                "Draw fees (a sixth card or an exchange) in minor units of the "
                "table's currency; never returned."
            )
        ),
    ]
    cards: Annotated[
        tuple[str, ...],
        msgspec.Meta(
            description="The box's final cards in text notation (`As`, `Td`), five or six."
        ),
    ]
    hand: Annotated[
        str | None,
        msgspec.Meta(
            description=(
                "The final hand's category (best five of six with a sixth card); null"
                " if the box never held five cards."
            )
        ),
    ]
    decision: Annotated[
        Literal["play", "fold"] | None,
        msgspec.Meta(
            description="`play` or `fold`; null if the box never decided (a dark box plays)."
        ),
    ]
    dealer_draw: Annotated[
        Literal["requested", "declined"] | None,
        msgspec.Meta(
            description=(
                "`requested` or `declined` when the dealer had no game and the box "
                "was asked; else null."
            )
        ),
    ]
    outcome: Annotated[
        Outcome | None,
        msgspec.Meta(description="`won`, `lost`, `tied`, `dealer_no_game` or `folded`."),
    ]
    returned: Annotated[
        int,
        msgspec.Meta(
            description=(
                "Main-wager stakes (ante, Bet, insurance) given back, in minor units "
                "of the table's currency."
            )
        ),
    ]
    won: Annotated[
        int,
        msgspec.Meta(
            description=(
                "Main-wager winnings after `max_payout`, in minor units of the table's currency."
            )
        ),
    ]
    bonus_won: Annotated[
        int,
        msgspec.Meta(
            description=(
                "Bonus winnings after `max_payout`, in minor units of the table's currency."
            )
        ),
    ]
    staked: Annotated[
        int,
        msgspec.Meta(
            description=(
                "Everything the box put on the table (ante, bonus, Bet, insurance, "
                "draw fees), in minor units of the table's currency."
            )
        ),
    ]
    paid_back: Annotated[
        int,
        msgspec.Meta(
            description=(
                "Everything credited for the box (stakes back plus winnings), in "
                "minor units of the table's currency."
            )
        ),
    ]
    result: Annotated[
        BoxResult | None,
        msgspec.Meta(
            description=(
                "The box's result, the same figures the table view showed when it settled:"
                " outcome, combinations paid, money, bonus and insurance. Null in rounds"
                " recorded before results were kept."
            )
        ),
    ] = None
    client_seed: Annotated[
        str | None,
        msgspec.Meta(
            description=(
                "The client seed placed with the box's ante (docs/rules.md §8); null if none "
                "(or in rounds recorded before client seeds were kept)."
            )
        ),
    ] = None


class RoundRecord(msgspec.Struct, frozen=True, kw_only=True):
    """One settled round: its seed, the dealer's hand, its money and its boxes."""

    table_id: Annotated[str, msgspec.Meta(description="The table's id.")]
    round: Annotated[int, msgspec.Meta(description="The round's number at that table.")]
    settled_at: Annotated[
        datetime, msgspec.Meta(description="When the round was settled (ISO 8601).")
    ]
    commitment: Commitment
    seed: Annotated[
        str,
        msgspec.Meta(
            description=(
                "The revealed seed in hex: sha256(bytes.fromhex(seed)) == commitment;"
                " the deck can be recomputed."
            )
        ),
    ]
    dealer_cards: Annotated[
        list[str],
        msgspec.Meta(description="The dealer's final cards in text notation (`As`, `Td`)."),
    ]
    dealer_hand: Annotated[
        str | None,
        msgspec.Meta(
            description="The dealer's final hand category; null if the dealer was never dealt."
        ),
    ]
    staked: Annotated[
        int,
        msgspec.Meta(
            description=(
                "Everything the boxes staked in the round, in minor units of the table's currency."
            )
        ),
    ]
    paid_back: Annotated[
        int,
        msgspec.Meta(
            description=(
                "Everything credited to the boxes, stakes back plus winnings, in "
                "minor units of the table's currency."
            )
        ),
    ]
    house_result: Annotated[
        int,
        msgspec.Meta(
            description=(
                "`staked - paid_back`: the house's result on the round (negative: a "
                "loss), in minor units of the table's currency."
            )
        ),
    ]
    boxes: Annotated[
        list[BoxRecord], msgspec.Meta(description="The round's boxes, as the caller may see them.")
    ]
    abandoned: Annotated[
        str | None,
        msgspec.Meta(
            description=(
                "Why the round was completed by the rules' defaults (`no activity for N s`:"
                " undecided boxes folded, dealer-draw offers declined, bets not yet dealt"
                " refunded); null for a round played to its end."
            )
        ),
    ] = None


class RoundPage(msgspec.Struct, frozen=True, kw_only=True):
    """A page of settled rounds."""

    items: Annotated[
        list[RoundRecord],
        msgspec.Meta(description="Settled rounds, newest first (ties: by table and round)."),
    ]
    next_cursor: NextCursor


class RoundPosition(msgspec.Struct, frozen=True, array_like=True):
    """Where a page of rounds ended: rounds sort newest first by this whole key, so two
    rounds settled in the same microsecond never straddle a page unseen."""

    settled_at: datetime
    table_id: str
    round: int


def settled_round(state: Table, events: list[Any]) -> Round | None:
    """The round these events settled, if they settled one."""
    if not any(isinstance(e, RoundSettled) for e in events):
        return None
    for candidate in (state.round, state.previous):
        if candidate is not None and candidate.phase == "settled":
            settled = [e for e in events if isinstance(e, RoundSettled)][-1]
            if candidate.number == settled.round:
                return candidate
    return None


def box_record(box: Box, rules: Ruleset) -> BoxRecord:
    return BoxRecord(
        box=box.number,
        player=box.player,
        ante=box.ante,
        bonus=box.bonus,
        dark=box.dark,
        bet=box.bet,
        insurance=box.insurance,
        fees=box.fees,
        cards=box.cards,
        hand=evaluate(box.cards).category.label if len(box.cards) >= 5 else None,
        decision=box.decision,
        dealer_draw=box.dealer_draw,
        outcome=box.outcome,
        returned=box.returned,
        won=box.won,
        bonus_won=box.bonus_won,
        staked=box.staked,
        paid_back=box.paid_back,
        result=box_result(box, rules),
        client_seed=box.client_seed,
    )


def settled_write(state: Table, events: list[Any]) -> SettledRound | None:
    """If these events settled a round, its history row and boxes (and, for a round completed
    by the rules' defaults, why), to write with the settling command."""
    finished = settled_round(state, events)
    if finished is None:
        return None
    records = [box_record(b, state.rules) for b in finished.boxes]
    dealer = finished.dealer
    abandoned = next(
        (
            AbandonedRound(reason=e.reason, after_s=e.after_s, phase=e.phase)
            for e in events
            if isinstance(e, RoundAbandoned) and e.round == finished.number
        ),
        None,
    )
    return SettledRound(
        table_id=state.table_id,
        round=finished.number,
        commitment=finished.commitment,
        seed=finished.seed.hex(),
        dealer_cards=tuple(dealer),
        dealer_hand=evaluate(dealer).category.label if dealer else None,
        staked=sum(r.staked for r in records),
        paid_back=sum(r.paid_back for r in records),
        players=tuple(finished.players()),
        ruleset_fingerprint=state.rules.fingerprint,
        boxes=tuple(
            SettledBox(
                box=r.box,
                player=r.player,
                detail=msgspec.json.encode(r),
                staked=r.staked,
                paid_back=r.paid_back,
            )
            for r in records
        ),
        abandoned=abandoned,
    )
