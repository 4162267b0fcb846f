"""Request bodies are JSON, said so, present and typed exactly: checked before a handler
sees its data.

Litestar decodes a body as JSON whatever its ``Content-Type`` says, so a form post would play
a command; a missing body fails validation with a message naming only the parameter
(``'data'``); and it converts a body leniently, so ``"ante": "100"``, ``100.0`` and ``1e2``
would all be an ante of 100. Here a route that takes a body refuses another media type with
415, an empty body with a 400 that says what the route expects, and a body that is not
exactly of the route's type (an integer sent as text or as a float, above all) with a 400
naming the field: money and boxes are JSON integers, nothing else.
"""

from __future__ import annotations

import re
import types
from functools import cache
from typing import Any, Union, get_origin

import msgspec
from litestar import Request
from litestar.exceptions import ValidationException
from litestar.handlers import HTTPRouteHandler

from russian_poker.service.app.problems import problem

__all__ = ["STRICT_BODY", "check_body", "expected_body"]

STRICT_BODY = "strict_body"
"""Where the body, decoded strictly, is kept in the request's state for the route."""


async def check_body(request: Request[Any, Any, Any]) -> None:
    """``before_request`` hook: a route taking a JSON body gets one."""
    expected = _expected_of(request.route_handler)
    if expected is None:
        return
    media_type = request.headers.get("content-type", "").partition(";")[0].strip().lower()
    body = await request.body()
    if not body.strip():
        if _optional(request.route_handler):
            return  # an optional body left out (reopening a table: its reason)
        raise problem("body_required", 400, f"the request needs a JSON body: {expected}")
    if not _is_json(media_type):
        shown = media_type or "none"
        raise problem(
            "unsupported_media_type",
            415,
            f"the body must be JSON, sent with Content-Type: application/json (got {shown})",
        )
    try:
        request.state[STRICT_BODY] = _decoder_of(request.route_handler).decode(body)
    except msgspec.ValidationError as invalid:
        # Only the types' verdict: the decoder never quotes the value it refused.
        message, _, where = str(invalid).rpartition(" - at `")
        key = where.rstrip("`").removeprefix("$").lstrip(".") if message else ""
        valid = valid_values(_annotation_of(request.route_handler), key) if key else []
        if valid:
            message = f"{message}; valid values: {', '.join(valid)}"
        raise ValidationException(
            detail=f"Validation failed for {request.method} {request.url.path}",
            extra=[{"message": message or str(invalid), "key": key, "source": "body"}],
        ) from None
    except (msgspec.DecodeError, RecursionError):
        return  # not JSON at all: Litestar's own reading refuses it as it always has


def _annotation_of(handler: HTTPRouteHandler) -> Any:
    return handler.parsed_fn_signature.parameters["data"].annotation


@cache
def _decoder_of(handler: HTTPRouteHandler) -> msgspec.json.Decoder[Any]:
    return msgspec.json.Decoder(_annotation_of(handler))


def valid_values(annotation: Any, key: str) -> list[str]:
    """The values a body of type ``annotation`` may hold at ``key`` (``type``,
    ``wallet.mode``, ``cards[0]``), when that is a closed set: a tagged union's tags, a
    ``Literal``'s or an enum's values; else nothing."""
    info: msgspec.inspect.Type = msgspec.inspect.type_info(annotation)
    parts = [part for part in re.split(r"\.|\[\d+\]", key) if part]
    for i, part in enumerate(parts):
        structs = _structs_in(info)
        if i == len(parts) - 1 and structs and all(s.tag_field == part for s in structs):
            return [str(s.tag) for s in structs]
        fields = [f for s in structs for f in s.fields if f.encode_name == part]
        if not fields:
            return []
        info = _items_of(fields[0].type)
    return _closed_set(info)


def _bare(info: msgspec.inspect.Type) -> msgspec.inspect.Type:
    """The type under its constraints (``Annotated[..., msgspec.Meta(...)]``)."""
    while isinstance(info, msgspec.inspect.Metadata):
        info = info.type
    return info


def _structs_in(info: msgspec.inspect.Type) -> list[msgspec.inspect.StructType]:
    info = _bare(info)
    if isinstance(info, msgspec.inspect.StructType):
        return [info]
    if isinstance(info, msgspec.inspect.UnionType):
        return [t for t in info.types if isinstance(t, msgspec.inspect.StructType)]
    return []


def _items_of(info: msgspec.inspect.Type) -> msgspec.inspect.Type:
    """An array field's item type (an index in the key names one item); else the type."""
    info = _bare(info)
    if isinstance(info, msgspec.inspect.ListType | msgspec.inspect.VarTupleType):
        return info.item_type
    if isinstance(info, msgspec.inspect.UnionType):
        arrays = [t for t in info.types if not isinstance(t, msgspec.inspect.NoneType)]
        return _items_of(arrays[0]) if len(arrays) == 1 else info
    return info


def _closed_set(info: msgspec.inspect.Type) -> list[str]:
    info = _bare(info)
    if isinstance(info, msgspec.inspect.LiteralType):
        return [str(v) for v in info.values]
    if isinstance(info, msgspec.inspect.EnumType):
        return [str(member.value) for member in info.cls]
    if isinstance(info, msgspec.inspect.UnionType):
        return [v for t in info.types for v in _closed_set(t)]
    return []


def _is_json(media_type: str) -> bool:
    return media_type == "application/json" or (
        media_type.startswith("application/") and media_type.endswith("+json")
    )


@cache
def _optional(handler: HTTPRouteHandler) -> bool:
    data = handler.parsed_fn_signature.parameters.get("data")
    return data is not None and data.has_default


@cache
def _expected_of(handler: HTTPRouteHandler) -> str | None:
    data = handler.parsed_fn_signature.parameters.get("data")
    return None if data is None else expected_body(data.annotation)


def expected_body(annotation: Any) -> str:
    """What a body of this type must hold, in words: the command names of a tagged union,
    or the fields of a struct (required ones first)."""
    if get_origin(annotation) in (Union, types.UnionType):
        return 'an object whose "type" is one of ' + ", ".join(valid_values(annotation, "type"))
    if isinstance(annotation, type) and issubclass(annotation, msgspec.Struct):
        fields = msgspec.structs.fields(annotation)
        required = [f.encode_name for f in fields if f.required]
        optional = [f.encode_name for f in fields if not f.required]
        parts = []
        if required:
            parts.append("required " + ", ".join(required))
        if optional:
            parts.append("optional " + ", ".join(optional))
        return "an object with " + "; ".join(parts) if parts else "an object"
    return "a JSON value"
