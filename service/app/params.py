"""Path and paging parameters and request-body examples shared by the controllers, as
OpenAPI shows them."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
from litestar.enums import RequestEncodingType
from litestar.openapi.spec import Example
from litestar.params import Body, PathParameter, QueryParameter

from russian_poker.projections.paging import CURSOR_MAX_LENGTH

__all__ = ["PageCursor", "PlayerId", "RoundNumber", "TableId", "WalletId", "json_body"]

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
RoundNumber = Annotated[
    int,
    PathParameter(ge=1, le=2**31 - 1, description="The round's number at the table, from 1."),
]

PageCursor = Annotated[
    str | None,
    QueryParameter(
        required=False,
        max_length=CURSOR_MAX_LENGTH,
        description=(
            "The previous page's `next_cursor`, exactly as given (an opaque string); omit for"
            " the first page."
        ),
    ),
]
"""The one cursor of every paged list (projections.paging)."""


def json_body(*examples: tuple[str, msgspec.Struct]) -> Any:
    """A JSON request body's OpenAPI description, with ``(summary, body)`` examples built
    from the structs themselves, so each is valid by construction and spelled exactly as
    the API encodes it (tags, renamed fields, defaults). Use as ``Annotated[T, json_body(...)]``."""
    return Body(
        media_type=RequestEncodingType.JSON,
        examples=[
            Example(summary=summary, value=msgspec.to_builtins(body)) for summary, body in examples
        ],
    )
