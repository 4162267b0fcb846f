"""The guide's notifications (table-status, checkpoint) are what the game sends, and the
audit page's section names what exists."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Final

import msgspec
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from russian_poker.service.app.catalogue import CATALOGUE
from russian_poker.service.availability.notices import NOTICE_PATH, TableStatusNotice
from russian_poker.service.chain.notices import CHECKPOINT_PATH, CheckpointNotice

ROOT: Final = Path(__file__).parents[2]
GUIDE: Final = (ROOT / "docs" / "integration.md").read_text()
AUDIT: Final = (ROOT / "docs" / "audit.md").read_text()


def test_the_guides_notification_example_is_exactly_what_the_game_encodes() -> None:
    found = re.search(
        r"<!-- example: table-status notification -->\n```json\n(.*?)\n```\n", GUIDE, re.DOTALL
    )
    assert found, "docs/integration.md shows no table-status notification"
    shown = found.group(1)
    notice = msgspec.json.decode(shown.encode(), type=TableStatusNotice, strict=True)
    assert json.loads(msgspec.json.encode(notice)) == json.loads(shown)
    assert f"{{url}}/{NOTICE_PATH}" in GUIDE


def test_the_guides_checkpoint_example_is_the_audit_pages_signed_vector() -> None:
    found = re.search(
        r"<!-- example: checkpoint notification -->\n```json\n(.*?)\n```\n", GUIDE, re.DOTALL
    )
    assert found, "docs/integration.md shows no checkpoint notification"
    shown = found.group(1)
    notice = msgspec.json.decode(shown.encode(), type=CheckpointNotice, strict=True)
    assert json.loads(msgspec.json.encode(notice)) == json.loads(shown)
    assert f"{{url}}/{CHECKPOINT_PATH}" in GUIDE
    c = notice.checkpoint
    assert notice.notification_id == f"checkpoint-{c.seq}-{c.digest[:16]}"
    vector = json.loads(
        AUDIT.split("### Test vectors", 1)[1].split("```json\n", 1)[1].split("\n```", 1)[0]
    )["checkpoint"]
    for field in ("seq", "upto_position", "prev_digest", "merkle_root", "key_id", "digest"):
        assert getattr(c, field) == vector[field], field
    assert c.upto_tx_id == str(vector["upto_tx_id"]) and c.leaf_count == len(vector["leaves"])
    assert int(c.created_at.timestamp() * 1_000_000) == vector["created_at_us"]
    public = Ed25519PublicKey.from_public_bytes(bytes.fromhex(vector["public_key"]))
    public.verify(bytes.fromhex(c.signature), bytes.fromhex(c.digest))


def test_the_audit_section_names_problem_types_that_exist() -> None:
    section = AUDIT.split("## Availability and change log", 1)[1]
    named = set(re.findall(r"/problems/([a-z_]+)", section))
    assert named == {"ruleset_locked", "ruleset_change_invalid"}
    assert named <= set(CATALOGUE)
    assert CATALOGUE["ruleset_locked"].status == 409
    assert CATALOGUE["ruleset_change_invalid"].status == 422
