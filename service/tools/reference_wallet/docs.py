"""How the four protocol endpoints describe themselves in the OpenAPI document.

The handlers take the raw body (``RawBody``: the signature is over those bytes, §4), which
Litestar documents as no request body at all. Each handler's
``operation_class`` adds it, with the schema msgspec derives from the call's struct: the
same library decodes the body (strictly), so the document cannot promise more or less than
the decoder enforces. It also documents the ``X-Signature`` header on the answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Final, cast

import msgspec
from litestar.openapi.datastructures import ResponseSpec
from litestar.openapi.spec import (
    OpenAPIHeader,
    OpenAPIMediaType,
    OpenAPIResponse,
    OpenAPIType,
    Operation,
    RequestBody,
    Schema,
)
from litestar.openapi.spec import Parameter as ParameterSpec
from litestar.params import HeaderParameter

from russian_poker.service.wallet.protocol import Answer, Call
from russian_poker.service.wallet.signing import HEADER

__all__ = ["BadRequest", "SignatureHeader", "call_operation", "call_responses"]

_SIGNED_REQUEST: Final = (
    '`t=<unix seconds>,v1=<hex>` where `v1 = HMAC-SHA256(secret, "<t>.<raw body bytes>")`'
    " with the operator's secret (docs/wallet-protocol.md §4). A call without it, with a wrong"
    " digest, or with a `t` more than 300 s from the wallet's clock is answered"
    " `invalid_signature` and not applied."
)
_SIGNED_ANSWER: Final = (
    "The answer's signature: `t=<unix seconds>,v1=<hex>` over the exact answer bytes, with"
    " the same secret. The game treats an answer without it, or with a wrong or stale one,"
    " as an unknown outcome."
)

SignatureHeader = Annotated[str | None, HeaderParameter(name=HEADER, description=_SIGNED_REQUEST)]
"""The request's ``X-Signature``. Optional to the framework: a call without one is answered
``invalid_signature`` like any other bad signature."""


class BadRequest(msgspec.Struct, frozen=True, kw_only=True):
    """A body that is not a call of this endpoint: not applied, and no business answer."""

    detail: Annotated[
        str, msgspec.Meta(description="What is wrong with the body, for the caller's logs.")
    ]


def call_responses() -> dict[int, ResponseSpec]:
    return {
        200: ResponseSpec(
            Answer,
            description=(
                "Every business answer, `ok` or a refusal, is HTTP 200 with a `status`; it is"
                " signed."
            ),
            generate_examples=False,
        ),
        400: ResponseSpec(
            BadRequest,
            description=(
                "The body is not this call: not JSON, a field missing or of the wrong type,"
                " or a value the protocol forbids (a bet of 0)."
            ),
            generate_examples=False,
        ),
    }


def call_operation(call: type[Call]) -> type[Operation]:
    """The ``operation_class`` of the endpoint taking ``call`` as its body."""
    body_schema = _struct_schema(call)

    @dataclass
    class CallOperation(Operation):
        def __post_init__(self) -> None:
            self.request_body = RequestBody(
                required=True,
                description=f"The `{call.__name__}`, signed as the `{HEADER}` header says.",
                # A plain dict: Litestar writes it into the document as it is.
                content={"application/json": OpenAPIMediaType(schema=cast(Schema, body_schema))},
            )
            for parameter in self.parameters or ():
                if isinstance(parameter, ParameterSpec) and parameter.name == HEADER:
                    # The game always sends it; the handler takes it as optional only so
                    # that its absence gets the protocol's answer, not a framework 400.
                    parameter.required = True
                    parameter.schema = Schema(type=OpenAPIType.STRING)
            answer = (self.responses or {}).get("200")
            if isinstance(answer, OpenAPIResponse):
                answer.headers = {
                    HEADER: OpenAPIHeader(
                        description=_SIGNED_ANSWER,
                        required=True,
                        schema=Schema(type=OpenAPIType.STRING),
                    )
                }

    CallOperation.__name__ = CallOperation.__qualname__ = f"{call.__name__}Operation"
    return CallOperation


def _struct_schema(struct: type[msgspec.Struct]) -> dict[str, Any]:
    """msgspec's JSON Schema of a flat struct, self-contained (no ``$ref`` to resolve)."""
    (_,), components = msgspec.json.schema_components([struct])
    # Through JSON and back: plain JSON values (a tuple default becomes a list), as the
    # document written to disk and read again has them.
    encoded = msgspec.json.encode(components[struct.__name__])
    assert b"$ref" not in encoded, f"{struct.__name__} is not flat"
    return cast(dict[str, Any], msgspec.json.decode(encoded))
