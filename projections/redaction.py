"""Hiding a round's secrets until the rules reveal them (docs/rules.md §8).

Pure functions over decoded JSON (events as stored, and the audit record): until a round is
settled its seed and deck order, every box's cards (dealt, bought, exchanged — and the cards
an ``Exchange`` command names) and the dealer's four face-down cards are replaced by
:data:`HIDDEN`. How many cards there were stays visible; which cards, not. Money, choices
and public facts (the dealer's up card, the dealer's reveal and redraws, which happen in
the open) are left as they are.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any, Final

from russian_poker.events.streams import MONEY_PREFIXES, TABLE_PREFIX

__all__ = [
    "DEALER_UP_CARD",
    "HIDDEN",
    "hide_cards",
    "redact_command",
    "redact_event",
    "redact_record",
    "round_of",
]

HIDDEN: Final = "??"
"""What a hidden card reads as."""

DEALER_UP_CARD: Final = 4
"""Index of the dealer's face-up card among the five dealt (the fifth)."""

_CARD_LISTS: Final[dict[str, tuple[str, ...]]] = {
    "SixthCardBought": ("card",),
    "CardsExchanged": ("discarded", "received"),
    "BoxSettled": ("cards",),
}


def round_of(stream_id: str, data: Mapping[str, Any]) -> tuple[str, int] | None:
    """``(table_id, round)`` an event belongs to, or ``None`` for events outside rounds.

    A money event (an internal wallet's or a seamless player's) names its table itself."""
    number = data.get("round")
    if not isinstance(number, int):
        return None
    if stream_id.startswith(TABLE_PREFIX):
        return stream_id.removeprefix(TABLE_PREFIX), number
    table_id = data.get("table_id")
    if stream_id.startswith(MONEY_PREFIXES) and isinstance(table_id, str):
        return table_id, number
    return None


def hide_cards(cards: Any, *, keep: int | None = None) -> Any:
    """A card or list of cards with each card hidden, except the one at index ``keep``."""
    if isinstance(cards, str):
        return HIDDEN
    if isinstance(cards, list | tuple):
        return [c if i == keep else HIDDEN for i, c in enumerate(cards)]
    return cards


def redact_event(event_type: str, data: Mapping[str, Any], *, revealed: bool) -> dict[str, Any]:
    """The event's data as anyone but the store may see it; unchanged once ``revealed``."""
    result = dict(data)
    if revealed:
        return result
    if event_type == "RoundOpened":
        result["seed"] = None
        result["deck"] = []
    elif event_type == "DeckStacked":
        result["deck"] = []
    elif event_type == "CardsDealt":
        result["hands"] = [
            {**hand, "cards": hide_cards(hand.get("cards"))} for hand in data.get("hands", [])
        ]
        result["dealer_cards"] = hide_cards(data.get("dealer_cards"), keep=DEALER_UP_CARD)
    elif event_type in _CARD_LISTS:
        for name in _CARD_LISTS[event_type]:
            if name in result:
                result[name] = hide_cards(result[name])
        if "combinations" in result:
            result["combinations"] = [
                {**c, "cards": hide_cards(c.get("cards"))} for c in data["combinations"]
            ]
    return result


def redact_command(command: Any, *, revealed: bool) -> Any:
    """A recorded command (as in event metadata) with the cards it names hidden."""
    if revealed or not isinstance(command, Mapping):
        return command
    result = dict(command)
    if result.get("type") == "Exchange" and "cards" in result:
        result["cards"] = hide_cards(result["cards"])
    if result.get("type") == "StackDeck":
        result["deck"] = []
    if result.get("type") == "OpenRound":
        # Never recorded with its seed, but a feed must not depend on that.
        result.pop("seed", None)
        result.pop("deck", None)
    return result


def redact_record(record: Mapping[str, Any], *, revealed: bool) -> dict[str, Any]:
    """The audit projection's per-round record with the round's secrets hidden."""
    result = copy.deepcopy(dict(record))
    if revealed:
        return result
    for box in result.get("boxes", []):
        for name in ("dealt", "drawn", "discarded", "cards"):
            if name in box:
                box[name] = hide_cards(box[name])
        settlement = box.get("settlement")
        if isinstance(settlement, dict):
            settlement["cards"] = hide_cards(settlement.get("cards", []))
            for combination in settlement.get("combinations", []):
                combination["cards"] = hide_cards(combination.get("cards", []))
    dealer = result.get("dealer")
    if isinstance(dealer, dict):
        for name in ("dealt", "cards"):
            if name in dealer:
                dealer[name] = hide_cards(dealer[name], keep=DEALER_UP_CARD)
        dealer["replaced"] = [
            {**r, "replaced": HIDDEN, "card": HIDDEN} for r in dealer.get("replaced", [])
        ]
    for draw in result.get("draws", []):
        draw["discarded"] = hide_cards(draw.get("discarded", []))
        draw["received"] = hide_cards(draw.get("received", []))
    if result.get("deck"):
        result["deck"] = []
    for command in result.get("commands", []):
        command["command"] = redact_command(command.get("command"), revealed=False)
    return result
