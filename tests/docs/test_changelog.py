"""CHANGELOG.md keeps pace with the contract: the OpenAPI document's `info.version` is the
package's version, and the changelog has a section for it."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

from russian_poker.service.app import API_VERSION

ROOT = Path(__file__).resolve().parents[2]


def test_the_document_the_package_and_the_changelog_name_one_version() -> None:
    package = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    document = json.loads((ROOT / "openapi" / "openapi.json").read_text())["info"]["version"]
    assert API_VERSION == package == document
    sections = re.findall(r"^## (\S+)", (ROOT / "CHANGELOG.md").read_text(), re.MULTILINE)
    assert sections and sections[0] == package, "the newest section is this version's"


def test_every_breaking_entry_says_what_to_change() -> None:
    text = (ROOT / "CHANGELOG.md").read_text()
    breaking = re.findall(r"### Breaking\n(.*?)(?=\n### |\n## |\Z)", text, re.DOTALL)
    entries = [e for block in breaking for e in re.split(r"\n- ", "\n" + block.strip()) if e]
    assert entries
    for entry in entries:
        assert "Before" in entry or "before" in entry, (
            f"a break names what was before: {entry[:60]}"
        )
