"""The error responses each operation documents: every status the API can return."""

from __future__ import annotations

from typing import Annotated, Final

import msgspec
from litestar.openapi.datastructures import ResponseSpec
from litestar.openapi.spec import Example

from russian_poker.service.app.catalogue import CATALOGUE

__all__ = ["Problem", "problems"]


class Problem(msgspec.Struct, frozen=True, kw_only=True):
    """RFC 9457 problem details; ``type`` is stable per error (``/problems/<code>``)."""

    type: Annotated[
        str,
        msgspec.Meta(
            description=(
                "URI of the problem type, stable per error: `/problems/<code>` describes it."
            )
        ),
    ] = "about:blank"
    title: Annotated[str | None, msgspec.Meta(description="Short summary of the problem type.")] = (
        None
    )
    status: Annotated[int, msgspec.Meta(description="The HTTP status code.")]
    detail: Annotated[
        str | None, msgspec.Meta(description="What went wrong with this request, in words.")
    ] = None
    code: Annotated[
        str | None,
        msgspec.Meta(
            description=(
                "The domain error code, where there is one (`out_of_turn`, `insufficient_funds`)."
            )
        ),
    ] = None


_MEANING: Final = {
    400: "The request is malformed (body, parameter or header).",
    401: "No bearer token, or an expired, forged or otherwise invalid one.",
    403: "The caller's role or identity may not do this.",
    404: "No such table, wallet or round.",
    409: "The rules refuse the command in the table's current state.",
    412: "`If-Match` names a version that is not the table's current one.",
    413: "The body is larger than 64 KiB.",
    422: "The values are outside what the rules or the table allow.",
    428: "`Idempotency-Key` is required on commands.",
    429: "Too many requests from this player; see the `RateLimit-*` headers.",
    503: "The database is unreachable or the table too busy; retry after `Retry-After`.",
}
_ALWAYS: Final = (400, 401, 403, 429, 503)

_EXAMPLES: Final = {
    400: ("bad_request", "invalid_if_match"),
    401: ("unauthorized",),
    403: ("forbidden", "not_your_box"),
    404: ("not_found",),
    409: ("out_of_turn", "insufficient_funds"),
    412: ("version_mismatch",),
    413: ("body_too_large",),
    422: ("ante_out_of_range", "idempotency_key_reused"),
    428: ("idempotency_key_required",),
    429: ("rate_limited",),
    503: ("unavailable", "busy"),
}
"""The problem types shown as examples of each status; ``GET /problems`` lists them all."""


def _examples(status: int) -> list[Example]:
    """Bodies as the service sends them."""
    return [
        Example(
            summary=CATALOGUE[code].title,
            value={
                "type": CATALOGUE[code].type,
                "title": CATALOGUE[code].title,
                "status": status,
                "detail": CATALOGUE[code].example,
                "code": code,
            },
        )
        for code in _EXAMPLES[status]
    ]


def problems(*statuses: int) -> dict[int, ResponseSpec]:
    """Problem responses for ``statuses`` plus the ones every authenticated call can give."""
    return public(*sorted(set(statuses) | set(_ALWAYS)))


def public(*statuses: int) -> dict[int, ResponseSpec]:
    """For unauthenticated endpoints (health): only the listed statuses."""
    return {
        status: ResponseSpec(
            data_container=Problem,
            description=f"{_MEANING[status]} Every problem type: `/problems`.",
            media_type="application/problem+json",
            generate_examples=False,
            examples=_examples(status),
        )
        for status in statuses
    }
