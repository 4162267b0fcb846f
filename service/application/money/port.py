"""The money port: where a player's money lives, as the command path sees it.

A command decides on the rules alone; the events it records say what money moves
(``WalletDebited``, ``WalletCredited``). Where that money is depends on the player's
operator, and one port hides which:

- :class:`~russian_poker.service.application.money.internal.InternalMoney`: the game's own
  event-sourced wallets. A debit is checked against the balance the command decided on
  (``check_funds``) and appended with the wallet's expected version; balances and the
  ledger are written by the command's own statement.
- :class:`~russian_poker.service.application.money.seamless.SeamlessMoney`: the operator's
  wallet. Every debit is a ``bet`` call the operator accepts before the command is recorded
  (intent first, every unknown outcome rolled back); every credit a ``win`` call owed
  through the outbox, queued by the same statement as its event.

Both are used by every command through :class:`Money`, which routes each wallet to its
adapter; one contract suite (``tests/money``) runs the same command sequences against both.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Protocol

import msgspec

from russian_poker.events.codec import Event
from russian_poker.events.commands import Actor
from russian_poker.events.writes import CommittedBets, LedgerMove, WinsQueued
from russian_poker.projections.wallets import HeldWallet
from russian_poker.service.application.ports import CommandUnit
from russian_poker.service.application.sessions import SessionRef

__all__ = ["Draft", "MoneyPlan", "Placed", "Planned", "Route", "Wallets"]


class Planned(msgspec.Struct, frozen=True, kw_only=True):
    """One event of the command, with the id it is appended under."""

    event: Event
    event_id: uuid.UUID


class Draft(msgspec.Struct, frozen=True, kw_only=True):
    """A command decided and about to be recorded, as the money adapters see it."""

    table_id: str
    command_id: str
    actor: Actor
    session: SessionRef | None
    """The acting player's launched session, if any."""
    currency: str
    events: tuple[Planned, ...]
    """Every event the command records (the next round's opening included), in order."""
    settled_round: int | None
    """The round the command settles, if it does."""
    held: dict[str, HeldWallet]
    """Internal wallets already read (the acting player's, with the table)."""
    fresh: bool
    """This attempt read the table afresh: nothing cached is trusted."""


class Route(msgspec.Struct, frozen=True):
    """Where a wallet's events are appended: its stream, and the version a debit expects
    (``None``: any version)."""

    stream_id: str
    expected_version: int | None


class Placed(msgspec.Struct, frozen=True, kw_only=True):
    """A seamless attempt's bets, accepted by the operator and held (locks) until the
    command is recorded or undone."""

    attempt_id: uuid.UUID
    transaction_ids: tuple[str, ...]
    players: tuple[str, ...]


class MoneyPlan(msgspec.Struct, frozen=True, kw_only=True):
    """What the money adapters add to the command's one statement, and what they hold."""

    routes: dict[str, Route]
    """Every wallet the command moves money in, by id."""
    ledger: tuple[LedgerMove, ...] = ()
    bets: CommittedBets | None = None
    wins: WinsQueued | None = None
    placed: Placed | None = None
    held: dict[str, HeldWallet] = msgspec.field(default_factory=dict)
    """Internal wallets as the command decided on them (for the cache)."""


class Wallets(Protocol):
    """One kind of wallet: the internal ledger or an operator's."""

    async def seat(
        self, player: str, held: dict[str, HeldWallet], currency: str, session: SessionRef | None
    ) -> None:
        """Refuse a seat the player's money could not play at (no wallet, another
        currency, no session)."""
        ...

    async def plan(self, unit: CommandUnit, draft: Draft, wallet_ids: Sequence[str]) -> MoneyPlan:
        """Check or place the debits of ``wallet_ids`` in ``draft``; what the statement adds."""
        ...

    async def failed(self, unit: CommandUnit, plan: MoneyPlan) -> None:
        """The command was not recorded: undo what ``plan`` did outside the statement."""
        ...

    async def done(self, unit: CommandUnit, plan: MoneyPlan) -> None:
        """Recorded or not, let go of what ``plan`` holds."""
        ...
