"""The redaction rules, as pure functions: what an unsettled round may show."""

from __future__ import annotations

import copy
from typing import Any

from russian_poker.projections.redaction import (
    HIDDEN,
    redact_command,
    redact_event,
    redact_record,
    round_of,
)

DEALT: dict[str, Any] = {
    "type": "CardsDealt",
    "round": 3,
    "hands": [
        {"box": 2, "cards": ["As", "Kd", "8h", "8c", "9s"]},
        {"box": 1, "cards": ["2s", "3d", "4h", "5c", "7s"]},
    ],
    "dealer_cards": ["Ac", "Kc", "2d", "3h", "5s"],
}


def test_round_opened_loses_seed_and_deck_until_settled() -> None:
    data = {
        "type": "RoundOpened",
        "round": 1,
        "commitment": "ab",
        "seed": "c2VlZA==",
        "deck": ["As"],
    }
    hidden = redact_event("RoundOpened", data, revealed=False)
    assert hidden == {
        "type": "RoundOpened",
        "round": 1,
        "commitment": "ab",
        "seed": None,
        "deck": [],
    }
    assert redact_event("RoundOpened", data, revealed=True) == data


def test_dealt_cards_are_hidden_except_the_dealer_up_card() -> None:
    before = copy.deepcopy(DEALT)
    hidden = redact_event("CardsDealt", DEALT, revealed=False)
    assert [h["cards"] for h in hidden["hands"]] == [[HIDDEN] * 5, [HIDDEN] * 5]
    assert [h["box"] for h in hidden["hands"]] == [2, 1]
    assert hidden["dealer_cards"] == [HIDDEN] * 4 + ["5s"]
    assert before == DEALT, "the input is never changed"
    assert redact_event("CardsDealt", DEALT, revealed=True) == DEALT


def test_draws_and_settled_cards_are_hidden() -> None:
    bought = redact_event(
        "SixthCardBought", {"round": 1, "box": 1, "card": "Qh", "fee": 100}, revealed=False
    )
    assert bought == {"round": 1, "box": 1, "card": HIDDEN, "fee": 100}
    exchanged = redact_event(
        "CardsExchanged",
        {"round": 1, "box": 1, "discarded": ["2s", "3d"], "received": ["Ah", "Ad"], "fee": 50},
        revealed=False,
    )
    assert exchanged["discarded"] == exchanged["received"] == [HIDDEN, HIDDEN]
    assert exchanged["fee"] == 50
    settled = redact_event(
        "BoxSettled",
        {
            "round": 1,
            "box": 1,
            "cards": ["As", "Ad", "2c", "3c", "4c"],
            "combinations": [{"category": "pair", "cards": ["As", "Ad"]}],
            "won": 10,
        },
        revealed=False,
    )
    assert settled["cards"] == [HIDDEN] * 5
    assert settled["combinations"] == [{"category": "pair", "cards": [HIDDEN, HIDDEN]}]
    assert settled["won"] == 10


def test_public_events_and_money_are_left_alone() -> None:
    for event_type, data in [
        ("DealerRevealed", {"round": 1, "cards": ["As", "Kd", "2c", "3c", "4c"], "hand": "ak"}),
        ("DealerCardReplaced", {"round": 1, "replaced": "As", "card": "9d", "free": False}),
        ("AntePlaced", {"round": 1, "box": 1, "player": "p", "ante": 100}),
        ("WalletCredited", {"wallet_id": "p", "amount": 300, "table_id": "t", "round": 1}),
        ("RoundSettled", {"round": 1, "commitment": "ab", "seed": "c2VlZA=="}),
    ]:
        assert redact_event(event_type, data, revealed=False) == data


def test_commands_naming_cards_are_hidden() -> None:
    exchange = {"type": "Exchange", "box": 2, "cards": ["9s", "2d"]}
    assert redact_command(exchange, revealed=False) == {
        "type": "Exchange",
        "box": 2,
        "cards": [HIDDEN, HIDDEN],
    }
    assert redact_command(exchange, revealed=True) == exchange
    opening = {"type": "OpenRound", "seed": "c2VlZA==", "deck": ["As"]}
    assert redact_command(opening, revealed=False) == {"type": "OpenRound"}
    play = {"type": "Play", "box": 1}
    assert redact_command(play, revealed=False) == play
    assert redact_command(None, revealed=False) is None


def test_record_of_an_unsettled_round_hides_its_cards() -> None:
    record = {
        "commands": [
            {"command_id": "c1", "command": {"type": "Exchange", "box": 1, "cards": ["2s"]}},
            {"command_id": "c2", "command": {"type": "Play", "box": 1}},
        ],
        "boxes": [
            {
                "box": 1,
                "ante": 100,
                "dealt": ["2s", "3d", "4h", "5c", "7s"],
                "drawn": ["Ah"],
                "discarded": ["2s"],
                "cards": ["Ah", "3d", "4h", "5c", "7s"],
                "settlement": None,
            }
        ],
        "dealer": {
            "dealt": ["Ac", "Kc", "2d", "3h", "5s"],
            "cards": ["Ac", "Kc", "2d", "3h", "5s"],
            "replaced": [{"replaced": "Ac", "card": "9c", "free": False}],
        },
        "wallets": {"p": {"before": 1000, "after": 900}},
    }
    before = copy.deepcopy(record)
    hidden = redact_record(record, revealed=False)
    box = hidden["boxes"][0]
    assert box["dealt"] == box["cards"] == [HIDDEN] * 5
    assert box["drawn"] == box["discarded"] == [HIDDEN]
    assert box["ante"] == 100
    assert hidden["dealer"]["dealt"] == [HIDDEN] * 4 + ["5s"]
    assert hidden["dealer"]["replaced"] == [{"replaced": HIDDEN, "card": HIDDEN, "free": False}]
    assert hidden["commands"][0]["command"]["cards"] == [HIDDEN]
    assert hidden["commands"][1]["command"] == {"type": "Play", "box": 1}
    assert hidden["wallets"] == record["wallets"]
    assert record == before
    assert redact_record(record, revealed=True) == record


def test_round_of() -> None:
    assert round_of("table-t1", {"round": 4}) == ("t1", 4)
    assert round_of("wallet-p", {"table_id": "t2", "round": 5}) == ("t2", 5)
    assert round_of("table-t1", {"player": "p", "seat": 1}) is None
    assert round_of("wallet-p", {"transfer_id": "x", "amount": 5}) is None
