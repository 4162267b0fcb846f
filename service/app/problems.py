"""RFC 9457 ``application/problem+json`` for every refusal, with a stable ``type`` per error.

Domain refusals keep the rules' codes (``/problems/not_your_box``) so clients switch on
them; messages never name a hidden card, the deck or the seed.
"""

from __future__ import annotations

from typing import Final

import asyncpg
from litestar.plugins.problem_details import (
    ProblemDetailsConfig,
    ProblemDetailsException,
    ProblemDetailsPlugin,
)

from service.handling import Conflict, IdempotencyKeyReused, TransferMismatch, VersionMismatch
from service.rules.errors import RuleViolation
from service.rules.presets import RulesetError

__all__ = ["STATUS_OF_KIND", "problem_details_plugin", "problem_type"]

STATUS_OF_KIND: Final = {"forbidden": 403, "not_found": 404, "conflict": 409, "invalid": 422}


def problem_type(code: str) -> str:
    return f"/problems/{code}"


def _refusal(exc: RuleViolation) -> ProblemDetailsException:
    return ProblemDetailsException(
        detail=exc.message,
        status_code=STATUS_OF_KIND[exc.kind],
        type_=problem_type(exc.code),
        title=exc.code.replace("_", " "),
        extra={"code": exc.code},
    )


def _version(exc: VersionMismatch) -> ProblemDetailsException:
    return ProblemDetailsException(
        detail=str(exc),
        status_code=412,
        type_=problem_type("version_mismatch"),
        title="version mismatch",
        extra={"code": "version_mismatch", "current_version": exc.actual},
    )


def _conflict(exc: Conflict) -> ProblemDetailsException:
    return ProblemDetailsException(
        detail=str(exc),
        status_code=503,
        headers={"Retry-After": "1"},
        type_=problem_type("busy"),
        title="busy",
        extra={"code": "busy"},
    )


def _transfer(exc: TransferMismatch) -> ProblemDetailsException:
    return ProblemDetailsException(
        detail=str(exc),
        status_code=409,
        type_=problem_type("transfer_id_reused"),
        title="transfer id reused",
        extra={"code": "transfer_id_reused"},
    )


def _reused(exc: IdempotencyKeyReused) -> ProblemDetailsException:
    return ProblemDetailsException(
        detail=str(exc),
        status_code=422,
        type_=problem_type("idempotency_key_reused"),
        title="idempotency key reused",
        extra={"code": "idempotency_key_reused"},
    )


def _ruleset(exc: RulesetError) -> ProblemDetailsException:
    return ProblemDetailsException(
        detail=str(exc),
        status_code=422,
        type_=problem_type("invalid_ruleset"),
        title="invalid ruleset",
        extra={"code": "invalid_ruleset"},
    )


def _unavailable(exc: Exception) -> ProblemDetailsException:
    # Never the driver's message: it can name hosts and users.
    return ProblemDetailsException(
        detail="the database is unavailable; retry shortly",
        status_code=503,
        headers={"Retry-After": "2"},
        type_=problem_type("unavailable"),
        title="unavailable",
        extra={"code": "unavailable"},
    )


def problem_details_plugin() -> ProblemDetailsPlugin:
    return ProblemDetailsPlugin(
        ProblemDetailsConfig(
            enable_for_all_http_exceptions=True,
            exception_to_problem_detail_map={
                RuleViolation: _refusal,
                VersionMismatch: _version,
                Conflict: _conflict,
                TransferMismatch: _transfer,
                RulesetError: _ruleset,
                IdempotencyKeyReused: _reused,
                OSError: _unavailable,
                TimeoutError: _unavailable,
                asyncpg.PostgresConnectionError: _unavailable,
                asyncpg.InterfaceError: _unavailable,
                asyncpg.CannotConnectNowError: _unavailable,
                asyncpg.TooManyConnectionsError: _unavailable,
            },
        )
    )
