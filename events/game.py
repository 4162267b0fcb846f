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
    table_id: str
    name: str
    ruleset: Ruleset
    private_for: str | None = None
    operator_id: str = "default"
    shared: bool = False
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
    player: str
    seat: int


class PlayerLeft(_TableEvent, frozen=True):
    player: str
    seat: int


class RoundOpened(_TableEvent, frozen=True):
    """A round begins; ``commitment`` = SHA-256(seed) is public, ``seed`` is secret."""

    round: int
    commitment: str
    seed: bytes
    deck: Annotated[
        tuple[str, ...],
        msgspec.Meta(
            description="Set only in test mode: a fixed deck order (secret like the seed)."
        ),
    ] = ()


class DeckStacked(_TableEvent, frozen=True):
    """Test mode: the round's deck replaced by a scripted one before the deal (secret like
    the seed until the round is settled)."""

    round: int
    deck: tuple[str, ...]


class AntePlaced(_TableEvent, frozen=True):
    round: int
    box: int
    player: str
    ante: int
    bonus: int
    dark: bool
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
    round: int
    box: int
    player: str


class DealRequested(_TableEvent, frozen=True):
    round: int
    player: str


class DealtHand(msgspec.Struct, frozen=True, kw_only=True):
    box: int
    cards: tuple[str, ...]


class CardsDealt(_TableEvent, frozen=True):
    """Five cards to each box in play order and to the dealer; the dealer's fifth is up."""

    round: int
    hands: tuple[DealtHand, ...]
    dealer_cards: tuple[str, ...]


class BonusSettled(_TableEvent, frozen=True):
    round: int
    box: int
    player: str
    hand: CategoryLabel
    stake: int
    won: Annotated[
        int, msgspec.Meta(description="Winnings after `max_payout`; 0 when the bonus is lost.")
    ]
    capped: int = 0


class SixthCardBought(_TableEvent, frozen=True):
    round: int
    box: int
    card: str
    fee: int


class CardsExchanged(_TableEvent, frozen=True):
    round: int
    box: int
    discarded: tuple[str, ...]
    received: tuple[str, ...]
    fee: int


class BoxPlayed(_TableEvent, frozen=True):
    round: int
    box: int
    bet: int
    insurance: int = 0


class BoxFolded(_TableEvent, frozen=True):
    round: int
    box: int
    timed_out: bool = False


class DealerRevealed(_TableEvent, frozen=True):
    round: int
    cards: tuple[str, ...]
    hand: CategoryLabel
    qualifies: bool


class DealerExchangeRequested(_TableEvent, frozen=True):
    round: int
    box: int


class DealerExchangeDeclined(_TableEvent, frozen=True):
    round: int
    box: int
    timed_out: bool = False


class DealerCardReplaced(_TableEvent, frozen=True):
    """The dealer's highest card set aside and replaced; ``free`` for a same-rank redraw."""

    round: int
    replaced: str
    card: str
    free: bool


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

    round: int
    box: int
    player: str
    outcome: Outcome
    dealer_draw: Annotated[
        bool, msgspec.Meta(description="The box asked for the dealer draw (its ante was the fee).")
    ]
    hand: CategoryLabel
    cards: tuple[str, ...]
    combinations: tuple[PaidCombination, ...]
    returned: int
    won: int
    capped: int = 0


class RoundSettled(_TableEvent, frozen=True):
    """The round is over; the seed is revealed so anyone can recompute the deck."""

    round: int
    commitment: str
    seed: bytes


class RoundAbandoned(_TableEvent, frozen=True):
    """The round had no activity for ``after_s`` seconds: the events after this one complete
    it by the rules' defaults (docs/rules-decisions.md, "Interrupted rounds")."""

    round: int
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
