"""Request and response bodies that are not events, commands or views."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from russian_poker.events.commands import Reason
from russian_poker.events.paytables import CategoryLabel
from russian_poker.events.ruleset import Game
from russian_poker.projections.views import TableView
from russian_poker.service.app.overrides import RulesetOverrides
from russian_poker.service.rules.state import Phase, TableStatus

__all__ = [
    "CommandResponse",
    "CreateTable",
    "CreateWallet",
    "LobbyEntry",
    "StackedDeck",
    "TestDeck",
    "Transfer",
]


class CreateTable(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Open a table: a ruleset preset plus overrides, optionally private."""

    table_id: Annotated[
        str,
        msgspec.Meta(
            description=(
                "The new table's id: letters, digits, `-` and `_`, at most 64; empty "
                "(the default) generates one."
            )
        ),
    ] = msgspec.field(default="")
    name: Annotated[
        str, msgspec.Meta(description="The table's name in the lobby; may be empty (the default).")
    ] = ""
    preset: Annotated[
        Literal["russian", "russian-online", "oasis"],
        msgspec.Meta(
            description=(
                "The ruleset preset the table starts from: `russian` (land casino, "
                "the default), `russian-online` or `oasis`."
            )
        ),
    ] = "russian"
    overrides: Annotated[
        RulesetOverrides,
        msgspec.Meta(
            description=(
                "Ruleset parameters that replace the preset's, by name, e.g."
                ' `{"ante_min": 500}`; none by default.'
            )
        ),
    ] = msgspec.field(default_factory=RulesetOverrides)
    private_for: Annotated[
        str | None,
        msgspec.Meta(
            description=(
                "Make the table private: only this player id may sit. Null (the "
                "default) opens it to everyone."
            )
        ),
    ] = None
    test_deck: Annotated[
        list[str] | None,
        msgspec.Meta(
            description=(
                "Test mode only: the first round's deck, top first, in text notation "
                "(`As`, `Td`); null deals a shuffled deck."
            )
        ),
    ] = None
    shared: Annotated[
        bool,
        msgspec.Meta(
            description=(
                "Admin only: a shared multiplayer table, where players of every operator sit"
                " and each one's money moves through their own operator."
            )
        ),
    ] = False
    reason: Annotated[
        Reason | None,
        msgspec.Meta(
            description="Why the table is opened, 1-500 characters (optional), for the log."
        ),
    ] = None


