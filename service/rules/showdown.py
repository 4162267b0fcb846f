"""The dealer's side: reveal, the dealer-draw offer, the dealer draw, settlement (docs/rules.md
§5.5-7)."""

from __future__ import annotations

from russian_poker.events.codec import Event
from russian_poker.events.commands import (
    Actor,
    DecisionTimeUp,
    DeclineDealerExchange,
    RequestDealerExchange,
)
from russian_poker.events.game import (
    BoxSettled,
    DealerCardReplaced,
    DealerExchangeDeclined,
    DealerExchangeRequested,
    DealerRevealed,
    PaidCombination,
    RoundSettled,
)
from russian_poker.service.rules.cards import Card, rank_of
from russian_poker.service.rules.errors import RuleViolation
from russian_poker.service.rules.evolve import fold
from russian_poker.service.rules.guards import credit, need_phase, need_role, own_box
from russian_poker.service.rules.hands import Hand, evaluate, qualifies
from russian_poker.service.rules.payouts import main_settlement, paid_for
from russian_poker.service.rules.state import Box, Round, Table

__all__ = [
    "decline_dealer_exchange",
    "dealer_draw_time_up",
    "reveal",
    "request_dealer_exchange",
    "settle",
]


def reveal(current: Round) -> list[Event]:
    """The dealer turns over the hand once every box has decided."""
    hand = evaluate(current.dealer)
    return [
        DealerRevealed(
            round=current.number,
            cards=current.dealer,
            hand=hand.category.label,
            qualifies=qualifies(hand),
        )
    ]


def _offered(table: Table, actor: Actor, number: int) -> Box:
    need_role(actor, "player")
    current = need_phase(table, "dealer_draw")
    box = own_box(current, actor, number)
    if box not in current.awaiting_dealer_draw():
        raise RuleViolation("no_dealer_draw")
    return box


def request_dealer_exchange(
    table: Table, command: RequestDealerExchange, actor: Actor
) -> list[Event]:
    """Give up the ante win (the ante is the fee) for a chance at the paytable."""
    box = _offered(table, actor, command.box)
    assert table.round is not None
    return [DealerExchangeRequested(round=table.round.number, box=box.number)]


def decline_dealer_exchange(
    table: Table, command: DeclineDealerExchange, actor: Actor
) -> list[Event]:
    """Take the ante win against a dealer with no game."""
    box = _offered(table, actor, command.box)
    assert table.round is not None
    return [DealerExchangeDeclined(round=table.round.number, box=box.number)]


def dealer_draw_time_up(table: Table, command: DecisionTimeUp, actor: Actor) -> list[Event]:
    """A box that does not answer the dealer-draw offer in time takes the ante win."""
    need_role(actor, "system")
    current = table.round
    box = current.box(command.box) if current else None
    if (
        current is None
        or box is None
        or current.number != command.round
        or box not in current.awaiting_dealer_draw()
    ):
        raise RuleViolation("stale_timeout")
    return [DealerExchangeDeclined(round=current.number, box=box.number, timed_out=True)]


def dealer_draw(table: Table, current: Round) -> list[Event]:
    """Replace the dealer's highest card; redraw free while the new card has the same rank
    and the dealer still has no game, up to ``dealer_redraw_limit`` times."""
    rules = table.rules
    dealer = list(current.dealer)
    deck = current.deck
    events: list[Event] = []
    replaced: Card = max(dealer, key=rank_of)
    free = False
    redraws = 0
    while True:
        (card,), deck = deck.draw(1)
        events.append(
            DealerCardReplaced(round=current.number, replaced=replaced, card=card, free=free)
        )
        dealer[dealer.index(replaced)] = card
        same_rank = rank_of(card) == rank_of(replaced)
        limit_reached = (
            rules.dealer_redraw_limit is not None and redraws >= rules.dealer_redraw_limit
        )
        if not same_rank or qualifies(evaluate(dealer)) or limit_reached:
            return events
        replaced, free, redraws = card, True, redraws + 1


def settle(table: Table) -> list[Event]:
    """Settle every box not yet settled, then close the round and reveal the seed.

    Called when the dealer's hand is final for everyone still waiting: after the reveal,
    or once the dealer-draw offer has been answered (and the draw made, if asked for).
    """
    current = table.round
    assert current is not None
    events: list[Event] = []
    if current.phase == "dealer_draw" and any(b.dealer_draw == "requested" for b in current.boxes):
        # Boxes that took the ante win are settled against the dealer as revealed.
        for box in current.play_order():
            if box.dealer_draw != "requested":
                events.extend(_settle_box(table, current, box))
        drawn = dealer_draw(table, current)
        events.extend(drawn)
        current = fold(table, drawn).round
        assert current is not None
        for box in current.play_order():
            if box.dealer_draw == "requested":
                events.extend(_settle_box(table, current, box))
    else:
        for box in current.play_order():
            events.extend(_settle_box(table, current, box))
    events.append(
        # The server seed, never the deck key: the commitment is to the server seed.
        RoundSettled(round=current.number, commitment=current.commitment, seed=current.seed)
    )
    return events


def _settle_box(table: Table, current: Round, box: Box) -> list[Event]:
    if box.settled:
        return []
    rules = table.rules
    player_hand = evaluate(box.cards)
    common = {
        "round": current.number,
        "box": box.number,
        "player": box.player,
        "hand": player_hand.category.label,
        "cards": box.cards,
        "dealer_draw": box.dealer_draw == "requested",
    }
    if box.decision == "fold":
        return [BoxSettled(**common, outcome="folded", combinations=(), returned=0, won=0)]  # type: ignore[arg-type]
    dealer_hand: Hand = evaluate(current.dealer)
    result = main_settlement(box, player_hand, dealer_hand, qualifies(dealer_hand), rules)
    paid = paid_for(box.cards, rules) if result.outcome == "won" else ()
    settled = BoxSettled(
        **common,  # type: ignore[arg-type]
        outcome=result.outcome,
        combinations=tuple(PaidCombination(category=c.category.label, cards=c.cards) for c in paid),
        returned=result.returned,
        won=result.won,
        capped=result.capped,
    )
    amount = result.returned + result.won
    return [settled, credit(table, box, amount, "settlement")] if amount else [settled]
