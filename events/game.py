"""Events of a table's stream: seating, the round lifecycle, cards, decisions, settlement.

Cards are text (``"As"``). Some fields are secret until the round is settled — the seed in
``RoundOpened``, other boxes' and the dealer's hidden cards in ``CardsDealt`` and the draws —
so nothing outside the store reads these events except through the redacting projections.
Money never moves in these events: each movement is a wallet event (see ``events.wallet``)
appended in the same transaction.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from russian_poker.events.paytables import CategoryLabel
from russian_poker.events.ruleset import Ruleset

# The fields many events share, described once.
RoundNo = Annotated[int, msgspec.Meta(description="The round's number at the table, from 1.")]
BoxNo = Annotated[int, msgspec.Meta(description="The box's number, from 1.")]
PlayerId = Annotated[
    str,
    msgspec.Meta(
        description="The player's id in the game (an operator's players: `operator:player`)."
    ),
]
SeatNo = Annotated[int, msgspec.Meta(description="The seat's number, from 1.")]
DrawFee = Annotated[
    int, msgspec.Meta(description="The draw fee paid, in minor units of the table's currency.")
]
TimedOut = Annotated[
    bool, msgspec.Meta(description="Decided by the rules' default: the decision time ran out.")
]

__all__ = [
    "AntePlaced",
    "BetsCancelled",
    "BonusSettled",
    "BoxFolded",
    "BoxPlayed",
    "BoxSettled",
    "CardsDealt",
    "CardsExchanged",
    "DealRequested",
    "DealerCardReplaced",
    "DealerExchangeDeclined",
    "DealerExchangeRequested",
    "DealerRevealed",
    "DeckStacked",
    "DealtHand",
    "Outcome",
    "PaidCombination",
    "PlayerLeft",
    "PlayerSeated",
    "RoundOpened",
    "RoundAbandoned",
    "RoundSettled",
    "RulesetChanged",
    "SixthCardBought",
    "TableClosed",
    "TableEvent",
    "TableOpened",
    "TableReopened",
]


class _TableEvent(msgspec.Struct, frozen=True, kw_only=True, tag=True):
    pass


class TableOpened(_TableEvent, frozen=True):
    table_id: Annotated[str, msgspec.Meta(description="The table's id.")]
    name: Annotated[str, msgspec.Meta(description="The table's name in the lobby; may be empty.")]
    ruleset: Annotated[Ruleset, msgspec.Meta(description="The table's ruleset, fully resolved.")]
    private_for: Annotated[
        str | None,
        msgspec.Meta(
            description="A private game: only this player may sit; null for a public table."
        ),
    ] = None
    operator_id: Annotated[str, msgspec.Meta(description="The operator the table belongs to.")] = (
        "default"
    )
    shared: Annotated[
        bool, msgspec.Meta(description="Players of every operator may sit (opened by an admin).")
    ] = False
    reason: Annotated[
        str | None, msgspec.Meta(description="Why the table was opened, if the operator said.")
    ] = None


# The availability events carry their reason; who acted and when are in the event's
# metadata and record, like every command's (the availability log reads them there).


class TableClosed(_TableEvent, frozen=True):
    reason: Annotated[
        str | None,
        msgspec.Meta(description="Why the table was closed (none on events recorded before)."),
    ] = None


class TableReopened(_TableEvent, frozen=True):
    reason: Annotated[str | None, msgspec.Meta(description="Why the table was reopened.")] = None


class RulesetChanged(_TableEvent, frozen=True):
    """The table plays by ``ruleset`` from now on: recorded only between rounds."""

    version: Annotated[
        int,
        msgspec.Meta(
            description="The table's ruleset version after the change: 1 at opening, +1 each."
        ),
    ]
    ruleset: Annotated[Ruleset, msgspec.Meta(description="The new ruleset, fully resolved.")]
    reason: Annotated[str, msgspec.Meta(description="Why the ruleset changed.")]


class PlayerSeated(_TableEvent, frozen=True):
    player: PlayerId
    seat: SeatNo


class PlayerLeft(_TableEvent, frozen=True):
    player: PlayerId
    seat: SeatNo


class RoundOpened(_TableEvent, frozen=True):
    """A round begins; ``commitment`` = SHA-256(seed) is public, ``seed`` is secret."""

    round: RoundNo
    commitment: Annotated[
        str, msgspec.Meta(description="SHA-256 of the round's seed, hex: published before any bet.")
    ]
    seed: Annotated[
        bytes, msgspec.Meta(description="The round's secret seed (base64), revealed at settlement.")
    ]
    deck: Annotated[
        tuple[str, ...],
        msgspec.Meta(
            description="Set only in test mode: a fixed deck order (secret like the seed)."
        ),
    ] = ()


class DeckStacked(_TableEvent, frozen=True):
    """Test mode: the round's deck replaced by a scripted one before the deal (secret like
    the seed until the round is settled)."""

    round: RoundNo
    deck: Annotated[
        tuple[str, ...],
        msgspec.Meta(
            description=(
                "Test mode: the round's deck, top first (secret like the seed until settled)."
            )
        ),
    ]


class AntePlaced(_TableEvent, frozen=True):
    round: RoundNo
    box: BoxNo
    player: PlayerId
    ante: Annotated[
        int, msgspec.Meta(description="The ante, in minor units of the table's currency.")
    ]
    bonus: Annotated[int, msgspec.Meta(description="The bonus bet, in minor units (0: none).")]
    dark: Annotated[
        bool,
        msgspec.Meta(description="A dark box: the Bet is staked with the ante, before the cards."),
    ]
    bet: Annotated[
        int,
        msgspec.Meta(description="The Bet staked with the ante on a dark box; 0 on a light box."),
    ]
    client_seed: Annotated[
        str | None,
        msgspec.Meta(
            description=(
                "The player's client seed for the deck (docs/rules.md §8, `player_seeds`), public"
                " from the moment it is placed; null if none."
            )
        ),
    ] = None


class BetsCancelled(_TableEvent, frozen=True):
    round: RoundNo
    box: BoxNo
    player: PlayerId


class DealRequested(_TableEvent, frozen=True):
    round: RoundNo
    player: PlayerId


class DealtHand(msgspec.Struct, frozen=True, kw_only=True):
    box: BoxNo
    cards: Annotated[
        tuple[str, ...],
        msgspec.Meta(description="The five cards dealt to the box, in text notation (`As`, `Td`)."),
    ]


class CardsDealt(_TableEvent, frozen=True):
    """Five cards to each box in play order and to the dealer; the dealer's fifth is up."""

    round: RoundNo
    hands: Annotated[
        tuple[DealtHand, ...],
        msgspec.Meta(description="Each box in play, in play order, with its five cards."),
    ]
    dealer_cards: Annotated[
        tuple[str, ...], msgspec.Meta(description="The dealer's five cards; the fifth is face up.")
    ]


