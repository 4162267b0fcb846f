"""Faults a test can switch on at run time, and the broken variants chosen at start.

A **fault** is something going wrong between the game and a correct wallet: a slow answer,
a 500, a connection that breaks before or after the call was applied, an answer held back
after the call was applied (``stall_after_apply``: the game can die while it waits, with
the money already moved), a duplicated delivery, a wrongly signed answer, the wallet being
down for a while. The game must cope with every one of them (docs/wallet-protocol.md §3.2-§3.4),
and the tests use them to prove it.

A **broken variant** is a wallet that gets the protocol wrong (no idempotency, no signature
check, …). The conformance kit must catch each one; nothing at run time switches it off.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import Annotated, Final, Literal, cast, get_args

import msgspec

from russian_poker.service.wallet.protocol import CALLS, CallName

__all__ = [
    "BROKEN_MODES",
    "FAULT_MODES",
    "Broken",
    "Fault",
    "FaultBoard",
    "FaultMode",
    "FaultSpec",
    "FaultTarget",
    "broken_mode",
]

FaultMode = Literal[
    "slow",
    "error_500",
    "drop_after_apply",
    "drop_before_apply",
    "stall_after_apply",
    "duplicate",
    "bad_signature",
    "stale_signature",
    "down",
]
FAULT_MODES: Final[tuple[str, ...]] = get_args(FaultMode)

Broken = Literal[
    "no_idempotency",
    "ignores_signature",
    "forgets_rollbacks",
    "unsigned_answers",
    "no_duplicate_check",
]
BROKEN_MODES: Final[tuple[str, ...]] = get_args(Broken)

FaultTarget = CallName | Literal["table_status", "checkpoint"]
"""What a fault can hit: a money call, or a notification (table-status, checkpoint; only
when named: the default is the four calls)."""


def broken_mode(name: str | None) -> Broken | None:
    """``name`` checked to be one of :data:`BROKEN_MODES` (None: the correct wallet)."""
    if name is None:
        return None
    if name not in BROKEN_MODES:
        raise ValueError(f"unknown broken mode {name!r}: one of {', '.join(BROKEN_MODES)}")
    return cast(Broken, name)


class FaultSpec(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The body of ``POST /_admin/faults``."""

    mode: FaultMode
    calls: tuple[FaultTarget, ...] = CALLS
    times: Annotated[int, msgspec.Meta(ge=0)] = 1
    """How many calls it hits; 0: every call until the faults are cleared."""
    delay_ms: Annotated[int, msgspec.Meta(ge=0)] = 5000
    """``slow``: how long the call waits before it is applied; ``stall_after_apply``: how
    long the answer waits after the call was applied and committed (clearing the faults
    sends it at once)."""
    for_s: Annotated[float, msgspec.Meta(gt=0)] | None = None
    """``down`` only (and required there): how long the wallet stays down."""


class Fault:
    """One fault switched on, with what is left of it."""

    def __init__(self, spec: FaultSpec, clock: Callable[[], float] = time.monotonic) -> None:
        if spec.mode == "down" and spec.for_s is None:
            raise ValueError("the down fault needs for_s: how many seconds the wallet is down")
        self.spec = spec
        self._clock = clock
        # `down` is bounded by time, not by a count: every call within the window is lost.
        self._left: int | None = None if spec.times == 0 or spec.mode == "down" else spec.times
        self._until = None if spec.for_s is None else clock() + spec.for_s

    @property
    def mode(self) -> FaultMode:
        return self.spec.mode

    @property
    def spent(self) -> bool:
        if self._until is not None and self._clock() >= self._until:
            return True
        return self._left == 0

    def hits(self, call: FaultTarget) -> bool:
        return call in self.spec.calls and not self.spent

    def take(self) -> None:
        if self._left is not None:
            self._left -= 1


class FaultBoard:
    """The faults switched on, first come first served.

    One event loop serves every request, and :meth:`take` never awaits, so two concurrent
    calls can never both consume a fault meant for one.
    """

    def __init__(self) -> None:
        self._faults: list[Fault] = []
        self._release = asyncio.Event()

    def add(self, spec: FaultSpec) -> Fault:
        fault = Fault(spec)
        self._faults.append(fault)
        return fault

    def clear(self) -> None:
        """Every fault off, and the answers ``stall_after_apply`` holds back sent now."""
        self._faults.clear()
        self._release.set()
        self._release = asyncio.Event()

    async def hold(self, seconds: float) -> None:
        """Wait ``seconds``, or until the faults are cleared: a test done with a stall lets
        its answer go, and a stop of the wallet does not wait for it."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._release.wait(), seconds)

    def take(self, call: FaultTarget) -> Fault | None:
        """The fault that hits this call, if any (counted as used)."""
        self._faults = [fault for fault in self._faults if not fault.spent]
        for fault in self._faults:
            if fault.hits(call):
                fault.take()
                return fault
        return None

    def active(self) -> list[FaultSpec]:
        return [fault.spec for fault in self._faults if not fault.spent]
