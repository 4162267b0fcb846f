"""``GET /problems/{code}``: where a problem's ``type`` resolves (RFC 9457).

A person following ``/problems/out_of_turn`` from a response gets a page; a client asking
for ``application/json`` gets the same catalogue entry as data. No token is needed: the
pages say nothing about any table, player or secret.
"""

from __future__ import annotations

import html
import re
from typing import Final

import msgspec
from litestar import Controller, Request, Response, get
from litestar.datastructures import State
from litestar.exceptions import NotFoundException
from litestar.params import FromPath

from russian_poker.service.app.catalogue import CATALOGUE, IDEMPOTENCY, Entry
from russian_poker.service.app.policy import access

__all__ = ["ProblemsController"]

_HTML: Final = "text/html"
_JSON: Final = "application/json"
_CODE: Final = re.compile(r"`([^`]+)`")
_PAGE: Final = """<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>{title}</title>
<style>body {{ font-family: sans-serif; max-width: 46rem; margin: 2rem auto; padding: 0 1rem;
line-height: 1.5 }} code {{ background: #f3f3f3; padding: 0 .2em }}
td, th {{ text-align: left; padding: .1rem .8rem .1rem 0 }}</style></head>
<body>
{body}
</body>
</html>
"""


def _text(markdownish: str) -> str:
    """Escaped text whose `backticked` words are set as code."""
    return _CODE.sub(r"<code>\1</code>", html.escape(markdownish, quote=False))


def _wants_json(request: Request[object, object, State]) -> bool:
    return request.accept.best_match([_HTML, _JSON], default=_HTML) == _JSON


def _entry_page(entry: Entry) -> str:
    body = (
        f"<p><a href='/problems'>All problem types</a></p>"
        f"<h1>{html.escape(entry.title)}</h1>"
        f"<p><code>{html.escape(entry.type)}</code> · HTTP {entry.status}</p>"
        f"<h2>When</h2><p>{_text(entry.when)}</p>"
        f"<h2>What to do</h2><p>{_text(entry.action)}</p>"
        f"<h2>Example</h2><p><code>{html.escape(entry.example)}</code></p>"
    )
    return _PAGE.format(title=html.escape(entry.title), body=body)


def _index_page() -> str:
    rows = "".join(
        f"<tr><td><a href='{html.escape(e.type)}'><code>{html.escape(e.code)}</code></a></td>"
        f"<td>{e.status}</td><td>{html.escape(e.title)}</td></tr>"
        for e in sorted(CATALOGUE.values(), key=lambda e: (e.status, e.code))
    )
    body = (
        "<h1>Problem types</h1>"
        "<p>Every refusal is an RFC 9457 <code>application/problem+json</code> body whose"
        " <code>type</code> is one of these.</p>"
        f"<h2>Idempotency</h2><p>{_text(IDEMPOTENCY)}</p>"
        f"<table><tr><th>code</th><th>status</th><th>title</th></tr>{rows}</table>"
    )
    return _PAGE.format(title="Problem types", body=body)


class ProblemsController(Controller):
    opt = access()
    """The problem catalogue, for people (HTML) and for clients (JSON)."""

    path = "/problems"
    include_in_schema = False

    @get("/", sync_to_thread=False)
    def index(self, request: Request[object, object, State]) -> Response[bytes]:
        if _wants_json(request):
            return Response(msgspec.json.encode(list(CATALOGUE.values())), media_type=_JSON)
        return Response(_index_page().encode(), media_type=_HTML)

    @get("/{code:str}", sync_to_thread=False)
    def show(self, code: FromPath[str], request: Request[object, object, State]) -> Response[bytes]:
        entry = CATALOGUE.get(code)
        if entry is None:
            raise NotFoundException("no such problem type; GET /problems lists them")
        if _wants_json(request):
            return Response(msgspec.json.encode(entry), media_type=_JSON)
        return Response(_entry_page(entry).encode(), media_type=_HTML)
