"""Wallets: operators open and fund them; players read their own balance and ledger."""

from __future__ import annotations

from typing import Annotated

from litestar import Controller, Response, get, post
from litestar.exceptions import NotFoundException, PermissionDeniedException
from litestar.params import QueryParameter
from litestar.status_codes import HTTP_200_OK, HTTP_201_CREATED

from events.commands import Actor
from service.app.auth import Principal, require
from service.app.dependencies import Caller, DbPool, Pool, Wallets
from service.app.params import WalletId, json_body
from service.app.replays import REPLAYED_HEADER, answer
from service.app.responses import problems
from service.app.schemas import CreateWallet, LedgerEntry, LedgerPage, Transfer, WalletView
from service.handling import TransferResult

__all__ = ["WalletController"]


def _may_read(principal: Principal, wallet_id: str) -> None:
    if principal.role == "player" and principal.subject != wallet_id:
        raise PermissionDeniedException("players read only their own wallet")


_CreateWalletBody = Annotated[
    CreateWallet, json_body(("Alice's wallet in euros", CreateWallet(wallet_id="alice")))
]
_TransferBody = Annotated[
    Transfer,
    json_body(
        (
            "500.00 in a two-decimal currency",
            Transfer(transfer_id="cashier-2024-000123", amount=50_000),
        )
    ),
]


class WalletController(Controller):
    path = "/v1/wallets"
    tags = ("wallets",)

    @post(
        "/",
        status_code=HTTP_201_CREATED,
        summary="Open a player's wallet",
        responses=problems(409, 413, 422),
    )
    async def create(
        self,
        data: _CreateWalletBody,
        wallets: Wallets,
        pool: Pool,
        principal: Caller,
    ) -> WalletView:
        require(principal, "operator")
        await wallets.open(data.wallet_id, data.currency, actor=_actor(principal))
        return await _wallet(pool, data.wallet_id)

    @post(
        "/{wallet_id:str}/deposits",
        status_code=HTTP_200_OK,
        summary="Deposit (idempotent)",
        response_headers=[REPLAYED_HEADER],
        responses=problems(404, 409, 413, 422),
    )
    async def deposit(
        self,
        wallet_id: WalletId,
        data: _TransferBody,
        wallets: Wallets,
        principal: Caller,
    ) -> Response[TransferResult]:
        require(principal, "operator")
        result = await wallets.transfer(
            wallet_id, "deposit", data.transfer_id, data.amount, actor=_actor(principal)
        )
        return answer(result, replayed=result.duplicate)

    @post(
        "/{wallet_id:str}/withdrawals",
        status_code=HTTP_200_OK,
        summary="Withdraw (idempotent)",
        response_headers=[REPLAYED_HEADER],
        responses=problems(404, 409, 413, 422),
    )
    async def withdraw(
        self,
        wallet_id: WalletId,
        data: _TransferBody,
        wallets: Wallets,
        principal: Caller,
    ) -> Response[TransferResult]:
        require(principal, "operator")
        result = await wallets.transfer(
            wallet_id, "withdrawal", data.transfer_id, data.amount, actor=_actor(principal)
        )
        return answer(result, replayed=result.duplicate)

    @get("/{wallet_id:str}", summary="A wallet's balance", responses=problems(404))
    async def show(self, wallet_id: WalletId, pool: Pool, principal: Caller) -> WalletView:
        _may_read(principal, wallet_id)
        return await _wallet(pool, wallet_id)

    @get(
        "/{wallet_id:str}/ledger",
        summary="Money movements, newest first (cursor paginated)",
        responses=problems(404),
    )
    async def ledger(
        self,
        wallet_id: WalletId,
        pool: Pool,
        principal: Caller,
        cursor: Annotated[
            int | None,
            QueryParameter(
                ge=1,
                required=False,
                description=(
                    "`next_cursor` of the previous page: movements before it; omit for the newest."
                ),
            ),
        ] = None,
        limit: Annotated[
            int, QueryParameter(ge=1, le=500, description="Movements per page, 1..500.")
        ] = 50,
    ) -> LedgerPage:
        _may_read(principal, wallet_id)
        await _wallet(pool, wallet_id)
        rows = await pool.fetch(
            "SELECT * FROM ledger WHERE wallet_id = $1 AND ($2::bigint IS NULL OR "
            "global_position < $2) ORDER BY global_position DESC LIMIT $3",
            wallet_id,
            cursor,
            limit + 1,
        )
        entries = [
            LedgerEntry(
                position=r["global_position"],
                kind=r["event_type"],
                amount=r["amount"],
                reason=r["reason"],
                table_id=r["table_id"],
                round=r["round"],
                box=r["box"],
                transfer_id=r["transfer_id"],
                balance_after=r["balance_after"],
                recorded_at=r["recorded_at"].isoformat(),
            )
            for r in rows[:limit]
        ]
        more = len(rows) > limit
        return LedgerPage(entries=entries, next_cursor=entries[-1].position if more else None)


def _actor(principal: Principal) -> Actor:
    return Actor(role=principal.role, id=principal.subject)


async def _wallet(pool: DbPool, wallet_id: str) -> WalletView:
    row = await pool.fetchrow(
        "SELECT wallet_id, currency, balance, version FROM wallets WHERE wallet_id = $1",
        wallet_id,
    )
    if row is None:
        raise NotFoundException(f"no wallet {wallet_id!r}")
    return WalletView(**dict(row))
