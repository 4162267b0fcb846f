"""RFC 9457 ``application/problem+json`` for every refusal, with a stable ``type`` per error.

Domain refusals keep the rules' codes (``/problems/not_your_box``) so clients switch on
them; messages never name a hidden card, the deck or the seed.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any, Final

import asyncpg
from litestar import Request, Response
from litestar.exceptions import HTTPException, ValidationException
from litestar.handlers import BaseRouteHandler
from litestar.params import ParameterKwarg
from litestar.plugins.problem_details import (
    ProblemDetailsConfig,
    ProblemDetailsException,
    ProblemDetailsPlugin,
)

from russian_poker.projections.paging import InvalidCursor
from russian_poker.service.app.catalogue import CATALOGUE, STATUS_OF_KIND, problem_type
from russian_poker.service.application.idempotency import IdempotencyKeyReused, ReplayedRefusal
from russian_poker.service.application.money.seamless import WalletRefused, WalletUnavailable
from russian_poker.service.application.results import Conflict, VersionMismatch
from russian_poker.service.application.transfers import TransferMismatch
from russian_poker.service.rules.errors import RuleViolation
from russian_poker.service.rules.presets import RulesetError

__all__ = [
    "BODY_LIMIT",
    "REPLAYED",
    "STATUS_OF_KIND",
    "problem",
    "problem_details_plugin",
    "problem_type",
    "validation_refusal",
]

BODY_LIMIT: Final = 64 * 1024
"""The largest request body any route takes, in bytes (no command needs more)."""

REPLAYED: Final = "Idempotent-Replayed"
"""Response header of an answer given again from memory (a success or a refusal)."""


@cache
def _title(code: str) -> str:
    """The title the type's page gives (RFC 9457: one title per type), else the code."""
    entry = CATALOGUE.get(code)
    return entry.title if entry else code.replace("_", " ")


def _problem(
    code: str,
    status: int,
    detail: str,
    *,
    headers: dict[str, str] | None = None,
    **extra: Any,
) -> ProblemDetailsException:
    return ProblemDetailsException(
        detail=detail,
        status_code=status,
        headers=headers,
        type_=problem_type(code),
        title=_title(code),
        extra={"code": code, **extra},
    )


def problem(code: str, status: int, detail: str, **extra: Any) -> ProblemDetailsException:
    """A refusal raised by the HTTP layer itself, typed like the rules' own."""
    return _problem(code, status, detail, **extra)


_HTTP_CODES: Final = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "body_too_large",
    415: "unsupported_media_type",
    429: "rate_limited",
    503: "unavailable",
}


def _http(exc: HTTPException) -> ProblemDetailsException:
    # Litestar's own mapping puts the message in ``title`` and leaves ``type`` blank; ours
    # keeps RFC 9457's roles: a stable type per kind, the message as ``detail``.
    code = _HTTP_CODES.get(exc.status_code, "http_error")
    extra = {"errors": exc.extra} if exc.extra else {}
    detail = str(exc.detail)
    if exc.status_code == 413:
        # Litestar's "Request Entity Too Large" says nothing of the limit.
        detail = f"the body is larger than {BODY_LIMIT // 1024} KiB ({BODY_LIMIT} bytes), the limit"
    return _problem(code, exc.status_code, detail, headers=exc.headers, **extra)


@cache
def _api_names(handler: BaseRouteHandler) -> dict[str, str]:
    """The route's query and header parameters by their Python names, as the API spells
    them (``since`` is ``from``): Litestar's validation errors name the former."""
    signatures = [handler.parsed_fn_signature]
    signatures += [p.parsed_fn_signature for p in handler.resolve_dependencies().values()]
    names: dict[str, str] = {}
    for signature in signatures:
        for name, field in signature.parameters.items():
            kwarg = field.kwarg_definition
            if isinstance(kwarg, ParameterKwarg):
                names[name] = kwarg.query or kwarg.header or getattr(kwarg, "name", None) or name
    return names


