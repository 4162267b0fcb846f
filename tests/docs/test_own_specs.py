"""The repository carries its own specs: a clone reads without anything outside it.

The game rules are docs/rules.md and the operator wallet contract is docs/wallet-protocol.md;
code and docs cite them by section ("docs/rules.md §5.4"). Checked here, over README.md,
every Markdown page under docs/ and every .py file under service/, events/, projections/,
tests/ and benchmarks/:

- nothing points outside the repository: no ``../shared`` or ``/work/shared`` path, no
  citation of the outside sources by their names (``RULES.md``, ``RULES §…`` or the bare
  word ``RULES`` in prose, docstrings and comments; ``WALLET-PROTOCOL``), and no relative
  Markdown link that resolves outside the repository. Every offending ``file:line`` is
  listed. This file is not scanned: it has to spell those names to look for them;
- every ``rules.md §N[.M]`` and ``wallet-protocol.md §N[.M]`` citation (ranges and lists
  included), every bare ``§`` citation inside the two documents themselves, and every
  link to a heading of theirs names a section that exists: the headings ``## N.`` and
  ``### N.M``, and for docs/rules.md also the numbered steps 1-7 of §5 (§5.1-§5.7);
- docs/rules.md names every field of the ``Ruleset`` struct in code font, each with a row
  in its table of all ruleset parameters.
"""

from __future__ import annotations

import functools
import io
import os
import re
import tokenize
from collections.abc import Iterator
from pathlib import Path
from typing import Final

import msgspec

from russian_poker.events.ruleset import Ruleset

ROOT: Final = Path(__file__).resolve().parents[2]
RULES_DOC: Final = ROOT / "docs" / "rules.md"
WALLET_DOC: Final = ROOT / "docs" / "wallet-protocol.md"
DOCS: Final = {"rules": RULES_DOC, "wallet-protocol": WALLET_DOC}
CODE_DIRS: Final = ("service", "events", "projections", "tests", "benchmarks")

# A path or a name of the sources outside the repository, anywhere in a file.
_OUTSIDE: Final = re.compile(r"\.\./shared|/work/shared|RULES\.md|WALLET-PROTOCOL")
# The outside rules cited by their bare name ("RULES §3", "which RULES allow"): looked for
# in Markdown text and in .py strings and comments, so a Python name RULES is no citation.
_BARE_RULES: Final = re.compile(r"\bRULES\b")
# [text](target "title"), ![alt](target), and reference definitions "[id]: target".
_LINK: Final = re.compile(
    r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)|^\s*\[[^\]]+\]:\s+(\S+)", re.M
)
_SCHEME: Final = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")
# "docs/rules.md §5.2-3", "rules.md) §4-§6", "wallet-protocol.md §3.3, §3.4": the document,
# then its sections; after a comma or "and" a section needs its own §, after a dash not.
_ONE: Final = r"§\s?\d+(?:\.\d+)?"
_CITATION: Final = re.compile(
    r"(?<![\w-])(?P<doc>rules|wallet-protocol)\.md(?:#[\w-]*)?[`)\]]*\s*"
    rf"(?P<refs>{_ONE}(?:\s*[-–]\s*(?:§\s?)?\d+(?:\.\d+)?|\s*(?:,|and)\s*{_ONE})*)"
)
_OWN_CITATION: Final = re.compile(
    rf"(?<![\w.])(?P<refs>{_ONE}(?:\s*[-–]\s*(?:§\s?)?\d+(?:\.\d+)?|\s*(?:,|and)\s*{_ONE})*)"
)
_REF: Final = re.compile(r"(§?)\s?(\d+)(?:\.(\d+))?")
_HEADING: Final = re.compile(r"^#{2,3}\s+(\d+)\.(\d+)?\.?\s", re.M)
_STEP: Final = re.compile(r"^(\d+)\.\s", re.M)


def _files() -> list[Path]:
    files = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    for folder in CODE_DIRS:
        files += sorted((ROOT / folder).rglob("*.py"))
    this = Path(__file__).resolve()
    return [f for f in files if f.resolve() != this]


def _line(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def _where(path: Path, text: str, offset: int) -> str:
    """``file:line: text``, the text cut to about 100 characters around ``offset``."""
    line_start = text.rfind("\n", 0, offset) + 1
    line = text[line_start:].split("\n", 1)[0]
    start = max(0, min(offset - line_start - 40, len(line) - 100))
    return f"{path.relative_to(ROOT)}:{_line(text, offset)}: {line[start : start + 100].strip()}"


def _prose(path: Path, text: str) -> Iterator[tuple[int, str]]:
    """``(offset, text)`` of what a reader reads as words: all of a Markdown page; the
    strings (docstrings included) and comments of a .py file."""
    if path.suffix != ".py":
        yield 0, text
        return
    starts = [0]
    for line in io.StringIO(text):  # the lines as tokenize reads them
        starts.append(starts[-1] + len(line))
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError):
        yield 0, text  # not Python after all: read it all
        return
    for token in tokens:
        if token.type in (tokenize.STRING, tokenize.COMMENT):
            row, column = token.start
            yield starts[row - 1] + column, token.string


@functools.cache
def _sections(doc: str) -> frozenset[str]:
    """The section numbers of docs/<doc>.md: its headings ``## N.`` and ``### N.M``, and
    for the rules the numbered steps of §5."""
    text = DOCS[doc].read_text(encoding="utf-8")
    found = set()
    for match in _HEADING.finditer(text):
        major, minor = match.group(1), match.group(2)
        found.add(major if minor is None else f"{major}.{minor}")
    if doc == "rules":
        round_ = re.search(r"^## 5\.\s.*?(?=^## |\Z)", text, re.M | re.S)
        if round_:
            found.update(f"5.{step}" for step in _STEP.findall(round_.group(0)))
    return frozenset(found)


