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

from typing import TYPE_CHECKING, Annotated, TypeAlias, Union, get_args

import msgspec

from russian_poker.events.game import RoundOpened, TableEvent
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


if TYPE_CHECKING:
    ShownEvent: TypeAlias = TableEvent | RoundOpenedShown | WalletEvent
else:
    # Every event type, RoundOpened's place taken by the form the feed shows.
    ShownEvent = Union[  # noqa: UP007 - a union built from the events' own
        tuple(
            RoundOpenedShown if kind is RoundOpened else kind
            for kind in (*get_args(TableEvent), *get_args(WalletEvent))
        )
    ]
"""An event of the audit feed, its secrets hidden while its round is in play."""

RecordedEventData = TableEvent | WalletEvent
"""An event's fields as recorded (a settled round's, in the round viewer)."""
