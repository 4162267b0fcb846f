"""The back office's languages: both catalogues have the same keys and placeholders, the
Russian one is translated, and every text the page's code asks for exists."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Final

WEB: Final = Path(__file__).parents[2] / "service" / "office" / "web"
EN: Final[dict[str, str]] = json.loads((WEB / "i18n" / "en.json").read_text(encoding="utf-8"))
RU: Final[dict[str, str]] = json.loads((WEB / "i18n" / "ru.json").read_text(encoding="utf-8"))
CODE: Final = "\n".join(p.read_text(encoding="utf-8") for p in sorted((WEB / "js").glob("*.js")))
LITERAL: Final = re.compile(r"""t\(\s*"(office\.[A-Za-z0-9_.]+)\"""")
BUILT: Final = re.compile(r"t\(\s*`(office\.[a-z_.]+)\.\$\{")
CHOICE: Final = re.compile(r"""\?\s*"(office\.[a-z_.]+)"\s*:\s*"(office\.[a-z_.]+)\"""")
NAV: Final = re.compile(r"""\["[a-z]+",\s*"(office\.nav\.[a-z]+)"\]""")
PLACEHOLDER: Final = re.compile(r"\{(\w+)\}")
COLUMNS: Final = re.compile(
    r'\[((?:"[a-z]+",?\s*)+)\]\.map\(\(k\) => h\("th", \{ scope: "col" \}, t\(`(office\.[a-z]+)\.'
)
CODES: Final = {"RTP", "GGR", "English", "Русский"}
"""Texts that stay as they are in Russian: abbreviations and each language's own name."""


def test_the_same_keys_and_placeholders() -> None:
    assert set(EN) == set(RU)
    for key in EN:
        assert set(PLACEHOLDER.findall(EN[key])) == set(PLACEHOLDER.findall(RU[key])), key


def test_russian_is_translated() -> None:
    untranslated = [
        key
        for key, text in RU.items()
        if text not in CODES
        and re.search(r"[A-Za-z]{3}", PLACEHOLDER.sub("", text))
        and not re.search(r"[А-Яа-яЁё]", text)
    ]
    assert untranslated == []


def test_every_key_the_code_asks_for_exists() -> None:
    named = set(LITERAL.findall(CODE)) | set(NAV.findall(CODE))
    named |= {key for pair in CHOICE.findall(CODE) for key in pair}
    assert len(named) > 40, "the scan found too few keys to prove anything"
    assert sorted(named - set(EN)) == []
    for prefix in BUILT.findall(CODE):
        assert any(key.startswith(f"{prefix}.") for key in EN), prefix
    # Keys built from a column list: every column of every table has its heading.
    tables = COLUMNS.findall(CODE)
    assert len(tables) >= 8, "the scan found too few tables to prove anything"
    for columns, prefix in tables:
        for column in re.findall(r'"([a-z]+)"', columns):
            assert f"{prefix}.{column}" in EN, (prefix, column)
