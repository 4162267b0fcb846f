"""Betting and the deal: antes, bonus bets, cancelling, repeating, and dealing (docs/rules.md
§5.1-3)."""

from __future__ import annotations

from collections.abc import Sequence

from russian_poker.events.codec import Event
from russian_poker.events.commands import (
    Actor,
    BettingTimeUp,
    CancelBets,
    Deal,
    PlaceAnte,
    RepeatBets,
)
from russian_poker.events.game import (
    AntePlaced,
    BetsCancelled,
    BonusSettled,
    CardsDealt,
    DealRequested,
    DealtHand,
)
from russian_poker.service.rules.entropy import client_seed_problem, dealing_deck
from russian_poker.service.rules.errors import RuleViolation
from russian_poker.service.rules.evolve import fold
from russian_poker.service.rules.guards import (
    credit,
    debit,
    need_open,
    need_phase,
    need_role,
    need_seat,
    own_box,
)
from russian_poker.service.rules.payouts import bonus_win
from russian_poker.service.rules.state import BetSpec, Box, Round, Table

__all__ = [
    "betting_time_up",
    "can_place_ante",
    "cancel_bets",
    "cancel_box",
    "deal",
    "place_ante",
    "repeat_bets",
    "request_deal",
]


def can_place_ante(table: Table, command: PlaceAnte, actor: Actor) -> bool:
    """Whether ``place_ante`` would accept the bet (funds aside)."""
    try:
        place_ante(table, command, actor)
    except RuleViolation:
        return False
    return True


def place_ante(table: Table, command: PlaceAnte, actor: Actor) -> list[Event]:
    """Bet an ante (and optionally a bonus) on a free box; a dark box stakes the Bet too."""
    need_role(actor, "player")
    need_open(table)
    current = need_phase(table, "betting")
    need_seat(table, actor.id)
    rules = table.rules
    if actor.id in current.ready:
        raise RuleViolation("bets_final")
    if not 1 <= command.box <= rules.boxes:
        raise RuleViolation("no_such_box", f"boxes are numbered 1..{rules.boxes}")
    if current.box(command.box) is not None:
        raise RuleViolation("box_taken")
    if not rules.ante_min <= command.ante <= rules.ante_max:
        raise RuleViolation(
            "ante_out_of_range", f"the ante must be {rules.ante_min}..{rules.ante_max}"
        )
    if command.bonus:
        if not rules.bonus_enabled:
            raise RuleViolation("bonus_not_offered")
        if not rules.bonus_min <= command.bonus <= rules.bonus_limit:
            raise RuleViolation(
                "bonus_out_of_range", f"the bonus must be {rules.bonus_min}..{rules.bonus_limit}"
            )
    if command.client_seed is not None:
        if not rules.player_seeds:
            raise RuleViolation("client_seeds_not_accepted")
        problem = client_seed_problem(command.client_seed)
        if problem is not None:
            raise RuleViolation("invalid_client_seed", problem)
    light = [b for b in current.boxes_of(actor.id) if b.light]
    if not command.dark and len(light) >= rules.light_boxes_per_player:
        raise RuleViolation(
            "light_box_limit",
            f"a player plays at most {rules.light_boxes_per_player} light boxes; "
            "place this one dark",
        )
    bet = 2 * command.ante if command.dark else 0
    placed = AntePlaced(
        round=current.number,
        box=command.box,
        player=actor.id,
        ante=command.ante,
        bonus=command.bonus,
        dark=command.dark,
        bet=bet,
        client_seed=command.client_seed,
    )
    box = Box(number=command.box, player=actor.id, ante=command.ante)
    events: list[Event] = [placed, debit(table, box, command.ante, "ante")]
    if command.bonus:
        events.append(debit(table, box, command.bonus, "bonus"))
    if bet:
        events.append(debit(table, box, bet, "bet"))
    return events


