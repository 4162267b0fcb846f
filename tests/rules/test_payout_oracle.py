"""Every settlement of the engine against an independent model of the rules (issue 13 §9).

Hypothesis draws a ruleset (a preset plus valid overrides), bets (antes up to 10¹², bonuses,
dark boxes, one or two players), a stacked deck whose hands are stratified by kind, and
random decisions (sixth card, exchange, play, fold, insurance at and inside its limits, the
dealer draw, timeouts). The real engine (``decide``/``evolve`` through ``Scenario``) plays
the round; ``tests.rules.oracle`` — written from docs/rules.md and sharing no code with
``service.rules`` — says what must happen, and the two are compared at every step: the
deal, each bonus, each fee, what may be bought or insured, the dealer's reveal and draw, and
each box's outcome, returned stake, winnings, capped amount and paid combinations; the books
must balance too (``rounds.books``).

A failure prints the ruleset, the bets, the hands and each decision (Hypothesis notes).
``ORACLE_EXAMPLES`` raises the number of examples for a longer hunt.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, event, given, note, settings
from hypothesis import strategies as st

from russian_poker.events.codec import Event
from russian_poker.events.commands import (
    SYSTEM,
    BuyCard,
    Command,
    Deal,
    DecisionTimeUp,
    DeclineDealerExchange,
    Exchange,
    Fold,
    Insure,
    PlaceAnte,
    Play,
    RequestDealerExchange,
)
from russian_poker.events.game import (
    BonusSettled,
    BoxPlayed,
    BoxSettled,
    CardsDealt,
    CardsExchanged,
    DealerCardReplaced,
    DealerRevealed,
    SixthCardBought,
)
from russian_poker.events.ruleset import Ruleset
from russian_poker.events.wallet import WalletCredited
from russian_poker.service.rules.errors import RuleViolation
from tests.rules.oracle import payout
from tests.rules.oracle.deck import Undealt
from tests.rules.oracle.hands import (
    CATEGORIES,
    Combination,
    best_hand,
    combinations_in,
    qualifies,
    valid_pair,
)
from tests.rules.oracle.strategies import Plan, Table, plans, tables
from tests.rules.rounds import ANN, books, settled, single_box, table
from tests.rules.scenario import Scenario, player

EXAMPLES = int(os.environ.get("ORACLE_EXAMPLES", "600"))
SEEN: Counter[str] = Counter()
"""Coverage tags of the examples run, checked once they have all passed."""


@dataclass
class BoxRun:
    """The oracle's side of one box: what it holds and what was decided."""

    box: int
    owner: str
    ante: int
    bonus: int
    dark: bool
    cards: list[str] = field(default_factory=list)
    decided_draw: bool = False
    fees: int = 0
    folded: bool = False
    insurance: int = 0
    asked: bool = False

    @property
    def in_play(self) -> bool:
        return not self.folded

    def __str__(self) -> str:
        mode = "dark" if self.dark else "light"
        return f"box {self.box} ({self.owner}, ante {self.ante}, bonus {self.bonus}, {mode})"


