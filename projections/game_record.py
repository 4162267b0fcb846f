"""The one fold of a round's events: the regulator's record of a game (round).

A round's table events, in stream order, with the command that recorded each (its
metadata) and the money its wallets moved, fold into one :class:`GameRecord`: every command,
each box's wagers, cards, choices and results, the dealer's cards, each wallet's movements
and the totals. The audit trail stores it per round (``projections.audit``), the fairness
proof is read off it (``service.fairness.proof``), and the regulator's export writes it.

The record is built in place while a batch of events is folded (its Structs are mutable
for that), and encodes to the JSON the audit trail has always stored: optional parts
(``abandoned``, ``anomalies``, a wallet's ``seamless`` flag) are left out when empty.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

from russian_poker.events.codec import EventType
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
    DealerExchangeDeclined,
    DealerExchangeRequested,
    DealerRevealed,
    DeckStacked,
    Outcome,
    PaidCombination,
    RoundAbandoned,
    RoundOpened,
    SixthCardBought,
)

__all__ = [
    "Abandonment",
    "Anomaly",
    "BonusOutcome",
    "CommandEntry",
    "DealerSwap",
    "GameBox",
    "GameDealer",
    "GameDraw",
    "GameRecord",
    "GameTotals",
    "Settlement",
    "WalletMoves",
    "fold_money",
    "fold_table_event",
]

_Cards = Annotated[list[str], msgspec.Meta(description="Cards in text notation (`As`, `Td`).")]


class CommandEntry(msgspec.Struct, kw_only=True):
    """A command that recorded events of the round, in the order they were recorded."""

    command_id: Annotated[str, msgspec.Meta(description="The command's id (idempotent).")]
    command: Annotated[
        dict[str, Any] | None,
        msgspec.Meta(description="The command as sent (tagged on `type`); null if not kept."),
    ]
    actor: Annotated[
        dict[str, Any] | None,
        msgspec.Meta(description="Who sent it: `role`, `id`, and `admin` when an admin did."),
    ]
    request_id: Annotated[
        str | None, msgspec.Meta(description="The HTTP request's id (`X-Request-ID`).")
    ]
    at: Annotated[str, msgspec.Meta(description="When its events were recorded (ISO 8601).")]
    position: Annotated[int, msgspec.Meta(description="Global position of its first event.")]


class BonusOutcome(msgspec.Struct, kw_only=True):
    """The bonus bet's settlement on the first five cards."""

    hand: Annotated[str | None, msgspec.Meta(description="The five cards' hand category.")]
    stake: Annotated[int, msgspec.Meta(description="The bonus stake (minor units).")]
    won: Annotated[int, msgspec.Meta(description="Winnings, after `max_payout`.")]
    capped: Annotated[int, msgspec.Meta(description="What `max_payout` cut off.")]


class Settlement(msgspec.Struct, kw_only=True):
    """The box's main wager settled (the ``BoxSettled`` event's fields)."""

    round: Annotated[int, msgspec.Meta(description="The round's number.")]
    box: Annotated[int, msgspec.Meta(description="Box number, from 1.")]
    player: Annotated[str, msgspec.Meta(description="The box's owner.")]
    outcome: Annotated[
        Outcome, msgspec.Meta(description="`won`, `lost`, `tied`, `dealer_no_game` or `folded`.")
    ]
    dealer_draw: Annotated[bool, msgspec.Meta(description="The box asked for the dealer draw.")]
    hand: Annotated[str, msgspec.Meta(description="The final hand's category.")]
    cards: _Cards
    combinations: Annotated[
        list[PaidCombination], msgspec.Meta(description="The combinations the Bet was paid for.")
    ]
    returned: Annotated[int, msgspec.Meta(description="Stakes given back (minor units).")]
    won: Annotated[int, msgspec.Meta(description="Winnings, after `max_payout`.")]
    capped: Annotated[int, msgspec.Meta(description="What `max_payout` cut off.")] = 0


Decision = Literal["play", "fold", "timed_out"]
DealerDrawChoice = Literal["requested", "declined", "timed_out"]


