"""Cursors: every paged list hands out its position as one opaque string (`next_cursor`) and
takes it back as `cursor`, whatever the list is ordered by.

The string is the position's fields as a JSON array in URL-safe base64, so a client cannot
come to rely on its shape (a ledger's position is a number today; it may not stay one), and a
string that this list did not give out is told apart from one it did.
"""

from __future__ import annotations

import base64
import binascii
from typing import Annotated, Final, TypeVar

import msgspec

__all__ = [
    "CURSOR_MAX_LENGTH",
    "InvalidCursor",
    "NextCursor",
    "Serial",
    "encode_cursor",
    "read_cursor",
    "read_serial",
    "serial_cursor",
]

CURSOR_MAX_LENGTH: Final = 200
"""Longer than any position this service encodes (a time, a table id of 64, a number)."""

Position = TypeVar("Position", bound=msgspec.Struct)

NextCursor = Annotated[
    str | None,
    msgspec.Meta(
        description=(
            "An opaque position: pass it back as `cursor` for the next page; null on the last page."
        )
    ),
]


class Serial(msgspec.Struct, frozen=True, array_like=True):
    """A position in a list ordered by one number that only grows (a ledger's global
    position, an operator call's ``seq``, an availability change's position)."""

    position: Annotated[int, msgspec.Meta(ge=0, le=2**63 - 1)]


def read_serial(text: str | None) -> int | None:
    """The number a :class:`Serial` cursor stands for; ``None`` for the first page."""
    after = read_cursor(text, Serial)
    return None if after is None else after.position


def serial_cursor(last: int) -> str:
    """The cursor of a page of a :class:`Serial`-ordered list that ended at ``last``."""
    return encode_cursor(Serial(position=last))


class InvalidCursor(ValueError):
    """A cursor this list did not give out."""


def encode_cursor(position: msgspec.Struct) -> str:
    """``position`` (an ``array_like`` struct) as an opaque cursor."""
    return base64.urlsafe_b64encode(msgspec.json.encode(position)).decode().rstrip("=")


def read_cursor(text: str | None, kind: type[Position]) -> Position | None:
    """The position a cursor of this list stands for; ``None`` for no cursor (the first
    page). Raises :class:`InvalidCursor` for anything this list would not have given out."""
    if text is None or text == "":
        return None
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        return msgspec.json.decode(raw, type=kind)
    except (binascii.Error, ValueError, msgspec.DecodeError):
        raise InvalidCursor(
            f"not a cursor of this list: {text[:40]!r}; pass back a `next_cursor` exactly"
        ) from None