class BonusSettled(_TableEvent, frozen=True):
    round: RoundNo
    box: BoxNo
    player: PlayerId
    hand: Annotated[
        CategoryLabel,
        msgspec.Meta(description="The hand's category (`high_card`, `pair`, ... `royal_flush`)."),
    ]
    stake: Annotated[int, msgspec.Meta(description="The bonus bet staked, in minor units.")]
    won: Annotated[
        int, msgspec.Meta(description="Winnings after `max_payout`; 0 when the bonus is lost.")
    ]
    capped: Annotated[
        int,
        msgspec.Meta(
            description="What `max_payout` cut from the winnings, in minor units (0: nothing)."
        ),
    ] = 0


class SixthCardBought(_TableEvent, frozen=True):
    round: RoundNo
    box: BoxNo
    card: Annotated[str, msgspec.Meta(description="The sixth card the box received.")]
    fee: DrawFee


class CardsExchanged(_TableEvent, frozen=True):
    round: RoundNo
    box: BoxNo
    discarded: Annotated[tuple[str, ...], msgspec.Meta(description="The box's cards given back.")]
    received: Annotated[
        tuple[str, ...], msgspec.Meta(description="The cards received for them, in the same order.")
    ]
    fee: DrawFee


class BoxPlayed(_TableEvent, frozen=True):
    round: RoundNo
    box: BoxNo
    bet: Annotated[int, msgspec.Meta(description="The Bet staked (two antes), in minor units.")]
    insurance: Annotated[
        int,
        msgspec.Meta(
            description="The insurance bought with the decision, in minor units (0: none)."
        ),
    ] = 0


class BoxFolded(_TableEvent, frozen=True):
    round: RoundNo
    box: BoxNo
    timed_out: TimedOut = False


class DealerRevealed(_TableEvent, frozen=True):
    round: RoundNo
    cards: Annotated[tuple[str, ...], msgspec.Meta(description="The dealer's five cards.")]
    hand: Annotated[CategoryLabel, msgspec.Meta(description="The dealer's hand's category.")]
    qualifies: Annotated[
        bool, msgspec.Meta(description="Whether the dealer has a game (qualifies).")
    ]


