"""Struct schemas that describe themselves: each Struct's docstring, and its tag field.

Litestar builds a Struct's schema from its fields (a field's ``msgspec.Meta`` description
becomes the property's description) but leaves out the class docstring, which msgspec's own
JSON schema uses as the description, and adds a tagged union's tag field (``type``) with
no description at all. Litestar has no public hook on its Struct schemas, so the finished
document is completed instead: every component named after one of the project's Structs
gets that Struct's docstring, and its tag field a sentence (``service.app.openapi`` applies
it, with the rest of what the document needs, to the served and the committed document).
"""

from __future__ import annotations

import inspect
from functools import cache
from typing import Any

import msgspec

__all__ = ["described"]


def _subclasses(base: type[msgspec.Struct]) -> list[type[msgspec.Struct]]:
    found: list[type[msgspec.Struct]] = []
    sub: type[msgspec.Struct]
    for sub in base.__subclasses__():
        found.append(sub)
        found.extend(_subclasses(sub))
    return found


@cache
def _structs() -> dict[str, list[type[msgspec.Struct]]]:
    """The project's Structs by class name."""
    named: dict[str, list[type[msgspec.Struct]]] = {}
    for struct in _subclasses(msgspec.Struct):
        if struct.__module__.startswith("russian_poker."):
            named.setdefault(struct.__name__, []).append(struct)
    return named


def _properties(struct: type[msgspec.Struct]) -> set[str]:
    info = msgspec.inspect.type_info(struct)
    assert isinstance(info, msgspec.inspect.StructType)
    return {f.encode_name for f in info.fields} | ({info.tag_field} if info.tag_field else set())


def _struct_of(name: str, schema: dict[str, Any]) -> type[msgspec.Struct] | None:
    """The Struct a component was made from: by name, and by its properties when two
    Structs share the name (Litestar names a component after the class alone)."""
    found = _structs().get(name, [])
    if len(found) > 1:
        found = [s for s in found if _properties(s) == set(schema.get("properties", {}))]
    if len(found) > 1:  # the same fields: the one that describes itself
        found = [s for s in found if s.__dict__.get("__doc__")]
    return found[0] if len(found) == 1 else None


def described(document: dict[str, Any]) -> dict[str, Any]:
    """``document`` (an OpenAPI document as a dict) with its Struct components described,
    in place; returned for convenience. Idempotent."""
    schemas = document.get("components", {}).get("schemas", {})
    for name, schema in list(schemas.items()):
        struct = _struct_of(name, schema) if isinstance(schema, dict) else None
        if struct is None:
            continue
        # Only the class's own docstring (msgspec.Struct's would otherwise be inherited),
        # before one use's field description Litestar may have put on the shared schema;
        # placed after the title, where Litestar puts a description.
        doc = struct.__dict__.get("__doc__")
        if doc:
            rest = {k: v for k, v in schema.items() if k != "description"}
            at = list(rest).index("title") + 1 if "title" in rest else len(rest)
            items = list(rest.items())
            schema.clear()
            schema.update([*items[:at], ("description", inspect.cleandoc(doc)), *items[at:]])
        info = msgspec.inspect.type_info(struct)
        assert isinstance(info, msgspec.inspect.StructType)
        tag = schema.get("properties", {}).get(info.tag_field) if info.tag_field else None
        if isinstance(tag, dict) and "description" not in tag:
            tag["description"] = (
                f'Always "{info.tag}": the tag that says this object is a {struct.__name__}.'
            )
    return document
