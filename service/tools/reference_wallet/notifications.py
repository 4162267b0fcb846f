"""The operator's side of the notifications (docs/integration.md, "Table-status
notifications" and "Checkpoint notifications"): ``POST /wallet/notifications/table-status``
and ``POST /wallet/notifications/checkpoint``.

As for a money call, the signature is checked on the raw bytes before anything is decoded
(docs/wallet-protocol.md §4), then the body is decoded strictly. Each ``notification_id`` is
recorded once: a repeat (the game sends again until it gets a 2xx) is answered 200 again
and changes nothing. The answer is signed too, though the game only needs its 2xx. The
checkpoints kept are what an operator hands its auditor (``verify-chain
--trusted-checkpoint``). ``GET /_admin/notifications`` and ``GET /_admin/checkpoints`` list
what was recorded, for tests.
"""

from __future__ import annotations

import asyncio
import datetime
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Final, Literal, cast

import asyncpg
import msgspec
import structlog
from litestar import Controller, Response, get, post
from litestar.di import NamedDependency
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
from litestar.params import RawBody

from russian_poker.service.availability.notices import TableStatusNotice
from russian_poker.service.chain.notices import CheckpointNotice
from russian_poker.service.tools.reference_wallet.docs import BadRequest, SignatureHeader
from russian_poker.service.tools.reference_wallet.faults import FaultBoard
from russian_poker.service.tools.reference_wallet.responses import CutResponse, signed
from russian_poker.service.wallet.signing import HEADER, BadSignature, verify

__all__ = [
    "NOTIFICATIONS_SCHEMA",
    "CheckpointsAdmin",
    "NoticeAnswer",
    "NotificationStore",
    "NotificationsAdmin",
    "NotificationsController",
    "RecordedCheckpoint",
    "RecordedNotice",
]

NOTIFICATIONS_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS reference_wallet.table_notifications (
    operator_id text NOT NULL,
    notification_id text NOT NULL,
    body jsonb NOT NULL,
    received_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (operator_id, notification_id)
);
CREATE TABLE IF NOT EXISTS reference_wallet.checkpoint_notifications (
    operator_id text NOT NULL,
    notification_id text NOT NULL,
    body jsonb NOT NULL,
    received_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (operator_id, notification_id)
);
"""
_SCHEMA_LOCK: Final = 0x7265_665F_6E6F_7465  # "ref_note"

_log = structlog.get_logger("reference_wallet.notifications")
_decode = msgspec.json.Decoder(TableStatusNotice).decode
_decode_checkpoint = msgspec.json.Decoder(CheckpointNotice).decode

Kind = Literal["table", "checkpoint"]
_TABLES: Final[dict[Kind, str]] = {
    "table": "reference_wallet.table_notifications",
    "checkpoint": "reference_wallet.checkpoint_notifications",
}


class NoticeAnswer(msgspec.Struct, frozen=True, kw_only=True):
    """The wallet's answer to a notification."""

    status: Annotated[
        str,
        msgspec.Meta(description="`ok` (recorded, or recorded before) or `invalid_signature`."),
    ]
    duplicate: Annotated[
        bool,
        msgspec.Meta(description="This `notification_id` was recorded before: nothing changed."),
    ] = False
    message: Annotated[
        str | None, msgspec.Meta(description="What was wrong, for the caller's logs.")
    ] = None


class RecordedNotice(msgspec.Struct, frozen=True, kw_only=True):
    """A notification as recorded, for ``GET /_admin/notifications``."""

    notice: TableStatusNotice
    received_at: datetime.datetime


class RecordedCheckpoint(msgspec.Struct, frozen=True, kw_only=True):
    """A checkpoint notification as recorded, for ``GET /_admin/checkpoints``."""

    notice: CheckpointNotice
    received_at: datetime.datetime


