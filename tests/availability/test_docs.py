"""The guide's table-status notification is what the game sends, and the audit page's
section names what exists."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Final

import msgspec

from russian_poker.service.app.catalogue import CATALOGUE
from russian_poker.service.availability.notices import NOTICE_PATH, TableStatusNotice

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


def test_the_audit_section_names_problem_types_that_exist() -> None:
    section = AUDIT.split("## Availability and change log", 1)[1]
    named = set(re.findall(r"/problems/([a-z_]+)", section))
    assert named == {"ruleset_locked", "ruleset_change_invalid"}
    assert named <= set(CATALOGUE)
    assert CATALOGUE["ruleset_locked"].status == 409
    assert CATALOGUE["ruleset_change_invalid"].status == 422
