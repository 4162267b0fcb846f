"""Interrupted rounds (issue 13 item 6, docs/rules-decisions.md "Interrupted rounds"): a round
with no activity for ``abandoned_round_after_s`` is completed by the rules' defaults —
undecided boxes folded, dealer-draw offers declined, the rest settled as usual; a round not
yet dealt has its bets refunded. On fixed decks to the unit, and by Hypothesis: whatever was
decided before, completion settles every box once, the money balances, and the result is
exactly what the rules' own time-outs would have given."""

from __future__ import annotations

import copy

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from russian_poker.events.commands import (
    BuyCard,
    CompleteAbandonedRound,
    Deal,
    DecisionTimeUp,
    DeclineDealerExchange,
    Fold,
    PlaceAnte,
    Play,
    RequestDealerExchange,
    SitDown,
)
from russian_poker.events.game import (
    BetsCancelled,
    BoxFolded,
    BoxSettled,
    DealerCardReplaced,
    DealerExchangeDeclined,
    DealerExchangeRequested,
    RoundAbandoned,
    RoundSettled,
)
from russian_poker.events.ruleset import ABANDONED_MAX_S, ABANDONED_MIN_S
from russian_poker.events.wallet import WalletCredited
from russian_poker.service.rules.presets import RulesetError, make_ruleset
from russian_poker.service.rules.timers import pending_timers
from tests.rules.rounds import ANN, BOB, START, books, deck_for, refused, settled, table
from tests.rules.scenario import OPERATOR, SYSTEM, Scenario, player

DAY = 86_400


def abandon(scenario: Scenario) -> CompleteAbandonedRound:
    """The interrupted-round time-out the table is waiting for (exactly one)."""
    found = [t for t in pending_timers(scenario.table) if ":abandoned:" in t.key]
    assert len(found) == 1, [t.key for t in pending_timers(scenario.table)]
    assert found[0].seconds == scenario.rules.abandoned_round_after_s
    command = found[0].command
    assert isinstance(command, CompleteAbandonedRound)
    return command


def test_a_round_left_mid_decision_folds_every_undecided_box_and_settles_the_rest() -> None:
    scenario = table("russian", "ann", "bob")
    # Play order: box 1 (ann, ante 200), then boxes 2, 3, 4 (ante 100) in number order.
    scenario.open_round(
        deck=deck_for(
            ["7s 7h 7d Kc 2s", "2d 5h 8c Jc 4s", "9c 9h Jd 2h 3c", "Qd Qs 6c 5c 3h"],
            "8s 8d Ah 4c 6h",  # a pair of eights: the dealer qualifies
        )
    )
    scenario.run(PlaceAnte(box=1, ante=200), ANN)
    scenario.run(PlaceAnte(box=2, ante=100), ANN)
    scenario.run(PlaceAnte(box=3, ante=100, dark=True), BOB)
    scenario.run(PlaceAnte(box=4, ante=100), BOB)
    scenario.run(Deal(), ANN)
    scenario.run(Deal(), BOB)
    scenario.run(Play(box=4), BOB)  # bob decides; ann walks away with both boxes undecided

    events = scenario.run(abandon(scenario), SYSTEM)

    assert events[0] == RoundAbandoned(
        round=1, reason="no activity for 86400 s", after_s=DAY, phase="decisions"
    )
    # Both of ann's boxes at once, in play order, as time-outs; nobody is coming back.
    assert [e for e in events if isinstance(e, BoxFolded)] == [
        BoxFolded(round=1, box=1, timed_out=True),
        BoxFolded(round=1, box=2, timed_out=True),
    ]
    assert isinstance(events[-1], RoundSettled)
    assert [settled(scenario, n).outcome for n in (1, 2, 3, 4)] == [
        "folded",
        "folded",
        "won",  # the dark box: nines beat eights, as it would have anyway
        "won",  # bob's played box: queens
    ]
    assert (settled(scenario, 3).returned, settled(scenario, 3).won) == (300, 200)
    assert scenario.balance("ann") == START - 300
    assert scenario.balance("bob") == START + 400
    assert books(scenario) == {1: -100}
    assert scenario.table.round is not None and scenario.table.round.abandoned
    assert scenario.table.needs_round  # the shell opens the next round at once
    assert not pending_timers(scenario.table)


