"""Field-by-field differences between two JSON-like values, for rebuild and replay reports.

Values are what ``msgspec.to_builtins`` produces (dicts, lists or tuples, scalars, maybe bytes);
each difference names the path to the field, e.g. ``hands[0].cards[2]``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgspec

__all__ = ["FieldDifference", "differences", "render"]


class FieldDifference(msgspec.Struct, frozen=True, kw_only=True):
    """``path`` holds ``expected`` on one side and ``actual`` on the other; a missing key or
    list item is ``None`` with ``missing`` naming the side that lacks it."""

    path: str
    expected: Any
    actual: Any
    missing: str | None = None


def differences(expected: Any, actual: Any, path: str = "") -> Iterator[FieldDifference]:
    """Every leaf where ``expected`` and ``actual`` differ, depth first, in key order."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key in [*expected, *(k for k in actual if k not in expected)]:
            where = f"{path}.{key}" if path else str(key)
            if key not in actual:
                yield FieldDifference(
                    path=where, expected=expected[key], actual=None, missing="actual"
                )
            elif key not in expected:
                yield FieldDifference(
                    path=where, expected=None, actual=actual[key], missing="expected"
                )
            else:
                yield from differences(expected[key], actual[key], where)
        return
    if isinstance(expected, list | tuple) and isinstance(actual, list | tuple):
        for index in range(max(len(expected), len(actual))):
            where = f"{path}[{index}]"
            if index >= len(actual):
                yield FieldDifference(
                    path=where, expected=expected[index], actual=None, missing="actual"
                )
            elif index >= len(expected):
                yield FieldDifference(
                    path=where, expected=None, actual=actual[index], missing="expected"
                )
            else:
                yield from differences(expected[index], actual[index], where)
        return
    # bool is an int in Python: compare types too, so True never equals 1.
    if type(expected) is not type(actual) or expected != actual:
        yield FieldDifference(path=path, expected=expected, actual=actual)


def render(value: Any) -> str:
    """A short, readable form of a value in a report: bytes as hex, the rest as JSON."""
    if isinstance(value, bytes):
        return value.hex()
    text: str = msgspec.json.encode(value, enc_hook=_unknown).decode()
    return text if len(text) <= 200 else text[:197] + "..."


def _unknown(value: Any) -> Any:
    return repr(value)
