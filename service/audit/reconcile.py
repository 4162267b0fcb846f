"""Reconciliation: wallet events vs round events vs balances, to the unit.

Four checks, each listing every mismatch with the wallet or round it concerns:

* **balances** — each internal wallet's stored balance, version and currency equal the sum
  of its ``wallet-`` stream's events (always over the whole history: a balance is a sum over
  all time);
* **ledger** — one ledger row per internal money event, with the same wallet, type, signed
  amount, reason, table, round, box, transfer and the running balance after it (never
  negative);
* **money** — per (table, round, box), the debits and credits recorded are exactly those the
  game events call for: ``AntePlaced`` ante, bonus and dark Bet; ``BoxPlayed`` Bet and
  insurance; ``SixthCardBought``/``CardsExchanged`` fee; ``BetsCancelled`` the box's stakes
  back; ``BonusSettled`` stake + win when it won; ``BoxSettled`` returned + won when more
  than zero — and none that they do not — each in its wallet's own kind of stream;
* **cards** — the round's events agree on the cards: a box settles with the cards it was
  dealt, bought and exchanged, exchanges only cards it holds and never buys one it holds;
  the dealer reveals the cards the dealer was dealt and replaces only cards it holds.

A seamless player's debits and credits (``seamless-<id>``) take part in the money and card
checks like an internal wallet's; they have no balance and no ledger row at the game (the
operator holds the balance), so the balances and ledger checks read ``wallet-`` streams only.
Which kind of stream a wallet id's events belong in: :mod:`service.audit.money_streams`.

``start``/``end`` restrict the ledger check to events recorded in ``[start, end)`` and the
money and card checks to rounds opened in it.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Annotated, Any, Final, Literal, Protocol

import msgspec

from russian_poker.events.codec import decode_event
from russian_poker.events.game import (
    AntePlaced,
    BetsCancelled,
    BonusSettled,
    BoxPlayed,
    BoxSettled,
    CardsDealt,
    CardsExchanged,
    DealerCardReplaced,
    DealerRevealed,
    SixthCardBought,
)
from russian_poker.events.postgres.reconcile import (
    Orphan,
    ReconcileReads,
    ReconcileStore,
    RoundEvent,
)
from russian_poker.events.streams import TABLE_PREFIX
from russian_poker.events.wallet import WalletCredited, WalletDebited
from russian_poker.service.audit.money_streams import internal_wallets, money_stream

__all__ = ["Mismatch", "ReconcileReport", "RoundMoneyReads", "reconcile", "reconcile_rounds"]

_GAME_TYPES: Final = [
    "AntePlaced",
    "BetsCancelled",
    "BoxPlayed",
    "SixthCardBought",
    "CardsExchanged",
    "BonusSettled",
    "BoxSettled",
    "CardsDealt",
    "DealerRevealed",
    "DealerCardReplaced",
]


Check = Literal["balances", "ledger", "money", "cards"]
"""Which check of :func:`reconcile` found a mismatch."""


class Mismatch(msgspec.Struct, frozen=True, kw_only=True):
    """One figure that does not add up."""

    check: Annotated[
        Check,
        msgspec.Meta(description="`balances`, `ledger`, `money` or `cards`."),
    ]
    subject: Annotated[
        str, msgspec.Meta(description="What does not add up: a wallet id, or a table and round.")
    ]
    detail: Annotated[str, msgspec.Meta(description="The figures that differ, in words.")]
    table_id: Annotated[
        str | None, msgspec.Meta(description="The table concerned, if any; else null.")
    ] = None
    round: Annotated[
        int | None, msgspec.Meta(description="The round concerned, if any; else null.")
    ] = None

    def __str__(self) -> str:
        return f"{self.check}: {self.subject}: {self.detail}"


class ReconcileReport(msgspec.Struct, kw_only=True):
    """What a reconciliation counted, so that its figures can be matched with replay's:
    ``rounds`` counts every round *opened* (in the window), settled or not, while replay
    counts only settled rounds: ``rounds == settled + in_play``."""

    wallets: Annotated[
        int,
        msgspec.Meta(
            description=(
                "Wallet streams (all time: balances are always checked over the whole history)."
            )
        ),
    ] = 0
    ledger_rows: Annotated[int, msgspec.Meta(description="Ledger rows recorded in the window.")] = 0
    round_ledger_rows: Annotated[
        int,
        msgspec.Meta(
            description=(
                "Of those, rows of a round (stakes, fees, refunds, payouts); the rest"
                " are transfers."
            )
        ),
    ] = 0
    rounds: Annotated[
        int, msgspec.Meta(description="Rounds opened in the window, settled or still in play.")
    ] = 0
    settled: Annotated[
        int,
        msgspec.Meta(
            description="Of those, rounds settled by now (at any time, even after the window)."
        ),
    ] = 0
    with_bets: Annotated[
        int,
        msgspec.Meta(description="Of those opened, rounds in which at least one ante was placed."),
    ] = 0
    boxes: Annotated[
        int,
        msgspec.Meta(
            description=(
                "Distinct (table, round, box) that took an ante (a box bet again "
                "after a cancel counts once)."
            )
        ),
    ] = 0
    mismatches: Annotated[
        list[Mismatch],
        msgspec.Meta(
            description="Every figure that does not add up; empty when everything reconciles."
        ),
    ] = msgspec.field(default_factory=list)
    seconds: Annotated[
        float, msgspec.Meta(description="How long the reconciliation took, in seconds.")
    ] = 0.0

    @property
    def in_play(self) -> int:
        """Rounds opened and not settled yet (their money is checked as far as it went)."""
        return self.rounds - self.settled

    @property
    def without_bets(self) -> int:
        """Rounds opened in which no ante was placed (yet, if still in play)."""
        return self.rounds - self.with_bets


class RoundMoneyReads(Protocol):
    """What the money check of rounds reads: the store's snapshot
    (``events.postgres.reconcile``) or an audit bundle (``service.audit.bundle.reads``)."""

    async def choose_rounds(self, start: datetime | None, end: datetime | None) -> int: ...

    async def settled(self) -> int: ...

    async def round_events(self, types: Sequence[str]) -> list[RoundEvent]: ...

    async def money_events(self) -> list[RoundEvent]: ...

    async def opened_wallets(self, wallet_ids: Iterable[str]) -> set[str]: ...

    async def orphans(self, start: datetime | None, end: datetime | None) -> list[Orphan]: ...


async def reconcile_rounds(reads: RoundMoneyReads) -> ReconcileReport:
    """The money and cards checks alone, over the rounds ``reads`` chooses."""
    report = ReconcileReport()
    await _rounds(reads, report, None, None)
    return report


async def reconcile(
    store: ReconcileStore, *, start: datetime | None = None, end: datetime | None = None
) -> ReconcileReport:
    """Run every check; the report lists each mismatch (none: the books balance)."""
    started = time.perf_counter()
    report = ReconcileReport()
    # One snapshot for all checks, so a command committing meanwhile cannot look like a
    # mismatch between two of them.
    async with store.snapshot() as books:
        await _balances(books, report)
        await _ledger(books, report, start, end)
        await _rounds(books, report, start, end)
    report.seconds = time.perf_counter() - started
    return report


async def _balances(books: ReconcileReads, report: ReconcileReport) -> None:
    # Internal wallets only: a seamless player's stream has no balance row by design (the
    # operator holds the balance), so it is no "events but no balance row" mismatch.
    report.wallets = await books.wallet_count()
    for row in await books.balances():
        wallet = row.wallet_id
        if not row.has_row:
            detail = f"has events (balance {row.events_balance}) but no balance row"
        elif not row.has_events:
            detail = f"balance row ({row.balance}) without any event"
        else:
            parts = [
                f"{name} {getattr(row, name)}, events say {getattr(row, 'events_' + name)}"
                for name in ("balance", "version", "currency")
                if getattr(row, name) != getattr(row, "events_" + name)
            ]
            detail = "; ".join(parts)
        report.mismatches.append(
            Mismatch(check="balances", subject=f"wallet {wallet}", detail=detail)
        )


async def _ledger(
    books: ReconcileReads, report: ReconcileReport, start: datetime | None, end: datetime | None
) -> None:
    report.ledger_rows, report.round_ledger_rows = await books.ledger_counts(start, end)
    # A wrong amount makes every later running balance of its wallet wrong too: after the
    # first difference in a wallet, rows that differ only in balance_after are just counted.
    explained: set[str] = set()
    cascaded: dict[str, int] = defaultdict(int)
    for row in await books.ledger(start, end):
        expected, actual = row.expected, row.actual
        source = expected or actual or {}
        table_id, number = source.get("table_id"), source.get("round")
        where = f"ledger row {row.position} of wallet {row.wallet}"
        if table_id is not None:
            where += f" (table {table_id} round {number} box {source.get('box')})"
        details: list[str] = []
        if expected is None:
            details.append("ledger row without a money event")
        elif actual is None:
            details.append(f"{expected['event_type']} of {expected['amount']} has no ledger row")
        else:
            fields = [k for k in expected if expected[k] != actual.get(k)]
            if fields == ["balance_after"] and row.wallet in explained:
                cascaded[row.wallet] += 1
                continue
            details += [f"{k}: ledger {actual.get(k)}, events say {expected[k]}" for k in fields]
        if row.wrong_stream:
            details.append(f"event in wallet {row.wallet}'s stream names another wallet")
        if row.overdrawn:
            details.append("the events take the balance below zero")
        explained.add(row.wallet)
        report.mismatches.append(
            Mismatch(
                check="ledger",
                subject=where,
                detail="; ".join(details),
                table_id=table_id,
                round=number,
            )
        )
    for wallet, count in sorted(cascaded.items()):
        report.mismatches.append(
            Mismatch(
                check="ledger",
                subject=f"wallet {wallet}",
                detail=f"{count} later ledger row(s) differ only in balance_after, "
                "following the difference above",
            )
        )


Key = tuple[str, int, int]
"""(table id, round, box)"""
MoneyKey = tuple[str, int, int, str, str, str]
"""(table id, round, box, wallet, debit or credit, reason)"""


class _RoundBooks:
    """What the game events of the selected rounds say should have moved, and what did."""

    def __init__(self, report: ReconcileReport) -> None:
        self.report = report
        self.expected: dict[MoneyKey, list[int]] = defaultdict(list)
        self.actual: dict[MoneyKey, list[int]] = defaultdict(list)
        self.owner: dict[Key, str] = {}
        self.stakes: dict[Key, int] = {}
        self.cards: dict[Key, list[str]] = {}
        self.dealer: dict[tuple[str, int], list[str]] = {}
        self.boxes: set[Key] = set()

    def mismatch(
        self, check: Check, table_id: str | None, number: int | None, box: int | None, detail: str
    ) -> None:
        subject = f"table {table_id} round {number}" + (f" box {box}" if box is not None else "")
        self.report.mismatches.append(
            Mismatch(check=check, subject=subject, detail=detail, table_id=table_id, round=number)
        )

    def expect(self, key: Key, player: str, kind: str, reason: str, amount: int) -> None:
        if amount > 0:
            self.expected[(*key, player, kind, reason)].append(amount)

    def game_event(self, table_id: str, event: Any) -> None:
        number: int = event.round
        match event:
            case AntePlaced():
                key = (table_id, number, event.box)
                self.boxes.add(key)
                self.owner[key] = event.player
                self.stakes[key] = event.ante + event.bonus + event.bet
                self.expect(key, event.player, "debit", "ante", event.ante)
                self.expect(key, event.player, "debit", "bonus", event.bonus)
                self.expect(key, event.player, "debit", "bet", event.bet)
            case BetsCancelled():
                key = (table_id, number, event.box)
                self.expect(key, event.player, "credit", "refund", self.stakes.pop(key, 0))
                self.owner.pop(key, None)
            case BoxPlayed():
                key = (table_id, number, event.box)
                player = self._owner(key)
                self.expect(key, player, "debit", "bet", event.bet)
                self.expect(key, player, "debit", "insurance", event.insurance)
            case SixthCardBought():
                key = (table_id, number, event.box)
                self.expect(key, self._owner(key), "debit", "draw_fee", event.fee)
                held = self.cards.setdefault(key, [])
                if event.card in held:
                    self.mismatch(
                        "cards",
                        table_id,
                        number,
                        event.box,
                        f"bought {event.card}, which it held already ({' '.join(held)})",
                    )
                held.append(event.card)
            case CardsExchanged():
                key = (table_id, number, event.box)
                self.expect(key, self._owner(key), "debit", "draw_fee", event.fee)
                held = self.cards.get(key, [])
                # A dealt card changed into the one the exchange later brings would still
                # settle as dealt and drawn: the discard of a card never held gives it away.
                if missing := [c for c in event.discarded if c not in held]:
                    self.mismatch(
                        "cards",
                        table_id,
                        number,
                        event.box,
                        f"exchanged {' '.join(missing)}, which it did not hold ({' '.join(held)})",
                    )
                received = iter(event.received)
                self.cards[key] = [
                    next(received, "?") if c in event.discarded else c
                    for c in self.cards.get(key, [])
                ]
            case BonusSettled():
                key = (table_id, number, event.box)
                if event.won > 0:
                    self.expect(key, event.player, "credit", "bonus", event.stake + event.won)
            case BoxSettled():
                key = (table_id, number, event.box)
                self.expect(key, event.player, "credit", "settlement", event.returned + event.won)
                dealt = self.cards.get(key)
                if dealt is not None and dealt != list(event.cards):
                    self.mismatch(
                        "cards",
                        table_id,
                        number,
                        event.box,
                        f"settled with {' '.join(event.cards)}, but was dealt and drew "
                        f"{' '.join(dealt)}",
                    )
            case CardsDealt():
                for hand in event.hands:
                    self.cards[(table_id, number, hand.box)] = list(hand.cards)
                self.dealer[(table_id, number)] = list(event.dealer_cards)
            case DealerRevealed():
                dealt = self.dealer.get((table_id, number))
                if dealt is not None and dealt != list(event.cards):
                    self.mismatch(
                        "cards",
                        table_id,
                        number,
                        None,
                        f"dealer revealed {' '.join(event.cards)}, but was dealt {' '.join(dealt)}",
                    )
            case DealerCardReplaced():
                dealer = self.dealer.get((table_id, number), [])
                if event.replaced not in dealer:
                    self.mismatch(
                        "cards",
                        table_id,
                        number,
                        None,
                        f"dealer replaced {event.replaced}, which the dealer did not hold"
                        f" ({' '.join(dealer)})",
                    )
                self.dealer[(table_id, number)] = [
                    event.card if c == event.replaced else c for c in dealer
                ]

    def _owner(self, key: Key) -> str:
        return self.owner.get(key, "?")

    def money_event(
        self, stream_id: str, event: WalletDebited | WalletCredited, *, internal: bool
    ) -> None:
        """One recorded debit or credit; ``internal``: its wallet id is an internal wallet
        (its events belong in ``wallet-<id>``), else a seamless player (``seamless-<id>``)."""
        kind = "debit" if isinstance(event, WalletDebited) else "credit"
        key = (event.table_id, event.round, event.box, event.wallet_id, kind, event.reason)
        self.actual[key].append(event.amount)
        expected = money_stream(event.wallet_id, internal=internal)
        if stream_id != expected:
            owner = "an internal wallet" if internal else "a seamless player"
            self.mismatch(
                "money",
                event.table_id,
                event.round,
                event.box,
                f"a {kind} of {event.amount} for wallet {event.wallet_id} stored in {stream_id}"
                f" ({event.wallet_id} is {owner}: its money belongs in {expected})",
            )

    def compare(self) -> None:
        for key in sorted(set(self.expected) | set(self.actual)):
            want = sorted(self.expected.get(key, []))
            have = sorted(self.actual.get(key, []))
            if want != have:
                table_id, number, box, wallet, kind, reason = key
                self.mismatch(
                    "money",
                    table_id,
                    number,
                    box,
                    f"{wallet}: {kind} {reason}: game events say {want or 'none'}, "
                    f"wallet events {have or 'none'}",
                )


async def _rounds(
    reads: RoundMoneyReads, report: ReconcileReport, start: datetime | None, end: datetime | None
) -> None:
    report.rounds = await reads.choose_rounds(start, end)
    report.settled = await reads.settled()
    books = _RoundBooks(report)
    for row in await reads.round_events(_GAME_TYPES):
        table_id = row.stream_id.removeprefix(TABLE_PREFIX)
        event = _decoded(books, row, table_id)
        if event is not None:
            books.game_event(table_id, event)
    money: list[tuple[str, WalletDebited | WalletCredited]] = []
    for row in await reads.money_events():
        event = _decoded(books, row, None)
        if isinstance(event, WalletDebited | WalletCredited):
            money.append((row.stream_id, event))
    internal = await internal_wallets(reads, {event.wallet_id for _, event in money})
    for stream_id, event in money:
        books.money_event(stream_id, event, internal=event.wallet_id in internal)
    books.compare()
    report.boxes = len(books.boxes)
    report.with_bets = len({(table_id, number) for table_id, number, _ in books.boxes})
    for orphan in await reads.orphans(start, end):
        books.mismatch(
            "money",
            orphan.table_id,
            orphan.round,
            None,
            f"wallet event at position {orphan.global_position} ({orphan.stream_id}) "
            "names a round that was never opened",
        )


def _decoded(books: _RoundBooks, row: RoundEvent, table_id: str | None) -> Any:
    try:
        return decode_event(row.event_type, row.schema_version, row.data)
    except (msgspec.ValidationError, msgspec.DecodeError, ValueError) as error:
        data = msgspec.json.decode(row.data)
        books.mismatch(
            "money",
            table_id or str(data.get("table_id")),
            int(data.get("round", 0)),
            data.get("box"),
            f"{row.event_type} cannot be read: {error}",
        )
        return None
