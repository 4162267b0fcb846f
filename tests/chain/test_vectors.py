"""The test vectors of docs/audit.md ("Test vectors"): every value recomputed with the
service's own code, and again by a verifier written from that page's byte layouts alone
(``tests/audit/independent_verifier.py``: hashlib, struct and the Ed25519 primitive), so
the page and the code cannot drift apart."""

from __future__ import annotations

import hashlib
import json
import re
import uuid
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from russian_poker.service.chain.checkpoints import checkpoint_digest
from russian_poker.service.chain.hashing import event_hash
from russian_poker.service.chain.keys import key_id
from russian_poker.service.chain.merkle import leaf_bytes, merkle_root
from tests.audit.independent_verifier import checkpoint_digest as page_digest
from tests.audit.independent_verifier import event_hash as page_event_hash
from tests.audit.independent_verifier import mth as page_root

PAGE = Path(__file__).resolve().parents[2] / "docs" / "audit.md"


def _vectors() -> dict[str, Any]:
    section = PAGE.read_text().split("### Test vectors", 1)[1]
    block = re.search(r"```json\n(.*?)\n```", section, re.DOTALL)
    assert block, "docs/audit.md has no test vector block"
    vectors: dict[str, Any] = json.loads(block.group(1))
    return vectors


def test_the_event_hashes() -> None:
    for e in _vectors()["events"]:
        expected = bytes.fromhex(e["hash"])
        page = page_event_hash(
            e, bytes.fromhex(e["prev_hash"]), e["data"], e["metadata"], e["recorded_at_us"]
        )
        assert page == expected
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
    root = page_root(leaves)
    assert root.hex() == c["merkle_root"] == merkle_root(leaves).hex()

    public = Ed25519PublicKey.from_public_bytes(bytes.fromhex(c["public_key"]))
    assert hashlib.sha256(bytes.fromhex(c["public_key"])).hexdigest() == c["key_id"]
    assert key_id(public) == c["key_id"]
    digest = page_digest(c, root, c["created_at_us"])
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
