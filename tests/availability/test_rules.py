"""The rules core's side of a ruleset change: only between rounds, one version up, applied
by evolve, and the round that was waiting for bets settled by the new paytable."""

from __future__ import annotations

import msgspec
import pytest

from russian_poker.events.commands import (
    ChangeRuleset,
    CloseTable,
    Deal,
    PlaceAnte,
    Play,
    ReopenTable,
)
from russian_poker.events.game import BoxSettled, RulesetChanged, TableClosed, TableReopened
from russian_poker.service.rules.errors import RuleViolation
from tests.rules.scenario import OPERATOR, Scenario, deck_for, player

ANN = player("ann")
STRAIGHT, DEALER_AK = "5h 6c 7d 8s 9h", "Ah Kc 9d 7s 4c"


def change(scenario: Scenario, reason: str = "new paytable", **rules: object) -> ChangeRuleset:
    ruleset = msgspec.structs.replace(scenario.table.rules, **rules)
    return ChangeRuleset(ruleset=ruleset, reason=reason)


def straight_round(scenario: Scenario, seed: int) -> BoxSettled:
    scenario.open_round(deck_for([STRAIGHT], DEALER_AK), seed=bytes([seed]) * 32)
    scenario.run(PlaceAnte(box=1, ante=100), ANN)
    with pytest.raises(RuleViolation) as bet_placed:
        scenario.run(change(scenario, ante_min=5), OPERATOR)
    assert bet_placed.value.code == "ruleset_locked"
    scenario.run(Deal(), ANN)
    with pytest.raises(RuleViolation) as dealt:
        scenario.run(change(scenario, ante_min=5), OPERATOR)
    assert dealt.value.code == "ruleset_locked"
    (settled,) = [e for e in scenario.run(Play(box=1), ANN) if isinstance(e, BoxSettled)]
    return settled


def test_a_change_between_rounds_is_versioned_and_pays_the_next_round() -> None:
    scenario = Scenario(players={"ann": 100_000})
    scenario.sit("ann")
    assert scenario.table.ruleset_version == 1
    before = scenario.table.rules.bet_paytable["straight"]
    first = straight_round(scenario, 1)

    paytable = {**scenario.table.rules.bet_paytable, "straight": 9}
    (event,) = scenario.run(change(scenario, bet_paytable=paytable), OPERATOR)
    assert isinstance(event, RulesetChanged)
    assert (event.version, event.reason) == (2, "new paytable")
    assert scenario.table.ruleset_version == 2
    assert scenario.table.rules.bet_paytable["straight"] == 9

    second = straight_round(scenario, 2)
    # The Bet (2 x ante = 200) is paid at the new multiple: nothing else changed.
    assert second.won - first.won == (9 - before) * 200
    # The events alone rebuild the same table, version and ruleset included.
    assert scenario.replayed() == scenario.table


def test_a_closed_table_may_change_and_reasons_are_recorded() -> None:
    scenario = Scenario()
    (closed,) = [
        e
        for e in scenario.run(CloseTable(reason="maintenance"), OPERATOR)
        if isinstance(e, TableClosed)
    ]
    assert closed.reason == "maintenance"
    (event,) = scenario.run(change(scenario, ante_min=50), OPERATOR)
    assert isinstance(event, RulesetChanged) and event.version == 2
    (event,) = scenario.run(change(scenario, ante_min=60), OPERATOR)
    assert isinstance(event, RulesetChanged) and event.version == 3
    (reopened,) = scenario.run(ReopenTable(), OPERATOR)
    assert isinstance(reopened, TableReopened) and reopened.reason is None
    assert (scenario.table.status, scenario.table.ruleset_version) == ("open", 3)
