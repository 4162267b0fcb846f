"""A stateful property test of the rules core: random tables, random players, random commands.

Hypothesis plays a table under a random valid ruleset (a preset plus random overrides) with
2-4 players with random balances, sometimes an observer, a private table, or a player whose
wallet is missing or in another currency. It sends every kind of command, legal and illegal,
from the right and the wrong senders, plus "smart" moves that keep rounds going to the
showdown and rounds on stacked (test-mode) decks that deal rare hands on purpose.

A refused command (``RuleViolation``) must change nothing; any other exception is a bug.
After every step:

1. the 52 cards are exactly partitioned among deck, boxes, dealer and set-aside cards;
2. money is conserved: per (round, box, player), and per settled round, what the wallet
   events moved equals the house's result read independently off the game events, whose
   amounts are themselves re-derived from the rules (bonus, draw fees, insurance range,
   settlement against the dealer's hand as it stood, ``max_payout``), and the deal is the
   committed deck card by card, in play order;
3. no balance is below zero, and each is its deposits - debits + credits;
4. replaying the table's events (through the store codec) from ``Table()`` gives the
   state, and so does a JSON round trip of the state;
5. every revealed seed hashes to its round's commitment;
6. every dealt box of a settled round is settled exactly once (its bonus too);
7. no more boxes than ``boxes``, no player more light boxes than allowed;

plus the order of play (each player's boxes in ante order, one draw per box, the dealer
draw's highest card and free same-rank redraws within ``dealer_redraw_limit``) and seats.
"""

from __future__ import annotations

import functools
import hashlib
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import msgspec
from hypothesis import HealthCheck, assume, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from russian_poker.events.codec import Event, decode_event, encode_event
from russian_poker.events.commands import (
    SYSTEM,
    Actor,
    BettingTimeUp,
    BuyCard,
    CancelBets,
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
)
from russian_poker.events.game import (
    AntePlaced,
    BetsCancelled,
    BonusSettled,
    BoxFolded,
    BoxPlayed,
    BoxSettled,
    CardsDealt,
    CardsExchanged,
    DealerCardReplaced,
    DealerExchangeRequested,
    DealerRevealed,
    PlayerLeft,
    PlayerSeated,
    RoundOpened,
    RoundSettled,
    SixthCardBought,
    TableOpened,
)
from russian_poker.events.paytables import BONUS_THRESHOLDS, CATEGORY_LABELS
from russian_poker.events.ruleset import Ruleset
from russian_poker.events.wallet import (
    FundsDeposited,
    FundsWithdrawn,
    WalletCredited,
    WalletDebited,
    WalletEvent,
)
from russian_poker.service.rules.cards import FULL_DECK, RANKS, SUITS
from russian_poker.service.rules.deck import shuffled, stacked
from russian_poker.service.rules.errors import RuleViolation
from russian_poker.service.rules.evolve import evolve
from russian_poker.service.rules.hands import evaluate, qualifies
from russian_poker.service.rules.payouts import insurance_range, paid_for
from russian_poker.service.rules.presets import PRESETS, RulesetError, make_ruleset
from russian_poker.service.rules.state import Table
from russian_poker.service.rules.wallets import Wallet, deposit, fold_wallet, open_wallet
from tests.rules.scenario import OPERATOR, Scenario

OBSERVER = Actor(role="player", id="observer")
AUDITOR = Actor(role="auditor", id="auditor")
CARD_TEXTS = (*FULL_DECK, "10h", "as", "Xx", "", "A", "Ah Kh", "1s", "♠A", "K♠")

# -- a random valid ruleset -----------------------------------------------------------------


