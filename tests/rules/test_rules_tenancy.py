"""Tables belong to an operator (docs/wallet-protocol.md §1): the rules seat only its players,
unless
the table is shared."""

from __future__ import annotations

import pytest

from russian_poker.events.commands import Actor, OpenTable, SitDown
from russian_poker.service.rules.decide import decide
from russian_poker.service.rules.errors import RuleViolation
from russian_poker.service.rules.evolve import fold
from russian_poker.service.rules.presets import make_ruleset
from russian_poker.service.rules.state import Table

OPERATOR = Actor(role="operator", id="staff")


def opened(**fields: object) -> Table:
    command = OpenTable(ruleset=make_ruleset("russian", {}), **fields)  # type: ignore[arg-type]
    return fold(Table(), decide(Table(), command, OPERATOR, table_id="t1"))


def test_an_operators_table_seats_only_its_players() -> None:
    table = opened(operator_id="acme")
    assert (table.operator_id, table.shared) == ("acme", False)
    seated = decide(table, SitDown(), Actor(role="player", id="acme:alice"), table_id="t1")
    assert seated
    for stranger in ("beta:alice", "alice"):  # another operator's, the default operator's
        with pytest.raises(RuleViolation) as refused:
            decide(table, SitDown(), Actor(role="player", id=stranger), table_id="t1")
        assert refused.value.code == "wrong_operator"


def test_a_shared_table_seats_every_operators_players() -> None:
    table = opened(shared=True)
    for player in ("acme:alice", "beta:alice", "alice"):
        assert decide(table, SitDown(), Actor(role="player", id=player), table_id="t1")


def test_tables_opened_before_operators_belong_to_the_default_operator() -> None:
    table = opened()
    assert table.operator_id == "default"
    assert decide(table, SitDown(), Actor(role="player", id="alice"), table_id="t1")
