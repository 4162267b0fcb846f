"""The ruleset presets and overrides: how a table's rules are chosen (docs/rules.md §4-§6)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import msgspec

from russian_poker.events.ruleset import Ruleset

__all__ = ["PRESETS", "RulesetError", "make_ruleset", "override"]

PRESETS: Final[Mapping[str, Ruleset]] = {
    # Seed 000: land casino; two light boxes, dealer draw, sixth card, two combinations.
    "russian": Ruleset(),
    # Seed 003: the online multiplayer table. All four boxes light, cards shown to the whole
    # table, bonus from three aces; its texts offer neither insurance nor a dealer draw.
    "russian-online": Ruleset(
        light_boxes_per_player=4,
        box_cards_public=True,
        bonus_min_hand="three_aces",
        dealer_draw=False,
        insurance_min_hand=None,
    ),
    # Seed 002: "standard Oasis"; six boxes, one card exchanged, ante paid 1:1 on a win,
    # no sixth card, no dealer draw, one combination.
    "oasis": Ruleset(
        game="oasis",
        boxes=6,
        buy_sixth_card=False,
        max_exchange_cards=1,
        dealer_draw=False,
        double_combination=False,
        ante_pays_on_win=True,
    ),
}


class RulesetError(ValueError):
    """A preset that does not exist, or overrides that make an impossible ruleset."""


def make_ruleset(preset: str = "russian", overrides: Mapping[str, Any] | None = None) -> Ruleset:
    """The preset with ``overrides`` applied and the result validated as a whole.

    Every message names the offending parameter, e.g. ``unknown parameter `boxs```.
    """
    base = PRESETS.get(preset)
    if base is None:
        raise RulesetError(f"unknown preset {preset!r}; choose one of {', '.join(PRESETS)}")
    return override(base, overrides)


def override(base: Ruleset, overrides: Mapping[str, Any] | None = None) -> Ruleset:
    """``base`` with ``overrides`` applied as :func:`make_ruleset` applies them to a preset
    (a table's ruleset change starts from the table's current ruleset)."""
    merged = msgspec.to_builtins(base)
    if overrides:
        for name, value in overrides.items():
            # A paytable override prices the combinations it names and keeps the rest.
            if name.endswith("_paytable") and isinstance(value, Mapping):
                merged[name] = {**merged.get(name, {}), **value}
            else:
                merged[name] = value
        if "ante_max" in overrides and "bonus_max" not in overrides:
            merged["bonus_max"] = None  # re-derive the default from the new ante_max
    try:
        return msgspec.convert(merged, Ruleset)
    except msgspec.ValidationError as exc:
        raise RulesetError(_readable(str(exc))) from None


def _readable(message: str) -> str:
    # msgspec says "Object contains unknown field `x`" / "... - at `$.boxes`"; casinos read
    # "parameter", not JSON paths.
    return message.replace("Object contains unknown field", "unknown parameter").replace("$.", "")
