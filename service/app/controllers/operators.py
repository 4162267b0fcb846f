"""Operators (tenants): an admin registers and updates them; each reads its own."""

from __future__ import annotations

from typing import Annotated

import msgspec
from litestar import Controller, get, post, put
from litestar.exceptions import NotFoundException
from litestar.params import PathParameter
from litestar.status_codes import HTTP_201_CREATED

from russian_poker.service.app.dependencies import AppSettings, Operators
from russian_poker.service.app.params import json_body
from russian_poker.service.app.policy import access
from russian_poker.service.app.problems import problem
from russian_poker.service.app.responses import problems
from russian_poker.service.application.operators import (
    InvalidOperator,
    Operator,
    OperatorRegistry,
    WalletConfig,
    WalletMode,
    check_operator,
)
from russian_poker.service.settings import Settings

__all__ = ["OperatorController", "OperatorId", "OperatorView", "RegisterOperator"]

OperatorId = Annotated[
    str, PathParameter(description="The operator's id (lower-case letters, digits, - and _).")
]


class RegisterOperator(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """An operator's registration (docs/wallet-protocol.md §1)."""

    operator_id: Annotated[
        str, msgspec.Meta(description="Lower-case letters, digits, - and _, at most 64.")
    ]
    name: Annotated[str, msgspec.Meta(description="The operator's display name.")]
    currencies: Annotated[
        list[str], msgspec.Meta(description="ISO 4217 codes its players may play in.")
    ]
    wallet: Annotated[WalletConfig, msgspec.Meta(description="Where its players' money lives.")]


class OperatorWallet(msgspec.Struct, frozen=True, kw_only=True):
    """An operator's wallet as shown: never the secret."""

    mode: Annotated[WalletMode, msgspec.Meta(description="`internal` or `seamless`.")]
    url: Annotated[str | None, msgspec.Meta(description="Seamless: the wallet's base URL.")]
    timeout_ms: Annotated[
        int | None, msgspec.Meta(description="Seamless: time-out of each wallet call.")
    ]
    secret_set: Annotated[
        bool, msgspec.Meta(description="Whether a signing secret is held (it is never shown).")
    ]


class OperatorView(msgspec.Struct, frozen=True, kw_only=True):
    """An operator as the API shows it."""

    operator_id: Annotated[str, msgspec.Meta(description="The operator's id.")]
    name: Annotated[str, msgspec.Meta(description="The operator's display name.")]
    currencies: Annotated[list[str], msgspec.Meta(description="Currencies its players play in.")]
    wallet: Annotated[OperatorWallet, msgspec.Meta(description="Its wallet, without the secret.")]


def view_of(operator: Operator) -> OperatorView:
    wallet = operator.wallet
    seamless = wallet.mode == "seamless"
    return OperatorView(
        operator_id=operator.operator_id,
        name=operator.name,
        currencies=list(operator.currencies),
        wallet=OperatorWallet(
            mode=wallet.mode,
            url=wallet.url,
            timeout_ms=wallet.timeout_ms if seamless else None,
            secret_set=bool(wallet.secret),
        ),
    )


_EXAMPLES = (
    (
        "An operator with internal wallets",
        RegisterOperator(
            operator_id="acme",
            name="Acme Casino",
            currencies=["EUR"],
            wallet=WalletConfig(mode="internal"),
        ),
    ),
    (
        "An operator with a seamless wallet",
        RegisterOperator(
            operator_id="beta",
            name="Beta Gaming",
            currencies=["EUR", "USD"],
            wallet=WalletConfig(
                mode="seamless",
                url="http://127.0.0.1:9100/wallet",
                secret="a-long-random-shared-secret",
                timeout_ms=2000,
            ),
        ),
    ),
)
_RegisterBody = Annotated[RegisterOperator, json_body(*_EXAMPLES)]


def _checked(settings: Settings, data: RegisterOperator) -> Operator:
    operator = Operator(
        operator_id=data.operator_id,
        name=data.name,
        currencies=tuple(data.currencies),
        wallet=data.wallet,
    )
    production = settings.environment == "production"
    try:
        check_operator(operator, production=production)
    except InvalidOperator as invalid:
        raise problem("invalid_operator", 422, str(invalid)) from None
    return operator


class OperatorController(Controller):
    path = "/v1/operators"
    tags = ("operators",)

    @post(
        "/",
        status_code=HTTP_201_CREATED,
        summary="Register an operator (admin)",
        responses=problems(409, 413, 422),
        opt=access("admin"),
        description=(
            "Registers a tenant: its id, name, currencies and wallet, `internal` (the "
            "game's own wallets, funded by deposits) or `seamless` (the operator's wallet, "
            "called for every bet and win: see docs/wallet-protocol.md). The secret is "
            "stored and never shown again."
        ),
        operation_id="registerOperator",
    )
    async def register(
        self, data: _RegisterBody, operators: Operators, settings: AppSettings
    ) -> OperatorView:
        operator = _checked(settings, data)
        if await operators.get(operator.operator_id) is not None:
            raise problem(
                "operator_exists", 409, f"operator {operator.operator_id!r} is registered already"
            )
        await operators.register(operator)
        return view_of(operator)

    @get(
        "/",
        summary="Every operator (admin)",
        responses=problems(),
        opt=access("admin"),
        description=(
            "Every registered operator, with its currencies and wallet mode; never a wallet "
            "secret. Admins only."
        ),
        operation_id="listOperators",
    )
    async def index(self, operators: Operators) -> list[OperatorView]:
        return [view_of(o) for o in await operators.all()]

    @get(
        "/{operator_id:str}",
        summary="An operator, without its secret",
        responses=problems(404),
        opt=access("operator", "auditor", "admin", scope="operator"),
        description=(
            "An operator's registration as the operator itself, an auditor or an admin may "
            "see it; the wallet secret is never part of it."
        ),
        operation_id="getOperator",
    )
    async def show(self, operator_id: OperatorId, operators: Operators) -> OperatorView:
        return view_of(await _known(operators, operator_id))

    @put(
        "/{operator_id:str}",
        summary="Update an operator's registration (admin)",
        responses=problems(404, 413, 422),
        opt=access("admin", scope="operator"),
        description=(
            "Replaces an operator's registration (name, currencies, wallet and its secret) "
            "with the body; every instance sees the change within 5 seconds."
        ),
        operation_id="updateOperator",
    )
    async def update(
        self,
        operator_id: OperatorId,
        data: _RegisterBody,
        operators: Operators,
        settings: AppSettings,
    ) -> OperatorView:
        if data.operator_id != operator_id:
            raise problem("invalid_operator", 422, "operator_id: the body names another operator")
        await _known(operators, operator_id)
        operator = _checked(settings, data)
        await operators.register(operator)
        return view_of(operator)


async def _known(operators: OperatorRegistry, operator_id: str) -> Operator:
    operator = await operators.get(operator_id)
    if operator is None:
        raise NotFoundException(f"no operator {operator_id!r}")
    return operator
