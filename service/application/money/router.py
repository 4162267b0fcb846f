"""Every player's money through the adapter of their operator's mode (``money.port``)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import msgspec

from russian_poker.events.wallet import WalletCredited, WalletDebited
from russian_poker.projections.wallets import HeldWallet
from russian_poker.service.application.money.port import Draft, MoneyPlan, Wallets
from russian_poker.service.application.ports import CommandUnit
from russian_poker.service.application.sessions import SessionRef
from russian_poker.service.rules.tenancy import DEFAULT_OPERATOR, operator_of

__all__ = ["Money"]


class Money:
    """The money port the command path uses: internal and seamless wallets behind one face."""

    def __init__(
        self,
        internal: Wallets,
        seamless: Wallets,
        is_seamless: Callable[[str], Awaitable[bool]],
    ) -> None:
        self._internal = internal
        self._seamless = seamless
        self._is_seamless = is_seamless

    async def seamless(self, wallet_id: str) -> bool:
        """Whether the player's money lives at a seamless operator."""
        operator_id = operator_of(wallet_id).operator_id
        return operator_id != DEFAULT_OPERATOR and await self._is_seamless(operator_id)

    async def seat(
        self, player: str, held: dict[str, HeldWallet], currency: str, session: SessionRef | None
    ) -> None:
        wallets = self._seamless if await self.seamless(player) else self._internal
        await wallets.seat(player, held, currency, session)

    async def plan(self, unit: CommandUnit, draft: Draft) -> MoneyPlan:
        """Check the internal debits, then place the seamless ones (so a refusal of the
        game's own never sends a bet only to undo it)."""
        touched = list(
            dict.fromkeys(
                p.event.wallet_id
                for p in draft.events
                if isinstance(p.event, WalletDebited | WalletCredited)
            )
        )
        seamless = [w for w in touched if await self.seamless(w)]
        internal = await self._internal.plan(unit, draft, [w for w in touched if w not in seamless])
        if not seamless and draft.settled_round is None:
            return internal
        outside = await self._seamless.plan(unit, draft, seamless)
        return msgspec.structs.replace(
            outside,
            routes={**internal.routes, **outside.routes},
            ledger=internal.ledger,
            held=internal.held,
        )

    async def failed(self, unit: CommandUnit, plan: MoneyPlan) -> None:
        await self._seamless.failed(unit, plan)

    async def done(self, unit: CommandUnit, plan: MoneyPlan) -> None:
        await self._seamless.done(unit, plan)
