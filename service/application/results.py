"""What a command answers, and the ways it can fail besides the rules' own refusals."""

from __future__ import annotations

from typing import Annotated

import msgspec

__all__ = ["CommandResult", "Conflict", "UnknownTable", "VersionMismatch"]


class CommandResult(msgspec.Struct, frozen=True, kw_only=True):
    """What a command did: the table's version after it and how many events it recorded."""

    table_id: str
    version: int
    events: int
    fingerprint: Annotated[
        str,
        msgspec.Meta(
            description="SHA-256 of the command as sent: a retry must send the same command."
        ),
    ] = ""
    round: Annotated[
        int, msgspec.Meta(description="The table's current round after the command.")
    ] = 0
    duplicate: bool = False


class VersionMismatch(Exception):
    """The client's ``If-Match`` version is not the table's current version."""

    def __init__(self, expected: int, actual: int) -> None:
        super().__init__(f"the table is at version {actual}, not {expected}")
        self.expected = expected
        self.actual = actual


class UnknownTable(Exception):
    """The command names a table that was never opened (or not the player's to see)."""


class Conflict(Exception):
    """Still losing the race after every retry (extreme contention)."""