class GameBox(msgspec.Struct, kw_only=True):
    """One bet on a box: placed, maybe cancelled (the box may then be bet again)."""

    box: Annotated[int, msgspec.Meta(description="Box number, from 1.")]
    player: Annotated[str, msgspec.Meta(description="The box's owner (`operator:player`).")]
    ante: Annotated[int, msgspec.Meta(description="The ante (minor units).")]
    bonus: Annotated[int, msgspec.Meta(description="The bonus stake; 0 if none.")]
    dark: Annotated[bool, msgspec.Meta(description="Played dark: the Bet placed with the ante.")]
    bet: Annotated[int, msgspec.Meta(description="The Bet (2 x ante); 0 before the box plays.")]
    client_seed: Annotated[
        str | None, msgspec.Meta(description="The client seed placed with the ante; null if none.")
    ]
    insurance: Annotated[int, msgspec.Meta(description="Insurance bought; 0 if none.")]
    fees: Annotated[int, msgspec.Meta(description="Draw fees (sixth card, exchange).")]
    cancelled: Annotated[
        bool,
        msgspec.Meta(description="The bet was cancelled before the deal (its stakes refunded)."),
    ]
    decision: Annotated[
        Decision | None,
        msgspec.Meta(
            description="`play`, `fold` or `timed_out` (folded by the clock); null before."
        ),
    ]
    dealer_draw: Annotated[
        DealerDrawChoice | None,
        msgspec.Meta(
            description=(
                "When the dealer had no game: `requested`, `declined` or `timed_out`; else null."
            )
        ),
    ]
    dealt: Annotated[_Cards, msgspec.Meta(description="The five cards dealt.")]
    drawn: Annotated[_Cards, msgspec.Meta(description="Cards bought or received in an exchange.")]
    discarded: Annotated[_Cards, msgspec.Meta(description="Cards given back in an exchange.")]
    cards: Annotated[list[str], msgspec.Meta(description="The cards the box holds now.")]
    bonus_result: Annotated[
        BonusOutcome | None,
        msgspec.Meta(
            description="The bonus's settlement; null without a bonus or before the deal."
        ),
    ]
    settlement: Annotated[
        Settlement | None, msgspec.Meta(description="The main wager's settlement; null before.")
    ]


class DealerSwap(msgspec.Struct, kw_only=True):
    """A dealer draw: the dealer's card set aside and the card that replaced it."""

    replaced: Annotated[str, msgspec.Meta(description="The dealer's card set aside.")]
    card: Annotated[str, msgspec.Meta(description="The card drawn for it.")]
    free: Annotated[bool, msgspec.Meta(description="A free same-rank redraw.")]


class GameDealer(msgspec.Struct, kw_only=True):
    dealt: Annotated[
        _Cards, msgspec.Meta(description="The dealer's five cards as dealt (the fifth face up).")
    ]
    cards: Annotated[list[str], msgspec.Meta(description="The dealer's cards now.")]
    replaced: Annotated[
        list[DealerSwap], msgspec.Meta(description="The dealer draw's replacements, in order.")
    ]
    hand: Annotated[
        str | None, msgspec.Meta(description="The dealer's hand when revealed; null before.")
    ]
    qualifies: Annotated[
        bool | None,
        msgspec.Meta(description="Whether the dealer has a game; null before the reveal."),
    ]


class GameDraw(msgspec.Struct, kw_only=True):
    """A box's draw, in the order the round's draws were made."""

    box: Annotated[int, msgspec.Meta(description="Box number, from 1.")]
    kind: Annotated[
        Literal["sixth_card", "exchange"],
        msgspec.Meta(description="`sixth_card` (one card bought) or `exchange`."),
    ]
    discarded: Annotated[
        _Cards, msgspec.Meta(description="The cards given back (empty for a sixth card).")
    ]
    received: Annotated[_Cards, msgspec.Meta(description="The cards drawn, top of the deck first.")]


class WalletMoves(msgspec.Struct, kw_only=True, omit_defaults=True):
    """What one wallet moved in the round. A seamless player's balance is the operator's:
    ``before`` and ``after`` stay null, and ``seamless`` says why."""

    before: Annotated[
        int | None,
        msgspec.Meta(
            description="The balance before the round's first movement; null for a seamless player."
        ),
    ]
    after: Annotated[
        int | None,
        msgspec.Meta(
            description="The balance after its last movement; null for a seamless player."
        ),
    ]
    debited: Annotated[
        int, msgspec.Meta(description="Everything debited in the round (minor units).")
    ]
    credited: Annotated[int, msgspec.Meta(description="Everything credited in the round.")]
    first_version: Annotated[
        int | None,
        msgspec.Meta(description="The wallet stream's version of its first movement in the round."),
    ]
    last_version: Annotated[
        int | None,
        msgspec.Meta(description="The wallet stream's version of its last movement in the round."),
    ]
    seamless: Annotated[
        bool,
        msgspec.Meta(
            description="A seamless player's: the operator holds the balance (left out otherwise)."
        ),
    ] = False


