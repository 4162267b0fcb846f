"""``decide(state, command, actor) -> events``: the table aggregate's single entry point.

A command's own events come first, then whatever the rules do by themselves as a result —
the deal once everyone is ready, the dealer's reveal once every box has decided, the dealer
draw and settlement — so one command yields the whole consequence, atomically. A refused
command raises :class:`RuleViolation` and yields nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from russian_poker.events.codec import Event
from russian_poker.events.commands import (
    Actor,
    BettingTimeUp,
    BuyCard,
    CancelBets,
    ChangeRuleset,
    CloseTable,
    Command,
    CompleteAbandonedRound,
    Deal,
    DecisionTimeUp,
    DeclineDealerExchange,
    Exchange,
    Fold,
    Insure,
    LeaveTable,
    OpenRound,
    OpenTable,
    PlaceAnte,
    Play,
    ReopenTable,
    RepeatBets,
    RequestDealerExchange,
    SitDown,
    StackDeck,
)
from russian_poker.service.rules import betting, decisions, rulesets, seating, showdown
from russian_poker.service.rules.abandoned import complete_abandoned_round, defaults
from russian_poker.service.rules.errors import RuleViolation
from russian_poker.service.rules.evolve import fold
from russian_poker.service.rules.state import Table

__all__ = ["can", "decide", "progress"]

Handler = Callable[[Table, Any, Actor], list[Event]]

_HANDLERS: Final[dict[type[Any], Handler]] = {
    CloseTable: seating.close_table,
    ReopenTable: seating.reopen_table,
    ChangeRuleset: rulesets.change_ruleset,
    OpenRound: seating.open_round,
    StackDeck: seating.stack_deck,
    SitDown: seating.sit_down,
    LeaveTable: seating.leave,
    PlaceAnte: betting.place_ante,
    CancelBets: betting.cancel_bets,
    RepeatBets: betting.repeat_bets,
    Deal: betting.request_deal,
    BettingTimeUp: betting.betting_time_up,
    CompleteAbandonedRound: complete_abandoned_round,
    BuyCard: decisions.buy_card,
    Exchange: decisions.exchange,
    Play: decisions.play,
    Insure: decisions.insure,
    Fold: decisions.fold,
    RequestDealerExchange: showdown.request_dealer_exchange,
    DeclineDealerExchange: showdown.decline_dealer_exchange,
}


def decide(state: Table, command: Command, actor: Actor, *, table_id: str = "") -> list[Event]:
    """The events that ``command`` from ``actor`` causes, or a :class:`RuleViolation`.

    ``table_id`` names the stream for ``OpenTable``; every other command finds it in state.
    """
    if isinstance(command, OpenTable):
        return seating.open_table(state, command, actor, table_id or state.table_id)
    if state.status == "new":
        raise RuleViolation("table_not_open", "no such table")
    if isinstance(command, DecisionTimeUp):
        if command.phase == "dealer_draw":
            events = showdown.dealer_draw_time_up(state, command, actor)
        else:
            events = decisions.decision_time_up(state, command, actor)
    else:
        events = _HANDLERS[type(command)](state, command, actor)
    state = fold(state, events)
    while step := progress(state):
        events.extend(step)
        state = fold(state, step)
    return events


def can(state: Table, command: Command, actor: Actor) -> bool:
    """Whether ``decide`` would accept the command (the wallet's balance aside)."""
    try:
        decide(state, command, actor)
    except RuleViolation:
        return False
    return True


def progress(state: Table) -> list[Event]:
    """The next step the rules take on their own, or nothing if they wait for someone."""
    current = state.round
    if current is None:
        return []
    if abandoned := defaults(state):
        return abandoned  # an abandoned round: the rules answer for everyone it waits for
    if current.phase == "betting":
        players = current.players()
        if players and all(p in current.ready for p in players):
            return betting.deal(state, current)
        return []
    if current.phase == "decisions" and not current.awaiting_decision():
        return showdown.reveal(current)
    if current.phase == "dealer_draw" and not current.awaiting_dealer_draw():
        return showdown.settle(state)
    if current.phase == "showdown":
        return showdown.settle(state)
    return []