class NotificationStore:
    """``reference_wallet.table_notifications`` and ``.checkpoint_notifications`` on the
    ledger's pool."""

    def __init__(self) -> None:
        self._pool: asyncpg.Pool[asyncpg.Record] | None = None

    async def open(self, pool: asyncpg.Pool[asyncpg.Record]) -> None:
        self._pool = pool
        async with pool.acquire() as conn, conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", _SCHEMA_LOCK)
            await conn.execute(NOTIFICATIONS_SCHEMA)

    @property
    def pool(self) -> asyncpg.Pool[asyncpg.Record]:
        assert self._pool is not None, "the notification store is not open"
        return self._pool

    async def record(
        self, kind: Kind, notice: TableStatusNotice | CheckpointNotice, raw: bytes
    ) -> bool:
        """Record the notification; False if its id was recorded before."""
        inserted = await self.pool.fetchval(
            f"INSERT INTO {_TABLES[kind]} (operator_id, notification_id, body)"
            " VALUES ($1, $2, $3::jsonb) ON CONFLICT DO NOTHING RETURNING true",
            notice.operator_id,
            notice.notification_id,
            raw.decode(),
        )
        return bool(inserted)

    async def _rows(self, kind: Kind) -> list[asyncpg.Record]:
        return await self.pool.fetch(
            f"SELECT body::text AS body, received_at FROM {_TABLES[kind]}"
            " ORDER BY received_at, notification_id"
        )

    async def all(self) -> list[RecordedNotice]:
        return [
            RecordedNotice(notice=_decode(r["body"]), received_at=r["received_at"])
            for r in await self._rows("table")
        ]

    async def checkpoints(self) -> list[RecordedCheckpoint]:
        return [
            RecordedCheckpoint(notice=_decode_checkpoint(r["body"]), received_at=r["received_at"])
            for r in await self._rows("checkpoint")
        ]


def _inline_schema(struct: type[msgspec.Struct]) -> dict[str, Any]:
    """msgspec's JSON Schema of ``struct`` with its nested structs written in place (the
    document states the body completely, as for the money calls)."""
    (top,), components = msgspec.json.schema_components([struct])

    def inline(node: Any) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str):
                return inline(components[ref.rsplit("/", 1)[-1]])
            return {key: inline(value) for key, value in node.items()}
        if isinstance(node, list):
            return [inline(value) for value in node]
        return node

    encoded = msgspec.json.encode(inline(top))
    return cast(dict[str, Any], msgspec.json.decode(encoded))


@dataclass
class _NoticeOperation(Operation):
    """A raw-bodied endpoint documented with a notification as its body."""

    notice: ClassVar[type[msgspec.Struct]] = TableStatusNotice

    def __post_init__(self) -> None:
        self.request_body = RequestBody(
            required=True,
            description=f"The `{self.notice.__name__}`, signed as the `{HEADER}` header says.",
            content={
                "application/json": OpenAPIMediaType(
                    schema=cast(Schema, _inline_schema(self.notice))
                )
            },
        )
        for parameter in self.parameters or ():
            if isinstance(parameter, ParameterSpec) and parameter.name == HEADER:
                parameter.required = True
                parameter.schema = Schema(type=OpenAPIType.STRING)
        answer = (self.responses or {}).get("200")
        if isinstance(answer, OpenAPIResponse):
            answer.headers = {
                HEADER: OpenAPIHeader(
                    description=(
                        "The answer's signature, as for the money calls; the game needs only"
                        " the 2xx and does not check it."
                    ),
                    required=True,
                    schema=Schema(type=OpenAPIType.STRING),
                )
            }


@dataclass
class _CheckpointOperation(_NoticeOperation):
    notice: ClassVar[type[msgspec.Struct]] = CheckpointNotice


def _responses(what: str) -> dict[int, ResponseSpec]:
    return {
        200: ResponseSpec(
            NoticeAnswer,
            description="Recorded (or recorded before: `duplicate`); signed.",
            generate_examples=False,
        ),
        400: ResponseSpec(
            BadRequest,
            description=f"The body is not {what}; not recorded.",
            generate_examples=False,
        ),
        401: ResponseSpec(
            NoticeAnswer,
            description="`invalid_signature`: a missing, wrong or stale signature.",
            generate_examples=False,
        ),
    }


