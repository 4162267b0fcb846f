"""Every fixed set of values the API answers with is an enum in the document, so generated
clients get a type for it instead of a string whose values live only in prose."""

from __future__ import annotations

import json
import typing
from pathlib import Path
from typing import Any

from russian_poker.events.codec import EVENT_TYPES, EventType

DOCUMENT = Path(__file__).parents[2] / "openapi" / "openapi.json"

CLOSED = {
    "kind",
    "game",
    "decision",
    "outcome",
    "phase",
    "role",
    "wallet_mode",
    "event_type",
    "actions",
    "check",
    "dealer_draw",
    "mode",
    "status",
    "reason",
}
"""Property names that always hold one of a fixed set of values, except as listed below."""

FREE = {
    ("Problem", "status"): "an HTTP status code",
    ("Abandonment", "reason"): "a sentence (`no activity for N s`)",
    ("AvailabilityChange", "reason"): "the staff's own words",
    ("CloseTableBody", "reason"): "the staff's own words",
    ("CreateTable", "reason"): "the staff's own words",
    ("ReopenTableBody", "reason"): "the staff's own words",
    ("RulesetChangeBody", "reason"): "the staff's own words",
    ("RoundAbandoned", "reason"): "a sentence (`no activity for N s`)",
    ("RulesetChanged", "reason"): "the staff's own words",
    ("TableClosed", "reason"): "the staff's own words",
    ("TableOpened", "reason"): "the staff's own words",
    ("TableReopened", "reason"): "the staff's own words",
}


def _enumerated(schema: dict[str, Any], components: dict[str, Any]) -> bool:
    if "$ref" in schema:
        return _enumerated(components[schema["$ref"].rsplit("/", 1)[1]], components)
    if "enum" in schema or "const" in schema or schema.get("type") == "boolean":
        return True
    if schema.get("type") == "array":
        return _enumerated(schema.get("items", {}), components)
    if "oneOf" in schema:
        return all(s.get("type") == "null" or _enumerated(s, components) for s in schema["oneOf"])
    return False


def test_the_event_types_literal_names_every_event_type() -> None:
    assert sorted(typing.get_args(EventType)) == sorted(EVENT_TYPES)


def test_every_closed_set_is_an_enum_in_the_document() -> None:
    components = json.loads(DOCUMENT.read_text())["components"]["schemas"]
    plain = [
        f"{name}.{prop}"
        for name, schema in components.items()
        for prop, spec in (schema.get("properties") or {}).items()
        if prop in CLOSED and (name, prop) not in FREE and not _enumerated(spec, components)
    ]
    assert plain == [], plain