def validation_refusal(
    request: Request[Any, Any, Any], exc: ValidationException
) -> Response[dict[str, Any]]:
    """A 400 whose ``errors`` name the API's own fields, never the handler's arguments."""
    names = _api_names(request.route_handler)
    errors = exc.extra if isinstance(exc.extra, list) else []
    for error in errors:
        if isinstance(error, dict) and error.get("key") in names:
            error["key"] = names[error["key"]]
    return _http(exc).to_response(request)


def _refusal(exc: RuleViolation) -> ProblemDetailsException:
    # A refusal remembered under the command's key says so: the key is spent.
    replayed = {REPLAYED: "true"} if isinstance(exc, ReplayedRefusal) else None
    extra = {}
    balance = exc.balance if isinstance(exc, WalletRefused | ReplayedRefusal) else None
    if balance is not None:
        extra["balance"] = balance  # the operator's own figure (docs/wallet-protocol.md §3.2)
    return _problem(exc.code, STATUS_OF_KIND[exc.kind], exc.message, headers=replayed, **extra)


def _wallet_unavailable(exc: Exception) -> ProblemDetailsException:
    # Never the operator's answer or address: only that the bet's outcome was unknown.
    return _problem(
        "wallet_unavailable",
        503,
        "the operator's wallet did not confirm the bet; it was rolled back and nothing was"
        " recorded: send the command again",
        headers={"Retry-After": str(WalletUnavailable.retry_after_s)},
    )


def _version(exc: VersionMismatch) -> ProblemDetailsException:
    return _problem("version_mismatch", 412, str(exc), current_version=exc.actual)


def _fixed(code: str, status: int, **kwargs: Any) -> Callable[[Exception], Any]:
    """A mapper whose detail is the exception's own (safe) message."""
    return lambda exc: _problem(code, status, str(exc), **kwargs)


def _unavailable(exc: Exception) -> ProblemDetailsException:
    # Never the driver's message: it can name hosts and users.
    return _problem(
        "unavailable",
        503,
        "the database is unavailable; retry shortly",
        headers={"Retry-After": "2"},
    )


def _unstorable(exc: Exception) -> ProblemDetailsException:
    # A value PostgreSQL cannot hold (a NUL in a text, a number past its column's range):
    # the client's mistake, not a server error. Not the driver's message: it quotes values.
    return _problem(
        "invalid_value", 400, "a value is out of range or not valid text (no NUL characters)"
    )


def _too_deep(exc: Exception) -> ProblemDetailsException:
    # Litestar decodes a JSON body untyped before validating it, and msgspec gives up on deep
    # nesting with a RecursionError: a hostile body, not a server error.
    return _problem("malformed_body", 400, "the JSON body nests too deeply")


def problem_details_plugin() -> ProblemDetailsPlugin:
    return ProblemDetailsPlugin(
        ProblemDetailsConfig(
            enable_for_all_http_exceptions=True,
            exception_to_problem_detail_map={
                HTTPException: _http,
                RuleViolation: _refusal,
                VersionMismatch: _version,
                Conflict: _fixed("busy", 503, headers={"Retry-After": "1"}),
                TransferMismatch: _fixed("transfer_id_reused", 409),
                RulesetError: _fixed("invalid_ruleset", 422),
                InvalidCursor: _fixed("invalid_cursor", 422),
                IdempotencyKeyReused: _fixed("idempotency_key_reused", 422),
                WalletUnavailable: _wallet_unavailable,
                OSError: _unavailable,
                TimeoutError: _unavailable,
                asyncpg.PostgresConnectionError: _unavailable,
                asyncpg.InterfaceError: _unavailable,
                asyncpg.CannotConnectNowError: _unavailable,
                asyncpg.TooManyConnectionsError: _unavailable,
                # A connection lost mid-operation can leave asyncpg's protocol in a state
                # it reports this way (MagicStack/asyncpg#784, #1069): the database went.
                asyncpg.InternalClientError: _unavailable,
                asyncpg.DataError: _unstorable,
                RecursionError: _too_deep,
            },
        )
    )
