"""A table's ruleset changed between rounds (paytables, limits, options), versioned.

"Between rounds" is exact: no round has cards out, and the round taking bets has no bet
(:attr:`Table.between_rounds`). The shell opens the next round as soon as one is settled,
so a table is almost never without a round taking bets; an empty one is between rounds, and
the round it opens with plays by the new ruleset from its first bet. The table's currency
and its number of boxes stay: wallets were checked against the one, seats are the other.
"""

from __future__ import annotations

from russian_poker.events.codec import Event
from russian_poker.events.commands import Actor, ChangeRuleset
from russian_poker.events.game import RulesetChanged
from russian_poker.service.rules.errors import RuleViolation
from russian_poker.service.rules.guards import need_role
from russian_poker.service.rules.state import Table

__all__ = ["change_ruleset"]


def change_ruleset(table: Table, command: ChangeRuleset, actor: Actor) -> list[Event]:
    """The new ruleset, one version up, if the table is between rounds."""
    need_role(actor, "operator")
    if not table.between_rounds:
        raise RuleViolation("ruleset_locked")
    new, old = command.ruleset, table.rules
    if new.currency != old.currency:
        raise RuleViolation(
            "ruleset_change_invalid", f"currency: the table plays in {old.currency}"
        )
    if new.boxes != old.boxes:
        raise RuleViolation("ruleset_change_invalid", f"boxes: the table has {old.boxes}")
    return [RulesetChanged(version=table.ruleset_version + 1, ruleset=new, reason=command.reason)]