class Round:
    """Plays one planned round on the engine while the oracle predicts every step."""

    def __init__(self, table: Table, plan: Plan, data: st.DataObject) -> None:
        self.rules: Ruleset = table.rules
        self.plan = plan
        self.data = data
        self.tags: set[str] = set()
        self.events: list[Event] = []
        self.scenario = Scenario(ruleset=self.rules, players={"ann": 10**15, "bob": 10**15})
        for name, wallet in self.scenario.wallets.items():  # no round here may run short
            self.scenario.wallets[name] = msgspec.structs.replace(wallet, balance=10**20)
        self.scenario.sit(*dict.fromkeys(b.player for b in plan.bets))
        self.boxes = {
            b.box: BoxRun(box=b.box, owner=b.player, ante=b.ante, bonus=b.bonus, dark=b.dark)
            for b in plan.bets
        }
        self.order = payout.play_order({b.box: b.ante for b in plan.bets})
        self.dealer: tuple[str, ...] = ()  # as dealt, set by check_deal
        self.undealt = Undealt(())
        note(f"ruleset: preset {table.preset!r} with overrides {table.overrides}")
        for bet in plan.bets:
            note(f"bet: {self.boxes[bet.box]}")
        note(f"hand kinds asked for (a bias only): {plan.kinds}; play order {self.order}")

    # -- the engine, with every refusal made readable ------------------------------------

    def run(self, command: Command, owner: str | None) -> list[Event]:
        actor = SYSTEM if owner is None else player(owner)
        try:
            events = self.scenario.run(command, actor)
        except RuleViolation as exc:
            raise AssertionError(
                f"engine refused {command!r}, which the rules allow: {exc}"
            ) from exc
        self.events.extend(events)
        return events

    def refused(self, command: Command, owner: str, why: str) -> None:
        try:
            self.scenario.run(command, player(owner))
        except RuleViolation:
            self.tags.add("refusal checked")
            return
        raise AssertionError(f"engine accepted {command!r}, which the rules forbid: {why}")

    # -- the round -----------------------------------------------------------------------

    def play(self) -> None:
        self.scenario.open_round(deck=self.plan.deck)
        for bet in self.plan.bets:
            self.run(
                PlaceAnte(box=bet.box, ante=bet.ante, bonus=bet.bonus, dark=bet.dark), bet.player
            )
        for owner in dict.fromkeys(b.player for b in self.plan.bets):
            self.run(Deal(), owner)
        self.check_deal()
        self.decisions()
        self.showdown()
        books(self.scenario)

    def check_deal(self) -> None:
        hands, dealer, rest = payout.deal(self.plan.deck, self.order)
        self.dealer = dealer
        self.undealt = Undealt(rest)
        dealt = one(self.events, CardsDealt)
        engine = {h.box: tuple(h.cards) for h in dealt.hands}
        assert engine == hands, f"deal: engine {engine} != oracle {hands}"
        assert tuple(dealt.dealer_cards) == dealer, f"dealer: {dealt.dealer_cards} != {dealer}"
        note(f"dealer: {' '.join(dealer)} ({best_hand(dealer).category})")
        for number in self.order:
            box = self.boxes[number]
            box.cards = list(hands[number])
            note(f"box {number} dealt {' '.join(box.cards)} ({best_hand(box.cards).category})")
            if box.bonus:
                self.check_bonus(box)

    def check_bonus(self, box: BoxRun) -> None:
        want = payout.bonus(box.cards, box.bonus, self.rules)
        got = one(self.events, BonusSettled, box=box.box)
        credit = sum(
            e.amount
            for e in self.events
            if isinstance(e, WalletCredited) and e.reason == "bonus" and e.box == box.box
        )
        engine = (got.hand, got.stake, got.won, got.capped, credit)
        oracle = (want.hand, box.bonus, want.won, want.capped, want.paid_back)
        assert engine == oracle, (
            f"bonus of {box} on {' '.join(box.cards)}: (hand, stake, won, capped, paid back) "
            f"engine {engine} != oracle {oracle}"
        )
        self.tags.add("bonus won" if want.paid_back else "bonus lost")
        if want.capped:
            self.tags.add("bonus capped")

    def decisions(self) -> None:
        """Each player's light boxes in play order; the players' turns interleave."""
        queues = {
            owner: [self.boxes[n] for n in self.order if self.boxes[n].owner == owner]
            for owner in ("ann", "bob")
        }
        queues = {o: [b for b in q if not b.dark] for o, q in queues.items()}
        while any(queues.values()):
            owner = self.data.draw(st.sampled_from(sorted(o for o, q in queues.items() if q)))
            box = queues[owner][0]
            if not box.decided_draw:
                self.draw_cards(box)
                box.decided_draw = True
            else:
                self.decide(box)
                queues[owner].pop(0)

    def draw_cards(self, box: BoxRun) -> None:
        choice = self.data.draw(st.sampled_from(["stay", "stay", "sixth", "exchange"]))
        if choice == "sixth":
            fee = payout.sixth_card_fee(self.rules, box.ante)
            if fee is None:
                self.refused(BuyCard(box=box.box), box.owner, "no sixth card at this table")
                return
            bought = one(self.run(BuyCard(box=box.box), box.owner), SixthCardBought)
            assert bought.fee == fee, f"{box}: sixth card fee engine {bought.fee} != {fee}"
            box.cards.append(self.undealt.take(bought.card))
            box.fees += fee
            self.tags.add("sixth card")
            note(f"box {box.box} buys a sixth card {bought.card} for {fee}")
        elif choice == "exchange":
            where = self.data.draw(st.sets(st.integers(0, 4), min_size=1, max_size=5))
            discards = [box.cards[i] for i in sorted(where)]
            command = Exchange(box=box.box, cards=discards)
            fee = payout.exchange_fee(self.rules, box.ante, len(discards))
            if fee is None:
                self.refused(command, box.owner, f"exchanging {len(discards)} cards")
                return
            done = one(self.run(command, box.owner), CardsExchanged)
            assert done.fee == fee, f"{box}: exchange fee engine {done.fee} != oracle {fee}"
            assert sorted(done.discarded) == sorted(discards), done
            if self.rules.discards_return_to_deck:
                self.undealt.put_back(discards)
            received = [self.undealt.take(c) for c in done.received]
            if set(received) & set(discards):
                self.tags.add("a discard came back")
            box.cards = [c for c in box.cards if c not in discards] + received
            box.fees += fee
            self.tags.add("exchange")
            note(f"box {box.box} exchanges {' '.join(discards)} for {' '.join(received)}")

    def decide(self, box: BoxRun) -> None:
        limits = payout.insurance_limits(box.cards, box.ante, self.rules)
        # Insure more often where the hand allows it: insurance is what this test is for.
        choices = ["play", "play", "insure", "insure", "fold", "timeout"]
        if limits is not None:
            choices += ["insure"] * 4
        choice = self.data.draw(st.sampled_from(choices))
        if choice == "insure" and limits is None:
            self.refused(Insure(box=box.box, amount=box.ante), box.owner, "insurance here")
            choice = "play"
        if choice == "insure":
            assert limits is not None
            low, high = limits
            self.refused(Insure(box=box.box, amount=high + 1), box.owner, f"over {high}")
            if low > 1:
                self.refused(Insure(box=box.box, amount=low - 1), box.owner, f"under {low}")
            amount = self.data.draw(st.sampled_from([low, high]) | st.integers(low, high))
            played = one(self.run(Insure(box=box.box, amount=amount), box.owner), BoxPlayed)
            assert (played.bet, played.insurance) == (2 * box.ante, amount), played
            box.insurance = amount
            self.tags.add("insured")
            note(f"box {box.box} plays and insures {amount} (allowed {low}..{high})")
        elif choice == "play":
            played = one(self.run(Play(box=box.box), box.owner), BoxPlayed)
            assert (played.bet, played.insurance) == (2 * box.ante, 0), played
            note(f"box {box.box} plays with {' '.join(box.cards)}")
        else:
            round_number = self.round_number
            if choice == "fold":
                self.run(Fold(box=box.box), box.owner)
            else:
                self.run(DecisionTimeUp(round=round_number, box=box.box, phase="decision"), None)
            box.folded = True
            note(f"box {box.box} {'folds' if choice == 'fold' else 'times out (folded)'}")

    @property
    def round_number(self) -> int:
        current = self.scenario.table.round
        assert current is not None
        return current.number

    def showdown(self) -> None:
        revealed = one(self.events, DealerRevealed)
        game = qualifies(self.dealer)
        assert (tuple(revealed.cards), revealed.qualifies) == (self.dealer, game), revealed
        if not game:
            self.tags.add("dealer has no game")
        offered = [
            self.boxes[n]
            for n in self.order
            if not self.boxes[n].dark and self.boxes[n].in_play and not game
        ]
        if not self.rules.dealer_draw:
            offered = []
        current = self.scenario.table.round
        assert current is not None
        phase = "dealer_draw" if offered else "settled"
        assert current.phase == phase, f"after the reveal the engine is in {current.phase}"
        while offered:
            box = self.data.draw(st.sampled_from(offered))
            offered.remove(box)
            answer = self.data.draw(st.sampled_from(["request", "request", "decline", "timeout"]))
            if answer == "request":
                self.run(RequestDealerExchange(box=box.box), box.owner)
                box.asked = True
            elif answer == "decline":
                self.run(DeclineDealerExchange(box=box.box), box.owner)
            else:
                number = self.round_number
                self.run(DecisionTimeUp(round=number, box=box.box, phase="dealer_draw"), None)
            note(f"box {box.box} answers the dealer-draw offer: {answer}")
        drawn = self.dealer_draw()
        for number in self.order:
            self.check_settlement(self.boxes[number], drawn)

    def dealer_draw(self) -> tuple[str, ...]:
        """The dealer's hand for the boxes that asked for the draw (§5.5)."""
        replaced = [e for e in self.events if isinstance(e, DealerCardReplaced)]
        if not any(b.asked for b in self.boxes.values()):
            assert not replaced, f"the dealer drew though no box asked: {replaced}"
            return self.dealer
        engine_cards: Iterator[str] = iter(e.card for e in replaced)

        def next_card() -> str:
            card = next(engine_cards, None)
            assert card is not None, f"the oracle's dealer draws more cards than {replaced}"
            return self.undealt.take(card)

        final, steps = payout.dealer_draw(self.dealer, next_card, self.rules)
        engine = [(e.replaced, e.card, e.free) for e in replaced]
        oracle = [(s.replaced, s.card, s.free) for s in steps]
        assert engine == oracle, f"dealer draw (replaced, card, free): {engine} != {oracle}"
        note(f"dealer draw: {oracle} -> {' '.join(final)} ({best_hand(final).category})")
        self.tags.add("dealer draw")
        if len(steps) > 1:
            self.tags.add("dealer free redraw")
        if qualifies(final):
            self.tags.add("dealer draw gave a game")
        return final

    def check_settlement(self, box: BoxRun, drawn: tuple[str, ...]) -> None:
        dealer = drawn if box.asked else self.dealer
        want = payout.settle(
            self.rules,
            ante=box.ante,
            cards=box.cards,
            dealer=dealer,
            folded=box.folded,
            insurance=box.insurance,
            asked_dealer_draw=box.asked,
        )
        got = one(self.events, BoxSettled, box=box.box)
        engine = (got.outcome, got.returned, got.won, got.capped)
        oracle = (want.outcome, want.returned, want.won, want.capped)
        hand = best_hand(box.cards).category
        assert engine == oracle, (
            f"{box} with {' '.join(box.cards)} ({hand}) against dealer {' '.join(dealer)} "
            f"({best_hand(dealer).category}), insurance {box.insurance}, dealer draw asked "
            f"{box.asked}, fees {box.fees}: (outcome, returned, won, capped) engine {engine} "
            f"!= oracle {oracle}"
        )
        assert sorted(got.cards) == sorted(box.cards), (got.cards, box.cards)
        assert got.hand == hand, f"{box}: hand engine {got.hand} != oracle {hand}"
        assert got.dealer_draw == box.asked, got
        self.check_combinations(box, got)
        self.tag_settlement(box, want, hand)

    def check_combinations(self, box: BoxRun, got: BoxSettled) -> None:
        """The engine's combinations must be real ones of this hand, a valid pair (§3),
        and pay what the oracle's best choice pays."""
        if got.outcome != "won":
            assert got.combinations == (), got
            return
        held = combinations_in(box.cards)
        paid = [Combination(c.category, frozenset(c.cards)) for c in got.combinations]
        for combination in paid:
            assert combination in held, f"{box}: {combination} is not in {box.cards}"
        assert paid and paid[0].category == best_hand(box.cards).category, paid
        assert len(paid) <= (2 if self.rules.double_combination else 1), paid
        if len(paid) == 2:
            assert valid_pair(
                paid[0],
                paid[1],
                straight_pair_counts_as_two_straights=(
                    self.rules.straight_pair_counts_as_two_straights
                ),
            ), f"{box}: not a valid pair of combinations: {paid}"
            self.tags.add("two combinations paid")
        prices = payout.prices(self.rules.bet_paytable)
        engine = sum(prices[c.category] for c in paid)
        oracle = payout.multiple(box.cards, self.rules)
        assert engine == oracle, (
            f"{box} {box.cards}: engine pays {paid} ({engine} to 1), oracle {oracle}"
        )

    def tag_settlement(self, box: BoxRun, want: payout.Settlement, hand: str) -> None:
        self.tags.add(f"outcome {want.outcome}")
        if want.outcome == "won":
            self.tags.add(f"won with {hand}")
        if want.outcome == "tied" and box.ante >= 500:
            self.tags.add("tie with ante >= 500")
        if want.capped:
            self.tags.add("main wager capped")
        if box.insurance:
            self.tags.add(
                "insurance paid"
                if want.outcome == "dealer_no_game"
                else "insurance lost or returned"
            )
        if box.dark:
            self.tags.add("dark box")
        if box.ante >= 10**9:
            self.tags.add("ante >= 10**9")


