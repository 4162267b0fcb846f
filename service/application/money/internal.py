"""Players' money at the game: event-sourced wallets (``wallet-<id>`` streams).

A debit is checked in the core (``check_funds``) against the balance the command decided
on, and appended with the wallet's expected version, so it holds only if nothing moved the
wallet meanwhile; a credit is appended with any version (it protects no invariant, and a
table's settlement should not conflict with the same player's bet at another table).
Balances and the ledger are written by the command's own statement; ``CHECK (balance >=
0)`` is the backstop.
"""

from __future__ import annotations

from collections.abc import Sequence

from russian_poker.events.streams import wallet_stream
from russian_poker.events.wallet import WalletCredited, WalletDebited
from russian_poker.events.writes import LedgerMove
from russian_poker.projections.wallets import HeldWallet, money_moved
from russian_poker.service.application.cache import CommittedCache
from russian_poker.service.application.money.port import Draft, MoneyPlan, Route
from russian_poker.service.application.ports import CommandUnit
from russian_poker.service.application.sessions import SessionRef
from russian_poker.service.rules.funds import check_funds, check_seating

__all__ = ["InternalMoney"]


class InternalMoney:
    """The game's own wallets (``money.port.Wallets``)."""

    def __init__(self, cache: CommittedCache) -> None:
        self._cache = cache

    async def seat(
        self, player: str, held: dict[str, HeldWallet], currency: str, session: SessionRef | None
    ) -> None:
        check_seating(player, {k: v.wallet for k, v in held.items()}, currency)

    async def plan(self, unit: CommandUnit, draft: Draft, wallet_ids: Sequence[str]) -> MoneyPlan:
        held = dict(draft.held)
        missing = [w for w in wallet_ids if w not in held]
        if missing:
            more = None if draft.fresh else self._cache.wallets(missing)
            if more is None:
                more = await unit.wallets(missing)
                self._cache.remember_loaded(more)
            held.update(more)
        mine = set(wallet_ids)
        moves = [
            (p, p.event)
            for p in draft.events
            if isinstance(p.event, WalletDebited | WalletCredited) and p.event.wallet_id in mine
        ]
        if not moves:
            return MoneyPlan(routes={}, held=held)
        check_funds(
            [event for _, event in moves], {k: v.wallet for k, v in held.items()}, draft.currency
        )
        debited = {e.wallet_id for _, e in moves if isinstance(e, WalletDebited)}
        routes = {
            # A debit must see the balance it was checked against.
            w: Route(wallet_stream(w), held[w].version if w in debited else None)
            for w in dict.fromkeys(event.wallet_id for _, event in moves)
        }
        ledger = []
        for planned, event in moves:
            moved = money_moved(event)
            assert moved is not None
            ledger.append(
                LedgerMove(
                    event_id=planned.event_id,
                    wallet_id=moved.wallet_id,
                    event_type=type(event).__name__,
                    signed=moved.signed,
                    reason=moved.reason,
                    table_id=moved.table_id,
                    round=moved.round,
                    box=moved.box,
                )
            )
        return MoneyPlan(routes=routes, ledger=tuple(ledger), held=held)

    async def failed(self, unit: CommandUnit, plan: MoneyPlan) -> None:
        return None  # nothing happened outside the statement

    async def done(self, unit: CommandUnit, plan: MoneyPlan) -> None:
        return None
