"""Path parameters and request-body examples shared by the controllers, as OpenAPI shows them."""

from __future__ import annotations

from typing import Annotated

import msgspec
from litestar.openapi.spec import Example
from litestar.params import PathParameter

__all__ = ["PlayerId", "RoundNumber", "TableId", "WalletId", "example"]

TableId = Annotated[
    str,
    PathParameter(description="The table's id (letters, digits, `-` and `_`, at most 64)."),
]
WalletId = Annotated[
    str, PathParameter(description="The wallet's id: the player id it belongs to.")
]
PlayerId = Annotated[
    str, PathParameter(description="The player's id (the subject of their token).")
]
RoundNumber = Annotated[int, PathParameter(description="The round's number at the table, from 1.")]


def example(summary: str, body: msgspec.Struct) -> Example:
    """An example body built from the struct itself, so it is valid by construction and
    spelled exactly as the API encodes it (tags, renamed fields, defaults)."""
    return Example(summary=summary, value=msgspec.to_builtins(body))
