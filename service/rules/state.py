"""The table aggregate's state: seats, the current round, its boxes and cards.

States are frozen values built only by ``evolve``; queries that the rules ask of a state
("whose turn is it on this player's boxes?") live here so ``decide`` reads like the rules.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from russian_poker.events.game import Outcome, PaidCombination
from russian_poker.events.paytables import CategoryLabel
from russian_poker.events.ruleset import Ruleset
from russian_poker.service.rules.cards import Card
from russian_poker.service.rules.deck import Deck

__all__ = ["BetSpec", "Box", "Phase", "Round", "Table", "TableStatus"]

Phase = Literal["betting", "decisions", "dealer_draw", "showdown", "settled"]
TableStatus = Literal["new", "open", "closed"]


class BetSpec(msgspec.Struct, frozen=True, kw_only=True):
    """One box's bets, remembered for "repeat the previous round"."""

    box: int
    ante: int
    bonus: int
    dark: bool


class Box(msgspec.Struct, frozen=True, kw_only=True):
    """A box in play this round: its owner, stakes, cards and decisions."""

    number: int
    player: str
    ante: int
    bonus: int = 0
    dark: bool = False
    client_seed: str | None = None
    """The player's client seed placed with this box's ante (docs/rules.md §8); public."""
    bet: int = 0
    insurance: int = 0
    cards: tuple[Card, ...] = ()
    drew: bool = False
    decision: Literal["play", "fold"] | None = None
    dealer_draw: Literal["requested", "declined"] | None = None
    settled: bool = False
    fees: int = 0
    """Draw fees paid (the sixth card or an exchange)."""
    bonus_won: int = 0
    bonus_hand: CategoryLabel | None = None
    """The first five cards' hand, once the bonus is settled right after the deal."""
    bonus_capped: int = 0
    outcome: Outcome | None = None
    returned: int = 0
    """Main-wager stakes given back at settlement."""
    won: int = 0
    """Main-wager winnings at settlement, after ``max_payout``."""
    capped: int = 0
    """Main-wager winnings withheld by ``max_payout``."""
    combinations: tuple[PaidCombination, ...] = ()
    """What the Bet was paid for (a won box)."""

    @property
    def staked(self) -> int:
        """Everything this box put on the table: stakes and fees."""
        return self.ante + self.bonus + self.bet + self.insurance + self.fees

    @property
    def paid_back(self) -> int:
        """Everything the box got back: main wager and bonus, stakes and winnings."""
        bonus_back = self.bonus + self.bonus_won if self.bonus_won else 0
        return self.returned + self.won + bonus_back

    @property
    def net(self) -> int:
        """What the box gained (negative: lost): paid back minus staked."""
        return self.paid_back - self.staked

    @property
    def light(self) -> bool:
        return not self.dark

    @property
    def in_play(self) -> bool:
        """Still contesting the dealer: played (or dark) and not folded."""
        return self.decision == "play"


