"""Answers given again from memory carry ``Idempotent-Replayed: true``.

A retried command (same ``Idempotency-Key`` and body) or transfer (same ``transfer_id``)
is answered with what the first attempt did, without acting twice; the header lets a client
tell that answer from a new one without comparing bodies. Refusals replayed from memory
carry it too (see ``service.app.problems``).
"""

from __future__ import annotations

from typing import Final, TypeVar

from litestar import Response
from litestar.datastructures import ResponseHeader

from russian_poker.service.app.encoded import EncodedAnswer
from russian_poker.service.app.problems import REPLAYED

__all__ = ["REPLAYED_HEADER", "answer", "encoded_answer"]

T = TypeVar("T")

REPLAYED_HEADER: Final = ResponseHeader(
    name=REPLAYED,
    description=(
        "`true` when this answer was given before: the request repeated an idempotency key "
        "(or transfer id) already used, and nothing was done again. Absent on a first answer."
    ),
    documentation_only=True,
)


def answer(body: T, *, replayed: bool, status_code: int = 200) -> Response[T]:
    """``body``, marked as a replay when it is one."""
    headers = {REPLAYED: "true"} if replayed else None
    return Response(body, status_code=status_code, headers=headers)


def encoded_answer(body: T, *, replayed: bool) -> Response[T]:
    """:func:`answer` with status 200, sent without Litestar's response conversion (the
    command route's: ``service.app.encoded``)."""
    headers = {REPLAYED: "true"} if replayed else None
    return EncodedAnswer(body, status_code=200, headers=headers)
