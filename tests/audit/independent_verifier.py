"""A bundle verifier written from docs/audit-bundle.md and the byte layouts of docs/audit.md
alone, as a lab would write its own: the standard library and an Ed25519 primitive, nothing
of this project's code. It checks the signed manifest, the digests, every stream's links and
hashes, and every checkpoint; it returns its findings (empty when the bundle holds)."""

from __future__ import annotations

import hashlib
import json
import struct
import uuid
from datetime import datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

ZERO = bytes(32)


def jsonb(value: Any) -> str:
    """PostgreSQL's canonical jsonb text, by the rules docs/audit.md states."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, Decimal):
        return format(abs(value) if value.is_zero() else value, "f")
    if isinstance(value, str):
        out = []
        for char in value:
            named = {
                '"': '\\"',
                "\\": "\\\\",
                "\b": "\\b",
                "\f": "\\f",
                "\n": "\\n",
                "\r": "\\r",
                "\t": "\\t",
            }
            if char in named:
                out.append(named[char])
            elif ord(char) < 0x20:
                out.append(f"\\u{ord(char):04x}")
            else:
                out.append(char)
        return '"' + "".join(out) + '"'
    if isinstance(value, list):
        return "[" + ", ".join(jsonb(v) for v in value) + "]"
    keys = sorted(value, key=lambda k: (len(k.encode()), k.encode()))
    return "{" + ", ".join(f"{jsonb(k)}: {jsonb(value[k])}" for k in keys) + "}"


def _micros(text: str) -> int:
    moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    epoch = datetime.fromisoformat("1970-01-01T00:00:00+00:00")
    delta = moment - epoch
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


def event_hash(e: dict[str, Any], prev: bytes, data: str, metadata: str, at_us: int) -> bytes:
    """docs/audit.md's event hash; ``data`` and ``metadata`` as canonical jsonb text."""
    return hashlib.sha256(
        prev
        + e["stream_id"].encode()
        + b"\0"
        + struct.pack(">q", e["stream_version"])
        + uuid.UUID(e["event_id"]).bytes
        + e["event_type"].encode()
        + b"\0"
        + struct.pack(">i", e["schema_version"])
        + hashlib.sha256(data.encode()).digest()
        + hashlib.sha256(metadata.encode()).digest()
        + struct.pack(">q", at_us)
    ).digest()


def checkpoint_digest(c: dict[str, Any], merkle: bytes, at_us: int) -> bytes:
    """docs/audit.md's checkpoint digest."""
    return hashlib.sha256(
        b"russian-poker/chain-checkpoint/v1\0"
        + struct.pack(">qqQq", c["seq"], at_us, int(c["upto_tx_id"]), c["upto_position"])
        + bytes.fromhex(c["prev_digest"])
        + struct.pack(">q", len(c["leaves"]))
        + merkle
        + bytes.fromhex(c["key_id"])
    ).digest()


def mth(leaves: list[bytes]) -> bytes:
    if not leaves:
        return hashlib.sha256(b"").digest()
    if len(leaves) == 1:
        return hashlib.sha256(b"\0" + leaves[0]).digest()
    k = 1
    while k * 2 < len(leaves):
        k *= 2
    return hashlib.sha256(b"\1" + mth(leaves[:k]) + mth(leaves[k:])).digest()


def verify(root: Path, public_key: Ed25519PublicKey) -> list[str]:
    findings: list[str] = []
    body = (root / "manifest.json").read_bytes()
    try:
        public_key.verify(bytes.fromhex((root / "manifest.sig").read_text().strip()), body)
    except InvalidSignature:
        return ["manifest: bad signature"]
    manifest = json.loads(body)
    for name, digest in manifest["files"].items():
        if hashlib.sha256((root / name).read_bytes()).hexdigest() != digest:
            findings.append(f"{name}: digest")
    if findings:
        return findings
    hashes: dict[tuple[str, int], str] = {}
    stream, version, prev = None, 0, ZERO
    for number, line in enumerate((root / "events.jsonl").read_text().splitlines(), 1):
        e = json.loads(line, parse_float=Decimal)
        if e["stream_id"] != stream:
            stream, version, prev = e["stream_id"], 0, ZERO
        own = event_hash(e, prev, jsonb(e["data"]), jsonb(e["metadata"]), _micros(e["recorded_at"]))
        if e["stream_version"] != version + 1 or bytes.fromhex(e["prev_hash"]) != prev:
            findings.append(f"events line {number}: link")
        if own.hex() != e["hash"]:
            findings.append(f"events line {number}: hash")
        version, prev = e["stream_version"], own
        hashes[(stream, version)] = e["hash"]
    raw_key = public_key.public_bytes_raw()
    previous = ZERO
    for number, line in enumerate((root / "checkpoints.jsonl").read_text().splitlines(), 1):
        c = json.loads(line)
        leaves = [
            x["stream_id"].encode()
            + b"\0"
            + struct.pack(">q", x["stream_version"])
            + bytes.fromhex(x["hash"])
            for x in c["leaves"]
        ]
        merkle = mth(leaves)
        digest = checkpoint_digest(c, merkle, _micros(c["created_at"]))
        if c["seq"] != number or bytes.fromhex(c["prev_digest"]) != previous:
            findings.append(f"checkpoints line {number}: sequence")
        if merkle.hex() != c["merkle_root"] or digest.hex() != c["digest"]:
            findings.append(f"checkpoints line {number}: root or digest")
        if c["key_id"] != hashlib.sha256(raw_key).hexdigest():
            findings.append(f"checkpoints line {number}: key")
        try:
            public_key.verify(bytes.fromhex(c["signature"]), digest)
        except InvalidSignature:
            findings.append(f"checkpoints line {number}: signature")
        for x in c["leaves"]:
            held = hashes.get((x["stream_id"], x["stream_version"]))
            if x["stream_id"] in {s for s, _ in hashes} and held != x["hash"]:
                findings.append(f"checkpoints line {number}: leaf {x['stream_id']}")
        previous = digest
    return findings