class Round(msgspec.Struct, frozen=True, kw_only=True):
    """One round: from the seed commitment to the last box settled."""

    number: int
    commitment: str
    seed: bytes
    """The server seed committed to (``commitment`` = SHA-256 of it), revealed at settlement.
    Before the deal ``deck`` is its shuffle; at the deal the deck is keyed again from it and
    the client seeds (:func:`service.rules.entropy.dealing_deck`)."""
    deck: Deck
    scripted: bool = False
    """Test mode: ``deck`` is a stacked order, which the deal keeps as it is."""
    phase: Phase = "betting"
    boxes: tuple[Box, ...] = ()
    """Sorted by box number."""
    ready: frozenset[str] = frozenset()
    """Players who asked for the deal."""
    dealer: tuple[Card, ...] = ()
    set_aside: tuple[Card, ...] = ()
    """Cards out of play: the dealer's replaced cards, and discards that do not return."""
    dealer_qualified: bool | None = None
    activity: int = 0
    """How many of the round's events have been recorded: the abandoned-round timer is keyed
    by it, so any activity in the round restarts that timer (``service.rules.timers``)."""
    abandoned: str | None = None
    """Why the round is being completed by the rules' defaults (``RoundAbandoned``); None
    for a round played to its end."""

    def box(self, number: int) -> Box | None:
        return next((b for b in self.boxes if b.number == number), None)

    def play_order(self) -> list[Box]:
        """Larger ante first; equal antes in box-number order (docs/rules.md §4)."""
        return sorted(self.boxes, key=lambda b: (-b.ante, b.number))

    def boxes_of(self, player: str) -> list[Box]:
        """The player's boxes in play order."""
        return [b for b in self.play_order() if b.player == player]

    def players(self) -> list[str]:
        """Players with a bet this round, in order of their first box."""
        return list(dict.fromkeys(b.player for b in self.play_order()))

    def turn_of(self, player: str) -> Box | None:
        """The box this player must decide now: their first undecided light box."""
        if self.phase != "decisions":
            return None
        return next(
            (b for b in self.boxes_of(player) if b.light and b.decision is None),
            None,
        )

    def awaiting_decision(self) -> list[Box]:
        """Each player's box on turn, in play order."""
        turns = (self.turn_of(p) for p in self.players())
        return [b for b in turns if b is not None]

    def awaiting_dealer_draw(self) -> list[Box]:
        """Light boxes still in play that have not answered the dealer-draw offer."""
        if self.phase != "dealer_draw":
            return []
        return [b for b in self.play_order() if b.light and b.in_play and b.dealer_draw is None]

    def with_box(self, box: Box) -> Round:
        others = tuple(b for b in self.boxes if b.number != box.number)
        return msgspec.structs.replace(
            self, boxes=tuple(sorted((*others, box), key=lambda b: b.number))
        )

    def without_box(self, number: int) -> Round:
        return msgspec.structs.replace(
            self, boxes=tuple(b for b in self.boxes if b.number != number)
        )


class Table(msgspec.Struct, frozen=True, kw_only=True):
    """The aggregate: one table's seats and current round. ``Table()`` is "not opened yet"."""

    table_id: str = ""
    name: str = ""
    ruleset: Ruleset | None = None
    ruleset_version: int = 1
    """1 for the ruleset the table opened with, one more for each ``RulesetChanged``."""
    status: TableStatus = "new"
    private_for: str | None = None
    operator_id: str = "default"
    """The operator whose players sit here (docs/wallet-protocol.md §1)."""
    shared: bool = False
    """Players of every operator may sit; each one's money moves through their own."""
    seats: tuple[str | None, ...] = ()
    """Seat ``i + 1`` is held by ``seats[i]``."""
    round: Round | None = None
    rounds_opened: int = 0
    previous: Round | None = None
    """The last finished round, kept so players can see how it ended once the next opens."""
    last_bets: dict[str, tuple[BetSpec, ...]] = msgspec.field(default_factory=dict)

    def seat_of(self, player: str) -> int | None:
        for index, holder in enumerate(self.seats):
            if holder == player:
                return index + 1
        return None

    @property
    def rules(self) -> Ruleset:
        """The ruleset of an opened table."""
        assert self.ruleset is not None, "table not opened"
        return self.ruleset

    @property
    def round_in_play(self) -> bool:
        """Cards are out: the round can no longer be called off."""
        return self.round is not None and self.round.phase in (
            "decisions",
            "dealer_draw",
            "showdown",
        )

    @property
    def between_rounds(self) -> bool:
        """No round in play and no bet in the round taking bets: the shell opens the next
        round at once after settlement, so an empty round taking bets is "between rounds"."""
        current = self.round
        if current is None or current.phase == "settled":
            return True
        return current.phase == "betting" and not current.boxes

    @property
    def needs_round(self) -> bool:
        """An open table with no round taking bets or in play: the shell opens the next."""
        return self.status == "open" and (self.round is None or self.round.phase == "settled")