class GameTotals(msgspec.Struct, kw_only=True):
    staked: Annotated[
        int, msgspec.Meta(description="Everything the round's wallets were debited.")
    ] = 0
    paid: Annotated[int, msgspec.Meta(description="Everything credited to them.")] = 0
    house: Annotated[int, msgspec.Meta(description="`staked - paid`.")] = 0


class Abandonment(msgspec.Struct, kw_only=True):
    """Why the events after ``position`` are the rules' defaults, not anyone's choices."""

    reason: Annotated[str, msgspec.Meta(description="Why: no activity for `after_s` seconds.")]
    after_s: Annotated[int, msgspec.Meta(description="The table's `abandoned_round_after_s`.")]
    phase: Annotated[
        Literal["betting", "decisions", "dealer_draw"],
        msgspec.Meta(description="The phase the round was in."),
    ]
    at: Annotated[str, msgspec.Meta(description="When (ISO 8601).")]
    position: Annotated[
        int, msgspec.Meta(description="Global position of the RoundAbandoned event.")
    ]


class Anomaly(msgspec.Struct, kw_only=True):
    """An event the rules never write (about a box with no bet), kept for the regulator
    rather than stalling the trail on it."""

    position: Annotated[int, msgspec.Meta(description="The event's global position.")]
    event_type: Annotated[EventType, msgspec.Meta(description="The event's type.")]
    problem: Annotated[str, msgspec.Meta(description="What is wrong with it.")]


class GameRecord(msgspec.Struct, kw_only=True, omit_defaults=True):
    """One round, as the regulator reads it."""

    commands: Annotated[
        list[CommandEntry],
        msgspec.Meta(description="Every command that recorded the round's events, in order."),
    ]
    boxes: Annotated[
        list[GameBox],
        msgspec.Meta(description="Every bet placed, cancelled ones included, in the order placed."),
    ]
    dealer: Annotated[GameDealer, msgspec.Meta(description="The dealer's cards.")]
    wallets: Annotated[
        dict[str, WalletMoves], msgspec.Meta(description="By wallet id (`operator:player`).")
    ]
    totals: Annotated[GameTotals, msgspec.Meta(description="The round's money.")]
    deal: Annotated[
        list[int], msgspec.Meta(description="The boxes in the order they were dealt.")
    ] = msgspec.field(default_factory=list)
    draws: Annotated[
        list[GameDraw], msgspec.Meta(description="Every draw, in the order it was made.")
    ] = msgspec.field(default_factory=list)
    deck: Annotated[
        list[str] | None,
        msgspec.Meta(description="Test mode only: the scripted deck order, top first."),
    ] = None
    abandoned: Annotated[
        Abandonment | None,
        msgspec.Meta(description="Set when the round was completed by the rules' defaults."),
    ] = None
    anomalies: Annotated[
        list[Anomaly], msgspec.Meta(description="Events the rules never write; left out when none.")
    ] = msgspec.field(default_factory=list)

    @classmethod
    def opened(cls, event: RoundOpened) -> GameRecord:
        """The record of a round just opened (test mode: with its scripted deck)."""
        return cls(
            commands=[],
            boxes=[],
            dealer=GameDealer(dealt=[], cards=[], replaced=[], hand=None, qualifies=None),
            wallets={},
            totals=GameTotals(),
            deck=list(event.deck) or None,
        )

    def placement(self, box: int) -> GameBox:
        """The box's current bet this round (a cancelled box may be bet again)."""
        for placed in reversed(self.boxes):
            if placed.box == box and not placed.cancelled:
                return placed
        raise LookupError(f"box {box} has no bet")

    def players(self) -> list[str]:
        return list(dict.fromkeys(placed.player for placed in self.boxes))


