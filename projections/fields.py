"""Fields that views and records of boxes and rounds share, described once for the OpenAPI
document."""

from __future__ import annotations

from typing import Annotated

import msgspec

__all__ = ["Ante", "BonusStake", "BoxNumber", "Commitment", "Owner"]

BoxNumber = Annotated[int, msgspec.Meta(description="Box number, from 1.")]
Owner = Annotated[str, msgspec.Meta(description="Id of the player who owns the box this round.")]
Ante = Annotated[int, msgspec.Meta(description="Ante in minor units of the table's currency.")]
BonusStake = Annotated[
    int, msgspec.Meta(description="Bonus bet in minor units of the table's currency; 0 if none.")
]
Commitment = Annotated[
    str,
    msgspec.Meta(description="Hex SHA-256 of the round's secret seed, published before any bet."),
]
