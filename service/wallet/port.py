"""An operator's wallet: the four money calls of the seamless protocol (docs/wallet-protocol.md,
"Seamless wallet"), as the seamless money adapter and the outbox make them.

The adapter the product runs is :class:`~russian_poker.service.wallet.seamless.SeamlessWallet`
(signed HTTP to the operator). The conformance kit (``russian-poker wallet-check``,
``service.tools.conformance``) runs the protocol's scenarios against an operator's own
implementation through it; the reference operator wallet passes them (tests/wallet).

An adapter returns the operator's :class:`Answer` whatever its status; it raises
:class:`UnknownOutcome` when the outcome cannot be known (a timeout, a dropped connection, a
non-200, an unreadable or badly signed answer, or the status ``unknown``): for a bet that
means roll it back, for a win or a rollback send it again.
"""

from __future__ import annotations

from typing import Protocol

from russian_poker.service.wallet.protocol import (
    Answer,
    BalanceCall,
    BetCall,
    RollbackCall,
    WinCall,
)

__all__ = ["UnknownOutcome", "WalletPort"]


class UnknownOutcome(Exception):
    """The call may or may not have been applied. The message says why, never a secret."""


class WalletPort(Protocol):
    """A wallet the service debits and credits, one call at a time per player."""

    async def balance(self, call: BalanceCall) -> Answer:
        """The player's balance (``status`` ok with ``balance``)."""
        ...

    async def bet(self, call: BetCall) -> Answer:
        """Debit ``call.amount``, at most once per ``transaction_id``."""
        ...

    async def win(self, call: WinCall) -> Answer:
        """Credit ``call.amount`` (may be 0), at most once per ``transaction_id``."""
        ...

    async def rollback(self, call: RollbackCall) -> Answer:
        """Undo the bet ``call.reference_transaction_id`` (or tombstone it if never seen)."""
        ...

    async def aclose(self) -> None:
        """Release connections."""
        ...
