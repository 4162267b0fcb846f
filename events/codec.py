"""Encoding events for the store, and decoding them back with upcasting.

Every event type has a ``schema_version``. Stored events are never rewritten: when a type
changes shape, its version goes up and an upcaster lifts old payloads on read, so every
reader (state, projections, replay) sees only the current shape.
"""

from __future__ import annotations

import typing
from collections.abc import Callable
from typing import Any, Final, Literal

import msgspec

from russian_poker.events.game import TableEvent
from russian_poker.events.wallet import WalletEvent

__all__ = [
    "EVENT_TYPES",
    "EventType",
    "SCHEMA_VERSIONS",
    "UPCASTERS",
    "Event",
    "UnknownEventType",
    "decode_event",
    "encode_event",
    "event_type",
]

Event = TableEvent | WalletEvent

EventType = Literal[
    "TableOpened",
    "TableClosed",
    "TableReopened",
    "RulesetChanged",
    "PlayerSeated",
    "PlayerLeft",
    "RoundOpened",
    "DeckStacked",
    "AntePlaced",
    "BetsCancelled",
    "DealRequested",
    "CardsDealt",
    "BonusSettled",
    "SixthCardBought",
    "CardsExchanged",
    "BoxPlayed",
    "BoxFolded",
    "DealerRevealed",
    "DealerExchangeRequested",
    "DealerExchangeDeclined",
    "DealerCardReplaced",
    "BoxSettled",
    "RoundSettled",
    "RoundAbandoned",
    "WalletOpened",
    "FundsDeposited",
    "FundsWithdrawn",
    "WalletDebited",
    "WalletCredited",
]
"""Every event type's name (``tests/rules/test_codec.py`` keeps it equal to the types)."""

EVENT_TYPES: Final[dict[str, type[Any]]] = {
    cls.__name__: cls for cls in typing.get_args(TableEvent) + typing.get_args(WalletEvent)
}
SCHEMA_VERSIONS: Final[dict[str, int]] = dict.fromkeys(EVENT_TYPES, 1)
"""The current schema version of every event type."""

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]
UPCASTERS: Final[dict[tuple[str, int], Upcaster]] = {}
"""``(event_type, from_version) -> function`` lifting a payload one version up."""

_encoder: Final = msgspec.json.Encoder()
_decoders: Final = {name: msgspec.json.Decoder(cls) for name, cls in EVENT_TYPES.items()}


class UnknownEventType(ValueError):
    """A stored event whose type this code does not know (newer writer, or corruption)."""


def event_type(event: Event) -> str:
    """The stored type name of an event: its class name, also its JSON tag."""
    return type(event).__name__


def encode_event(event: Event) -> tuple[str, int, bytes]:
    """``(event_type, schema_version, json)`` for the store; the tag is left in the JSON."""
    name = event_type(event)
    return name, SCHEMA_VERSIONS[name], _encoder.encode(event)


def decode_event(name: str, schema_version: int, data: bytes | str) -> Event:
    """The typed event, upcast from whatever version it was stored with."""
    decoder = _decoders.get(name)
    if decoder is None:
        raise UnknownEventType(f"unknown event type {name!r}")
    current = SCHEMA_VERSIONS[name]
    if schema_version == current:
        return decoder.decode(data)  # type: ignore[no-any-return]
    if schema_version > current:
        raise UnknownEventType(f"{name} v{schema_version} is newer than this code (v{current})")
    payload: dict[str, Any] = msgspec.json.decode(data)
    for version in range(schema_version, current):
        payload = UPCASTERS[(name, version)](payload)
    return msgspec.convert(payload, EVENT_TYPES[name])  # type: ignore[no-any-return]
