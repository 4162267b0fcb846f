"""One protocol call, from raw bytes to signed answer, and where each fault strikes.

The order is the protocol's: the signature is checked on the raw bytes before anything is
decoded (§4), the body is then decoded strictly into the call's struct (a body that is not
the call is HTTP 400, not a business answer), the ledger applies it, and the answer is
encoded once and signed over those bytes.
"""

from __future__ import annotations

import asyncio
import time
from typing import Final

import msgspec
import structlog
from litestar import Response

from russian_poker.service.tools.reference_wallet.docs import BadRequest
from russian_poker.service.tools.reference_wallet.faults import Broken, Fault, FaultBoard
from russian_poker.service.tools.reference_wallet.ledger import Ledger
from russian_poker.service.tools.reference_wallet.responses import CutResponse, signed
from russian_poker.service.wallet.protocol import (
    Answer,
    BalanceCall,
    BetCall,
    Call,
    CallName,
    RollbackCall,
    WinCall,
)
from russian_poker.service.wallet.signing import WINDOW_S, BadSignature, verify

__all__ = ["CALL_TYPES", "WalletCalls"]

CALL_TYPES: Final[dict[CallName, type[Call]]] = {
    "balance": BalanceCall,
    "bet": BetCall,
    "win": WinCall,
    "rollback": RollbackCall,
}

_log = structlog.get_logger("reference_wallet")


class _Envelope(msgspec.Struct):
    """Just enough of any body to log its delivery, whatever else it holds."""

    transaction_id: str | None = None


_envelope = msgspec.json.Decoder(_Envelope)
_decoders: Final = {name: msgspec.json.Decoder(struct) for name, struct in CALL_TYPES.items()}


class WalletCalls:
    """The operator's side of the four calls."""

    def __init__(
        self,
        ledger: Ledger,
        faults: FaultBoard,
        secret: str,
        *,
        broken: Broken | None = None,
        operator_id: str | None = None,
    ) -> None:
        self._ledger = ledger
        self._faults = faults
        self._secret = secret
        self._broken = broken
        self._operator_id = operator_id

    async def serve(self, name: CallName, raw: bytes, signature: str | None) -> Response[bytes]:
        """The HTTP answer to ``POST /wallet/{name}`` with body ``raw``."""
        fault = self._faults.take(name)
        if fault is not None and fault.mode == "duplicate":
            # As a duplicating proxy would: the same bytes delivered twice, together; the
            # caller gets the second answer. The ledger's row lock makes them one debit.
            _, second = await asyncio.gather(
                self._deliver(name, raw, signature, None),
                self._deliver(name, raw, signature, None),
            )
            return second
        return await self._deliver(name, raw, signature, fault)

    async def _deliver(
        self, name: CallName, raw: bytes, signature: str | None, fault: Fault | None
    ) -> Response[bytes]:
        transaction_id = _transaction_id_of(raw)
        # Every delivery is logged as it arrives, before any fault: tests count attempts.
        await self._ledger.record_delivery(name, transaction_id)
        mode = fault.mode if fault is not None else None
        log = _log.bind(call=name, transaction_id=transaction_id, fault=mode)
        if fault is not None:
            if fault.mode == "slow":
                await asyncio.sleep(fault.spec.delay_ms / 1000)
            elif fault.mode in ("down", "drop_before_apply"):
                # The server logs the response it was made to leave incomplete: on purpose.
                log.info("wallet_call_dropped", applied=False)
                return CutResponse(b"{}", media_type="application/json")
            elif fault.mode == "error_500":
                log.info("wallet_call_failed", status_code=500)
                return Response(b"internal error", status_code=500, media_type="text/plain")

        status_code, content = await self._answer(name, raw, signature)
        answer_key: str | None = self._secret
        if self._broken == "unsigned_answers":
            answer_key = None
        elif mode == "bad_signature":
            answer_key = self._secret + "-but-not-quite"
        # A correct signature from outside the window: an old answer played back (§4).
        stale = time.time() - WINDOW_S - 1 if mode == "stale_signature" else None
        response = signed(content, answer_key, status_code=status_code, signed_at=stale)
        status = content.status if isinstance(content, Answer) else f"http {status_code}"
        log.info("wallet_call", status=status)
        if fault is not None and fault.mode == "stall_after_apply":
            # Applied and committed already: whoever waits for this answer may die waiting,
            # and must then find out from its own record what became of the call.
            log.info("wallet_call_stalled", applied=True, delay_ms=fault.spec.delay_ms)
            await self._faults.hold(fault.spec.delay_ms / 1000)
        if mode == "drop_after_apply":
            # The server logs the response it was made to leave incomplete: on purpose.
            log.info("wallet_call_dropped", applied=True)
            return CutResponse(
                response.content, media_type="application/json", headers=response.headers
            )
        return response

    async def _answer(
        self, name: CallName, raw: bytes, signature: str | None
    ) -> tuple[int, Answer | BadRequest]:
        if self._broken != "ignores_signature":
            try:
                verify(self._secret, raw, signature)
            except BadSignature as bad:
                return 200, Answer(status="invalid_signature", message=str(bad))
        try:
            call = _decoders[name].decode(raw)
        except msgspec.DecodeError as error:  # ValidationError is one
            return 400, BadRequest(detail=str(error))
        if isinstance(call, BetCall) and call.amount <= 0:
            return 400, BadRequest(detail="a bet's amount must be more than 0")
        if self._operator_id is not None and call.operator_id != self._operator_id:
            return 200, Answer(
                status="invalid_session", message=f"this wallet serves {self._operator_id}"
            )
        return 200, await self._apply(call)

    async def _apply(self, call: Call) -> Answer:
        if isinstance(call, BetCall):
            return await self._ledger.bet(call)
        if isinstance(call, WinCall):
            return await self._ledger.win(call)
        if isinstance(call, RollbackCall):
            return await self._ledger.rollback(call)
        return await self._ledger.balance(call)


def _transaction_id_of(raw: bytes) -> str | None:
    try:
        return _envelope.decode(raw).transaction_id
    except msgspec.DecodeError:
        return None
