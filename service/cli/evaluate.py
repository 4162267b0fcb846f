"""``russian-poker evaluate``: what a hand is and what it pays."""

from __future__ import annotations

import sys
from typing import Any

import click
import msgspec

from russian_poker.service.rules.cards import CardError, parse_cards
from russian_poker.service.rules.combinations import bet_multiplier
from russian_poker.service.rules.hands import evaluate as evaluate_hand
from russian_poker.service.rules.payouts import bet_paytable, paid_for
from russian_poker.service.rules.presets import PRESETS, RulesetError, make_ruleset

__all__ = ["describe", "evaluate"]


def describe(text: str, preset: str = "russian") -> dict[str, Any]:
    """The JSON object ``evaluate`` prints for one hand of 5 or 6 cards."""
    rules = make_ruleset(preset)
    cards = parse_cards(text)
    if len(cards) not in (5, 6):
        raise CardError(f"a hand is 5 or 6 cards, got {len(cards)}")
    hand = evaluate_hand(cards)
    paid = paid_for(cards, rules)
    return {
        "hand": hand.category.label,
        "cards": list(hand.cards),
        "strength": hand.strength,
        "combinations": [c.category.label for c in paid],
        "combination_cards": [list(c.cards) for c in paid],
        "bet_multiplier": bet_multiplier(paid, bet_paytable(rules)),
    }


@click.command()
@click.option(
    "--ruleset",
    "preset",
    default="russian",
    show_default=True,
    type=click.Choice(sorted(PRESETS)),
    help="Preset whose paytable and combination rules apply.",
)
@click.argument("hand", nargs=-1)
def evaluate(preset: str, hand: tuple[str, ...]) -> None:
    """Evaluate HAND (e.g. ``As Kd 8h 8c 9s``), or one hand per line from stdin.

    Prints one JSON object per hand: hand, cards (the best five), strength (higher beats
    lower, equal ties), combinations (paid, best first) and bet_multiplier (N to 1).
    """
    try:
        make_ruleset(preset)
    except RulesetError as exc:
        raise click.UsageError(str(exc)) from None
    if hand:
        try:
            click.echo(msgspec.json.encode(describe(" ".join(hand), preset)))
        except (CardError, ValueError) as exc:
            raise click.UsageError(str(exc)) from None
        return
    failed = False
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            click.echo(msgspec.json.encode(describe(line, preset)))
        except (CardError, ValueError) as exc:
            failed = True
            click.echo(msgspec.json.encode({"input": line.strip(), "error": str(exc)}))
    if failed:
        sys.exit(1)
