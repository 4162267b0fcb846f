"""The table's lifecycle and seats: open, close, reopen, sit down, leave, open a round."""

from __future__ import annotations

from russian_poker.events.codec import Event
from russian_poker.events.commands import (
    Actor,
    CloseTable,
    LeaveTable,
    OpenRound,
    OpenTable,
    ReopenTable,
    SitDown,
    StackDeck,
)
from russian_poker.events.game import (
    DeckStacked,
    PlayerLeft,
    PlayerSeated,
    RoundOpened,
    RoundSettled,
    TableClosed,
    TableOpened,
    TableReopened,
)
from russian_poker.service.rules.betting import cancel_box
from russian_poker.service.rules.deck import SEED_BYTES, commitment, stacked
from russian_poker.service.rules.errors import RuleViolation
from russian_poker.service.rules.guards import need_open, need_phase, need_role, need_seat
from russian_poker.service.rules.state import Table
from russian_poker.service.rules.tenancy import operator_of

__all__ = [
    "close_table",
    "leave",
    "open_round",
    "open_table",
    "reopen_table",
    "sit_down",
    "stack_deck",
]


def open_table(table: Table, command: OpenTable, actor: Actor, table_id: str) -> list[Event]:
    """A new table, with the ruleset it will play every round by."""
    need_role(actor, "operator")
    if table.status != "new":
        raise RuleViolation("table_already_opened")
    return [
        TableOpened(
            table_id=table_id,
            name=command.name,
            ruleset=command.ruleset,
            private_for=command.private_for,
            operator_id=command.operator_id,
            shared=command.shared,
            reason=command.reason,
        )
    ]


def close_table(table: Table, command: CloseTable, actor: Actor) -> list[Event]:
    """No more rounds. A round not yet dealt is called off (bets refunded, seed revealed);
    a round with cards out must be played to the end first."""
    need_role(actor, "operator")
    need_open(table)
    if table.round_in_play:
        raise RuleViolation("round_in_progress", "the round in play must finish first")
    events: list[Event] = []
    current = table.round
    if current is not None and current.phase == "betting":
        for box in current.boxes:
            events.extend(cancel_box(table, box))
        events.append(
            RoundSettled(round=current.number, commitment=current.commitment, seed=current.seed)
        )
    events.append(TableClosed(reason=command.reason))
    return events


def reopen_table(table: Table, command: ReopenTable, actor: Actor) -> list[Event]:
    need_role(actor, "operator")
    if table.status != "closed":
        raise RuleViolation("table_not_closed")
    return [TableReopened(reason=command.reason)]


def open_round(table: Table, command: OpenRound, actor: Actor) -> list[Event]:
    """The next round, committed to its seed before any bet is taken (docs/rules.md §8)."""
    need_role(actor, "system")
    need_open(table)
    if not table.needs_round:
        raise RuleViolation("round_not_finished")
    if len(command.seed) != SEED_BYTES:
        raise ValueError(f"a round seed is {SEED_BYTES} bytes")
    if command.deck:
        stacked(command.seed, command.deck)  # refuses a deck that is not one of 52 cards
    return [
        RoundOpened(
            round=table.rounds_opened + 1,
            commitment=commitment(command.seed),
            seed=command.seed,
            deck=command.deck,
        )
    ]


def stack_deck(table: Table, command: StackDeck, actor: Actor) -> list[Event]:
    """Test mode: script the deck of the round taking bets, as long as nothing is dealt."""
    need_role(actor, "operator")
    current = need_phase(table, "betting")
    try:
        stacked(current.seed, command.deck)
    except ValueError:
        raise RuleViolation("invalid_deck") from None
    return [DeckStacked(round=current.number, deck=command.deck)]


def sit_down(table: Table, command: SitDown, actor: Actor) -> list[Event]:
    """Take a free seat; a private table seats only the player it was opened for."""
    need_role(actor, "player")
    need_open(table)
    if table.private_for is not None and table.private_for != actor.id:
        raise RuleViolation("table_private")
    if not table.shared and operator_of(actor.id).operator_id != table.operator_id:
        raise RuleViolation("wrong_operator")
    if table.seat_of(actor.id) is not None:
        raise RuleViolation("already_seated")
    free = [i + 1 for i, holder in enumerate(table.seats) if holder is None]
    if command.seat is None:
        if not free:
            raise RuleViolation("table_full")
        return [PlayerSeated(player=actor.id, seat=free[0])]
    if not 1 <= command.seat <= len(table.seats):
        raise RuleViolation("no_such_seat", f"seats are numbered 1..{len(table.seats)}")
    if command.seat not in free:
        raise RuleViolation("seat_taken")
    return [PlayerSeated(player=actor.id, seat=command.seat)]


def leave(table: Table, command: LeaveTable, actor: Actor) -> list[Event]:
    """Give up the seat. Bets not yet dealt are refunded; boxes with cards must finish."""
    need_role(actor, "player")
    seat = need_seat(table, actor.id)
    events: list[Event] = []
    current = table.round
    if current is not None and current.boxes_of(actor.id):
        if current.phase != "betting":
            if any(not b.settled for b in current.boxes_of(actor.id)):
                raise RuleViolation("boxes_in_play")
        else:
            for box in current.boxes_of(actor.id):
                events.extend(cancel_box(table, box))
    events.append(PlayerLeft(player=actor.id, seat=seat))
    return events
