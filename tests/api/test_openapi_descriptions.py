"""The API describes itself: every property, parameter and header has a description, and
commands and problems have examples."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import Any, get_args

import msgspec

from russian_poker.events.commands import PlayerCommand
from russian_poker.service.cli.maintenance import openapi_document

COMMANDS_PATH = "/v1/tables/{table_id}/commands"
METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")


@cache
def document() -> dict[str, Any]:
    decoded: dict[str, Any] = msgspec.json.decode(openapi_document())
    return decoded


def operations() -> Iterator[tuple[str, dict[str, Any]]]:
    for path, item in document()["paths"].items():
        for method in METHODS:
            if method in item:
                yield f"{method.upper()} {path}", item[method]


def undescribed(schema: Any, where: str) -> Iterator[str]:
    """Every property below ``schema`` (nested objects, items, oneOf/anyOf/allOf members,
    additionalProperties) without a non-empty description, named ``where.property``.

    A property that is a ``$ref`` carries its own description beside the ref: Litestar wraps
    a described reference as ``{"allOf": [{"$ref": ...}], "description": ...}``, so no
    property has to fall back on the referenced schema's description.
    """
    if not isinstance(schema, dict):
        return
    for name, prop in (schema.get("properties") or {}).items():
        if not (isinstance(prop, dict) and str(prop.get("description") or "").strip()):
            yield f"{where}.{name}"
        yield from undescribed(prop, f"{where}.{name}")
    for key in ("oneOf", "anyOf", "allOf", "prefixItems"):
        for i, member in enumerate(schema.get(key) or []):
            yield from undescribed(member, f"{where}[{key}{i}]")
    for key in ("items", "additionalProperties"):
        yield from undescribed(schema.get(key), f"{where}[{key}]")


def test_every_component_property_is_described() -> None:
    schemas = document()["components"]["schemas"]
    assert schemas, "no component schemas: is this the generated document?"
    missing = [m for name, schema in schemas.items() for m in undescribed(schema, name)]
    assert not missing, "schema properties without a description:\n" + "\n".join(missing)


def test_every_inline_schema_property_is_described() -> None:
    """Schemas written into operations (bodies, responses, parameters), not components."""
    missing: list[str] = []
    for op_name, op in operations():
        for content_type, media in (op.get("requestBody") or {}).get("content", {}).items():
            missing += undescribed(media.get("schema"), f"{op_name} body {content_type}")
        for status, response in (op.get("responses") or {}).items():
            for content_type, media in (response.get("content") or {}).items():
                where = f"{op_name} {status} {content_type}"
                missing += undescribed(media.get("schema"), where)
        for parameter in op.get("parameters") or []:
            missing += undescribed(parameter.get("schema"), f"{op_name} {parameter['name']}")
    assert not missing, "inline schema properties without a description:\n" + "\n".join(missing)


def test_every_parameter_is_described() -> None:
    missing = [
        f"{op_name}: {parameter['in']} parameter {parameter['name']}"
        for op_name, op in operations()
        for parameter in op.get("parameters") or []
        if not str(parameter.get("description") or "").strip()
    ]
    assert not missing, "parameters without a description:\n" + "\n".join(missing)


def test_every_response_header_is_described() -> None:
    headers = [
        (f"{op_name} {status}: header {name}", header)
        for op_name, op in operations()
        for status, response in (op.get("responses") or {}).items()
        for name, header in (response.get("headers") or {}).items()
    ]
    assert headers, "no response headers documented: Idempotent-Replayed should be"
    missing = [where for where, header in headers if not str(header.get("description") or "")]
    assert not missing, "response headers without a description:\n" + "\n".join(missing)


def test_command_body_has_an_example_per_command() -> None:
    body = document()["paths"][COMMANDS_PATH]["post"]["requestBody"]
    schema = body["content"]["application/json"]["schema"]
    # Litestar 2.25 puts a body's examples into its schema (JSON Schema `examples`, values
    # only); the media type's named `examples` would serve as well.
    values = [*schema.get("examples", [])]
    values += [e["value"] for e in body["content"]["application/json"].get("examples", {}).values()]
    shown = [v.get("type") for v in values]
    commands = [c.__struct_config__.tag for c in get_args(PlayerCommand)]
    assert sorted(shown) == sorted(commands), (
        f"{COMMANDS_PATH}: examples for {shown}, commands {commands}"
    )
    for value in values:
        # Each example decodes as the command it names: no stale field in the document.
        msgspec.convert(value, PlayerCommand)


def body_examples(body: dict[str, Any]) -> list[Any]:
    """A body's examples: in its schema, beside a `$ref` to it, or on the component."""
    media = body["content"]["application/json"]
    schema = media["schema"]
    found = [*schema.get("examples", []), *media.get("examples", {}).values()]
    for member in [schema, *schema.get("allOf", [])]:
        if "$ref" in member:
            name = member["$ref"].rsplit("/", 1)[-1]
            found += document()["components"]["schemas"][name].get("examples", [])
    return found


