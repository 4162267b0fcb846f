"""What one command writes, as typed values: its events and the rows kept in step with them.

The command path (the application layer) says *what* is written; the storage adapter
(``russian_poker.events.postgres``) alone says *how*: it writes all of it in one statement,
one round trip and one commit, or nothing. Every field is plain data: ids, numbers, text and
JSON already encoded.
"""

from __future__ import annotations

import uuid

import msgspec

from russian_poker.events.records import StreamAppend

__all__ = [
    "AbandonedRound",
    "CommandWrite",
    "CommittedBets",
    "LedgerMove",
    "OpenedWallet",
    "QueuedWin",
    "SettledBox",
    "SettledRound",
    "TableNotice",
    "TableRow",
    "TimerRow",
    "UsedTestDeck",
    "WinsQueued",
]


class TableRow(msgspec.Struct, frozen=True, kw_only=True):
    """The table's summary after the command, and its state when it is written."""

    table_id: str
    version: int
    name: str
    game: str
    status: str
    currency: str
    operator_id: str
    shared: bool
    state: bytes | None = None
    """The encoded state, at a round boundary (``None``: only the summary is kept)."""
    checkpoint: bool = False
    """Also keep the state as a round-start checkpoint (a round opened)."""


class TimerRow(msgspec.Struct, frozen=True, kw_only=True):
    key: str
    seconds: int
    command: bytes
    """The time-out's command, encoded as JSON."""


class LedgerMove(msgspec.Struct, frozen=True, kw_only=True):
    """One money move of an internal wallet, by the event that makes it."""

    event_id: uuid.UUID
    wallet_id: str
    event_type: str
    signed: int
    reason: str | None = None
    table_id: str | None = None
    round: int | None = None
    box: int | None = None
    transfer_id: str | None = None


class OpenedWallet(msgspec.Struct, frozen=True, kw_only=True):
    event_id: uuid.UUID
    wallet_id: str
    currency: str


class SettledBox(msgspec.Struct, frozen=True, kw_only=True):
    box: int
    player: str
    detail: bytes
    """The box's record for recall and reports, encoded as JSON."""
    staked: int
    paid_back: int


class AbandonedRound(msgspec.Struct, frozen=True, kw_only=True):
    reason: str
    after_s: int
    phase: str


class SettledRound(msgspec.Struct, frozen=True, kw_only=True):
    """A round settled by the command: the history's row and its boxes."""

    table_id: str
    round: int
    commitment: str
    seed: str
    dealer_cards: tuple[str, ...]
    dealer_hand: str | None
    staked: int
    paid_back: int
    players: tuple[str, ...]
    ruleset_fingerprint: str
    boxes: tuple[SettledBox, ...]
    abandoned: AbandonedRound | None = None


class CommittedBets(msgspec.Struct, frozen=True, kw_only=True):
    """A seamless attempt's bets, accepted by the operator: the game's now."""

    attempt_id: uuid.UUID
    transaction_ids: tuple[str, ...]
    operator_transaction_ids: tuple[str | None, ...]
    balances: tuple[int | None, ...]


class QueuedWin(msgspec.Struct, frozen=True, kw_only=True):
    """One credit of a seamless player, as the ``win`` call owed for it."""

    operator_id: str
    player_id: str
    event_id: uuid.UUID
    amount: int
    reason: str
    round: int
    box: int
    closes_round: bool


class WinsQueued(msgspec.Struct, frozen=True, kw_only=True):
    """The ``win`` calls a command owes seamless players, and the round it closes."""

    table_id: str
    currency: str
    wins: tuple[QueuedWin, ...]
    settled_round: int | None
    """The round the command settled: each of its players not credited gets a ``win`` of 0."""
    attempt_id: uuid.UUID | None
    """The command's own bets (not committed yet when the wins are queued)."""


class TableNotice(msgspec.Struct, frozen=True, kw_only=True):
    """A table-status notification owed to the table's operator (or to every seamless
    operator, for a shared table)."""

    event_id: uuid.UUID
    table_id: str
    status: str
    reason: str | None
    actor_role: str
    actor_id: str
    operator_id: str
    shared: bool


class UsedTestDeck(msgspec.Struct, frozen=True, kw_only=True):
    table_id: str
    deck: tuple[str, ...]


class CommandWrite(msgspec.Struct, frozen=True, kw_only=True):
    """Everything one command writes: one statement, all of it or nothing."""

    appends: tuple[StreamAppend, ...]
    command_id: str | None = None
    result: bytes | None = None
    """The command's answer, recorded under its id for retries."""
    table: TableRow | None = None
    timers: tuple[TimerRow, ...] | None = None
    """The table's pending time-outs (``None``: leave them as they are)."""
    opened_wallets: tuple[OpenedWallet, ...] = ()
    ledger: tuple[LedgerMove, ...] = ()
    settled: SettledRound | None = None
    bets: CommittedBets | None = None
    wins: WinsQueued | None = None
    notices: tuple[TableNotice, ...] = ()
    used_test_deck: UsedTestDeck | None = None
    session_id: str | None = None
    """The acting player's launched session: the statement writes nothing unless it is still
    open when it runs."""
