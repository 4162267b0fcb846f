"""Reads from a streaming replica, with the primary behind them for reading one's writes.

A replica replays the primary's WAL a little behind it (milliseconds, usually). A client
that has just written knows the version it wrote (a command's answer names the table's, a
transfer's the wallet's) and may ask a read for it (``min_version``): if the replica has
not replayed that far, the primary answers. Reads that ask for nothing take what the
replica has.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Annotated, Final, Protocol, TypeVar

from litestar.exceptions import NotFoundException
from litestar.params import QueryParameter

if TYPE_CHECKING:
    from russian_poker.events.postgres.storage import Storage

__all__ = ["MinVersion", "Reads", "Versioned", "read_your_writes"]

MinVersion = Annotated[
    int | None,
    QueryParameter(
        ge=1,
        le=2**63 - 1,
        required=False,
        description=(
            "Read your own writes: the version the caller last wrote (a command's or a"
            " transfer's answer names it). Where the service reads from a replica that has"
            " not replayed that far yet, the primary answers; omit to take what is there."
        ),
    ),
]


class Versioned(Protocol):
    @property
    def version(self) -> int: ...


V = TypeVar("V", bound=Versioned)

_NOTHING: Final = 0


class Reads:
    """The stores the read-only routes use: ``replica``'s, or the primary's when there is
    none (then both are the same)."""

    def __init__(self, primary: Storage, replica: Storage | None = None) -> None:
        self.primary = primary
        self.replica = replica or primary

    @property
    def replicated(self) -> bool:
        return self.replica is not self.primary


async def read_your_writes(
    reads: Reads, min_version: int | None, read: Callable[[Storage], Awaitable[V]]
) -> V:
    """``read`` on the replica; again on the primary when the caller asked for a version
    the replica does not have yet (or for something it does not know of yet)."""
    if min_version is None or not reads.replicated:
        return await read(reads.replica)
    try:
        found = await read(reads.replica)
    except NotFoundException:
        return await read(reads.primary)
    if found.version < min_version:
        return await read(reads.primary)
    return found
