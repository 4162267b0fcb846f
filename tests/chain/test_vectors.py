"""The test vectors of docs/audit.md ("Test vectors"): every value recomputed with the
service's own code, and again by a verifier written from that page's byte layouts alone
(hashlib, struct and the Ed25519 primitive), so the page and the code cannot drift apart."""

from __future__ import annotations

import hashlib
import json
import re
import struct
import uuid
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from russian_poker.service.chain.checkpoints import checkpoint_digest
from russian_poker.service.chain.hashing import event_hash
from russian_poker.service.chain.keys import key_id
from russian_poker.service.chain.merkle import leaf_bytes, merkle_root

PAGE = Path(__file__).resolve().parents[2] / "docs" / "audit.md"


def _vectors() -> dict[str, Any]:
    section = PAGE.read_text().split("### Test vectors", 1)[1]
    block = re.search(r"```json\n(.*?)\n```", section, re.DOTALL)
    assert block, "docs/audit.md has no test vector block"
    vectors: dict[str, Any] = json.loads(block.group(1))
    return vectors


def _page_event_hash(e: dict[str, Any]) -> bytes:
    """The event hash exactly as the page lays it out."""
    return hashlib.sha256(
        bytes.fromhex(e["prev_hash"])
        + e["stream_id"].encode()
        + b"\0"
        + struct.pack(">q", e["stream_version"])
        + uuid.UUID(e["event_id"]).bytes
        + e["event_type"].encode()
        + b"\0"
        + struct.pack(">i", e["schema_version"])
        + hashlib.sha256(e["data"].encode()).digest()
        + hashlib.sha256(e["metadata"].encode()).digest()
        + struct.pack(">q", e["recorded_at_us"])
    ).digest()


def _page_digest(c: dict[str, Any], root: bytes) -> bytes:
    return hashlib.sha256(
        b"russian-poker/chain-checkpoint/v1\0"
        + struct.pack(">qqQq", c["seq"], c["created_at_us"], c["upto_tx_id"], c["upto_position"])
        + bytes.fromhex(c["prev_digest"])
        + struct.pack(">q", len(c["leaves"]))
        + root
        + bytes.fromhex(c["key_id"])
    ).digest()


def test_the_event_hashes() -> None:
    for e in _vectors()["events"]:
        expected = bytes.fromhex(e["hash"])
        assert _page_event_hash(e) == expected
        ours = event_hash(
            bytes.fromhex(e["prev_hash"]),
            e["stream_id"],
            e["stream_version"],
            uuid.UUID(e["event_id"]),
            e["event_type"],
            e["schema_version"],
            e["data"],
            e["metadata"],
            e["recorded_at_us"],
        )
        assert ours == expected


def test_the_checkpoint() -> None:
    c = _vectors()["checkpoint"]
    leaves = [
        leaf_bytes(leaf["stream_id"], leaf["stream_version"], bytes.fromhex(leaf["hash"]))
        for leaf in c["leaves"]
    ]
    assert [leaf.hex() for leaf in leaves] == c["leaf_bytes"]
    # One leaf: the page's MTH({d}) = SHA-256(0x00 || d).
    root = hashlib.sha256(b"\0" + leaves[0]).digest()
    assert root.hex() == c["merkle_root"] == merkle_root(leaves).hex()

    public = Ed25519PublicKey.from_public_bytes(bytes.fromhex(c["public_key"]))
    assert hashlib.sha256(bytes.fromhex(c["public_key"])).hexdigest() == c["key_id"]
    assert key_id(public) == c["key_id"]
    digest = _page_digest(c, root)
    assert digest.hex() == c["digest"]
    assert digest == checkpoint_digest(
        seq=c["seq"],
        created_at=c["created_at_us"],
        upto_tx_id=c["upto_tx_id"],
        upto_position=c["upto_position"],
        prev_digest=bytes.fromhex(c["prev_digest"]),
        leaf_count=len(c["leaves"]),
        merkle_root=root,
        key_id=c["key_id"],
    )
    public.verify(bytes.fromhex(c["signature"]), digest)  # raises if it does not hold
    seeded = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
    assert seeded.sign(digest).hex() == c["signature"]  # Ed25519 signs deterministically
