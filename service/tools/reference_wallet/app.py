"""The reference operator wallet as a Litestar application.

``POST /wallet/{balance,bet,win,rollback}`` is the operator's side of docs/wallet-protocol.md §3
(configure the game with ``http://HOST:PORT/wallet``), ``POST
/wallet/notifications/table-status`` its side of the table-status notification
(docs/integration.md); ``/_admin`` sets players up, ends sessions, switches faults on,
exports the ledger and lists the notifications, for tests.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Final, cast

from litestar import Controller, Litestar, Response, post
from litestar.datastructures import State
from litestar.di import NamedDependency, Provide
from litestar.openapi import OpenAPIConfig
from litestar.openapi.plugins import JsonRenderPlugin
from litestar.openapi.spec import Components, Contact, License, SecurityScheme, Tag
from litestar.params import RawBody

from russian_poker.service.tools.reference_wallet.admin import AdminController
from russian_poker.service.tools.reference_wallet.calls import WalletCalls
from russian_poker.service.tools.reference_wallet.docs import (
    SignatureHeader,
    call_operation,
    call_responses,
)
from russian_poker.service.tools.reference_wallet.faults import FaultBoard, broken_mode
from russian_poker.service.tools.reference_wallet.ledger import Ledger
from russian_poker.service.tools.reference_wallet.notifications import (
    CheckpointsAdmin,
    NotificationsAdmin,
    NotificationsController,
    NotificationStore,
)
from russian_poker.service.wallet.protocol import BalanceCall, BetCall, RollbackCall, WinCall

__all__ = ["API_VERSION", "create_app"]

API_VERSION: Final = "1.0.0"

_DESCRIPTION: Final = (
    "The operator's side of the seamless wallet protocol (docs/wallet-protocol.md §3-§4): the game"
    " calls `POST {url}/{call}` with a signed JSON body and reads a signed answer. Amounts"
    " are integers in the currency's minor units. Every business answer is HTTP 200 with a"
    " `status`; anything else (a time-out, a broken connection, a non-200, an unsigned or"
    " wrongly signed answer, or `unknown`) is an unknown outcome for the game."
)


class WalletController(Controller):
    """The four protocol calls. Each takes the raw body (``RawBody``), undecoded: the
    signature covers those bytes, and they are decoded only once it is checked."""

    path = "/wallet"
    tags = ("wallet",)

    @post(
        "/balance",
        operation_id="balance",
        status_code=200,
        summary="The player's balance",
        description="Answers `ok` with `balance`; `invalid_session` for an unknown player.",
        operation_class=call_operation(BalanceCall),
        responses=call_responses(),
    )
    async def balance(
        self,
        body: RawBody,
        wallet: NamedDependency[WalletCalls],
        signature: SignatureHeader = None,
    ) -> Response[bytes]:
        return await wallet.serve("balance", body, signature)

    @post(
        "/bet",
        operation_id="bet",
        status_code=200,
        summary="Debit the player",
        description=(
            "Applied at most once per `transaction_id`: a repeat gets the first answer. The"
            " same id with another payload is `duplicate_transaction`; a bet whose rollback"
            " came first is `transaction_rolled_back`. Refusals: `invalid_session` (unknown"
            " player or ended session), `wrong_currency`, `player_blocked`,"
            " `insufficient_funds` (with `balance`)."
        ),
        operation_class=call_operation(BetCall),
        responses=call_responses(),
    )
    async def bet(
        self,
        body: RawBody,
        wallet: NamedDependency[WalletCalls],
        signature: SignatureHeader = None,
    ) -> Response[bytes]:
        return await wallet.serve("bet", body, signature)

    @post(
        "/win",
        operation_id="win",
        status_code=200,
        summary="Credit the player",
        description=(
            "Applied at most once per `transaction_id`, like a bet. An amount of 0 closes a"
            " round with nothing to pay. Accepted whatever became of the session (§3.5)."
        ),
        operation_class=call_operation(WinCall),
        responses=call_responses(),
    )
    async def win(
        self,
        body: RawBody,
        wallet: NamedDependency[WalletCalls],
        signature: SignatureHeader = None,
    ) -> Response[bytes]:
        return await wallet.serve("win", body, signature)

    @post(
        "/rollback",
        operation_id="rollback",
        status_code=200,
        summary="Undo a bet",
        description=(
            "Refunds the bet `reference_transaction_id` (`ok`); a repeat gets the same"
            " answer. A bet never seen is answered `transaction_not_found` and remembered:"
            " if it arrives later it is refused with `transaction_rolled_back`. Accepted"
            " whatever became of the session (§3.5)."
        ),
        operation_class=call_operation(RollbackCall),
        responses=call_responses(),
    )
    async def rollback(
        self,
        body: RawBody,
        wallet: NamedDependency[WalletCalls],
        signature: SignatureHeader = None,
    ) -> Response[bytes]:
        return await wallet.serve("rollback", body, signature)


def create_app(
    database_url: str,
    secret: str,
    *,
    broken: str | None = None,
    operator_id: str | None = None,
) -> Litestar:
    """The wallet on ``database_url``, signing with ``secret``. ``broken`` starts one of the
    deliberately wrong variants (``faults.BROKEN_MODES``); ``operator_id``, when given, is the
    only operator whose calls it accepts. Nothing connects until the app starts."""
    if not secret:
        raise ValueError("the wallet needs the operator's secret")
    variant = broken_mode(broken)
    ledger = Ledger(database_url, broken=variant)
    faults = FaultBoard()
    calls = WalletCalls(ledger, faults, secret, broken=variant, operator_id=operator_id)
    notices = NotificationStore()

    @asynccontextmanager
    async def open_ledger(app: Litestar) -> AsyncIterator[None]:
        await ledger.open()
        await notices.open(ledger.pool)
        try:
            yield
        finally:
            await ledger.close()

    return Litestar(
        route_handlers=[
            WalletController,
            NotificationsController,
            AdminController,
            NotificationsAdmin,
            CheckpointsAdmin,
        ],
        dependencies={
            "wallet": Provide(_wallet, sync_to_thread=False),
            "ledger": Provide(_ledger, sync_to_thread=False),
            "faults": Provide(_faults, sync_to_thread=False),
            "notices": Provide(_notices, sync_to_thread=False),
            "secret": Provide(_secret, sync_to_thread=False),
        },
        lifespan=[open_ledger],
        state=State(
            {
                "wallet": calls,
                "ledger": ledger,
                "faults": faults,
                "notices": notices,
                "secret": secret,
            }
        ),
        openapi_config=OpenAPIConfig(
            title="Reference operator wallet",
            version=API_VERSION,
            description=_DESCRIPTION,
            license=License(name="Apache-2.0", identifier="Apache-2.0"),
            contact=Contact(name="The Russian Poker backend's maintainers"),
            tags=[
                Tag(
                    name="wallet",
                    description="The calls the game makes to an operator's seamless wallet, "
                    "signed both ways (docs/wallet-protocol.md).",
                ),
                Tag(
                    name="notifications",
                    description="What the game tells the operator: its tables closed or "
                    "reopened, and every signed checkpoint of its event chain, signed like "
                    "every call.",
                ),
            ],
            components=Components(
                security_schemes={
                    "signature": SecurityScheme(
                        type="apiKey",
                        name="X-Signature",
                        security_scheme_in="header",
                        description="`t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "
                        '"<t>.<raw body>")>` with the operator\'s shared secret, on every '
                        "request and every answer (docs/wallet-protocol.md §4).",
                    )
                }
            ),
            security=[{"signature": []}],
            path="/schema",
            render_plugins=[JsonRenderPlugin()],
        ),
        request_max_body_size=64 * 1024,
        debug=False,
    )


def _wallet(state: State) -> WalletCalls:
    return cast(WalletCalls, state.wallet)


def _ledger(state: State) -> Ledger:
    return cast(Ledger, state.ledger)


def _faults(state: State) -> FaultBoard:
    return cast(FaultBoard, state.faults)


def _notices(state: State) -> NotificationStore:
    return cast(NotificationStore, state.notices)


def _secret(state: State) -> str:
    return cast(str, state.secret)