def one(events: list[Event], kind: type[Any], **fields: Any) -> Any:
    found = [
        e
        for e in events
        if isinstance(e, kind) and all(getattr(e, k) == v for k, v in fields.items())
    ]
    assert len(found) == 1, f"expected one {kind.__name__} {fields}, engine gave {found}"
    return found[0]


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,  # the same examples every run, so the coverage check below is stable
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(table=tables(), data=st.data())
def _rounds_match_the_oracle(table: Table, data: st.DataObject) -> None:
    plan = data.draw(plans(table.rules))
    game = Round(table, plan, data)
    game.play()
    if len({b.player for b in plan.bets}) == 2:
        game.tags.add("two players")
    for tag in sorted(game.tags):
        event(tag)
    SEEN.update(game.tags)


REQUIRED = {
    *(f"outcome {o}" for o in ("won", "tied", "lost", "folded", "dealer_no_game")),
    *(f"won with {c}" for c in CATEGORIES[1:]),
    "tie with ante >= 500",
    "dealer has no game",
    "dealer draw",
    "dealer free redraw",
    "dealer draw gave a game",
    "two combinations paid",
    "main wager capped",
    "bonus won",
    "bonus lost",
    "bonus capped",
    "insurance paid",
    "insurance lost or returned",
    "sixth card",
    "exchange",
    "a discard came back",
    "refusal checked",
    "dark box",
    "two players",
    "ante >= 10**9",
}