class CreateWallet(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Open a player's wallet in one currency, with a zero balance."""

    wallet_id: Annotated[str, msgspec.Meta(description="The player id whose wallet this is.")]
    currency: Annotated[
        str,
        msgspec.Meta(
            description=(
                "ISO 4217 code of the wallet's currency; the player can sit only at "
                "tables in this currency. Default `EUR`."
            )
        ),
    ] = "EUR"


class Transfer(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A deposit to or a withdrawal from a wallet, by the operator."""

    transfer_id: Annotated[
        str,
        msgspec.Meta(
            description=(
                "The operator's id for this movement: a retry with the same id moves nothing twice."
            )
        ),
    ]
    amount: Annotated[
        int,
        msgspec.Meta(
            description="Amount to move, in minor units of the wallet's currency; positive."
        ),
    ]


class LobbyEntry(msgspec.Struct, frozen=True, kw_only=True):
    """One table of the lobby: its game, limits, paytables, places and round."""

    table_id: Annotated[str, msgspec.Meta(description="The table's id.")]
    name: Annotated[str, msgspec.Meta(description="The table's name; may be empty.")]
    game: Annotated[Game, msgspec.Meta(description="`russian` or `oasis`.")]
    status: Annotated[
        TableStatus,
        msgspec.Meta(description="`new` (no round yet), `open` (opening rounds) or `closed`."),
    ]
    private: Annotated[
        bool, msgspec.Meta(description="Only the player the table was opened for may sit.")
    ]
    operator_id: Annotated[str, msgspec.Meta(description="The operator the table belongs to.")] = (
        "default"
    )
    shared: Annotated[
        bool, msgspec.Meta(description="Players of every operator may sit at this table.")
    ] = False
    currency: Annotated[
        str,
        msgspec.Meta(
            description="ISO 4217 code of the table's currency; amounts are in its minor units."
        ),
    ]
    ante_min: Annotated[
        int, msgspec.Meta(description="Lowest ante per box in minor units of the table's currency.")
    ]
    ante_max: Annotated[
        int,
        msgspec.Meta(description="Highest ante per box in minor units of the table's currency."),
    ]
    bonus_min: Annotated[
        int | None,
        msgspec.Meta(
            description=(
                "Lowest bonus bet per box in minor units of the table's currency; "
                "null when the table has no bonus."
            )
        ),
    ]
    bonus_max: Annotated[
        int | None,
        msgspec.Meta(
            description=(
                "Highest bonus bet per box in minor units of the table's currency; "
                "null when the table has no bonus."
            )
        ),
    ]
    max_payout: Annotated[
        int | None,
        msgspec.Meta(
            description=(
                "Cap on a box's winnings per round (main wager and bonus separately) "
                "in minor units of the table's currency; null: no cap."
            )
        ),
    ]
    bet_paytable: Annotated[
        dict[CategoryLabel, int],
        msgspec.Meta(
            description="What the Bet pays per combination, as a multiple of the Bet (N to 1)."
        ),
    ]
    bonus_paytable: Annotated[
        dict[CategoryLabel, int] | None,
        msgspec.Meta(
            description=(
                "What the bonus pays per first-five-card hand, as a multiple of the "
                "bonus bet; null when the table has no bonus."
            )
        ),
    ]
    seats: Annotated[int, msgspec.Meta(description="Number of seats (one per box).")]
    free_seats: Annotated[int, msgspec.Meta(description="Seats nobody holds now.")]
    boxes: Annotated[int, msgspec.Meta(description="Number of boxes at the table.")]
    free_boxes: Annotated[
        tuple[int, ...],
        msgspec.Meta(
            description="Boxes one may place an ante on now; empty once the cards are dealt."
        ),
    ]
    boxes_in_play: Annotated[
        tuple[int, ...], msgspec.Meta(description="Boxes with a bet in the current round.")
    ]
    round: Annotated[
        int | None,
        msgspec.Meta(description="The current round's number; null before the first round."),
    ]
    phase: Annotated[
        Phase | None,
        msgspec.Meta(
            description=(
                "The current round's phase (`betting`, `decisions`, `dealer_draw`, "
                "`showdown`, `settled`); null before the first round."
            )
        ),
    ]


class CommandResponse(msgspec.Struct, frozen=True, kw_only=True):
    """What a command did, and the table after it."""

    version: Annotated[
        int,
        msgspec.Meta(
            description=(
                "The table's version after the command; send it as `If-Match` to act on this state."
            )
        ),
    ]
    events: Annotated[int, msgspec.Meta(description="How many events the command recorded.")]
    duplicate: Annotated[
        bool,
        msgspec.Meta(
            description=(
                "The command repeated an `Idempotency-Key` already used: this is the "
                "first answer again and nothing was done twice."
            )
        ),
    ]
    table: Annotated[
        TableView, msgspec.Meta(description="The table after the command, in the caller's view.")
    ]


class TestDeck(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Test mode only: the deck the round taking bets (or the next one) deals."""

    cards: Annotated[
        list[str],
        msgspec.Meta(
            description=(
                "Top of the deck, in the order cards are dealt, in text notation "
                "(`As`, `Td`); see docs/test-mode.md."
            )
        ),
    ]


class StackedDeck(msgspec.Struct, frozen=True, kw_only=True):
    """Which round a test deck deals."""

    round: Annotated[int, msgspec.Meta(description="Number of the round the deck deals.")]
    applies_to: Annotated[
        Literal["current", "next"],
        msgspec.Meta(
            description=(
                "`current`: the round taking bets, nothing dealt yet; `next`: the "
                "round that opens after the current one (the current one has cards "
                "out)."
            )
        ),
    ]
