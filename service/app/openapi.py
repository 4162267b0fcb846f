"""The OpenAPI document as integrators' tools read it: linters, client generators and the
interactive docs' "Try it out".

Litestar generates the document from the routes; this module gives it what the routes alone
do not say, from the code that decides it:
- the bearer scheme, required by every route whose access policy (``service.app.policy``)
  names a role, and ``security: []`` on the public ones, so ``/schema`` has an Authorize
  button and a generated client knows which calls need a token;
- the tags, described;
- a schema for every response header (Litestar writes a documentation-only header without
  one);
- header parameters as strings (a header is absent or text, never ``null``), and
  ``Idempotency-Key`` required where the route requires it (the route reads it as optional
  only to answer its absence with its own 428 problem);
- a nullable enum as ``oneOf`` an enum and ``null`` (generators make one type of it; of
  ``type: [string, null]`` with ``null`` among the values they make one class per type);
- tuples as arrays of one item type with a fixed length (``prefixItems`` is OpenAPI 3.1 only,
  and most generators drop it).
:func:`finished` applies all of it, with :func:`~.schema_plugin.described`; the served
document (:class:`FinishedJson`) and the committed one (the ``openapi`` command) are the same.
"""

from __future__ import annotations

from typing import Any, Final

from litestar import Litestar, Request
from litestar.openapi import OpenAPIConfig
from litestar.openapi.plugins import JsonRenderPlugin, OpenAPIRenderPlugin
from litestar.openapi.spec import Components, Contact, License, SecurityScheme, Tag
from litestar.router import Router

from russian_poker.events.paytables import CATEGORY_LABELS
from russian_poker.service.app.policy import policy_of
from russian_poker.service.app.problems import REPLAYED
from russian_poker.service.app.schema_plugin import described

__all__ = ["BEARER", "FinishedJson", "finished", "openapi_config"]

BEARER: Final = "bearer"
"""The security scheme's name in the document."""

REQUIRED_HEADERS: Final = frozenset({"Idempotency-Key"})
"""Headers a route refuses to act without (428), though its signature takes them as optional."""

TAGS: Final = (
    Tag(
        name="tables",
        description="The lobby, a table's view and live stream, and the commands players and "
        "operators send to a table.",
    ),
    Tag(name="history", description="Settled rounds: a player's own, and reports over many."),
    Tag(name="fairness", description="A settled round's proof: seed, commitment and deck."),
    Tag(
        name="wallets",
        description="The game's own (internal) wallets: open, deposit, withdraw, balance and "
        "ledger.",
    ),
    Tag(name="me", description="The caller: who the token names, and a player's balance."),
    Tag(
        name="sessions",
        description="Game sessions an operator launches for its players (the player's token).",
    ),
    Tag(
        name="operators",
        description="Operators (tenants): registration, API keys, their money calls and daily "
        "report.",
    ),
    Tag(
        name="audit",
        description="What a regulator's auditor reads: the event feed, round records, replay, "
        "reconciliation, checkpoints, RTP and software.",
    ),
    Tag(name="health", description="Liveness and readiness probes."),
)


def openapi_config(
    version: str, render_plugins: list[OpenAPIRenderPlugin], router: Router
) -> OpenAPIConfig:
    return OpenAPIConfig(
        title="Russian Poker backend",
        version=version,
        description="Event-sourced Russian Poker and Oasis Poker tables, wallets and audit.",
        contact=Contact(name="The Russian Poker backend's maintainers"),
        license=License(name="Apache-2.0", identifier="Apache-2.0"),
        tags=list(TAGS),
        components=Components(
            security_schemes={
                BEARER: SecurityScheme(
                    type="http",
                    scheme="bearer",
                    description="A token from `russian-poker token` (admin, operator, auditor "
                    "or a development player), an operator's API key (`rpk_…`), or a "
                    "player's session token from `POST /v1/sessions`: "
                    "`Authorization: Bearer <token>`.",
                )
            }
        ),
        security=[{BEARER: []}],
        render_plugins=[*render_plugins, FinishedJson()],
        openapi_router=router,
    )