def test_every_settlement_matches_the_oracle() -> None:
    """Random rounds settle as the oracle says, and they covered every case that matters:
    each outcome, a win with each combination, ties at antes of 500 and more, caps, the
    dealer draw and its free redraws, insurance, two combinations."""
    SEEN.clear()
    _rounds_match_the_oracle()
    missing = sorted(REQUIRED - set(SEEN))
    assert not missing, f"never met: {missing}; seen {dict(SEEN)}"


# -- the examples the rules and the original texts name, one full round each
# ---------------------------

LOW_DEALER = "2c 2d 3c 4d 7c"
"""A qualifying dealer (a pair of twos) that every hand below beats, sharing no card."""


@pytest.mark.parametrize("two_straights", [True, False])
@pytest.mark.parametrize("double", [True, False])
@pytest.mark.parametrize(
    "hand",
    [
        "8h 8c As Kd 9s",  # §3: pair + AK
        "As Ad Kc 7h 2s",  # a pair of aces and a king: the king makes AK with an ace
        "As Ad Ac Kd 5s",  # trips + AK
        "8s 7h 6d 5c 4s 3h",  # §3: two straights
        "Kh Qs Jd Tc 9h 9s",  # §3: two straights, or straight + pair
        "Kh Qh Jh Th 9h 9s",  # straight flush + straight (or + pair)
        "Ah Kh Qh Jh Th Ks",  # royal + straight (or + pair)
        "8h 8c 8s 8d 5s 5d",  # quads + full house
        "8h 8c 8s 5d 5s 5h",  # two full houses
        "8h 8c 5s 5d Ks Kd",  # two two-pairs
        "Ah Kh 9h 6h 4h 2h",  # two flushes
        "9h 8h 7h 6h 2h 5s",  # flush + straight
        "Ah Kh 9h 7h 4h Ks",  # flush + pair
        "As Ad Ac Kd Ks",  # a full house holds nothing else
    ],
)
def test_the_named_hands_settle_as_the_oracle_says(
    hand: str, double: bool, two_straights: bool
) -> None:
    cards = hand.split()
    overrides = {
        "double_combination": double,
        "straight_pair_counts_as_two_straights": two_straights,
    }
    scenario = table("russian", **overrides)
    rules = scenario.rules
    single_box(scenario, " ".join(cards[:5]), LOW_DEALER, then=" ".join(cards[5:]), ante=500)
    if len(cards) == 6:
        scenario.run(BuyCard(box=1), ANN)
    scenario.run(Play(box=1), ANN)
    want = payout.settle(rules, ante=500, cards=cards, dealer=LOW_DEALER.split())
    got = settled(scenario, 1)
    assert (got.outcome, got.returned, got.won) == (want.outcome, want.returned, want.won)
    books(scenario)