def cancel_box(table: Table, box: Box) -> list[Event]:
    """Take one box's bets back before the deal, refunding every stake."""
    assert table.round is not None
    refund = box.ante + box.bonus + box.bet
    return [
        BetsCancelled(round=table.round.number, box=box.number, player=box.player),
        credit(table, box, refund, "refund"),
    ]


def cancel_bets(table: Table, command: CancelBets, actor: Actor) -> list[Event]:
    """Cancel one box's bets, or all of the player's."""
    need_role(actor, "player")
    current = need_phase(table, "betting")
    if actor.id in current.ready:
        raise RuleViolation("bets_final")
    if command.box is not None:
        boxes = [own_box(current, actor, command.box)]
    else:
        boxes = current.boxes_of(actor.id)
        if not boxes:
            raise RuleViolation("no_bets")
    return [event for box in boxes for event in cancel_box(table, box)]


def repeat_bets(table: Table, command: RepeatBets, actor: Actor) -> list[Event]:
    """Place the previous round's bets again, all or none. A client seed is not repeated:
    the command's own ``client_seed``, if any, goes with every box it places."""
    need_role(actor, "player")
    current = need_phase(table, "betting")
    previous: Sequence[BetSpec] = table.last_bets.get(actor.id, ())
    if not previous:
        raise RuleViolation("no_previous_bets")
    if current.boxes_of(actor.id):
        raise RuleViolation("box_taken", "repeat needs an empty betting area: cancel first")
    events: list[Event] = []
    state = table
    for spec in previous:
        step = place_ante(
            state,
            PlaceAnte(
                box=spec.box,
                ante=spec.ante,
                bonus=spec.bonus,
                dark=spec.dark,
                client_seed=command.client_seed,
            ),
            actor,
        )
        events.extend(step)
        state = fold(state, step)
    return events


def request_deal(table: Table, command: Deal, actor: Actor) -> list[Event]:
    """The player is ready; the deal comes when every player with a bet is."""
    need_role(actor, "player")
    current = need_phase(table, "betting")
    if not current.boxes_of(actor.id):
        raise RuleViolation("no_bets")
    if actor.id in current.ready:
        raise RuleViolation("deal_already_requested")
    return [DealRequested(round=current.number, player=actor.id)]


def betting_time_up(table: Table, command: BettingTimeUp, actor: Actor) -> list[Event]:
    """The betting timer ran out: deal what is bet."""
    need_role(actor, "system")
    current = table.round
    if (
        current is None
        or current.number != command.round
        or current.phase != "betting"
        or not current.boxes
    ):
        raise RuleViolation("stale_timeout")
    return deal(table, current)


def deal(table: Table, current: Round) -> list[Event]:
    """Five cards to each box in play order and to the dealer, one at a time; then the
    bonus bets are settled on those five cards (docs/rules.md §5.2-3)."""
    order = current.play_order()
    seats = len(order) + 1
    cards, _ = dealing_deck(current).draw(5 * seats)
    hands = tuple(
        DealtHand(box=box.number, cards=tuple(cards[i::seats])) for i, box in enumerate(order)
    )
    events: list[Event] = [
        CardsDealt(
            round=current.number, hands=hands, dealer_cards=tuple(cards[len(order) :: seats])
        )
    ]
    for box, hand in zip(order, hands, strict=True):
        if box.bonus:
            events.extend(_settle_bonus(table, box, hand.cards))
    return events


def _settle_bonus(table: Table, box: Box, first_five: tuple[str, ...]) -> list[Event]:
    rules = table.rules
    hand, won, capped = bonus_win(first_five, box.bonus, rules)
    assert table.round is not None
    settled = BonusSettled(
        round=table.round.number,
        box=box.number,
        player=box.player,
        hand=hand.category.label,
        stake=box.bonus,
        won=won,
        capped=capped,
    )
    if won == 0:
        return [settled]
    return [settled, credit(table, box, box.bonus + won, "bonus")]