class DealerExchangeRequested(_TableEvent, frozen=True):
    round: RoundNo
    box: BoxNo


class DealerExchangeDeclined(_TableEvent, frozen=True):
    round: RoundNo
    box: BoxNo
    timed_out: TimedOut = False


class DealerCardReplaced(_TableEvent, frozen=True):
    """The dealer's highest card set aside and replaced; ``free`` for a same-rank redraw."""

    round: RoundNo
    replaced: Annotated[str, msgspec.Meta(description="The dealer's card set aside (its highest).")]
    card: Annotated[str, msgspec.Meta(description="The card that replaced it.")]
    free: Annotated[
        bool, msgspec.Meta(description="A same-rank redraw, which costs the box nothing.")
    ]


class PaidCombination(msgspec.Struct, frozen=True, kw_only=True):
    """A combination the Bet was paid for, with the cards that make it."""

    category: Annotated[
        CategoryLabel, msgspec.Meta(description="The combination paid (`pair`, `straight`, ...).")
    ]
    cards: Annotated[
        tuple[str, ...],
        msgspec.Meta(
            description=(
                "The combination's defining cards in text notation (`8h 8c` for a "
                "pair; kickers excluded)."
            )
        ),
    ]


Outcome = Literal["folded", "won", "tied", "lost", "dealer_no_game"]


class BoxSettled(_TableEvent, frozen=True):
    """The box's main wager (ante, Bet, insurance) settled: stakes back plus winnings."""

    round: RoundNo
    box: BoxNo
    player: PlayerId
    outcome: Annotated[Outcome, msgspec.Meta(description="The main wager's outcome.")]
    dealer_draw: Annotated[
        bool, msgspec.Meta(description="The box asked for the dealer draw (its ante was the fee).")
    ]
    hand: Annotated[
        CategoryLabel, msgspec.Meta(description="The category the box was paid (or lost) on.")
    ]
    cards: Annotated[
        tuple[str, ...],
        msgspec.Meta(description="The box's final cards (after draws), in text notation."),
    ]
    combinations: Annotated[
        tuple[PaidCombination, ...],
        msgspec.Meta(
            description="The combinations the Bet was paid for (two with `two_combinations`)."
        ),
    ]
    returned: Annotated[
        int, msgspec.Meta(description="Stakes given back (ante, Bet, insurance), in minor units.")
    ]
    won: Annotated[
        int, msgspec.Meta(description="Winnings on top of the stakes returned, in minor units.")
    ]
    capped: Annotated[
        int,
        msgspec.Meta(
            description="What `max_payout` cut from the winnings, in minor units (0: nothing)."
        ),
    ] = 0


class RoundSettled(_TableEvent, frozen=True):
    """The round is over; the seed is revealed so anyone can recompute the deck."""

    round: RoundNo
    commitment: Annotated[
        str, msgspec.Meta(description="SHA-256 of the round's seed, hex: published before any bet.")
    ]
    seed: Annotated[
        bytes,
        msgspec.Meta(
            description="The round's seed (base64), revealed: SHA-256 of it is the `commitment`."
        ),
    ]


class RoundAbandoned(_TableEvent, frozen=True):
    """The round had no activity for ``after_s`` seconds: the events after this one complete
    it by the rules' defaults (docs/rules-decisions.md, "Interrupted rounds")."""

    round: RoundNo
    reason: Annotated[
        str, msgspec.Meta(description="Why the round was completed: `no activity for N s`.")
    ]
    after_s: Annotated[
        int, msgspec.Meta(description="The ruleset's `abandoned_round_after_s` that ran out.")
    ]
    phase: Annotated[
        Literal["betting", "decisions", "dealer_draw"],
        msgspec.Meta(description="Where the round was left: taking bets, deciding, dealer draw."),
    ]


TableEvent = (
    TableOpened
    | TableClosed
    | TableReopened
    | RulesetChanged
    | PlayerSeated
    | PlayerLeft
    | RoundOpened
    | DeckStacked
    | AntePlaced
    | BetsCancelled
    | DealRequested
    | CardsDealt
    | BonusSettled
    | SixthCardBought
    | CardsExchanged
    | BoxPlayed
    | BoxFolded
    | DealerRevealed
    | DealerExchangeRequested
    | DealerExchangeDeclined
    | DealerCardReplaced
    | BoxSettled
    | RoundAbandoned
    | RoundSettled
)
