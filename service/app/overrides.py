"""The body's ``overrides``: every ruleset parameter, each optional, typed as the Ruleset
types it, so the document tells a generated client each parameter's name and type and a
mistyped or unknown one is a 400 naming it. Whether the values make a playable ruleset is
still the rules' call (422 ``invalid_ruleset``, service.rules.presets)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import msgspec

from russian_poker.events.ruleset import Ruleset

__all__ = ["RulesetOverrides", "overridden"]

if TYPE_CHECKING:
    RulesetOverrides = msgspec.Struct
else:
    # Built from Ruleset's own fields, so a new parameter is overridable (and documented)
    # without anyone remembering to add it here. UNSET, not None: `"max_payout": null` is
    # an override (no cap), an absent key is none.
    RulesetOverrides = msgspec.defstruct(
        "RulesetOverrides",
        [
            (field.name, field.type | msgspec.UnsetType, msgspec.UNSET)
            for field in msgspec.structs.fields(Ruleset)
        ],
        kw_only=True,
        frozen=True,
        forbid_unknown_fields=True,
        omit_defaults=True,
        module=__name__,
    )
    RulesetOverrides.__doc__ = (
        "Ruleset parameters to replace, by name; each as the Ruleset schema types it, all"
        " optional. A paytable override prices the combinations it names and keeps the rest."
    )


def overridden(overrides: msgspec.Struct) -> dict[str, Any]:
    """The parameters the body set, by name (what service.rules.presets applies)."""
    return {
        name: value
        for name in overrides.__struct_fields__
        if (value := getattr(overrides, name)) is not msgspec.UNSET
    }