def test_an_unanswered_dealer_draw_offer_is_declined_and_an_asked_draw_is_made() -> None:
    scenario = table("russian", "ann", "bob")
    scenario.open_round(
        deck=deck_for(
            ["Js Jh 3d 4h 8s", "Qd Qs 6c 5c 3h"],
            "Kd 9c 7h 4c 2d",  # king high: no game, so the dealer draw is offered
            then="9h",  # the king goes for the nine of hearts: a pair of nines
        )
    )
    scenario.run(PlaceAnte(box=1, ante=100), ANN)
    scenario.run(PlaceAnte(box=2, ante=100), BOB)
    scenario.run(Deal(), ANN)
    scenario.run(Deal(), BOB)
    scenario.run(Play(box=1), ANN)
    scenario.run(Play(box=2), BOB)
    scenario.run(RequestDealerExchange(box=2), BOB)  # bob answered; ann never does

    events = scenario.run(abandon(scenario), SYSTEM)

    assert events[0] == RoundAbandoned(
        round=1, reason="no activity for 86400 s", after_s=DAY, phase="dealer_draw"
    )
    assert events[1] == DealerExchangeDeclined(round=1, box=1, timed_out=True)
    assert not [e for e in events if isinstance(e, DealerExchangeRequested)]
    # Ann's box takes the ante win; bob's asked draw is made and settled against it.
    ann, bob = settled(scenario, 1), settled(scenario, 2)
    assert (ann.outcome, ann.dealer_draw, ann.returned, ann.won) == (
        "dealer_no_game",
        False,
        300,
        100,
    )
    assert [e.card for e in scenario.of_type(DealerCardReplaced)] == ["9h"]
    assert (bob.outcome, bob.dealer_draw, bob.returned, bob.won) == ("won", True, 200, 200)
    assert books(scenario) == {1: -100 - 100}


def test_a_round_not_yet_dealt_has_its_bets_refunded_and_closes() -> None:
    scenario = table("russian", "ann", "bob")
    scenario.open_round()
    scenario.run(PlaceAnte(box=1, ante=200, bonus=100), ANN)
    scenario.run(PlaceAnte(box=2, ante=100, dark=True), BOB)
    scenario.run(Deal(), ANN)  # bob never asks for the deal (and the betting timer was lost)

    events = scenario.run(abandon(scenario), SYSTEM)

    assert events[0] == RoundAbandoned(
        round=1, reason="no activity for 86400 s", after_s=DAY, phase="betting"
    )
    assert [e.box for e in events if isinstance(e, BetsCancelled)] == [1, 2]
    refunds = [(e.wallet_id, e.amount, e.reason) for e in events if isinstance(e, WalletCredited)]
    assert refunds == [("ann", 300, "refund"), ("bob", 300, "refund")]
    assert isinstance(events[-1], RoundSettled)  # the seed is revealed: nothing was dealt
    assert not scenario.of_type(BoxSettled)
    assert (scenario.balance("ann"), scenario.balance("bob")) == (START, START)
    assert books(scenario) == {1: 0}
    assert scenario.table.needs_round


def test_the_timer_restarts_with_every_event_of_the_round_and_only_then() -> None:
    scenario = table("russian", "ann")
    scenario.open_round(deck=deck_for(["7s 7h 7d Kc 2s"], "8s 8d Ah 4c 6h"))
    # An empty round taking bets risks nothing: no timer, and the command is refused.
    assert not pending_timers(scenario.table)
    refused(scenario, CompleteAbandonedRound(round=1, activity=0), SYSTEM, "stale_timeout")

    scenario.run(PlaceAnte(box=1, ante=100), ANN)
    first = abandon(scenario)
    assert first == CompleteAbandonedRound(round=1, activity=1)
    scenario.fund("bob", START)
    scenario.run(SitDown(), BOB)  # a seat taken is not activity in the round
    assert abandon(scenario) == first

    scenario.run(Deal(), ANN)
    second = abandon(scenario)
    assert second.activity > first.activity
    # The earlier deadline's command arrives late: the activity since makes it stale.
    refused(scenario, first, SYSTEM, "stale_timeout")
    keys = [t.key for t in pending_timers(scenario.table)]
    assert keys == ["table-1:1:decision:1:dealt", f"table-1:1:abandoned:{second.activity}"]

    scenario.run(Play(box=1), ANN)  # the round settles: nothing waits any more
    assert scenario.table.needs_round
    assert not pending_timers(scenario.table)
    refused(scenario, second, SYSTEM, "stale_timeout")
    books(scenario)


