"""Request and response bodies that are not events, commands or views."""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from events.ruleset import CategoryLabel
from projections.views import TableView

__all__ = [
    "CommandResponse",
    "CreateTable",
    "CreateWallet",
    "LedgerEntry",
    "LedgerPage",
    "LobbyEntry",
    "StackedDeck",
    "TestDeck",
    "Transfer",
    "WalletView",
]


class CreateTable(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    table_id: str = msgspec.field(default="")
    """Leave empty for a generated id. Letters, digits, ``-`` and ``_``, at most 64."""
    name: str = ""
    preset: Literal["russian", "russian-online", "oasis"] = "russian"
    overrides: dict[str, Any] = msgspec.field(default_factory=dict)
    private_for: str | None = None
    test_deck: list[str] | None = None
    """Test mode only: the first round's deck, top first."""


class CreateWallet(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    wallet_id: str
    """The player id whose wallet this is."""
    currency: str = "EUR"


class Transfer(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    transfer_id: str
    """The operator's id for this movement: a retry with the same id moves nothing twice."""
    amount: int


class WalletView(msgspec.Struct, frozen=True, kw_only=True):
    wallet_id: str
    currency: str
    balance: int
    version: int


class LedgerEntry(msgspec.Struct, frozen=True, kw_only=True):
    position: int
    kind: str
    amount: int
    reason: str | None
    table_id: str | None
    round: int | None
    box: int | None
    transfer_id: str | None
    balance_after: int
    recorded_at: str


class LedgerPage(msgspec.Struct, frozen=True, kw_only=True):
    entries: list[LedgerEntry]
    next_cursor: int | None


class LobbyEntry(msgspec.Struct, frozen=True, kw_only=True):
    """One table of the lobby: its game, limits, paytables, places and round."""

    table_id: str
    name: str
    game: str
    status: str
    private: bool
    currency: str
    ante_min: int
    ante_max: int
    bonus_min: int | None
    bonus_max: int | None
    max_payout: int | None
    bet_paytable: dict[CategoryLabel, int]
    bonus_paytable: dict[CategoryLabel, int] | None
    seats: int
    free_seats: int
    boxes: int
    free_boxes: tuple[int, ...]
    boxes_in_play: tuple[int, ...]
    round: int | None
    phase: str | None


class CommandResponse(msgspec.Struct, frozen=True, kw_only=True):
    version: int
    events: int
    duplicate: bool
    table: TableView


class TestDeck(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    cards: list[str]
    """Top of the deck, in the order cards are dealt (docs/test-mode.md)."""


class StackedDeck(msgspec.Struct, frozen=True, kw_only=True):
    """Which round a test deck deals."""

    round: int
    applies_to: Literal["current", "next"]
    """``current``: the round taking bets, nothing dealt yet; ``next``: the round that
    opens after the current one (the current one has cards out)."""
