"""Who am I: what a bearer token stands for, for a client that holds only the token.

A launched session's token says who the player is; the session says the language; the
balance comes from wherever the player's money is: the game's own wallet for an internal
operator, the operator's wallet (a `balance` call) for a seamless one. A wallet that does
not answer is a balance unknown, not an error: the player may still watch and play.
"""

from __future__ import annotations

import uuid
from typing import Annotated, Literal

import msgspec
import structlog
from litestar import Controller, get

from russian_poker.events.postgres.wallets import WalletStore
from russian_poker.service.app.auth import Principal, Role
from russian_poker.service.app.dependencies import Caller, Operators, Sessions, Store
from russian_poker.service.app.policy import access
from russian_poker.service.app.responses import problems
from russian_poker.service.application.operators import OperatorRegistry
from russian_poker.service.application.sessions import Session
from russian_poker.service.tenancy import operator_of
from russian_poker.service.wallet.port import UnknownOutcome
from russian_poker.service.wallet.protocol import BalanceCall

__all__ = ["Me", "MeController"]

_log = structlog.get_logger(__name__)

BalanceStatus = Literal["available", "no_wallet", "unavailable"]


class Me(msgspec.Struct, frozen=True, kw_only=True):
    """The caller as its bearer token and, for a player, its session and wallet say."""

    role: Annotated[Role, msgspec.Meta(description="The token's role.")]
    player_id: Annotated[
        str | None,
        msgspec.Meta(
            description=(
                "The player's id at the tables (`operator:player`, bare for the default"
                " operator), as seats, boxes and `viewer.player_id` name it; null for staff."
            )
        ),
    ]
    operator_id: Annotated[
        str, msgspec.Meta(description="The operator the token acts for (`default` if none).")
    ]
    every_operator: Annotated[
        bool,
        msgspec.Meta(
            description=(
                "Whether the token reaches every operator's data: admins and the game's own"
                " auditors; false for an operator's staff and auditors, and for players."
            )
        ),
    ]
    session_id: Annotated[
        str | None,
        msgspec.Meta(description="The launched game session the token belongs to; else null."),
    ]
    currency: Annotated[
        str | None,
        msgspec.Meta(description="The session's currency (ISO 4217); null without a session."),
    ]
    language: Annotated[
        str | None,
        msgspec.Meta(description="The language the session was launched with; else null."),
    ]
    balance: Annotated[
        int | None,
        msgspec.Meta(
            description=(
                "A player's balance now, in minor units of `balance_currency`: the game's"
                " wallet for an internal-wallet operator, the operator's for a seamless one."
                " Null for staff, and when there is no wallet or it did not answer"
                " (`balance_status` says which)."
            )
        ),
    ]
    balance_currency: Annotated[
        str | None,
        msgspec.Meta(description="The currency of `balance`; null when `balance` is."),
    ]
    balance_status: Annotated[
        BalanceStatus | None,
        msgspec.Meta(
            description=(
                "`available` (`balance` is set); `no_wallet`: the player has no wallet at the"
                " game (internal) yet; `unavailable`: the operator's wallet did not give a"
                " balance now (not answering, refusing, or no session to ask with), try"
                " again later. Null for staff."
            )
        ),
    ]


class _Balance(msgspec.Struct, frozen=True):
    status: BalanceStatus
    amount: int | None = None
    currency: str | None = None


class MeController(Controller):
    path = "/v1/me"
    tags = ("me",)

    @get(
        "/",
        summary="Who the bearer token is: role, player, session, language and balance",
        description=(
            "For a client that holds only a token (e.g. from a launch URL's fragment). Any"
            " role may ask. A seamless operator's wallet that fails or times out gives"
            " `balance` null and `balance_status` `unavailable`, never an error."
        ),
        responses=problems(),
        opt=access("player", "operator", "auditor", "admin", scope="own"),
        operation_id="getMe",
    )
    async def me(
        self, store: Store, sessions: Sessions, operators: Operators, principal: Caller
    ) -> Me:
        session = None
        if principal.session_id is not None:
            session = await sessions.get(principal.operator, principal.session_id)
        currency = session.currency if session else principal.currency
        if principal.role != "player":
            return Me(
                role=principal.role,
                player_id=None,
                operator_id=principal.operator,
                every_operator=principal.tenant is None,
                session_id=principal.session_id,
                currency=currency,
                language=session.language if session else None,
                balance=None,
                balance_currency=None,
                balance_status=None,
            )
        balance = await _balance(store.wallets, operators, principal, session)
        return Me(
            role="player",
            player_id=principal.subject,
            operator_id=principal.operator,
            every_operator=False,
            session_id=principal.session_id,
            currency=currency,
            language=session.language if session else None,
            balance=balance.amount,
            balance_currency=balance.currency,
            balance_status=balance.status,
        )


async def _balance(
    wallets: WalletStore, registry: OperatorRegistry, principal: Principal, session: Session | None
) -> _Balance:
    wallet = await registry.wallet(principal.operator)
    if wallet is None:
        held = (await wallets.wallets([principal.subject])).get(principal.subject)
        if held is None:
            return _Balance("no_wallet")
        return _Balance("available", held.wallet.balance, held.wallet.currency)
    if session is None:
        # A seamless wallet is asked within a session; a development token has none.
        return _Balance("unavailable")
    call = BalanceCall(
        request_id=uuid.uuid4().hex,
        operator_id=principal.operator,
        player_id=operator_of(principal.subject).player_id,
        session_id=session.session_id,
        currency=session.currency,
    )
    try:
        answer = await wallet.balance(call)
    except UnknownOutcome as error:
        _log.warning("balance call failed", operator_id=principal.operator, error=str(error))
        return _Balance("unavailable")
    if answer.status != "ok" or answer.balance is None:
        # The operator's own words stay out of the answer and the log (its message may say
        # anything); the status is enough to follow up.
        _log.warning("balance refused", operator_id=principal.operator, status=answer.status)
        return _Balance("unavailable")
    return _Balance("available", answer.balance, session.currency)