def _public_operations(app: Litestar) -> set[tuple[str, str]]:
    """(path, method) of every route whose policy lets everyone through."""
    found: set[tuple[str, str]] = set()
    for route in app.routes:
        for handler in getattr(route, "route_handlers", ()):
            rule = policy_of(handler)
            if rule is not None and rule.public:
                for method in getattr(handler, "http_methods", ()):
                    found.add((route.path_format, method.lower()))
    return found


def _operations(document: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (path, method, operation)
        for path, item in document.get("paths", {}).items()
        for method, operation in item.items()
        if isinstance(operation, dict) and "responses" in operation
    ]


def _plain_string(schema: dict[str, Any]) -> None:
    """``oneOf: [string, null]`` (an optional parameter, as Litestar writes it) as a string."""
    if schema.get("oneOf") == [{"type": "string"}, {"type": "null"}]:
        rest = {k: v for k, v in schema.items() if k != "oneOf"}
        schema.clear()
        schema.update({"type": "string", **rest})


def _keyed_by_category(schema: dict[str, Any]) -> None:
    """A paytable's keys are hand categories: Litestar drops a dict's ``Literal`` key type,
    and generators and validators read it back from ``propertyNames``."""
    for variant in [schema, *schema.get("oneOf", [])]:
        if variant.get("type") == "object" and "additionalProperties" in variant:
            variant["propertyNames"] = {"type": "string", "enum": list(CATEGORY_LABELS)}


def _portable(schema: Any) -> None:
    """Every fixed-length tuple of one item type, as an array of that type, min = max; every
    nullable enum as ``oneOf`` the enum and ``null``."""
    if isinstance(schema, dict):
        while isinstance(one := schema.get("oneOf"), list) and len(one) == 1:
            # Litestar wraps an optional (UNSET) field's type in a oneOf of one.
            schema.pop("oneOf")
            schema.update({**one[0], **schema})
        kinds, values = schema.get("type"), schema.get("enum")
        if isinstance(kinds, list) and "null" in kinds and isinstance(values, list):
            rest = {k: v for k, v in schema.items() if k not in ("type", "enum")}
            (kind,) = [k for k in kinds if k != "null"]
            schema.clear()
            schema["oneOf"] = [
                {"type": kind, "enum": [v for v in values if v is not None]},
                {"type": "null"},
            ]
            schema.update(rest)
        items = schema.get("prefixItems")
        if isinstance(items, list) and items and all(i == items[0] for i in items):
            schema.pop("prefixItems")
            schema.update(items=items[0], minItems=len(items), maxItems=len(items))
        for name, value in schema.get("properties", {}).items():
            if name.endswith("_paytable"):
                _keyed_by_category(value)
        for value in schema.values():
            _portable(value)
    elif isinstance(schema, list):
        for value in schema:
            _portable(value)


def finished(document: dict[str, Any], app: Litestar) -> dict[str, Any]:
    """``document`` (the app's OpenAPI document as a dict) completed in place, as the
    module's docstring says; returned for convenience. Idempotent."""
    described(document)
    public = _public_operations(app)
    for path, method, operation in _operations(document):
        if (path, method) in public:
            operation["security"] = []
        for parameter in operation.get("parameters", []):
            if parameter.get("in") == "header":
                _plain_string(parameter["schema"])
                if parameter["name"] in REQUIRED_HEADERS:
                    parameter["required"] = True
        for response in operation["responses"].values():
            for name, header in response.get("headers", {}).items():
                if "schema" not in header and "content" not in header:
                    header["schema"] = (
                        {"type": "string", "enum": ["true"]}
                        if name == REPLAYED
                        else {"type": "string"}
                    )
    _portable(document.get("components", {}))
    _portable(document.get("paths", {}))
    return document


class FinishedJson(JsonRenderPlugin):
    """``/schema/openapi.json``: the document, finished (:func:`finished`)."""

    def render(self, request: Request[Any, Any, Any], openapi_schema: dict[str, Any]) -> bytes:
        return super().render(request, finished(openapi_schema, request.app))
