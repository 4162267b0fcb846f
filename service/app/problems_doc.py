"""``docs/problems.md``, rendered from the problem catalogue so the two cannot disagree.

Run ``./dev python -m russian_poker.service.app.problems_doc`` after changing the catalogue; a test
fails while the committed page is stale. Kept apart from the catalogue, which the app imports, so
that running this module does not import it twice.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from russian_poker.service.app.catalogue import CATALOGUE, IDEMPOTENCY, by_status

__all__ = ["MARKDOWN_PATH", "render_markdown"]

MARKDOWN_PATH: Final = Path(__file__).parents[2] / "docs" / "problems.md"


def render_markdown() -> str:
    """``docs/problems.md``: the catalogue as a page, grouped by status."""
    lines = [
        "# Problem types",
        "",
        "<!-- Generated from service/app/catalogue.py:"
        " run `./dev python -m russian_poker.service.app.problems_doc`. -->",
        "",
        "Every refusal is an RFC 9457 `application/problem+json` body whose `type` is"
        " `/problems/<code>` and whose `code` is the same code. The service explains each"
        " at `GET /problems/<code>` (HTML, or JSON with `Accept: application/json`) and"
        " lists them at `GET /problems`.",
        "",
        "## Idempotency",
        "",
        IDEMPOTENCY,
        "`idempotency_key_reused` means the key was used before for a different command or body.",
        "",
        "| code | status | title |",
        "|---|---|---|",
    ]
    entries = sorted(CATALOGUE.values(), key=lambda e: (e.status, e.code))
    lines += [f"| [`{e.code}`](#{e.code}) | {e.status} | {e.title} |" for e in entries]
    for status in sorted({e.status for e in entries}):
        lines += ["", f"## {status}"]
        for e in by_status(status):
            lines += [
                "",
                f"### {e.code}",
                "",
                f"**{e.title}.** {e.when}",
                "",
                f"*What to do:* {e.action}",
                "",
                f"Example detail: `{e.example}`",
            ]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    MARKDOWN_PATH.write_text(render_markdown())
    print(f"wrote {MARKDOWN_PATH}")
