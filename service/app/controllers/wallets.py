"""Wallets: operators open and fund them; players read their own balance and ledger."""

from __future__ import annotations

from typing import Annotated, Literal, NamedTuple

import msgspec
from litestar import Controller, Response, get, post
from litestar.exceptions import NotFoundException
from litestar.params import QueryParameter
from litestar.status_codes import HTTP_200_OK, HTTP_201_CREATED

from russian_poker.events.postgres.storage import Storage
from russian_poker.projections.paging import read_serial
from russian_poker.projections.wallets import LedgerPage, WalletView
from russian_poker.service.app.auth import Principal
from russian_poker.service.app.dependencies import Caller, Operators, ReadStores, Store, Wallets
from russian_poker.service.app.params import PageCursor, WalletId, json_body
from russian_poker.service.app.policy import access, wallet_of
from russian_poker.service.app.problems import problem
from russian_poker.service.app.reads import MinVersion, read_your_writes
from russian_poker.service.app.replays import REPLAYED_HEADER, answer
from russian_poker.service.app.responses import problems
from russian_poker.service.app.schemas import CreateWallet, Transfer
from russian_poker.service.app.seen import actor_of
from russian_poker.service.application.operators import OperatorRegistry
from russian_poker.service.application.transfers import TransferResult, TransferService
from russian_poker.service.tenancy import PLAYER_ID_RULE, game_player_id, valid_player_id

__all__ = ["WalletController"]


async def _internal_operator(operators: OperatorRegistry, principal: Principal) -> None:
    """Internal wallets are for operators in the internal mode; a seamless operator's
    players' money stays at the operator."""
    if await operators.seamless(principal.operator):
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
        opt=access("operator", scope="own"),
        description=(
            "An internal operator opens a wallet for one of its players, in one of its "
            "currencies, with a balance of 0 (fund it with a deposit). The wallet id is the "
            "operator's own id for the player. Refused with 409 if it exists."
        ),
        operation_id="openWallet",
    )
    async def create(
        self,
        data: _CreateWalletBody,
        wallets: Wallets,
        store: Store,
        principal: Caller,
        operators: Operators,
    ) -> WalletView:
        if not valid_player_id(data.wallet_id):
            raise problem("invalid_player_id", 422, f"wallet_id: {PLAYER_ID_RULE}")
        await _internal_operator(operators, principal)
        internal = game_player_id(principal.operator, data.wallet_id)
        await wallets.open(internal, data.currency, actor=actor_of(principal))
        return await _wallet(store, internal, data.wallet_id)

    @post(
        "/{wallet_id:str}/deposits",
        status_code=HTTP_200_OK,
        summary="Deposit (idempotent)",
        response_headers=[REPLAYED_HEADER],
        responses=problems(404, 409, 413, 422),
        opt=access("operator", scope="wallet"),
        description=(
            "Credits an internal wallet. `transfer_id` is the operator's idempotency key: "
            "the same id with the same amount answers the first answer again "
            "(`Idempotent-Replayed: true`), with another amount it is refused (409), never "
            "a second movement."
        ),
        operation_id="depositToWallet",
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
        opt=access("operator", scope="wallet"),
        description=(
            "Debits an internal wallet, if its balance covers the amount (else 409 "
            "`insufficient_funds`). Idempotent by `transfer_id`, as a deposit is."
        ),
        operation_id="withdrawFromWallet",
    )
    async def withdraw(
        self,
        wallet_id: WalletId,
        data: _TransferBody,
        wallets: Wallets,
        principal: Caller,
    ) -> Response[TransferResult]:
        return await _transfer(wallets, principal, wallet_id, "withdrawal", data)

    @get(
        "/{wallet_id:str}",
        summary="A wallet's balance",
        description=(
            "A player reads their own; an operator its players' (by its own ids); auditors"
            " and admins by the game's id (`operator:player`), an operator's auditor its"
            " players' only."
        ),
        responses=problems(404),
        opt=access("player", "operator", "auditor", "admin", scope="wallet"),
        operation_id="getWallet",
    )
    async def show(
        self,
        wallet_id: WalletId,
        reads: ReadStores,
        principal: Caller,
        min_version: MinVersion = None,
    ) -> WalletView:
        internal = wallet_of(principal, wallet_id)
        return await read_your_writes(
            reads, min_version, lambda store: _wallet(store, internal, wallet_id)
        )

    @get(
        "/{wallet_id:str}/ledger",
        summary="Money movements, newest first (cursor paginated)",
        responses=problems(404, 422),
        opt=access("player", "operator", "auditor", "admin", scope="wallet"),
        description=(
            "Every movement of the wallet (bets, returns and wins, deposits, withdrawals), "
            "newest first, each with the balance after it. Page with `next_cursor` until it "
            "is null."
        ),
        operation_id="getWalletLedger",
    )
    async def ledger(
        self,
        wallet_id: WalletId,
        reads: ReadStores,
        principal: Caller,
        cursor: PageCursor = None,
        limit: Annotated[
            int, QueryParameter(ge=1, le=500, description="Movements per page, 1..500.")
        ] = 50,
        min_version: MinVersion = None,
    ) -> LedgerPage:
        internal = wallet_of(principal, wallet_id)
        after = read_serial(cursor)
        # The store that has the wallet at the version asked for answers the page too.
        found = await read_your_writes(
            reads, min_version, lambda store: _wallet_in(store, internal, wallet_id)
        )
        return await found.store.wallets.ledger(internal, after, limit)


async def _transfer(
    wallets: TransferService,
    principal: Principal,
    wallet_id: str,
    kind: Literal["deposit", "withdrawal"],
    data: Transfer,
) -> Response[TransferResult]:
    """A deposit or a withdrawal by an operator, answered with the wallet named as it named
    it (a replay flagged)."""
    result = await wallets.transfer(
        wallet_of(principal, wallet_id),
        kind,
        data.transfer_id,
        data.amount,
        actor=actor_of(principal),
    )
    return answer(msgspec.structs.replace(result, wallet_id=wallet_id), replayed=result.duplicate)


class _Found(NamedTuple):
    store: Storage
    version: int


async def _wallet_in(store: Storage, internal: str, shown: str) -> _Found:
    return _Found(store, (await _wallet(store, internal, shown)).version)


async def _wallet(store: Storage, internal: str, shown: str) -> WalletView:
    """The wallet ``internal``, named ``shown`` (the caller's own id for it)."""
    found = await store.wallets.view(internal, shown)
    if found is None:
        raise NotFoundException(f"no wallet {shown!r}")
    return found
