"""The command vocabulary: what players, operators and the clock ask a table to do.

Commands are a tagged union (``{"type": "PlaceAnte", ...}``) so the HTTP body, the event
metadata that records them and the replay that re-runs them share one definition. A command
names no table and no player: the table is the stream it is sent to, and who sends it comes
from the authenticated :class:`Actor`, never from the body.
"""

from __future__ import annotations

from typing import Annotated, Final, Literal

import msgspec

from russian_poker.events.ruleset import Ruleset

__all__ = [
    "Actor",
    "BettingTimeUp",
    "BuyCard",
    "CancelBets",
    "ChangeRuleset",
    "CloseTable",
    "CompleteAbandonedRound",
    "Command",
    "Deal",
    "DecisionTimeUp",
    "DeclineDealerExchange",
    "Exchange",
    "Fold",
    "Insure",
    "LeaveTable",
    "OpenRound",
    "OpenTable",
    "PlaceAnte",
    "Play",
    "PlayerCommand",
    "ReopenTable",
    "RepeatBets",
    "REASON_MAX",
    "Reason",
    "RequestDealerExchange",
    "SitDown",
    "StackDeck",
    "SYSTEM",
]


class Actor(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """Who sends a command: a player (by id), an operator, or the service's own clock."""

    role: Annotated[
        Literal["player", "operator", "system", "auditor"],
        msgspec.Meta(
            description="`player`, `operator`, `system` (the service's clock) or `auditor`."
        ),
    ]
    id: Annotated[
        str,
        msgspec.Meta(
            description=(
                "Their id: the player's, the staff member's (their token's subject), or `system`."
            )
        ),
    ]
    admin: Annotated[
        bool,
        msgspec.Meta(
            description="An admin acting with the operator's powers (`role` is then `operator`)."
        ),
    ] = False
    """An admin acting with the operator's powers (``role`` is then ``operator``): kept so
    the availability log can say who it really was. Omitted when false, so the metadata of
    every other command is recorded as before."""


SYSTEM = Actor(role="system", id="system")


class _Command(msgspec.Struct, frozen=True, kw_only=True, tag=True, forbid_unknown_fields=True):
    pass


REASON_MAX: Final = 500
"""The longest reason a table's availability change may carry, in characters."""

Reason = Annotated[str, msgspec.Meta(min_length=1, max_length=REASON_MAX)]
"""Why a table was opened, closed, reopened or its ruleset changed: 1 to 500 characters."""


# -- operator -------------------------------------------------------------------------------


class OpenTable(_Command, frozen=True):
    """Open a new table with a fully resolved ruleset (see ``make_ruleset``)."""

    ruleset: Ruleset
    name: str = ""
    private_for: Annotated[
        str | None, msgspec.Meta(description="A private game (seed 003): only this player may sit.")
    ] = None
    operator_id: Annotated[str, msgspec.Meta(description="The operator the table belongs to.")] = (
        "default"
    )
    shared: Annotated[
        bool,
        msgspec.Meta(description="Players of every operator may sit (opened by an admin)."),
    ] = False
    reason: Annotated[
        Reason | None,
        msgspec.Meta(description="Why the table is opened, for the availability log (optional)."),
    ] = None


class CloseTable(_Command, frozen=True):
    """Stop opening rounds; bets of a round not yet dealt are refunded."""

    reason: Annotated[
        Reason | None,
        msgspec.Meta(
            description=(
                "Why the table is closed, for the availability log and the operator's "
                "notification. The HTTP API requires it; commands recorded before reasons "
                "existed have none."
            )
        ),
    ] = None


class ReopenTable(_Command, frozen=True):
    """Open a closed table again."""

    reason: Annotated[
        Reason | None,
        msgspec.Meta(description="Why the table is reopened, for the availability log."),
    ] = None


class ChangeRuleset(_Command, frozen=True):
    """Replace the table's ruleset (paytables, limits, options) between rounds: no round in
    play and no bet in the round taking bets. The ruleset is fully resolved (see
    ``make_ruleset``), so a replay applies exactly what was decided."""

    ruleset: Annotated[Ruleset, msgspec.Meta(description="The new ruleset, fully resolved.")]
    reason: Annotated[
        Reason, msgspec.Meta(description="Why the ruleset changes, for the availability log.")
    ]


class StackDeck(_Command, frozen=True):
    """Test mode only (the shell sends it only then): the deck of the round taking bets,
    top first, while nothing is dealt. Cards not named follow in a fixed order; the seed
    still drives where discards go back."""

    deck: tuple[str, ...]


# -- the service's clock and dealer -----------------------------------------------------------


class OpenRound(_Command, frozen=True):
    """Start the next round with a secret seed the shell drew from ``secrets``."""

    seed: bytes
    deck: Annotated[
        tuple[str, ...],
        msgspec.Meta(
            description=(
                "Test mode only: the deck order, top first, instead of the seed's "
                "shuffle. The seed still drives where discards go back."
            )
        ),
    ] = ()


class BettingTimeUp(_Command, frozen=True):
    """The betting timer of ``round`` ran out: deal what is bet."""

    round: Annotated[int, msgspec.Meta(description="The round's number at the table, from 1.")]


class DecisionTimeUp(_Command, frozen=True):
    """``box`` did not decide in time: fold it (``decision``) or decline the dealer draw."""

    round: Annotated[int, msgspec.Meta(description="The round's number at the table, from 1.")]
    box: Annotated[int, msgspec.Meta(description="The box's number, from 1.")]
    phase: Literal["decision", "dealer_draw"]


class CompleteAbandonedRound(_Command, frozen=True):
    """``round`` had no activity for the ruleset's ``abandoned_round_after_s``: complete it
    by the rules' defaults. ``activity`` is the round's event count the timer was set at, so
    a timer that any later activity made stale is refused rather than acted on."""

    round: Annotated[int, msgspec.Meta(description="The round's number at the table, from 1.")]
    activity: int


# -- players --------------------------------------------------------------------------------


class SitDown(_Command, frozen=True):
    """Take a seat (the first free one unless ``seat`` is given)."""

    seat: Annotated[
        int | None,
        msgspec.Meta(
            description="Seat to take, from 1 (one seat per box); null takes the first free one."
        ),
    ] = None


class LeaveTable(_Command, frozen=True):
    """Leave the seat; bets not yet dealt are refunded."""


class PlaceAnte(_Command, frozen=True):
    """Bet an ante on a free box, optionally with a bonus; a dark box also stakes the Bet."""

    box: Annotated[
        int, msgspec.Meta(description="Box number, from 1, to bet on; it must be free this round.")
    ]
    ante: Annotated[
        int,
        msgspec.Meta(
            description=(
                "Ante in minor units of the table's currency, within `ante_min`..`ante_max`."
            )
        ),
    ]
    bonus: Annotated[
        int,
        msgspec.Meta(
            description=(
                "Bonus bet in minor units of the table's currency, within "
                "`bonus_min`..`bonus_max`; 0 (the default) places none."
            )
        ),
    ] = 0
    dark: Annotated[
        bool,
        msgspec.Meta(
            description=(
                "Play the box dark: the Bet (2 x ante) is staked now with the ante "
                "and the box plays automatically (no fold, draw, insurance or dealer "
                "draw). Default false (light, if the player's light boxes allow)."
            )
        ),
    ] = False
    client_seed: Annotated[
        str | None,
        msgspec.Meta(
            description=(
                "Your entropy for this round's deck (docs/rules.md §8, tables with `player_seeds`):"
                " 1 to 64 printable ASCII characters (0x20..0x7E, space included), used"
                " byte for byte. Every client seed placed before the deal is combined with"
                " the committed server seed as docs/fairness.md specifies; it is shown to"
                " everyone at the table at once. Null (the default) adds none."
            )
        ),
    ] = None


class CancelBets(_Command, frozen=True):
    """Take back this round's bets before the deal: on one box, or all of the player's."""

    box: Annotated[
        int | None,
        msgspec.Meta(
            description=(
                "Box number whose bets to take back; null (the default) takes back "
                "all of the player's bets this round."
            )
        ),
    ] = None


class RepeatBets(_Command, frozen=True):
    """Place the player's previous round's bets again in one step (seed 003's "Repeat")."""

    client_seed: Annotated[
        str | None,
        msgspec.Meta(
            description=(
                "A client seed (as in `PlaceAnte`) placed with every repeated box; the"
                " previous round's seeds are not repeated. Null (the default) adds none."
            )
        ),
    ] = None


class Deal(_Command, frozen=True):
    """The player is ready: deal once every player with a bet is."""


class BuyCard(_Command, frozen=True):
    """Buy a sixth card for ``box`` (Russian)."""

    box: Annotated[
        int,
        msgspec.Meta(
            description=(
                "Box number, from 1, that buys the sixth card; its draw fee is "
                "`sixth_card_fee_antes` antes."
            )
        ),
    ]


class Exchange(_Command, frozen=True):
    """Exchange the named cards of ``box`` for new ones from the deck."""

    box: Annotated[
        int,
        msgspec.Meta(
            description=(
                "Box number, from 1, that exchanges; its draw fee is the "
                "`draw_fee_antes` entry for the number of cards."
            )
        ),
    ]
    cards: Annotated[
        list[str],
        msgspec.Meta(
            description=(
                "The box's cards to discard, 1 to `max_exchange_cards` of them, each exactly"
                " a rank of `23456789TJQKA` then a suit of `shdc` (`As`, `Td`); any other"
                " spelling (`AS`, `10d`, `A♠`) is refused with `invalid_cards`."
            )
        ),
    ]


class Play(_Command, frozen=True):
    """Stay in: place the Bet (2 x ante)."""

    box: Annotated[int, msgspec.Meta(description="Box number, from 1, that plays.")]


class Insure(_Command, frozen=True):
    """Play and insure against the dealer having no game, with ``amount`` of insurance."""

    box: Annotated[int, msgspec.Meta(description="Box number, from 1, that plays and insures.")]
    amount: Annotated[
        int,
        msgspec.Meta(
            description=(
                "Insurance in minor units of the table's currency, within the box's "
                "`insurance_range`."
            )
        ),
    ]


class Fold(_Command, frozen=True):
    """Give up the box; the ante is lost."""

    box: Annotated[int, msgspec.Meta(description="Box number, from 1, that folds.")]


class RequestDealerExchange(_Command, frozen=True):
    """The dealer has no game: give up the ante win and have the dealer's top card replaced."""

    box: Annotated[
        int, msgspec.Meta(description="Box number, from 1, that asks for the dealer draw.")
    ]


class DeclineDealerExchange(_Command, frozen=True):
    """The dealer has no game: take the ante win."""

    box: Annotated[int, msgspec.Meta(description="Box number, from 1, that takes the ante win.")]


PlayerCommand = (
    SitDown
    | LeaveTable
    | PlaceAnte
    | CancelBets
    | RepeatBets
    | Deal
    | BuyCard
    | Exchange
    | Play
    | Insure
    | Fold
    | RequestDealerExchange
    | DeclineDealerExchange
)
"""What a player may send over HTTP."""

Command = (
    OpenTable
    | CloseTable
    | ReopenTable
    | ChangeRuleset
    | StackDeck
    | OpenRound
    | BettingTimeUp
    | DecisionTimeUp
    | CompleteAbandonedRound
    | PlayerCommand
)
