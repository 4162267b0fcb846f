"""The notification scenarios of the conformance kit: the two notifications this project
adds to the protocol (docs/integration.md: a table's status, a signed checkpoint), each sent
through the raw transport with a fresh id. The wallet must take each with a 2xx, take a
repeat again (the game re-sends until it gets one), and refuse one signed wrongly (a forged
"closed" could hide an open table; a forged checkpoint would poison what the auditor keeps).
"""

from __future__ import annotations

import secrets
import time
import uuid
from datetime import UTC, datetime
from typing import Final

import msgspec

from russian_poker.service.availability.notices import (
    NOTICE_PATH,
    NoticeActor,
    TableStatusNotice,
)
from russian_poker.service.chain.notices import CHECKPOINT_PATH, CheckpointNotice
from russian_poker.service.chain.views import CheckpointSummary
from russian_poker.service.tools.conformance.kit import Kit, expect, request_id
from russian_poker.service.wallet.signing import sign

__all__ = ["checkpoint_taken", "table_status_taken"]

_encoder: Final = msgspec.json.Encoder()


async def _notification_taken(kit: Kit, path: str, body: bytes) -> None:
    """Taken with a 2xx, a repeat taken again, a wrong signature not taken."""
    raw = kit.raw
    for attempt in ("sent", "sent again"):
        answer = await raw.post(path, body, raw.sign(body))
        expect(
            200 <= answer.status_code < 300,
            f"{path} {attempt} was answered HTTP {answer.status_code}, not 2xx",
        )
    forged = await raw.post(path, body, sign(secrets.token_hex(16), body))
    expect(
        not 200 <= forged.status_code < 300,
        f"{path} with a wrong signature was taken (HTTP {forged.status_code})",
    )


async def table_status_taken(kit: Kit) -> None:
    notice = TableStatusNotice(
        notification_id=str(uuid.uuid4()),
        request_id=request_id(),
        operator_id=kit.operator_id,
        table_id=f"wallet-check-{uuid.uuid4().hex[:8]}",
        status="closed",
        reason="wallet-check: a table-status notification",
        actor=NoticeActor(role="system", id="wallet-check"),
        time=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    )
    await _notification_taken(kit, NOTICE_PATH, _encoder.encode(notice))


async def checkpoint_taken(kit: Kit) -> None:
    digest = secrets.token_hex(32)
    seq = secrets.randbelow(2**31) + 1
    notice = CheckpointNotice(
        notification_id=f"checkpoint-{seq}-{digest[:16]}",
        request_id=request_id(),
        operator_id=kit.operator_id,
        checkpoint=CheckpointSummary(
            seq=seq,
            created_at=datetime.now(UTC),
            upto_tx_id="1",
            upto_position=1,
            prev_digest=secrets.token_hex(32),
            leaf_count=0,
            merkle_root=secrets.token_hex(32),
            digest=digest,
            key_id=secrets.token_hex(32),
            signature=secrets.token_hex(64),
        ),
    )
    await _notification_taken(kit, CHECKPOINT_PATH, _encoder.encode(notice))