def test_only_the_clock_sends_it_and_only_for_its_round() -> None:
    scenario = table("russian", "ann")
    scenario.open_round(deck=deck_for(["7s 7h 7d Kc 2s"], "8s 8d Ah 4c 6h"))
    scenario.run(PlaceAnte(box=1, ante=100), ANN)
    scenario.run(Deal(), ANN)
    command = abandon(scenario)
    refused(scenario, command, ANN, "wrong_role")
    refused(scenario, command, OPERATOR, "wrong_role")
    other = CompleteAbandonedRound(round=2, activity=command.activity)
    refused(scenario, other, SYSTEM, "stale_timeout")
    scenario.run(command, SYSTEM)
    refused(scenario, command, SYSTEM, "stale_timeout")  # sent twice: acted on once


@pytest.mark.parametrize("preset", ["russian", "russian-online", "oasis"])
def test_the_rules_own_time_outs_always_fall_due_first(preset: str) -> None:
    scenario = table(preset, "ann")
    scenario.open_round()
    scenario.run(PlaceAnte(box=1, ante=100), ANN)
    for step in range(2):  # taking bets (the betting timer), then deciding
        timers = pending_timers(scenario.table)
        backstop = [t.seconds for t in timers if ":abandoned:" in t.key]
        others = [t.seconds for t in timers if ":abandoned:" not in t.key]
        assert backstop == [DAY] and others and max(others) < min(backstop)
        if not step:
            scenario.run(Deal(), ANN)


def test_the_interval_is_a_validated_ruleset_parameter() -> None:
    assert make_ruleset().abandoned_round_after_s == DAY
    assert make_ruleset("oasis", {"abandoned_round_after_s": 3600}).abandoned_round_after_s == 3600
    assert ABANDONED_MIN_S == 3600 and ABANDONED_MAX_S == 30 * DAY
    for bad in (ABANDONED_MIN_S - 1, ABANDONED_MAX_S + 1, 0, -5):
        with pytest.raises(RulesetError, match="abandoned_round_after_s"):
            make_ruleset(overrides={"abandoned_round_after_s": bad})
    # Never before the rules' own time-outs, which must always have acted by then.
    with pytest.raises(RulesetError, match="more than `betting_timeout_s`"):
        make_ruleset(overrides={"abandoned_round_after_s": 3600, "decision_timeout_s": 3600})
    rules = make_ruleset(overrides={"abandoned_round_after_s": 3601, "decision_timeout_s": 3600})
    assert rules.abandoned_round_after_s == 3601
    scenario = Scenario(ruleset=make_ruleset(overrides={"abandoned_round_after_s": 7200}))
    scenario.fund("ann", START)
    scenario.sit("ann")
    scenario.open_round()
    scenario.run(PlaceAnte(box=1, ante=100), ANN)
    assert abandon(scenario).activity == 1
    assert scenario.run(abandon(scenario), SYSTEM)[0] == RoundAbandoned(
        round=1, reason="no activity for 7200 s", after_s=7200, phase="betting"
    )


# -- Hypothesis: any round, left at any point --------------------------------------------


def _moves(scenario: Scenario) -> list[tuple[object, str]]:
    """The decisions the players could send now (a few of each kind)."""
    current = scenario.table.round
    assert current is not None
    rules = scenario.rules
    moves: list[tuple[object, str]] = []
    for box in current.awaiting_decision():
        play, fold = (Play(box=box.number), box.player), (Fold(box=box.number), box.player)
        moves += [play, play, play, fold]
        if rules.buy_sixth_card and not box.drew:
            moves.append((BuyCard(box=box.number), box.player))
    for box in current.awaiting_dealer_draw():
        moves += [
            (RequestDealerExchange(box=box.number), box.player),
            (DeclineDealerExchange(box=box.number), box.player),
        ]
    return moves