async def _receive(
    kind: Kind,
    body: bytes,
    signature: str | None,
    notices: NotificationStore,
    faults: FaultBoard,
    secret: str,
    decode: Callable[[bytes], TableStatusNotice | CheckpointNotice],
) -> Response[bytes]:
    """One notification received: the fault board first (as for a money call), the
    signature on the raw bytes, then the body, recorded once."""
    fault = faults.take("table_status" if kind == "table" else "checkpoint")
    if fault is not None:
        if fault.mode == "slow":
            await asyncio.sleep(fault.spec.delay_ms / 1000)
        elif fault.mode in ("down", "drop_before_apply"):
            _log.info("notice_dropped", kind=kind, applied=False)
            return CutResponse(b"{}", media_type="application/json")
        elif fault.mode == "error_500":
            _log.info("notice_failed", kind=kind, status_code=500)
            return Response(b"internal error", status_code=500, media_type="text/plain")
    try:
        verify(secret, body, signature)
    except BadSignature as bad:
        answer = NoticeAnswer(status="invalid_signature", message=str(bad))
        return signed(answer, secret, status_code=401)
    try:
        notice = decode(body)
    except msgspec.DecodeError as error:
        return signed(BadRequest(detail=str(error)), secret, status_code=400)
    fresh = await notices.record(kind, notice, body)
    _log.info("notice", kind=kind, notification_id=notice.notification_id, duplicate=not fresh)
    response = signed(NoticeAnswer(status="ok", duplicate=not fresh), secret)
    if fault is not None and fault.mode == "drop_after_apply":
        return CutResponse(
            response.content, media_type="application/json", headers=response.headers
        )
    return response


class NotificationsController(Controller):
    """``POST /wallet/notifications/…``: raw body, verified, then decoded."""

    path = "/wallet/notifications"
    tags = ("notifications",)

    @post(
        "/table-status",
        operation_id="table_status",
        status_code=200,
        summary="A table was closed (disabled) or reopened",
        description=(
            "Sent by the game when one of the operator's tables (or a shared table) is closed"
            " or reopened, signed like every call (`X-Signature`). Record it once per"
            " `notification_id` and answer 2xx: until then the game sends it again with"
            " backoff (a repeat gets 200 with `duplicate: true`). A wrong or missing signature"
            " is answered 401 and not recorded; a body that is not a notification, 400."
        ),
        operation_class=_NoticeOperation,
        responses=_responses("a table-status notification"),
    )
    async def table_status(
        self,
        body: RawBody,
        notices: NamedDependency[NotificationStore],
        faults: NamedDependency[FaultBoard],
        secret: NamedDependency[str],
        signature: SignatureHeader = None,
    ) -> Response[bytes]:
        return await _receive("table", body, signature, notices, faults, secret, _decode)

    @post(
        "/checkpoint",
        operation_id="checkpoint",
        status_code=200,
        summary="A checkpoint of the game's event chain was signed",
        description=(
            "Sent by the game for every signed checkpoint, in sequence, signed like every"
            " call (`X-Signature`). Keep it: its `seq` and `digest` let your auditor check the"
            " game's store against a copy the game cannot recall (`verify-chain"
            " --trusted-checkpoint SEQ:DIGEST`). Record it once per `notification_id` and"
            " answer 2xx: until then the game sends it again with backoff, and sends no later"
            " checkpoint. A wrong or missing signature is answered 401 and not recorded."
        ),
        operation_class=_CheckpointOperation,
        responses=_responses("a checkpoint notification"),
    )
    async def checkpoint(
        self,
        body: RawBody,
        notices: NamedDependency[NotificationStore],
        faults: NamedDependency[FaultBoard],
        secret: NamedDependency[str],
        signature: SignatureHeader = None,
    ) -> Response[bytes]:
        return await _receive(
            "checkpoint", body, signature, notices, faults, secret, _decode_checkpoint
        )


class NotificationsAdmin(Controller):
    """``GET /_admin/notifications``: what was recorded (unsigned, not in the document)."""

    path = "/_admin/notifications"
    include_in_schema = False

    @get("/")
    async def list_notifications(
        self, notices: NamedDependency[NotificationStore]
    ) -> list[RecordedNotice]:
        return await notices.all()


class CheckpointsAdmin(Controller):
    """``GET /_admin/checkpoints``: the checkpoints kept (unsigned, not in the document)."""

    path = "/_admin/checkpoints"
    include_in_schema = False

    @get("/")
    async def list_checkpoints(
        self, notices: NamedDependency[NotificationStore]
    ) -> list[RecordedCheckpoint]:
        return await notices.checkpoints()
