"""Wallets: operators open and fund them; players read their own balance and ledger."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
from litestar import Controller, Request, Response, get, post
from litestar.exceptions import NotFoundException, PermissionDeniedException
from litestar.params import QueryParameter
from litestar.status_codes import HTTP_200_OK, HTTP_201_CREATED

from events.commands import Actor
from service.app.auth import Principal, require
from service.app.dependencies import Caller, DbPool, Pool, Wallets
from service.app.params import WalletId, json_body
from service.app.problems import problem
from service.app.replays import REPLAYED_HEADER, answer
from service.app.responses import problems
from service.app.schemas import CreateWallet, LedgerEntry, LedgerPage, Transfer, WalletView
from service.handling import TransferResult, WalletHandler
from service.operators import OperatorRegistry
from service.tenancy import game_player_id, valid_operator_player

__all__ = ["WalletController"]


def _may_read(principal: Principal, wallet_id: str) -> str:
    """The wallet's game id, if the caller may read it. Operators and players name wallets
    by the operator's own player id; admins and auditors by the game's."""
    internal = _internal_id(principal, wallet_id)
    if principal.role == "player" and principal.subject != internal:
        raise PermissionDeniedException("players read only their own wallet")
    return internal


def _internal_id(principal: Principal, wallet_id: str) -> str:
    if principal.role in ("admin", "auditor"):
        return wallet_id
    if not valid_operator_player(principal.operator, wallet_id):
        # Not an id the operator can have: for the default operator (bare ids) a `:` would
        # name another operator's player's wallet.
        raise NotFoundException(f"no wallet {wallet_id!r}")
    return game_player_id(principal.operator, wallet_id)


async def _internal_operator(request: Request[Any, Any, Any], principal: Principal) -> None:
    """Internal wallets are for operators in the internal mode; a seamless operator's
    players' money stays at the operator."""
    registry: OperatorRegistry = request.app.state.operators
    if await registry.seamless(principal.operator):
        raise problem(
            "seamless_operator",
            409,
            "this operator's wallet is seamless: the game keeps no wallets for its players",
        )


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
        request: Request[Any, Any, Any],
    ) -> WalletView:
        require(principal, "operator")
        if not valid_operator_player(principal.operator, data.wallet_id):
            raise problem("invalid_player_id", 422, "wallet_id: a player id without spaces, / or :")
        await _internal_operator(request, principal)
        internal = _internal_id(principal, data.wallet_id)
        await wallets.open(internal, data.currency, actor=_actor(principal))
        return await _wallet(pool, internal, data.wallet_id)

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
        return await _transfer(wallets, principal, wallet_id, "deposit", data)

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
        return await _transfer(wallets, principal, wallet_id, "withdrawal", data)

    @get("/{wallet_id:str}", summary="A wallet's balance", responses=problems(404))
    async def show(self, wallet_id: WalletId, pool: Pool, principal: Caller) -> WalletView:
        return await _wallet(pool, _may_read(principal, wallet_id), wallet_id)

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
        internal = _may_read(principal, wallet_id)
        await _wallet(pool, internal, wallet_id)
        rows = await pool.fetch(
            "SELECT * FROM ledger WHERE wallet_id = $1 AND ($2::bigint IS NULL OR "
            "global_position < $2) ORDER BY global_position DESC LIMIT $3",
            internal,
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


async def _transfer(
    wallets: WalletHandler,
    principal: Principal,
    wallet_id: str,
    kind: Literal["deposit", "withdrawal"],
    data: Transfer,
) -> Response[TransferResult]:
    """A deposit or a withdrawal by an operator, answered with the wallet named as it named
    it (a replay flagged)."""
    require(principal, "operator")
    result = await wallets.transfer(
        _internal_id(principal, wallet_id),
        kind,
        data.transfer_id,
        data.amount,
        actor=_actor(principal),
    )
    return answer(msgspec.structs.replace(result, wallet_id=wallet_id), replayed=result.duplicate)


def _actor(principal: Principal) -> Actor:
    role = "operator" if principal.role == "admin" else principal.role
    return Actor(role=role, id=principal.subject)


async def _wallet(pool: DbPool, internal: str, shown: str) -> WalletView:
    """The wallet ``internal``, named ``shown`` (the caller's own id for it)."""
    row = await pool.fetchrow(
        "SELECT currency, balance, version FROM wallets WHERE wallet_id = $1", internal
    )
    if row is None:
        raise NotFoundException(f"no wallet {shown!r}")
    return WalletView(wallet_id=shown, **dict(row))