def test_every_request_body_has_an_example() -> None:
    bodies = [(name, op["requestBody"]) for name, op in operations() if "requestBody" in op]
    assert len(bodies) >= 7, "fewer request bodies than the API has: is this the document?"
    missing = [name for name, body in bodies if not body_examples(body)]
    assert not missing, "request bodies without an example:\n" + "\n".join(missing)


def test_every_problem_response_has_an_example() -> None:
    problems = [
        (f"{op_name} {status}", media)
        for op_name, op in operations()
        for status, response in (op.get("responses") or {}).items()
        for content_type, media in (response.get("content") or {}).items()
        if content_type == "application/problem+json"
    ]
    assert problems, "no problem responses documented"
    missing = [where for where, media in problems if not media.get("examples")]
    assert not missing, "problem responses without an example:\n" + "\n".join(missing)


def _policies() -> dict[str, bool]:
    """``METHOD path`` -> whether the route's access policy is public, from the app itself."""
    from russian_poker.service.app import create_app
    from russian_poker.service.app.policy import policy_of
    from russian_poker.service.settings import Settings

    app = create_app(Settings(jwt_secret="openapi-policies-only"))
    found: dict[str, bool] = {}
    for route in app.routes:
        for handler in getattr(route, "route_handlers", ()):
            rule = policy_of(handler)
            for method in getattr(handler, "http_methods", ()):
                if rule is not None:
                    found[f"{method} {route.path_format}"] = rule.public
    return found


def test_every_operation_says_whether_it_needs_a_token() -> None:
    scheme = document()["components"]["securitySchemes"]["bearer"]
    assert (scheme["type"], scheme["scheme"]) == ("http", "bearer")
    assert document()["security"] == [{"bearer": []}]
    public = _policies()
    needs = {where: op.get("security", [{"bearer": []}]) for where, op in operations()}
    assert needs, "no operations"
    for where, security in needs.items():
        assert security == ([] if public[where] else [{"bearer": []}]), where
    assert [] in needs.values(), "no public operation: the check would prove nothing"


def test_operations_are_named_tagged_and_described() -> None:
    ids = [op.get("operationId") for _, op in operations()]
    assert all(isinstance(i, str) and i[:1].islower() and i.isalnum() for i in ids), ids
    assert len(set(ids)) == len(ids)
    declared = {tag["name"] for tag in document()["tags"] if tag.get("description")}
    for where, op in operations():
        assert set(op["tags"]) <= declared, where
        assert str(op.get("description") or "").strip(), where


def test_idempotency_key_is_required_and_headers_are_strings() -> None:
    command = document()["paths"][COMMANDS_PATH]["post"]
    headers = {p["name"]: p for p in command["parameters"] if p["in"] == "header"}
    assert headers["Idempotency-Key"]["required"] is True
    for where, op in operations():
        for parameter in op.get("parameters", []):
            if parameter["in"] == "header":
                assert parameter["schema"].get("type") == "string", (where, parameter["name"])


def _schemas(node: Any) -> Iterator[dict[str, Any]]:
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _schemas(value)
    elif isinstance(node, list):
        for value in node:
            yield from _schemas(value)


def test_nullable_enums_and_tuples_take_the_portable_form() -> None:
    nodes = list(_schemas(document()))
    nullable_enums = [n for n in nodes if isinstance(n.get("type"), list) and "enum" in n]
    assert nullable_enums == []
    assert [n for n in nodes if "prefixItems" in n] == []
    preset = document()["components"]["schemas"]["RulesetChangeBody"]["properties"]["preset"]
    assert preset["oneOf"][1] == {"type": "null"}
    assert "russian-online" in preset["oneOf"][0]["enum"]


def test_every_timestamp_says_it_is_one() -> None:
    untyped = []
    for name, schema in document()["components"]["schemas"].items():
        for prop, value in (schema.get("properties") or {}).items():
            if prop.endswith("_at"):
                forms = [value, *value.get("oneOf", [])]
                if not any(form.get("format") == "date-time" for form in forms):
                    untyped.append(f"{name}.{prop}")
    assert untyped == []


def test_every_day_and_window_bound_says_what_it_is() -> None:
    """A UTC day (`day`, a daily report's `from`/`to`) is a `date`; a window's bound, in a
    body or a query, a `date-time`: each says which."""
    untyped = []
    spec = document()
    places = [
        (f"{name}.{prop}", value)
        for name, schema in spec["components"]["schemas"].items()
        for prop, value in (schema.get("properties") or {}).items()
        if prop in ("day", "from", "to")
    ] + [
        (f"{method} {path} ?{parameter['name']}", parameter["schema"])
        for path, operations in spec["paths"].items()
        for method, operation in operations.items()
        for parameter in operation.get("parameters", [])
        if parameter["name"] in ("day", "from", "to")
    ]
    for where, value in places:
        forms = [value, *value.get("oneOf", [])]
        if not any(form.get("format") in ("date", "date-time") for form in forms):
            untyped.append(where)
    assert places and untyped == []
