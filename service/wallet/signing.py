"""Signatures of both directions (docs/wallet-protocol.md §4).

``X-Signature: t=<unix seconds>,v1=<hex>`` with ``v1 = HMAC-SHA256(secret, "<t>.<raw body>")``:
the raw body byte for byte, so neither side re-serialises what it verifies. A ``t`` more
than :data:`WINDOW_S` from the verifier's clock is refused, which bounds how long a captured
message can be replayed.
"""

from __future__ import annotations

import hashlib
import hmac
import time
from typing import Final

__all__ = ["HEADER", "WINDOW_S", "BadSignature", "sign", "verify"]

HEADER: Final = "X-Signature"
WINDOW_S: Final = 300


class BadSignature(Exception):
    """A missing, malformed, wrong or stale signature. The message never holds the secret
    or the expected digest: only what was wrong."""


def _digest(secret: str, t: int, body: bytes) -> str:
    return hmac.new(secret.encode(), f"{t}.".encode() + body, hashlib.sha256).hexdigest()


def sign(secret: str, body: bytes, *, now: float | None = None) -> str:
    """The ``X-Signature`` value for ``body``, signed at ``now`` (default: the clock)."""
    t = int(time.time() if now is None else now)
    return f"t={t},v1={_digest(secret, t, body)}"


def verify(
    secret: str,
    body: bytes,
    header: str | None,
    *,
    now: float | None = None,
    window_s: int = WINDOW_S,
) -> int:
    """Check ``header`` against ``body``; returns its ``t``, or raises :class:`BadSignature`."""
    if not header:
        raise BadSignature("the X-Signature header is missing")
    parts: dict[str, str] = {}
    for item in header.split(","):
        key, sep, value = item.strip().partition("=")
        if not sep:
            raise BadSignature("X-Signature is not t=<seconds>,v1=<hex>")
        parts.setdefault(key, value)
    try:
        t = int(parts["t"])
        given = parts["v1"]
    except (KeyError, ValueError):
        raise BadSignature("X-Signature is not t=<seconds>,v1=<hex>") from None
    clock = time.time() if now is None else now
    if abs(clock - t) > window_s:
        raise BadSignature(f"the signature's t is more than {window_s} s from this clock")
    if not hmac.compare_digest(given, _digest(secret, t, body)):
        raise BadSignature("the signature does not match the body")
    return t
