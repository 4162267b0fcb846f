"""The event hash, re-implemented apart from the database (docs/audit.md, "Tamper-evident
log"): the verifier must not trust a function an insider could replace.

    hash = sha256(prev_hash ‖ utf8(stream_id) ‖ 0x00 ‖ int8(stream_version) ‖ event_id (16)
                  ‖ utf8(event_type) ‖ 0x00 ‖ int4(schema_version)
                  ‖ sha256(utf8(data)) ‖ sha256(utf8(metadata)) ‖ int8(recorded_at µs))

Integers are big-endian two's complement (PostgreSQL's ``int8send``/``int4send``); ``data``
and ``metadata`` are PostgreSQL's canonical ``jsonb`` text (:func:`jsonb_text` renders it
from parsed JSON, for an auditor working from an export).
"""

from __future__ import annotations

import hashlib
import math
import re
import struct
import uuid
from datetime import UTC, datetime
from decimal import Decimal
from typing import Final

__all__ = ["GENESIS", "event_hash", "jsonb_text", "micros"]

GENESIS: Final = bytes(32)
"""The ``prev_hash`` of every stream's first event."""

_EPOCH: Final = datetime(1970, 1, 1, tzinfo=UTC)
_INT8: Final = struct.Struct(">q")
_INT4: Final = struct.Struct(">i")
# PostgreSQL's escape_json: these five by name, other control characters as \u00xx.
_ESCAPES: Final = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r"}
_ESCAPES["\t"] = "\\t"
_NEEDS_ESCAPE: Final = re.compile(r'[\x00-\x1f"\\]')


def micros(moment: datetime) -> int:
    """Microseconds since the Unix epoch (``timestamptz``'s resolution), exactly."""
    delta = moment - _EPOCH
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


def event_hash(
    prev_hash: bytes,
    stream_id: str,
    stream_version: int,
    event_id: uuid.UUID,
    event_type: str,
    schema_version: int,
    data: str,
    metadata: str,
    recorded_at: datetime | int,
) -> bytes:
    """The hash of one event; ``data``/``metadata`` as canonical ``jsonb`` text,
    ``recorded_at`` as a time or microseconds since the epoch."""
    at = recorded_at if isinstance(recorded_at, int) else micros(recorded_at)
    return hashlib.sha256(
        b"".join(
            (
                prev_hash,
                stream_id.encode(),
                b"\x00",
                _INT8.pack(stream_version),
                event_id.bytes,
                event_type.encode(),
                b"\x00",
                _INT4.pack(schema_version),
                hashlib.sha256(data.encode()).digest(),
                hashlib.sha256(metadata.encode()).digest(),
                _INT8.pack(at),
            )
        )
    ).digest()


def jsonb_text(value: object) -> str:
    """PostgreSQL's text of ``value`` stored as ``jsonb``: object keys ordered by length in
    UTF-8 bytes then bytewise, ``", "`` and ``": "`` separators, non-ASCII as is, numbers as
    ``numeric`` prints them (``1.0`` stays ``1.0``, ``1e2`` is ``100``)."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError("JSON has no NaN or infinity")
        return _numeric(Decimal(repr(value)))
    if isinstance(value, Decimal):
        return _numeric(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(jsonb_text(item) for item in value) + "]"
    if isinstance(value, dict):
        keys = sorted(value, key=lambda k: (len(k.encode()), k.encode()))
        return "{" + ", ".join(f"{_string(k)}: {jsonb_text(value[k])}" for k in keys) + "}"
    raise TypeError(f"not JSON: {type(value).__name__}")


def _numeric(number: Decimal) -> str:
    # numeric keeps the scale written (1.50 → 1.50) and prints without an exponent.
    return format(abs(number) if number.is_zero() else number, "f")


def _escaped(match: re.Match[str]) -> str:
    char = match.group()
    return _ESCAPES.get(char) or f"\\u{ord(char):04x}"


def _string(text: str) -> str:
    # Most strings need no escape at all: one regex scan, not a loop over characters.
    return '"' + _NEEDS_ESCAPE.sub(_escaped, text) + '"'
