"""Players' money at their operator: every debit a ``bet`` call, every credit a ``win`` call
(docs/wallet-protocol.md, "Seamless wallet").

A command whose events debit a seamless player is accepted only when the operator accepted
every debit. The attempt takes its players' locks (their calls go one at a time), records
its bets ``pending`` — durably, before the first call — then sends them one by one, in event
order; the command's own statement marks them ``committed``. Anything else — a refusal, an
unknown outcome, a lost race, a crash — ends with the bets undone: every bet of the attempt
not committed is marked ``rolled_back`` and its rollback queued in the outbox, in one
statement. The attempt's lock makes recovery safe across instances: an instance that finds
``pending`` bets takes it only once the attempt's owner finished or died.

Every credit is a game event first; its ``win`` call is a row of the outbox written by the
same statement, so neither exists without the other, and the transaction id comes from the
event's id, so it can never be queued twice. A player's round closes at settlement: their
last credit of the round carries ``round_closed``, and a player who bet but is paid nothing
gets a ``win`` of 0.
"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable, Sequence
from typing import Final

import structlog

from russian_poker.events.records import DuplicateCommand, SessionEnded
from russian_poker.events.streams import seamless_stream
from russian_poker.events.wallet import WalletCredited, WalletDebited
from russian_poker.events.writes import CommittedBets, QueuedWin, WinsQueued
from russian_poker.projections.wallets import HeldWallet
from russian_poker.service.application.money.port import (
    Draft,
    MoneyPlan,
    Placed,
    Planned,
    Route,
)
from russian_poker.service.application.ports import BetIntent, CallsConnection, CommandUnit
from russian_poker.service.application.sessions import SessionRef
from russian_poker.service.rules.errors import RuleViolation
from russian_poker.service.rules.tenancy import PlayerRef, operator_of
from russian_poker.service.wallet.port import UnknownOutcome, WalletPort
from russian_poker.service.wallet.protocol import Answer, BetCall, round_id

__all__ = [
    "CREDIT_REASON",
    "REFUSED_STATUSES",
    "DeliverOwed",
    "SeamlessMoney",
    "WalletRefused",
    "WalletUnavailable",
    "player_key",
]

_log = structlog.get_logger("commands")

REFUSED_STATUSES: Final = {
    "insufficient_funds": "insufficient_funds",
    "invalid_session": "session_ended",
    "session_expired": "session_ended",
    "player_blocked": "player_blocked",
    "limit_reached": "limit_reached",
    "wrong_currency": "currency_mismatch",
}
"""The operator's refusals of a bet, and the game's refusal code for each. Any other status
(``duplicate_transaction``, ``transaction_rolled_back``, …) cannot be an answer to a bet
the service sends once, so it is taken as an unknown outcome."""

CREDIT_REASON: Final = {"refund": "stake_returned", "bonus": "bonus_win", "settlement": "win"}
"""The game's credit reasons as the protocol names them."""


class WalletRefused(RuleViolation):
    """The operator refused a debit; nothing of the command is recorded."""

    def __init__(self, code: str, message: str, *, balance: int | None) -> None:
        super().__init__(code, message)
        self.balance = balance


class WalletUnavailable(Exception):
    """The outcome of a debit is unknown; its bets are being rolled back (503)."""

    retry_after_s = 2


DeliverOwed = Callable[[CallsConnection, str, str, str, int], Awaitable[bool]]
"""Delivers a player's owed calls of a round on the given connection (the outbox's)."""


def player_key(player: PlayerRef) -> str:
    """The name of a player's lock."""
    return f"{player.operator_id}/{player.player_id}"