def _time_out_everything(scenario: Scenario) -> None:
    """Let every decision and dealer-draw time-out fire, one by one, until it settles."""
    while not scenario.table.needs_round:
        timeouts = [t for t in pending_timers(scenario.table) if ":abandoned:" not in t.key]
        assert timeouts, "a round with stakes always waits for a time-out"
        command = timeouts[0].command
        assert isinstance(command, DecisionTimeUp)
        scenario.run(command, SYSTEM)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    preset=st.sampled_from(["russian", "russian", "russian-online", "oasis"]),
    seed=st.binary(min_size=32, max_size=32),
    data=st.data(),
)
def test_any_round_left_at_any_point_settles_every_box_as_the_time_outs_would(
    preset: str, seed: bytes, data: st.DataObject
) -> None:
    scenario = table(preset, "ann", "bob")
    rules = scenario.rules
    scenario.open_round(seed=seed)
    light = {"ann": 0, "bob": 0}
    count = data.draw(st.integers(1, rules.boxes), label="boxes")
    for number in range(1, count + 1):
        owner = data.draw(st.sampled_from(["ann", "bob"]), label=f"owner of box {number}")
        dark = light[owner] >= rules.light_boxes_per_player or data.draw(st.integers(0, 3)) == 0
        light[owner] += not dark
        ante = data.draw(st.sampled_from([100, 200, 500]))
        bonus = data.draw(st.sampled_from([0, 100])) if rules.bonus_enabled else 0
        scenario.run(PlaceAnte(box=number, ante=ante, bonus=bonus, dark=dark), player(owner))
    dealt = data.draw(st.sampled_from([True, True, True, False]), label="dealt")
    if dealt:
        for name in scenario.table.round.players():  # type: ignore[union-attr]
            scenario.run(Deal(), player(name))
        for _ in range(data.draw(st.integers(0, 2 * count), label="decisions before leaving")):
            moves = _moves(scenario) if not scenario.table.needs_round else []
            if not moves:
                break
            command, owner = data.draw(st.sampled_from(moves))
            scenario.run(command, player(owner))  # type: ignore[arg-type]
    if scenario.table.needs_round:
        return  # everyone decided: the round ended by itself, nothing to abandon
    current = scenario.table.round
    assert current is not None
    undecided = {b.number for b in current.boxes if b.light and b.decision is None}
    unanswered = {b.number for b in current.awaiting_dealer_draw()}
    event(f"left while {current.phase}")
    timed_out = copy.deepcopy(scenario)
    before = len(scenario.events)

    events = scenario.run(abandon(scenario), SYSTEM)

    assert isinstance(events[0], RoundAbandoned) and isinstance(events[-1], RoundSettled)
    assert events[0].phase == current.phase
    assert scenario.table.needs_round
    assert not [e for e in events if isinstance(e, DealerExchangeRequested)]
    books(scenario)  # every stake settled or refunded to the unit; the replay agrees
    if not dealt:
        assert {e.box for e in events if isinstance(e, BetsCancelled)} == set(range(1, count + 1))
        assert not scenario.of_type(BoxSettled)
        return
    folded = {e.box for e in events if isinstance(e, BoxFolded)}
    declined = {e.box for e in events if isinstance(e, DealerExchangeDeclined)}
    assert folded == undecided
    assert unanswered <= declined  # and, after a reveal, every box offered the draw
    outcomes = {e.box: e for e in scenario.events[before:] if isinstance(e, BoxSettled)}
    assert sorted(outcomes) == list(range(1, count + 1))  # every box once
    # The same as letting every time-out fire: the abandonment is only their sum.
    _time_out_everything(timed_out)
    assert [e for e in timed_out.events[before:] if isinstance(e, BoxSettled)] == list(
        outcomes.values()
    )
    assert timed_out.wallets == scenario.wallets