def _placement(event: AntePlaced) -> GameBox:
    return GameBox(
        box=event.box,
        player=event.player,
        ante=event.ante,
        bonus=event.bonus,
        dark=event.dark,
        bet=event.bet,
        client_seed=event.client_seed,
        insurance=0,
        fees=0,
        cancelled=False,
        decision="play" if event.dark else None,
        dealer_draw=None,
        dealt=[],
        drawn=[],
        discarded=[],
        cards=[],
        bonus_result=None,
        settlement=None,
    )


def fold_table_event(record: GameRecord, event: Any, at: str, position: int) -> None:
    """Fold one of the round's table events into ``record``. Raises ``LookupError`` for an
    event about a box with no bet."""
    dealer = record.dealer
    match event:
        case DeckStacked():
            record.deck = list(event.deck)
        case AntePlaced():
            record.boxes.append(_placement(event))
        case BetsCancelled():
            record.placement(event.box).cancelled = True
        case CardsDealt():
            for hand in event.hands:
                placed = record.placement(hand.box)
                placed.dealt = list(hand.cards)
                placed.cards = list(hand.cards)
            record.deal = [hand.box for hand in event.hands]
            dealer.dealt = list(event.dealer_cards)
            dealer.cards = list(event.dealer_cards)
        case BonusSettled():
            record.placement(event.box).bonus_result = BonusOutcome(
                hand=event.hand, stake=event.stake, won=event.won, capped=event.capped
            )
        case SixthCardBought():
            placed = record.placement(event.box)
            placed.drawn.append(event.card)
            placed.cards.append(event.card)
            placed.fees += event.fee
            record.draws.append(
                GameDraw(box=event.box, kind="sixth_card", discarded=[], received=[event.card])
            )
        case CardsExchanged():
            placed = record.placement(event.box)
            placed.discarded.extend(event.discarded)
            placed.drawn.extend(event.received)
            received = iter(event.received)
            placed.cards = [next(received) if c in event.discarded else c for c in placed.cards]
            placed.fees += event.fee
            record.draws.append(
                GameDraw(
                    box=event.box,
                    kind="exchange",
                    discarded=list(event.discarded),
                    received=list(event.received),
                )
            )
        case BoxPlayed():
            placed = record.placement(event.box)
            placed.decision, placed.bet, placed.insurance = "play", event.bet, event.insurance
        case BoxFolded():
            record.placement(event.box).decision = "timed_out" if event.timed_out else "fold"
        case DealerRevealed():
            dealer.cards, dealer.hand, dealer.qualifies = (
                list(event.cards),
                event.hand,
                event.qualifies,
            )
        case DealerExchangeRequested():
            record.placement(event.box).dealer_draw = "requested"
        case DealerExchangeDeclined():
            placed = record.placement(event.box)
            placed.dealer_draw = "timed_out" if event.timed_out else "declined"
        case DealerCardReplaced():
            dealer.replaced.append(
                DealerSwap(replaced=event.replaced, card=event.card, free=event.free)
            )
            dealer.cards = [event.card if c == event.replaced else c for c in dealer.cards]
        case BoxSettled():
            placed = record.placement(event.box)
            placed.cards = list(event.cards)
            placed.settlement = msgspec.convert(msgspec.to_builtins(event), Settlement)
        case RoundAbandoned():
            record.abandoned = Abandonment(
                reason=event.reason,
                after_s=event.after_s,
                phase=event.phase,
                at=at,
                position=position,
            )


def fold_money(
    record: GameRecord,
    wallet_id: str,
    signed: int,
    *,
    version: int,
    after: int | None,
    seamless: bool,
) -> None:
    """Fold one of the round's money events: ``signed`` is the amount credited (negative:
    debited), ``after`` the wallet's balance after it (``None`` for a seamless player's).
    A wallet's events may be read out of stream order (transactions of two tables), so the
    first and last movement are chosen by stream version, not by arrival."""
    moves = record.wallets.get(wallet_id)
    if moves is None:
        moves = record.wallets[wallet_id] = WalletMoves(
            before=None,
            after=None,
            debited=0,
            credited=0,
            first_version=None,
            last_version=None,
            seamless=seamless,
        )
    if moves.first_version is None or version < moves.first_version:
        moves.first_version = version
        moves.before = None if after is None else after - signed
    if moves.last_version is None or version > moves.last_version:
        moves.last_version, moves.after = version, after
    totals = record.totals
    if signed > 0:
        moves.credited += signed
        totals.paid += signed
    else:
        moves.debited -= signed
        totals.staked -= signed
    totals.house = totals.staked - totals.paid