def _slug(heading: str) -> str:
    """GitHub's anchor of a heading's text."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


@functools.cache
def _anchors(doc: str) -> frozenset[str]:
    text = DOCS[doc].read_text(encoding="utf-8")
    return frozenset(_slug(m.group(1)) for m in re.finditer(r"^#{1,6}\s+(.*)$", text, re.M))


def _cited(refs: str) -> list[str]:
    """The sections a citation names: "§5.2-3" is 5.2 and 5.3, "§4-§6" is 4 and 6."""
    sections: list[str] = []
    major: str | None = None
    for mark, number, minor in _REF.findall(refs):
        if minor:
            major = number
            sections.append(f"{number}.{minor}")
        elif not mark and major is not None:
            sections.append(f"{major}.{number}")  # the end of a range like §5.2-3
        else:
            major = None
            sections.append(number)
    return sections


def test_the_documents_have_the_sections_cited_elsewhere() -> None:
    # The numbers are what code and docs cite: a renumbered or lost section breaks them.
    rules = {str(n) for n in range(1, 9)} | {f"5.{n}" for n in range(1, 8)}
    wallet = {str(n) for n in range(1, 7)} | {f"3.{n}" for n in range(1, 6)}
    assert _sections("rules") == rules, "docs/rules.md: sections §1-§8 and steps §5.1-§5.7"
    assert _sections("wallet-protocol") == wallet, "docs/wallet-protocol.md: §1-§6, §3.1-§3.5"


def _outside(path: Path, text: str) -> Iterator[int]:
    """Offsets in ``text`` of what points outside the repository."""
    yield from (match.start() for match in _OUTSIDE.finditer(text))
    for offset, prose in _prose(path, text):
        yield from (offset + match.start() for match in _BARE_RULES.finditer(prose))
    for match in _LINK.finditer(text):
        target = match.group(1) or match.group(2)
        if _SCHEME.match(target) or target.startswith("#"):
            continue  # a URL, or a place on the same page
        link = target.split("#")[0].split("?")[0]
        # A page's links are relative to its folder, a docstring's to the repository.
        base = ROOT if link.startswith("/") or path.suffix != ".md" else path.parent
        if not Path(os.path.normpath(base / link.lstrip("/"))).is_relative_to(ROOT):
            yield match.start()


def _unknown_sections(path: Path, text: str) -> Iterator[str]:
    """Every citation in ``text`` of a section or heading the two documents do not have."""
    own = next((doc for doc, page in DOCS.items() if page == path), None)
    cited_elsewhere: list[range] = []
    for match in _CITATION.finditer(text):
        cited_elsewhere.append(range(*match.span("refs")))
        doc = match.group("doc")
        for section in _cited(match.group("refs")):
            if section not in _sections(doc):
                yield f"{_where(path, text, match.start())} (no §{section} in docs/{doc}.md)"
    if own is not None:
        # Inside either document a bare "§N" is one of its own sections.
        for match in _OWN_CITATION.finditer(text):
            if any(match.start() in span for span in cited_elsewhere):
                continue  # "wallet-protocol.md §3" in the rules is not the rules' §3
            for section in _cited(match.group("refs")):
                if section not in _sections(own):
                    yield f"{_where(path, text, match.start())} (no §{section} in docs/{own}.md)"
    for match in _LINK.finditer(text):
        page, _, anchor = (match.group(1) or match.group(2)).partition("#")
        doc = own if not page else next((d for d in DOCS if Path(page).name == f"{d}.md"), None)
        if doc is not None and anchor and anchor not in _anchors(doc):
            yield f"{_where(path, text, match.start())} (no #{anchor} in docs/{doc}.md)"


def test_nothing_points_outside_the_repository() -> None:
    found: list[str] = []
    for path in _files():
        text = path.read_text(encoding="utf-8")
        first: dict[int, int] = {}  # the first offending offset of each line
        for offset in sorted(_outside(path, text)):
            first.setdefault(_line(text, offset), offset)
        found += [_where(path, text, offset) for offset in first.values()]
    assert not found, (
        f"{len(found)} lines point outside the repository (cite docs/rules.md or "
        "docs/wallet-protocol.md instead):\n" + "\n".join(found)
    )


def test_every_section_cited_exists() -> None:
    missing: list[str] = []
    for path in _files():
        missing += _unknown_sections(path, path.read_text(encoding="utf-8"))
    assert not missing, "citations of sections that do not exist:\n" + "\n".join(
        dict.fromkeys(missing)
    )


def test_the_rules_name_every_ruleset_parameter() -> None:
    text = RULES_DOC.read_text(encoding="utf-8")
    fields = [field.name for field in msgspec.structs.fields(Ruleset)]
    assert len(fields) > 20, "the Ruleset struct lost its fields?"
    unnamed = [name for name in fields if f"`{name}`" not in text]
    assert not unnamed, f"docs/rules.md does not name these ruleset parameters: {unnamed}"
    table = text.partition("\n## All ruleset parameters\n")[2]
    rows = set(re.findall(r"^\| `(\w+)` \|", table, re.M))
    assert rows == set(fields), (
        "docs/rules.md's table of all ruleset parameters should have one row per field; "
        f"missing: {sorted(set(fields) - rows)}, not fields: {sorted(rows - set(fields))}"
    )
