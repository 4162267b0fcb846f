"""Operators' API keys over HTTP: an admin creates them, the operator and its admin list and
revoke them (docs/integration.md, "Credentials")."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated

import msgspec
from litestar import Controller, delete, get, post
from litestar.exceptions import NotFoundException
from litestar.params import PathParameter
from litestar.status_codes import HTTP_200_OK, HTTP_201_CREATED

from russian_poker.service.app.controllers.operators import OperatorId
from russian_poker.service.app.dependencies import Caller, CredentialKeys, Operators
from russian_poker.service.app.params import json_body
from russian_poker.service.app.policy import access
from russian_poker.service.app.problems import problem
from russian_poker.service.app.responses import problems
from russian_poker.service.application.credentials import Credential, CredentialRole

__all__ = ["CreateCredential", "CredentialController", "IssuedCredential"]

KeyId = Annotated[str, PathParameter(description="The key's id (`key_id`).", max_length=12)]


class CreateCredential(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A new API key for one of the operator's platforms."""

    role: Annotated[
        CredentialRole,
        msgspec.Meta(
            description="`operator` (runs the operator's tables, sessions and wallets) or"
            " `auditor` (reads its audit trail, reports and transactions)."
        ),
    ]
    label: Annotated[
        str,
        msgspec.Meta(
            min_length=1,
            max_length=100,
            description="What the key is for (`lobby server`, `back office 2027`): 1-100.",
        ),
    ]
    expires_at: Annotated[
        datetime | None,
        msgspec.Meta(description="When the key stops working by itself (ISO 8601); null: never."),
    ] = None


class IssuedCredential(msgspec.Struct, frozen=True, kw_only=True):
    """A key just created: the only time its secret is shown."""

    api_key: Annotated[
        str,
        msgspec.Meta(
            description="The key, `rpk_<key id>_<secret>`: send it as `Authorization: Bearer"
            " <key>`. Shown this once; the service keeps only a hash of it."
        ),
    ]
    credential: Annotated[Credential, msgspec.Meta(description="The key as lists show it.")]


_CreateBody = Annotated[
    CreateCredential,
    json_body(
        ("A key for the operator's game server", CreateCredential(role="operator", label="rgs")),
        (
            "A read-only key for its compliance team, for a year",
            CreateCredential(
                role="auditor",
                label="compliance",
                expires_at=datetime(2027, 12, 31, tzinfo=UTC),
            ),
        ),
    ),
]


class CredentialController(Controller):
    path = "/v1/operators/{operator_id:str}/credentials"
    tags = ("operators",)

    @post(
        "/",
        status_code=HTTP_201_CREATED,
        summary="Create an API key for the operator (admin)",
        description=(
            "The key is the operator's own credential: its platform sends it as a bearer"
            " token instead of a token signed with any secret it shares. An operator may"
            " hold several live keys, so one can be rotated without a gap: create the next,"
            " switch to it, revoke the old one once its `last_used_at` stops moving."
        ),
        responses=problems(404, 413, 422),
        opt=access("admin", scope="operator"),
        operation_id="createApiKey",
    )
    async def create(
        self,
        operator_id: OperatorId,
        data: _CreateBody,
        operators: Operators,
        credentials: CredentialKeys,
        principal: Caller,
    ) -> IssuedCredential:
        if await operators.get(operator_id) is None:
            raise NotFoundException(f"no operator {operator_id!r}")
        if data.expires_at is not None and (
            data.expires_at.tzinfo is None or data.expires_at <= datetime.now(UTC)
        ):
            raise problem(
                "invalid_credential", 422, "expires_at: a time in the future, with its zone"
            )
        credential, key = await credentials.issue(
            operator_id,
            data.role,
            data.label,
            created_by=principal.subject,
            expires_at=data.expires_at,
        )
        return IssuedCredential(api_key=key, credential=credential)

    @get(
        "/",
        summary="The operator's API keys, revoked ones included (never their secrets)",
        responses=problems(404),
        opt=access("operator", "admin", scope="operator"),
        description=(
            "The operator's API keys with their ids, roles, labels, creation, expiry, last "
            "use and revocation; a key's secret is shown only once, when it is created."
        ),
        operation_id="listApiKeys",
    )
    async def index(self, operator_id: OperatorId, credentials: CredentialKeys) -> list[Credential]:
        return await credentials.of(operator_id)

    @delete(
        "/{key_id:str}",
        status_code=HTTP_200_OK,
        summary="Revoke an API key: it is refused from now on",
        description=(
            "In force at once on the instance that answers, and within 5 s on every other"
            " (each keeps a verified key that long). Revoking again keeps the first time."
            " The operator may revoke its own keys; an admin anyone's."
        ),
        responses=problems(404),
        opt=access("operator", "admin", scope="operator"),
        operation_id="revokeApiKey",
    )
    async def revoke(
        self, operator_id: OperatorId, key_id: KeyId, credentials: CredentialKeys
    ) -> Credential:
        revoked = await credentials.revoke(operator_id, key_id)
        if revoked is None:
            raise NotFoundException(f"no key {key_id!r}")
        return revoked