class SeamlessMoney:
    """Operators' wallets (``money.port.Wallets``)."""

    def __init__(
        self,
        wallets: Callable[[str], Awaitable[WalletPort | None]],
        *,
        deliver_owed: DeliverOwed | None = None,
        owed: Callable[[], None] = lambda: None,
    ) -> None:
        self._wallets = wallets
        self._deliver_owed = deliver_owed
        self._owed = owed
        """Called when rollbacks were queued (it wakes the outbox)."""

    async def seat(
        self, player: str, held: dict[str, HeldWallet], currency: str, session: SessionRef | None
    ) -> None:
        """A seamless operator's player sits down with a launched session in the table's
        currency."""
        if session is None:
            raise RuleViolation(
                "session_ended", "a seamless operator's player plays with a launched session"
            )
        if session.currency != currency:
            raise RuleViolation(
                "currency_mismatch",
                f"the table plays in {currency}, the session in {session.currency}",
            )

    async def plan(self, unit: CommandUnit, draft: Draft, wallet_ids: Sequence[str]) -> MoneyPlan:
        mine = set(wallet_ids)
        moves = [
            (p, p.event)
            for p in draft.events
            if isinstance(p.event, WalletDebited | WalletCredited) and p.event.wallet_id in mine
        ]
        routes = {
            # The operator holds the balance: the stream records, it does not guard.
            w: Route(seamless_stream(w), None)
            for w in dict.fromkeys(event.wallet_id for _, event in moves)
        }
        debits = [e for _, e in moves if isinstance(e, WalletDebited)]
        placed: _Placed | None = None
        if debits:
            placed = await self._place(unit, draft, debits)
        credits = [p for p, e in moves if isinstance(e, WalletCredited)]
        wins = None
        if credits or draft.settled_round is not None:
            wins = _wins(draft, credits, placed.attempt_id if placed else None)
        if placed is None:
            return MoneyPlan(routes=routes, wins=wins)
        return MoneyPlan(
            routes=routes,
            bets=CommittedBets(
                attempt_id=placed.attempt_id,
                transaction_ids=tuple(b.transaction_id for b in placed.bets),
                operator_transaction_ids=tuple(a.operator_transaction_id for a in placed.answers),
                balances=tuple(a.balance for a in placed.answers),
            ),
            wins=wins,
            placed=Placed(
                attempt_id=placed.attempt_id,
                transaction_ids=tuple(b.transaction_id for b in placed.bets),
                players=placed.players,
            ),
        )

    async def failed(self, unit: CommandUnit, plan: MoneyPlan) -> None:
        """The bets were accepted but the command was not recorded: roll them back. If even
        that fails (the connection is gone), recovery finds the bets and does it."""
        if plan.placed is None:
            return
        try:
            await unit.undo_bets(plan.placed.attempt_id, "the command was not recorded")
        except Exception as error:
            _log.warning(
                "wallet_undo_deferred",
                attempt=str(plan.placed.attempt_id),
                error=type(error).__name__,
            )
        self._owed()

    async def done(self, unit: CommandUnit, plan: MoneyPlan) -> None:
        if plan.placed is None:
            return
        try:
            await unit.release_bets(plan.placed.attempt_id, plan.placed.players)
        except Exception as error:  # the connection is gone, and the lock with it
            _log.info("wallet_release_skipped", error=type(error).__name__)

    async def _place(
        self, unit: CommandUnit, draft: Draft, debits: Sequence[WalletDebited]
    ) -> _Placed:
        """One ``bet`` per debit, in order, after recording the intent; raises
        :class:`WalletRefused` or :class:`WalletUnavailable` after undoing the attempt, and
        ``DuplicateCommand`` before any call if the command is already recorded."""
        sessions: dict[str, SessionRef] = {}
        for debit in debits:
            ref = operator_of(debit.wallet_id)
            if debit.wallet_id == draft.actor.id and draft.session is not None:
                sessions[debit.wallet_id] = draft.session
            elif debit.wallet_id not in sessions:
                latest = await unit.latest_session(ref.operator_id, ref.player_id)
                if latest is None:
                    raise RuleViolation("session_ended", "the player has no game session")
                sessions[debit.wallet_id] = SessionRef(*latest)
        try:
            return await self._bets(unit, draft, debits, sessions)
        except BaseException:
            self._owed()  # a refusal or an unknown outcome queued rollbacks
            raise

    async def _bets(
        self,
        unit: CommandUnit,
        draft: Draft,
        debits: Sequence[WalletDebited],
        sessions: dict[str, SessionRef],
    ) -> _Placed:
        command_id = draft.command_id
        refs = sorted({operator_of(d.wallet_id) for d in debits})
        players = tuple(player_key(r) for r in refs)  # in one order: no two commands deadlock
        first = debits[0]
        # The first player's lock, the command-id look-up, whether a call of the round is
        # owed and whether the acting player's session is still open, in one round trip
        # (the intent checks again what is owed, after the lock; the append checks the
        # session again).
        prepared = await unit.lock_first_player(
            players[0],
            command_id,
            (*refs[0], first.table_id, first.round),
            draft.session.session_id if draft.session is not None else None,
        )
        try:
            for key in players[1:]:
                await unit.lock_player(key)
            if prepared.stored is not None:
                # A retry of a command already answered (accepted, or refused by the rules
                # or the operator), decided on the cached table, which skips the load that
                # finds it: answered from memory, without bets sent only to be undone.
                raise DuplicateCommand(command_id, prepared.stored)
            if not prepared.session_open:
                # A retry of an answered command answers as the first time (above).
                raise SessionEnded(draft.session.session_id if draft.session else "")
            if self._deliver_owed is not None and (prepared.owed or len(players) > 1):
                for wallet_id, table_id, number in dict.fromkeys(
                    (d.wallet_id, d.table_id, d.round) for d in debits
                ):
                    ref = operator_of(wallet_id)
                    if not await self._deliver_owed(
                        unit, ref.operator_id, ref.player_id, table_id, number
                    ):
                        raise WalletUnavailable(
                            "an earlier call of the player's round is still owed"
                        )
            placed = await self._send(unit, debits, sessions, command_id)
        except BaseException:
            await unit.unlock_players(players)
            raise
        return _Placed(placed.attempt_id, placed.bets, placed.answers, players)

    async def _send(
        self,
        unit: CommandUnit,
        debits: Sequence[WalletDebited],
        sessions: dict[str, SessionRef],
        command_id: str,
    ) -> _Placed:
        attempt_id = uuid.uuid4()
        bets = [
            _Bet(f"bet-{attempt_id.hex}-{index}", debit, sessions[debit.wallet_id])
            for index, debit in enumerate(debits)
        ]
        try:
            recorded = await unit.record_intent([b.intent() for b in bets], command_id, attempt_id)
            if recorded != len(bets):
                await unit.undo_bets(attempt_id, "not sent: an earlier call of the round is owed")
                raise WalletUnavailable("an earlier call of the player's round is still owed")
            answers = [await self._bet(unit, attempt_id, bet) for bet in bets]
        except BaseException:
            await unit.release_bets(attempt_id, ())
            raise
        return _Placed(attempt_id, bets, answers, ())

    async def _bet(self, unit: CommandUnit, attempt_id: uuid.UUID, bet: _Bet) -> Answer:
        wallet = await self._wallets(bet.player.operator_id)
        assert wallet is not None
        try:
            answer = await wallet.bet(bet.call())
        except UnknownOutcome as unknown:
            await unit.undo_bets(attempt_id, f"bet {bet.transaction_id}: {unknown}")
            raise WalletUnavailable(str(unknown)) from None
        if answer.status == "ok":
            return answer
        refusal = REFUSED_STATUSES.get(answer.status)
        if refusal is None:
            await unit.undo_bets(attempt_id, f"bet {bet.transaction_id}: {answer.status}")
            raise WalletUnavailable(f"the operator answered {answer.status}")
        await unit.undo_bets(
            attempt_id, f"refused: {answer.status}", refused=(bet.transaction_id, answer.status)
        )
        raise WalletRefused(
            refusal, _message(answer.status, answer.balance), balance=answer.balance
        )