@st.composite
def rulesets(draw: st.DrawFn) -> Ruleset:
    """A random preset with random overrides of the parameters casinos vary."""
    preset = draw(st.sampled_from(sorted(PRESETS)))
    base = PRESETS[preset]
    overrides: dict[str, Any] = {}

    def maybe(name: str, strategy: st.SearchStrategy[Any]) -> None:
        if draw(st.booleans()):
            overrides[name] = draw(strategy)

    maybe("boxes", st.sampled_from(range(1, 11)))
    boxes = overrides.get("boxes", base.boxes)
    if draw(st.booleans()) or base.light_boxes_per_player > boxes:
        overrides["light_boxes_per_player"] = draw(st.integers(1, boxes))
    if draw(st.booleans()):
        ante_min = draw(st.integers(1, 500))
        overrides["ante_min"] = ante_min
        overrides["ante_max"] = draw(st.integers(ante_min, 50 * ante_min))
    maybe("bonus_enabled", st.booleans())
    if draw(st.booleans()):
        ante_max = overrides.get("ante_max", base.ante_max)
        bonus_min = draw(st.integers(1, max(1, ante_max // 5)))
        overrides["bonus_min"] = bonus_min
        overrides["bonus_max"] = draw(st.integers(bonus_min, 2 * bonus_min + ante_max // 5))
    elif "ante_max" in overrides and overrides["ante_max"] // 10 < base.bonus_min:
        overrides["bonus_min"] = max(1, overrides["ante_max"] // 10)
    maybe("max_payout", st.none() | st.integers(1, 100_000))
    maybe("double_combination", st.booleans())
    maybe("straight_pair_counts_as_two_straights", st.booleans())
    maybe("buy_sixth_card", st.booleans())
    maybe("max_exchange_cards", st.integers(0, 5))
    maybe("draw_fee_antes", st.tuples(*[st.integers(0, 3)] * 5))
    maybe("sixth_card_fee_antes", st.integers(0, 2))
    maybe("discards_return_to_deck", st.booleans())
    maybe("insurance_min_hand", st.none() | st.sampled_from(CATEGORY_LABELS[2:]))
    maybe("insurance_max", st.sampled_from(["payout", "half_payout"]))
    maybe("ante_pays_on_win", st.booleans())
    maybe("dealer_draw", st.booleans())
    maybe("dealer_redraw_limit", st.none() | st.integers(0, 3))
    maybe("insurance_returned_after_dealer_draw", st.booleans())
    maybe("bonus_min_hand", st.sampled_from(BONUS_THRESHOLDS))
    if overrides.get("bonus_min_hand") in ("pair", "two_pair"):
        overrides["bonus_paytable"] = {"pair": draw(st.integers(0, 2)), "two_pair": 3}
    try:
        return make_ruleset(preset, overrides)
    except RulesetError:
        assume(False)
        raise  # unreachable: assume(False) raises


@st.composite
def balances(draw: st.DrawFn, rules: Ruleset) -> list[int]:
    """2-4 balances; some too small for even one ante, some for a few rounds."""
    ante = rules.ante_min
    one = st.one_of(
        st.integers(0, 3 * ante),
        st.integers(3 * ante, 30 * ante),
        st.integers(0, 20 * rules.ante_max),
    )
    return draw(st.lists(one, min_size=2, max_size=4))


@st.composite
def tables(draw: st.DrawFn) -> tuple[Ruleset, list[int]]:
    rules = draw(rulesets())
    return rules, draw(balances(rules))


# -- reading the events independently of the core -------------------------------------------


@dataclass
class BoxRecord:
    """One box of one round, as the game events tell it."""

    player: str
    ante: int
    bonus: int
    dark: bool
    bet: int
    insurance: int = 0
    cards: list[str] = field(default_factory=list)
    first_five: tuple[str, ...] = ()
    folded: bool = False
    asked_dealer: bool = False
    draws: int = 0

    @property
    def staked(self) -> int:
        return self.ante + self.bonus + self.bet

    @property
    def light_undecided(self) -> bool:
        return not self.dark and not self.folded and not self.bet


def expected_bonus(rules: Ruleset, first_five: tuple[str, ...], stake: int) -> tuple[int, int]:
    """``(won, capped)`` for a bonus stake on the first five cards, read off docs/rules.md §5.3."""
    hand = evaluate(first_five)
    label = hand.category.label
    floor = rules.bonus_threshold_category
    reaches = CATEGORY_LABELS.index(label) >= CATEGORY_LABELS.index(floor)
    if rules.bonus_min_hand == "three_aces" and label == "three_of_a_kind":
        reaches = sum(card[0] == "A" for card in first_five) == 3
    gross = stake * rules.bonus_paytable.get(label, 0) if reaches else 0
    return _cap(gross, rules)


@functools.lru_cache(maxsize=256)
def deck_of(seed: bytes) -> tuple[str, ...]:
    """The committed deck of a seed (cached: the HMAC stream is the slow part of a run)."""
    return shuffled(seed).cards


def _cap(won: int, rules: Ruleset) -> tuple[int, int]:
    if rules.max_payout is not None and won > rules.max_payout:
        return rules.max_payout, won - rules.max_payout
    return won, 0


def expected_main(
    rules: Ruleset, box: BoxRecord, dealer: tuple[str, ...]
) -> tuple[str, int, int, int]:
    """``(outcome, returned, won, capped)`` of a box's main wager (docs/rules.md §5.5-6, §7)."""
    if box.folded:
        return "folded", 0, 0, 0
    ante = 0 if box.asked_dealer else box.ante
    dealer_hand = evaluate(dealer)
    if not qualifies(dealer_hand):
        won, capped = _cap(ante + box.insurance, rules)
        return "dealer_no_game", ante + box.bet + box.insurance, won, capped
    keep = box.insurance if box.asked_dealer and rules.insurance_returned_after_dealer_draw else 0
    mine, theirs = evaluate(box.cards).strength, dealer_hand.strength
    if mine > theirs:
        multiple = sum(rules.bet_paytable[c.category.label] for c in paid_for(box.cards, rules))
        ante_win = ante if rules.ante_pays_on_win else 0
        won, capped = _cap(box.bet * multiple + ante_win, rules)
        return "won", ante + box.bet + keep, won, capped
    if mine == theirs:
        return "tied", ante + box.bet + keep, 0, 0
    return "lost", keep, 0, 0


@dataclass
class Ledger:
    """The house's result and the checks that need the whole history, from game events only."""

    rules: Ruleset
    house: Counter[tuple[int, int, str]] = field(default_factory=Counter)
    """(round, box, player) -> what the players staked minus what they got back."""
    rounds: dict[int, dict[int, BoxRecord]] = field(default_factory=dict)
    commitments: dict[int, str] = field(default_factory=dict)
    seeds: dict[int, bytes] = field(default_factory=dict)
    decks: dict[int, tuple[str, ...]] = field(default_factory=dict)
    """Each round's deck order as committed: the seed's shuffle, or test mode's stack."""
    dealt: dict[int, set[int]] = field(default_factory=dict)
    bonus_settled: Counter[tuple[int, int]] = field(default_factory=Counter)
    box_settled: Counter[tuple[int, int]] = field(default_factory=Counter)
    settled_rounds: set[int] = field(default_factory=set)
    dealer: tuple[str, ...] = ()
    replaced: list[DealerCardReplaced] = field(default_factory=list)
    """This round's dealer draw, paid card first."""
    seats: dict[str, int] = field(default_factory=dict)
    private_for: str | None = None

    def read(self, events: Iterable[Event]) -> None:
        for e in events:
            match e:
                case TableOpened():
                    self.private_for = e.private_for
                case PlayerSeated():
                    assert e.player not in self.seats and e.seat not in self.seats.values()
                    assert self.private_for in (None, e.player), "a private table"
                    self.seats[e.player] = e.seat
                case PlayerLeft():
                    assert self.seats.pop(e.player) == e.seat
                    latest = self.rounds[max(self.rounds)] if self.rounds else {}
                    live = [n for n, b in latest.items() if b.player == e.player]
                    assert all(self.box_settled[max(self.rounds), n] for n in live)
                case RoundOpened():
                    assert e.round == len(self.rounds) + 1, "rounds are numbered 1, 2, ..."
                    self.rounds[e.round] = {}
                    self.commitments[e.round] = e.commitment
                    self.seeds[e.round] = e.seed
                    self.decks[e.round] = (
                        stacked(e.seed, e.deck).cards if e.deck else deck_of(e.seed)
                    )
                    self.dealer, self.replaced = (), []
                case AntePlaced():
                    self._placed(e)
                case BetsCancelled():
                    box = self.rounds[e.round].pop(e.box)
                    assert box.player == e.player and e.round not in self.dealt
                    self.house[e.round, e.box, e.player] -= box.staked
                case CardsDealt():
                    self._dealt(e)
                case BonusSettled():
                    box = self.rounds[e.round][e.box]
                    assert e.stake == box.bonus > 0
                    assert (e.won, e.capped) == expected_bonus(self.rules, box.first_five, e.stake)
                    assert e.hand == evaluate(box.first_five).category.label
                    self.bonus_settled[e.round, e.box] += 1
                    if e.won:
                        self.house[e.round, e.box, e.player] -= e.stake + e.won
                case SixthCardBought():
                    box = self._drawing(e.round, e.box)
                    assert self.rules.buy_sixth_card
                    assert e.fee == self.rules.sixth_card_fee_antes * box.ante
                    box.cards.append(e.card)
                    self.house[e.round, e.box, box.player] += e.fee
                case CardsExchanged():
                    box = self._drawing(e.round, e.box)
                    count = len(e.discarded)
                    assert 1 <= count <= self.rules.max_exchange_cards
                    assert count == len(e.received) == len(set(e.discarded))
                    assert e.fee == self.rules.draw_fee_antes[count - 1] * box.ante
                    assert set(e.discarded) <= set(box.cards)
                    box.cards = [c for c in box.cards if c not in e.discarded] + list(e.received)
                    self.house[e.round, e.box, box.player] += e.fee
                case BoxPlayed():
                    box = self._on_turn(e.round, e.box)
                    assert e.bet == 2 * box.ante
                    if e.insurance:
                        assert e.insurance in insurable(self.rules, box), "insurance amount"
                    box.bet, box.insurance = e.bet, e.insurance
                    self.house[e.round, e.box, box.player] += e.bet + e.insurance
                case BoxFolded():
                    self._on_turn(e.round, e.box).folded = True
                case DealerRevealed():
                    boxes = self.rounds[e.round].values()
                    assert all(b.dark or b.folded or b.bet for b in boxes), "all boxes decided"
                    assert e.cards == self.dealer, "the dealer shows the dealt hand"
                    assert e.qualifies == qualifies(evaluate(e.cards))
                    assert e.hand == evaluate(e.cards).category.label
                case DealerExchangeRequested():
                    box = self.rounds[e.round][e.box]
                    assert self.rules.dealer_draw and not qualifies(evaluate(self.dealer))
                    assert not box.dark and not box.folded and box.bet > 0
                    box.asked_dealer = True
                case DealerCardReplaced():
                    self._dealer_card_replaced(e)
                case BoxSettled():
                    self._box_settled(e)
                case RoundSettled():
                    self._round_settled(e)

    def _placed(self, e: AntePlaced) -> None:
        assert e.player in self.seats, "only a seated player bets"
        assert e.bet == (2 * e.ante if e.dark else 0)
        assert e.box not in self.rounds[e.round], "a box is bet twice"
        assert e.round not in self.dealt, "a bet after the deal"
        self.rounds[e.round][e.box] = BoxRecord(
            player=e.player, ante=e.ante, bonus=e.bonus, dark=e.dark, bet=e.bet
        )
        self.house[e.round, e.box, e.player] += e.ante + e.bonus + e.bet

    def _dealt(self, e: CardsDealt) -> None:
        boxes = self.rounds[e.round]
        order = sorted(boxes, key=lambda n: (-boxes[n].ante, n))
        assert [h.box for h in e.hands] == order, "boxes are dealt in play order"
        seats = len(order) + 1
        deck = self.decks[e.round][: 5 * seats]
        for i, hand in enumerate(e.hands):
            assert hand.cards == deck[i::seats], "the deal is the committed deck, card by card"
            boxes[hand.box].cards = list(hand.cards)
            boxes[hand.box].first_five = hand.cards
        assert e.dealer_cards == deck[len(order) :: seats]
        self.dealer = e.dealer_cards
        self.dealt[e.round] = set(order)

    def _on_turn(self, round_: int, number: int) -> BoxRecord:
        """A light box deciding: undecided, and the player's earlier boxes have decided."""
        boxes = self.rounds[round_]
        box = boxes[number]
        assert box.light_undecided, "only an undecided light box decides"
        before = [
            b
            for n, b in boxes.items()
            if b.player == box.player and (-b.ante, n) < (-box.ante, number)
        ]
        assert not any(b.light_undecided for b in before), "a player's boxes act in order"
        return box

    def _drawing(self, round_: int, number: int) -> BoxRecord:
        box = self._on_turn(round_, number)
        assert box.draws == 0, "a box draws at most once"
        assert len(box.cards) == 5
        box.draws += 1
        return box

    def _dealer_card_replaced(self, e: DealerCardReplaced) -> None:
        assert any(b.asked_dealer for b in self.rounds[e.round].values())
        assert not qualifies(evaluate(self.dealer)), "the dealer draws only without a game"
        if not self.replaced:
            assert not e.free, "the first replacement is paid for"
            assert e.replaced == max(self.dealer, key=lambda c: RANKS.index(c[0])), (
                "the highest card goes"
            )
        else:
            last = self.replaced[-1]
            assert e.free and last.card[0] == last.replaced[0], "free only after the same rank"
            assert e.replaced == last.card
            limit = self.rules.dealer_redraw_limit
            assert limit is None or len(self.replaced) <= limit, "dealer_redraw_limit"
        self.replaced.append(e)
        self.dealer = tuple(e.card if c == e.replaced else c for c in self.dealer)

    def _box_settled(self, e: BoxSettled) -> None:
        box = self.rounds[e.round][e.box]
        assert e.player == box.player
        assert sorted(e.cards) == sorted(box.cards), "settled on the cards it holds"
        assert e.hand == evaluate(box.cards).category.label
        assert e.dealer_draw == box.asked_dealer
        if box.asked_dealer:
            assert self.replaced, "a box that asked for the dealer draw waits for it"
        expected = expected_main(self.rules, box, self.dealer)
        assert (e.outcome, e.returned, e.won, e.capped) == expected, (e, box, self.dealer)
        self.box_settled[e.round, e.box] += 1
        self.house[e.round, e.box, e.player] -= e.returned + e.won

    def _round_settled(self, e: RoundSettled) -> None:
        assert hashlib.sha256(e.seed).hexdigest() == e.commitment
        assert e.commitment == self.commitments[e.round]
        assert e.seed == self.seeds[e.round]
        self.settled_rounds.add(e.round)
        asked = any(b.asked_dealer for b in self.rounds[e.round].values())
        assert asked == bool(self.replaced)
        if self.replaced:  # the free redraws stopped for one of the three reasons
            last = self.replaced[-1]
            limit = self.rules.dealer_redraw_limit
            assert (
                last.card[0] != last.replaced[0]
                or qualifies(evaluate(self.dealer))
                or (limit is not None and len(self.replaced) == limit + 1)
            )


def insurable(rules: Ruleset, box: BoxRecord) -> range:
    """The insurance amounts allowed on the box's hand (docs/rules.md §5.4, capped by
    max_payout)."""
    if rules.insurance_min_hand is None:
        return range(0)
    label = evaluate(box.cards).category.label
    if CATEGORY_LABELS.index(label) < CATEGORY_LABELS.index(rules.insurance_min_hand):
        return range(0)
    multiple = sum(rules.bet_paytable[c.category.label] for c in paid_for(box.cards, rules))
    ceiling, _ = _cap(2 * box.ante * multiple, rules)
    if rules.insurance_max == "half_payout":
        ceiling //= 2
    return range(box.ante, ceiling + 1)


def wallet_moves(events: Iterable[Event]) -> Counter[tuple[int, int, str]]:
    """(round, box, wallet) -> debits minus credits, from the wallet events."""
    moves: Counter[tuple[int, int, str]] = Counter()
    for e in events:
        if isinstance(e, WalletDebited):
            assert e.table_id == "table-1" and e.amount > 0
            moves[e.round, e.box, e.wallet_id] += e.amount
        elif isinstance(e, WalletCredited):
            assert e.table_id == "table-1" and e.amount > 0
            moves[e.round, e.box, e.wallet_id] -= e.amount
    return moves


def nonzero(counter: Counter[Any]) -> dict[Any, int]:
    return {k: v for k, v in counter.items() if v}


def snapshot(value: Any) -> Any:
    return msgspec.to_builtins(value, order="deterministic")


# -- rigged decks: rare hands on purpose ------------------------------------------------------


def take(pool: list[str], cards: Iterable[str]) -> list[str]:
    taken = list(cards)
    for card in taken:
        pool.remove(card)
    return taken


def rigged_hand(data: st.DataObject, pool: list[str]) -> list[str]:
    """Five cards from ``pool``, drawn to make the combinations that payouts care about."""
    style = data.draw(st.sampled_from(["few_ranks", "few_ranks", "suited", "run", "random"]))
    candidates = pool
    if style == "few_ranks":  # pairs, two pair, trips, full houses, quads
        ranks = data.draw(st.lists(st.sampled_from(RANKS), min_size=2, max_size=3, unique=True))
        candidates = [c for c in pool if c[0] in ranks]
    elif style == "suited":
        suit = data.draw(st.sampled_from(SUITS))
        candidates = [c for c in pool if c[1] == suit]
    elif style == "run":  # a straight (A-5 included), or six cards for two straights
        start = data.draw(st.integers(0, 9))
        run = "A2345" if start == 0 else RANKS[start - 1 : start + 4]
        chosen = []
        for rank in run:
            options = [c for c in pool if c[0] == rank]
            if options:
                chosen.append(data.draw(st.sampled_from(options)))
        if len(chosen) == 5:
            return take(pool, chosen)
    if len(candidates) < 5:
        candidates = pool
    return take(
        pool, data.draw(st.lists(st.sampled_from(candidates), min_size=5, max_size=5, unique=True))
    )


def rigged_dealer(data: st.DataObject, pool: list[str]) -> tuple[list[str], list[str]]:
    """The dealer's five cards and the cards to put next: often a hand with no game followed
    by cards of its highest rank, so the dealer draw and its free redraws happen."""
    available = sorted({c[0] for c in pool}, key=RANKS.index)
    if len(available) < 5 or data.draw(st.booleans()):
        return rigged_hand(data, pool), []
    ranks = data.draw(st.lists(st.sampled_from(available), min_size=5, max_size=5, unique=True))
    hand = [data.draw(st.sampled_from([c for c in pool if c[0] == r])) for r in ranks]
    if qualifies(evaluate(hand)):
        return take(pool, hand), []
    take(pool, hand)
    top = max(ranks, key=RANKS.index)
    same = [c for c in pool if c[0] == top]
    then = data.draw(st.permutations(same))
    return hand, take(pool, then[: data.draw(st.integers(0, len(then)))])


# -- the machine ----------------------------------------------------------------------------

PLAYER = st.integers(0, 3)
BOX = st.integers(-1, 11)
AMOUNT_KIND = st.sampled_from(["min", "max", "in", "in", "in", "below", "above", "zero", "neg"])
PICK = st.integers(0, 2**16)
TARGET = st.tuples(st.sampled_from(["mine", "mine", "mine", "any", "random"]), PICK, BOX)


def amount(kind: str, low: int, high: int, pick: int) -> int:
    return {
        "min": low,
        "max": high,
        "in": low + pick % (high - low + 1),
        "below": low - 1 - pick % 3,
        "above": high + 1 + pick % 3,
        "zero": 0,
        "neg": -1 - pick % 100,
    }[kind]


class Machine(RuleBasedStateMachine):
    sc: Scenario
    names: list[str]

    # -- setup and the command runner -------------------------------------------------------

    @initialize(
        setup=tables(),
        observer=st.booleans(),
        greed=st.integers(0, 6),
        private=st.sampled_from([False, False, False, True]),
        odd=st.sampled_from(["", "", "", "foreign", "walletless"]),
    )
    def open_table(
        self,
        setup: tuple[Ruleset, list[int]],
        observer: bool,
        greed: int,
        private: bool,
        odd: str,
    ) -> None:
        """``greed`` weights the smart moves towards filling boxes before asking for the deal;
        a ``private`` table is opened for the first player only; an ``odd`` last player has
        a wallet in another currency, or none at all."""
        self.greed = greed
        rules, funds = setup
        self.names = [f"p{i + 1}" for i in range(len(funds))]
        players = dict(zip(self.names, funds, strict=True))
        if observer:
            players[OBSERVER.id] = 1_000 * rules.ante_max
        self.sc = Scenario(ruleset=rules, players={k: v for k, v in players.items() if v})
        for name, balance in players.items():
            if not balance:  # an opened wallet with nothing in it
                self.sc.events.extend(open_wallet(Wallet(), name, rules.currency))
                self.sc.wallets[name] = Wallet(wallet_id=name, currency=rules.currency, opened=True)
        if odd:
            name = self.names[-1]
            self.sc.events = [e for e in self.sc.events if getattr(e, "wallet_id", "") != name]
            del self.sc.wallets[name]
            if odd == "foreign":
                opened = open_wallet(Wallet(), name, "XTS")
                moves = [*opened, *deposit(fold_wallet(Wallet(), opened), "xts", 10**6)]
                self.sc.events.extend(moves)
                self.sc.wallets[name] = fold_wallet(Wallet(), moves)
        if private:  # open the table again, this time for p1 alone
            self.sc.table = Table()
            self.sc.events = [e for e in self.sc.events if isinstance(e, WalletEvent)]
            self.sc.run(OpenTable(ruleset=rules, private_for=self.names[0]), OPERATOR)
        self.observer_balance = self.sc.wallets[OBSERVER.id].balance if observer else None
        self.seeds_used = 0
        self.ledger = Ledger(rules)
        self.moves: Counter[tuple[int, int, str]] = Counter()
        self.totals: Counter[str] = Counter()
        self.replay = Table()
        self.read_upto = 0
        event(f"boxes={rules.boxes}")

    @property
    def table(self) -> Table:
        return self.sc.table

    @property
    def ruleset(self) -> Ruleset:
        return self.sc.rules

    def player(self, index: int) -> Actor:
        return Actor(role="player", id=self.names[index % len(self.names)])

    def attempt(self, command: Command, actor: Actor) -> str | None:
        """Run the command; a refusal must leave table, wallets and history untouched.

        Returns the refusal's code, or ``None`` if the command was accepted.
        """
        before = (snapshot(self.sc.table), snapshot(self.sc.wallets), len(self.sc.events))
        try:
            events = self.sc.run(command, actor)
        except RuleViolation as refusal:
            after = (snapshot(self.sc.table), snapshot(self.sc.wallets), len(self.sc.events))
            assert after == before, f"refused {command!r} changed something"
            event(f"refused {type(command).__name__}: {refusal.code}")
            return refusal.code
        event(f"accepted {type(command).__name__}")
        if any(isinstance(e, RoundSettled) for e in events):
            event("a round settled")
        return None

    def refused(self, command: Command, actor: Actor, *codes: str) -> None:
        """The command must be refused (with one of ``codes``, if given)."""
        before = snapshot(self.sc.table), snapshot(self.sc.wallets), len(self.sc.events)
        try:
            self.sc.run(command, actor)
        except RuleViolation as refusal:
            assert not codes or refusal.code in codes, refusal.code
        else:
            raise AssertionError(f"{actor.id} was allowed {command!r}")
        assert (snapshot(self.sc.table), snapshot(self.sc.wallets), len(self.sc.events)) == before

    def balance(self, name: str) -> int:
        """What the player can stake at this table: nothing without a wallet in its currency."""
        wallet = self.sc.wallets.get(name)
        return wallet.balance if wallet and wallet.currency == self.ruleset.currency else 0

    def aim(self, target: tuple[str, int, int]) -> tuple[Actor, int]:
        """Who sends a box command, and for which box: mostly a box in play, by its owner."""
        how, pick, number = target
        current = self.table.round
        boxes = current.boxes if current else ()
        if how == "random" or not boxes:
            return self.player(pick), number
        box = boxes[pick % len(boxes)]
        if how == "mine":
            return Actor(role="player", id=box.player), box.number
        return self.player(pick // 7), box.number

    def seed(self, salt: bytes) -> bytes:
        self.seeds_used += 1
        return hashlib.sha256(salt + self.seeds_used.to_bytes(4, "big")).digest()

    # -- random commands, legal or not ------------------------------------------------------

    @rule(who=PLAYER, kind=st.sampled_from(["sit", "sit", "leave"]), seat=st.none() | BOX)
    def seating(self, who: int, kind: str, seat: int | None) -> None:
        command = SitDown(seat=seat) if kind == "sit" else LeaveTable()
        self.attempt(command, self.player(who))

    @rule(
        who=PLAYER,
        box=st.tuples(st.booleans(), BOX),
        kinds=st.tuples(
            AMOUNT_KIND,
            st.sampled_from(["none", "none", "min", "max", "in", "below", "above", "neg"]),
        ),
        dark=st.booleans(),
        pick=PICK,
    )
    def place_ante(
        self, who: int, box: tuple[bool, int], kinds: tuple[str, str], dark: bool, pick: int
    ) -> None:
        ante_kind, bonus_kind = kinds
        rules = self.ruleset
        current = self.table.round
        free = [n for n in range(1, rules.boxes + 1) if current and current.box(n) is None]
        number = free[pick % len(free)] if box[0] and free else box[1]
        ante = amount(ante_kind, rules.ante_min, rules.ante_max, pick)
        bonus = (
            0
            if bonus_kind == "none"
            else amount(bonus_kind, rules.bonus_min, rules.bonus_limit, pick)
        )
        self.attempt(PlaceAnte(box=number, ante=ante, bonus=bonus, dark=dark), self.player(who))

    @rule(aimed=TARGET, kind=st.sampled_from(["cancel", "cancel", "cancel_all", "repeat", "deal"]))
    def betting(self, aimed: tuple[str, int, int], kind: str) -> None:
        actor, box = self.aim(aimed)
        command = {
            "cancel": CancelBets(box=box),
            "cancel_all": CancelBets(),
            "repeat": RepeatBets(),
            "deal": Deal(),
        }[kind]
        self.attempt(command, actor)

    @rule(
        aimed=TARGET,
        kind=st.sampled_from(["buy", "exchange", "play", "insure", "fold", "ask", "decline"]),
        discards=st.tuples(
            st.lists(st.integers(0, 5), max_size=6),
            st.lists(st.sampled_from(CARD_TEXTS), max_size=2),
        ),
        insurance=st.tuples(AMOUNT_KIND, PICK),
    )
    def decision(
        self,
        aimed: tuple[str, int, int],
        kind: str,
        discards: tuple[list[int], list[str]],
        insurance: tuple[str, int],
    ) -> None:
        actor, box = self.aim(aimed)
        own, other = discards
        current = self.table.round
        found = current.box(box) if current else None
        held = found.cards if found else ()
        if kind == "exchange":
            cards = [held[i] for i in own if i < len(held)] + other
            command: Command = Exchange(box=box, cards=cards)
        elif kind == "insure":
            limits = insurance_range(found, self.ruleset) if found and held else None
            low, high = limits or (self.ruleset.ante_min, 2 * self.ruleset.ante_max)
            command = Insure(box=box, amount=amount(*insurance[:1], low, high, insurance[1]))
        else:
            command = {
                "buy": BuyCard,
                "play": Play,
                "fold": Fold,
                "ask": RequestDealerExchange,
                "decline": DeclineDealerExchange,
            }[kind](box=box)
        self.attempt(command, actor)

    @rule(
        kind=st.sampled_from(
            ["open", "betting_time_up", "decision_time_up", "close", "reopen", "abandoned"]
        ),
        salt=st.binary(min_size=32, max_size=32),
        offset=st.sampled_from([0, 0, 0, -1, 1]),
        box=BOX,
        phase=st.sampled_from(["decision", "dealer_draw"]),
    )
    def system_or_operator(self, kind: str, salt: bytes, offset: int, box: int, phase: Any) -> None:
        number = self.table.rounds_opened + offset
        activity = self.table.round.activity if self.table.round else 0
        command, actor = {
            "open": (OpenRound(seed=self.seed(salt)), SYSTEM),
            "betting_time_up": (BettingTimeUp(round=number), SYSTEM),
            "decision_time_up": (DecisionTimeUp(round=number, box=box, phase=phase), SYSTEM),
            "close": (CloseTable(), OPERATOR),
            "reopen": (ReopenTable(), OPERATOR),
            # A stale interrupted-round timer (another round, or activity since) is refused.
            "abandoned": (
                CompleteAbandonedRound(round=number, activity=activity + (box % 3 - 1)),
                SYSTEM,
            ),
        }[kind]
        if self.attempt(command, actor) is None and isinstance(command, CompleteAbandonedRound):
            self.sync()
            assert command.activity == activity and number in self.ledger.settled_rounds

    @rule(who=PLAYER, amount=st.integers(1, 10**6))
    def deposit(self, who: int, amount: int) -> None:
        self.sc.fund(self.player(who).id, amount)

    @rule(
        command=st.sampled_from(
            [OpenRound(seed=bytes(32)), BettingTimeUp(round=1), CloseTable(), ReopenTable()]
        ),
        who=PLAYER,
        player_command=st.sampled_from(
            [SitDown(), PlaceAnte(box=1, ante=100), Deal(), Play(box=1), LeaveTable()]
        ),
        observed=st.sampled_from(
            [
                LeaveTable(),
                PlaceAnte(box=1, ante=100),
                CancelBets(),
                CancelBets(box=1),
                RepeatBets(),
                Deal(),
                *(kind(box=b) for kind in (BuyCard, Play, Fold) for b in (1, 2, 3, 4)),
                *(
                    kind(box=b)
                    for kind in (RequestDealerExchange, DeclineDealerExchange)
                    for b in (1, 2)
                ),
                Exchange(box=1, cards=["As"]),
                Insure(box=1, amount=100),
            ]
        ),
    )
    def wrong_sender(
        self, command: Command, who: int, player_command: Command, observed: Command
    ) -> None:
        """Commands for another role, and anything from the observer, are refused."""
        self.refused(OpenTable(ruleset=self.ruleset), OPERATOR, "table_already_opened")
        self.refused(OpenTable(ruleset=self.ruleset), self.player(who), "wrong_role")
        self.refused(command, self.player(who), "wrong_role")
        self.refused(player_command, OPERATOR, "wrong_role")
        self.refused(player_command, AUDITOR, "wrong_role")
        if self.observer_balance is not None:
            self.refused(observed, OBSERVER)

    @precondition(lambda self: self.table.needs_round)
    @rule(data=st.data(), salt=st.binary(min_size=32, max_size=32))
    def rigged_round(self, data: st.DataObject, salt: bytes) -> None:
        """A round on a stacked deck (test mode), with bets planned first so the deal order,
        and therefore who gets which rigged hand, is known."""
        table, rules = self.table, self.ruleset
        free = list(range(1, rules.boxes + 1))
        plans: list[tuple[Actor, PlaceAnte]] = []
        for name in self.names:
            if table.seat_of(name) is None:
                continue
            budget, light = self.balance(name), 0
            for _ in range(data.draw(st.integers(0, min(3, len(free))))):
                top = max(rules.ante_min, min(rules.ante_max, budget // 8))
                ante = data.draw(st.integers(rules.ante_min, top))
                dark = light >= rules.light_boxes_per_player or data.draw(st.integers(0, 4)) == 0
                bonus = rules.bonus_min if rules.bonus_enabled and data.draw(st.booleans()) else 0
                cost = ante + bonus + (2 * ante if dark else 0)
                if cost > budget or not free:
                    break
                number = data.draw(st.sampled_from(free))
                free.remove(number)
                budget, light = budget - cost, light + (not dark)
                bet = PlaceAnte(box=number, ante=ante, bonus=bonus, dark=dark)
                plans.append((Actor(role="player", id=name), bet))
        order = sorted(plans, key=lambda p: (-p[1].ante, p[1].box))
        pool = list(FULL_DECK)
        hands = [rigged_hand(data, pool) for _ in order]
        dealer, then = rigged_dealer(data, pool)
        deck = (*(hand[i] for i in range(5) for hand in (*hands, dealer)), *then)
        assert self.attempt(OpenRound(seed=self.seed(salt), deck=deck), SYSTEM) is None
        for actor, bet in plans:
            assert self.attempt(bet, actor) is None
        for actor in dict.fromkeys(actor for actor, _ in plans):
            assert self.attempt(Deal(), actor) is None
        event(f"rigged round with {len(plans)} boxes")

    # -- smart moves that keep rounds going -------------------------------------------------

    def legal_moves(self, salt: bytes, pick: int) -> list[list[tuple[Command, Actor]]]:
        """Moves the rules should accept (funds aside), grouped so each kind gets a fair pick."""
        table, rules = self.table, self.ruleset
        current = table.round
        groups: list[list[tuple[Command, Actor]]] = []
        if table.status == "closed":
            return [[(ReopenTable(), OPERATOR)]]
        if table.needs_round:
            return [[(OpenRound(seed=self.seed(salt)), SYSTEM)]]
        assert current is not None
        unseated = [
            n for n in self.names if table.seat_of(n) is None and table.private_for in (None, n)
        ]
        if unseated and None in table.seats:
            groups.append([(SitDown(), Actor(role="player", id=n)) for n in unseated])
        if current.boxes and current.phase != "settled" and pick % 17 == 0:
            # Everyone walks away: the interrupted-round timer completes the round.
            abandoned = CompleteAbandonedRound(round=current.number, activity=current.activity)
            groups.append([(abandoned, SYSTEM)])
        if current.phase == "betting":
            bets: list[tuple[Command, Actor]] = []
            deals: list[tuple[Command, Actor]] = []
            free = [n for n in range(1, rules.boxes + 1) if current.box(n) is None]
            for name in self.names:
                actor = Actor(role="player", id=name)
                if table.seat_of(name) is None or name in current.ready:
                    continue
                mine = current.boxes_of(name)
                light = sum(b.light for b in mine)
                balance = self.balance(name)
                for number in free:
                    dark = light >= rules.light_boxes_per_player or pick % 7 == 0
                    cost = 3 if dark else 1
                    top = min(rules.ante_max, max(rules.ante_min, balance // (cost * 4)))
                    ante = amount("in", rules.ante_min, top, pick + number)
                    bonus = rules.bonus_min if rules.bonus_enabled and pick % 3 == 0 else 0
                    bets.append((PlaceAnte(box=number, ante=ante, bonus=bonus, dark=dark), actor))
                if mine:
                    deals.append((Deal(), actor))
                elif table.last_bets.get(name):
                    bets.append((RepeatBets(), actor))
            if bets:
                groups += [bets] * (1 + self.greed)
            if deals:
                groups.append(deals)
            if current.boxes:
                groups.append([(BettingTimeUp(round=current.number), SYSTEM)])
        elif current.phase == "decisions":
            for box in current.awaiting_decision():
                actor = Actor(role="player", id=box.player)
                moves: list[tuple[Command, Actor]] = [
                    (Play(box=box.number), actor),
                    (Play(box=box.number), actor),
                    (Fold(box=box.number), actor),
                    (
                        DecisionTimeUp(round=current.number, box=box.number, phase="decision"),
                        SYSTEM,
                    ),
                ]
                if not box.drew:
                    if rules.buy_sixth_card:
                        moves.append((BuyCard(box=box.number), actor))
                    if rules.max_exchange_cards:
                        count = 1 + pick % rules.max_exchange_cards
                        start = pick % 5
                        cards = [box.cards[(start + i) % 5] for i in range(count)]
                        moves.append((Exchange(box=box.number, cards=cards), actor))
                limits = insurance_range(box, rules)
                if limits:
                    low, high = limits
                    insured = Insure(box=box.number, amount=amount("in", low, high, pick))
                    moves += [(insured, actor)] * 3
                groups.append(moves)
        elif current.phase == "dealer_draw":
            for box in current.awaiting_dealer_draw():
                actor = Actor(role="player", id=box.player)
                timeout = DecisionTimeUp(round=current.number, box=box.number, phase="dealer_draw")
                groups.append(
                    [
                        (RequestDealerExchange(box=box.number), actor),
                        (RequestDealerExchange(box=box.number), actor),
                        (DeclineDealerExchange(box=box.number), actor),
                        (timeout, SYSTEM),
                    ]
                )
        return groups

    @rule(salt=st.binary(min_size=32, max_size=32), picks=st.lists(PICK, min_size=1, max_size=30))
    def advance(self, salt: bytes, picks: list[int]) -> None:
        """A run of moves the rules should accept, so rounds reach the showdown."""
        self.play_legal_moves(salt, picks)

    @rule(salt=st.binary(min_size=32, max_size=32), picks=st.lists(PICK, min_size=1, max_size=10))
    def advance_a_little(self, salt: bytes, picks: list[int]) -> None:
        self.play_legal_moves(salt, picks)

    def play_legal_moves(self, salt: bytes, picks: list[int]) -> None:
        for pick in picks:
            groups = self.legal_moves(salt, pick)
            if not groups:
                return
            group = groups[pick % len(groups)]
            command, actor = group[(pick // len(groups)) % len(group)]
            refusal = self.attempt(command, actor)
            # Repeating last round's bets may find a box taken; otherwise only money refuses.
            allowed = {"insufficient_funds", "currency_mismatch", "no_wallet"} | (
                {"box_taken"} if isinstance(command, RepeatBets) else set()
            )
            assert refusal is None or refusal in allowed, f"{command!r} by {actor.id}: {refusal}"

    def teardown(self) -> None:
        if not hasattr(self, "sc"):
            return
        settled = sum(isinstance(e, RoundSettled) for e in self.sc.events)
        dealt = len(self.ledger.dealt)
        boxes = max((len(b) for b in self.ledger.dealt.values()), default=0)
        event(f"rounds dealt: {min(dealt, 5)}+, settled {min(settled, 5)}+, most boxes {boxes}")
        # The whole history, once more from scratch.
        assert snapshot(self.sc.replayed()) == snapshot(self.sc.table)

    # -- invariants -------------------------------------------------------------------------

    def sync(self) -> list[Event]:
        """Feed the events recorded since the last check to the incremental readers.

        The checks read the history incrementally (the whole of it every step would be
        quadratic); reading is a fold, so this reads exactly what a full pass would.
        """
        new = self.sc.events[self.read_upto :]
        self.read_upto = len(self.sc.events)
        self.ledger.read(new)
        self.moves.update(wallet_moves(new))
        for e in new:
            if isinstance(e, FundsDeposited | WalletCredited):
                self.totals[e.wallet_id] += e.amount
            elif isinstance(e, FundsWithdrawn | WalletDebited):
                self.totals[e.wallet_id] -= e.amount
            elif not isinstance(e, WalletEvent):
                # Replay what the store would give back: each event through the codec.
                self.replay = evolve(self.replay, decode_event(*encode_event(e)))
        return new

    @invariant()
    def cards_are_partitioned(self) -> None:
        current = self.table.round
        if current is None:
            return
        in_boxes = [c for b in current.boxes for c in b.cards]
        everywhere = [*current.deck.cards, *in_boxes, *current.dealer, *current.set_aside]
        assert len(everywhere) == 52, Counter(everywhere).most_common(3)
        assert set(everywhere) == set(FULL_DECK)
        if not current.dealer:  # not dealt (yet, or ever)
            assert sorted(current.deck.cards) == sorted(FULL_DECK)
            assert not in_boxes and not current.set_aside
        else:
            for box in current.boxes:
                assert len(box.cards) == 5 or (len(box.cards) == 6 and box.drew)
            assert len(current.dealer) == 5

    @invariant()
    def money_is_conserved(self) -> None:
        self.sync()
        house, wallets = nonzero(self.ledger.house), nonzero(self.moves)
        assert wallets == house, "per (round, box, player): wallet moves == house result"
        for round_ in self.ledger.settled_rounds:  # per round, the sums agree too
            mine = sum(v for (r, _, _), v in house.items() if r == round_)
            theirs = sum(v for (r, _, _), v in wallets.items() if r == round_)
            assert mine == theirs, round_
        assert sum(house.values()) == sum(wallets.values())

    @invariant()
    def balances_are_their_events(self) -> None:
        self.sync()
        for name, wallet in self.sc.wallets.items():
            assert wallet.balance >= 0, name
            assert wallet.balance == self.totals[name], name
        if self.observer_balance is not None:
            assert self.sc.wallets[OBSERVER.id].balance == self.observer_balance
            assert self.table.seat_of(OBSERVER.id) is None

    @invariant()
    def replay_and_snapshot_reproduce_the_state(self) -> None:
        new = self.sync()
        state = self.sc.table
        assert snapshot(self.replay) == snapshot(state)
        if any(isinstance(e, RoundSettled) for e in new):
            assert snapshot(self.sc.replayed()) == snapshot(state)
        decoded = msgspec.json.decode(msgspec.json.encode(state), type=Table)
        assert decoded == state
        assert snapshot(decoded) == snapshot(state)

    @invariant()
    def seeds_match_commitments(self) -> None:
        self.sync()
        for round_ in self.ledger.settled_rounds:
            seed = self.ledger.seeds[round_]
            assert hashlib.sha256(seed).hexdigest() == self.ledger.commitments[round_]

    @invariant()
    def settled_rounds_settle_every_box_once(self) -> None:
        self.sync()
        ledger = self.ledger
        assert all(n == 1 for n in ledger.box_settled.values())
        assert all(n == 1 for n in ledger.bonus_settled.values())
        for round_ in ledger.rounds:
            dealt = ledger.dealt.get(round_, set())
            settled = {box for (r, box) in ledger.box_settled if r == round_}
            bonus = {box for (r, box) in ledger.bonus_settled if r == round_}
            if round_ in ledger.dealt:
                assert bonus == {b for b in dealt if ledger.rounds[round_][b].bonus}
            if round_ in ledger.settled_rounds:
                assert settled == dealt, round_
            else:
                assert not settled, round_
        current = self.table.round
        if current is not None and current.phase == "settled":
            assert all(b.settled for b in current.boxes)
            assert current.number in ledger.settled_rounds

    @invariant()
    def box_limits_hold(self) -> None:
        table, rules = self.table, self.ruleset
        assert len(table.seats) == rules.boxes
        seated = [s for s in table.seats if s is not None]
        assert len(seated) == len(set(seated))
        current = table.round
        if current is None:
            return
        numbers = [b.number for b in current.boxes]
        assert len(numbers) == len(set(numbers)) <= rules.boxes
        assert all(1 <= n <= rules.boxes for n in numbers)
        light: defaultdict[str, int] = defaultdict(int)
        for box in current.boxes:
            light[box.player] += box.light
            if box.dark:
                assert box.bet == 2 * box.ante and box.decision == "play"
        assert all(n <= rules.light_boxes_per_player for n in light.values())


Machine.TestCase.settings = settings(
    max_examples=100,
    stateful_step_count=50,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
TestCase = Machine.TestCase
