"""Events as the API shows them: the stored event's fields, tagged on ``type`` (the event's
type, as stored), one schema per type, so a client generated from the OpenAPI document gets
a typed union rather than a free-form object.

The audit feed shows events of rounds still in play with their secrets hidden
(``projections.redaction``): hidden cards read ``??``, which a card field (text) holds; the
seed of a round in play is ``null``, which ``RoundOpened``'s is not, so the feed's union has
:class:`RoundOpenedShown` in its place. ``tests/audit/test_feed_types.py`` decodes every
item of a played feed, hidden or not, with these types.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from russian_poker.events.game import (
    AntePlaced,
    BetsCancelled,
    BonusSettled,
    BoxFolded,
    BoxPlayed,
    BoxSettled,
    CardsDealt,
    CardsExchanged,
    DealerCardReplaced,
    DealerExchangeDeclined,
    DealerExchangeRequested,
    DealerRevealed,
    DealRequested,
    DeckStacked,
    PlayerLeft,
    PlayerSeated,
    RoundAbandoned,
    RoundSettled,
    RulesetChanged,
    SixthCardBought,
    TableClosed,
    TableEvent,
    TableOpened,
    TableReopened,
)
from russian_poker.events.wallet import WalletEvent

__all__ = ["RecordedEventData", "RoundOpenedShown", "ShownEvent"]


class RoundOpenedShown(msgspec.Struct, frozen=True, kw_only=True, tag="RoundOpened"):
    """``RoundOpened`` as the feed shows it: the seed is null until the round is settled."""

    round: Annotated[int, msgspec.Meta(description="The round's number at the table, from 1.")]
    commitment: Annotated[str, msgspec.Meta(description="SHA-256 of the seed, hex: public.")]
    seed: Annotated[
        bytes | None,
        msgspec.Meta(description="The round's seed (base64); null until the round is settled."),
    ]
    deck: Annotated[
        tuple[str, ...],
        msgspec.Meta(description="Test mode's fixed deck order; empty until settled, or none."),
    ] = ()


ShownEvent = (
    TableOpened
    | TableClosed
    | TableReopened
    | RulesetChanged
    | PlayerSeated
    | PlayerLeft
    | RoundOpenedShown
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
    | WalletEvent
)
"""An event of the audit feed, its secrets hidden while its round is in play."""

RecordedEventData = TableEvent | WalletEvent
"""An event's fields as recorded (a settled round's, in the round viewer)."""