class _Bet:
    __slots__ = ("debit", "player", "session", "transaction_id")

    def __init__(self, transaction_id: str, debit: WalletDebited, session: SessionRef) -> None:
        self.transaction_id = transaction_id
        self.debit = debit
        self.player = operator_of(debit.wallet_id)
        self.session = session

    def intent(self) -> BetIntent:
        d = self.debit
        return BetIntent(
            self.player.operator_id,
            self.transaction_id,
            self.player.player_id,
            self.session.session_id,
            self.session.currency,
            d.amount,
            d.reason,
            d.table_id,
            d.round,
            d.box,
        )

    def call(self) -> BetCall:
        d = self.debit
        return BetCall(
            request_id=uuid.uuid4().hex,
            operator_id=self.player.operator_id,
            player_id=self.player.player_id,
            session_id=self.session.session_id,
            currency=self.session.currency,
            transaction_id=self.transaction_id,
            amount=d.amount,
            round_id=round_id(d.table_id, d.round),
            table_id=d.table_id,
            box=d.box,
            reason=d.reason,
        )


class _Placed:
    __slots__ = ("answers", "attempt_id", "bets", "players")

    def __init__(
        self,
        attempt_id: uuid.UUID,
        bets: list[_Bet],
        answers: list[Answer],
        players: tuple[str, ...],
    ) -> None:
        self.attempt_id = attempt_id
        self.bets = bets
        self.answers = answers
        self.players = players


def _message(status: str, balance: int | None) -> str:
    if status == "insufficient_funds":
        return f"the operator's wallet holds {balance} and refused the bet"
    return f"the operator refused the bet ({status})"


def _wins(draft: Draft, credits: Sequence[Planned], attempt_id: uuid.UUID | None) -> WinsQueued:
    """The ``win`` calls of the seamless players' credits; at settlement each player's last
    credit of the round closes it."""
    paid = [(c, c.event) for c in credits if isinstance(c.event, WalletCredited)]
    last: dict[PlayerRef, int] = {}
    for index, (_, credit) in enumerate(paid):
        last[operator_of(credit.wallet_id)] = index
    closing = set(last.values()) if draft.settled_round is not None else set()
    wins = []
    for index, (item, credit) in enumerate(paid):
        ref = operator_of(credit.wallet_id)
        wins.append(
            QueuedWin(
                operator_id=ref.operator_id,
                player_id=ref.player_id,
                event_id=item.event_id,
                amount=credit.amount,
                reason=CREDIT_REASON.get(credit.reason, "win"),
                round=credit.round,
                box=credit.box,
                closes_round=index in closing,
            )
        )
    return WinsQueued(
        table_id=draft.table_id,
        currency=draft.currency,
        wins=tuple(wins),
        settled_round=draft.settled_round,
        attempt_id=attempt_id,
    )
