"""A table played in memory through the pure core, the way the service plays it.

``Scenario`` runs every command through ``decide`` and ``check_funds``, folds the events into
the table and the wallets, and keeps them all, so tests can check cards, money and replay.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import msgspec

from russian_poker.events.codec import Event
from russian_poker.events.commands import SYSTEM, Actor, Command, OpenRound, OpenTable
from russian_poker.events.ruleset import Ruleset
from russian_poker.events.wallet import WalletCredited, WalletDebited, WalletEvent
from russian_poker.service.rules.decide import decide
from russian_poker.service.rules.evolve import fold
from russian_poker.service.rules.funds import check_funds
from russian_poker.service.rules.presets import make_ruleset
from russian_poker.service.rules.state import Table
from russian_poker.service.rules.wallets import Wallet, deposit, fold_wallet, open_wallet

OPERATOR = Actor(role="operator", id="operator")
SEED = bytes(range(32))


def player(name: str) -> Actor:
    return Actor(role="player", id=name)


def deck_for(
    boxes: Sequence[str],
    dealer: str,
    then: str = "",
) -> tuple[str, ...]:
    """The deck top that deals ``boxes`` (hands in PLAY order) and ``dealer`` one card at a
    time, as the rules deal, followed by ``then`` (draws, in the order they are taken)."""
    hands = [h.split() for h in (*boxes, dealer)]
    deck = [hand[i] for i in range(5) for hand in hands]
    return (*deck, *then.split())


class Scenario:
    def __init__(
        self,
        preset: str = "russian",
        *,
        ruleset: Ruleset | None = None,
        players: Mapping[str, int] | None = None,
        **overrides: Any,
    ) -> None:
        self.rules = ruleset or make_ruleset(preset, overrides)
        self.table = Table()
        self.wallets: dict[str, Wallet] = {}
        self.events: list[Event] = []
        self.run(OpenTable(ruleset=self.rules), OPERATOR)
        for name, balance in (players or {}).items():
            self.fund(name, balance)

    def fund(self, name: str, amount: int) -> None:
        wallet = self.wallets.get(name, Wallet())
        moves: list[WalletEvent] = []
        if not wallet.opened:
            moves += open_wallet(wallet, name, self.rules.currency)
            wallet = fold_wallet(wallet, moves)
        moves += deposit(wallet, f"deposit-{len(self.events)}", amount)
        self.wallets[name] = fold_wallet(Wallet(), [*self._wallet_events(name), *moves])
        self.events.extend(moves)

    def _wallet_events(self, name: str) -> list[WalletEvent]:
        return [e for e in self.events if isinstance(e, WalletEvent) and e.wallet_id == name]  # type: ignore[arg-type]

    def run(self, command: Command, actor: Actor) -> list[Event]:
        """Apply a command as the service does; raises ``RuleViolation`` and changes nothing
        if refused."""
        events = decide(self.table, command, actor, table_id="table-1")
        check_funds(events, self.wallets, self.rules.currency)
        self.table = fold(self.table, events)
        for event in events:
            if isinstance(event, WalletDebited | WalletCredited):
                wallet = self.wallets[event.wallet_id]
                self.wallets[event.wallet_id] = fold_wallet(wallet, [event])
        self.events.extend(events)
        return events

    def open_round(self, deck: Iterable[str] = (), seed: bytes = SEED) -> list[Event]:
        return self.run(OpenRound(seed=seed, deck=tuple(deck)), SYSTEM)

    def sit(self, *names: str) -> None:
        from russian_poker.events.commands import SitDown

        for name in names:
            self.run(SitDown(), player(name))

    def balance(self, name: str) -> int:
        return self.wallets[name].balance

    def of_type(self, kind: type[Any]) -> list[Any]:
        return [e for e in self.events if isinstance(e, kind)]

    def replayed(self) -> Table:
        """The table rebuilt from its own events alone."""
        return fold(Table(), [e for e in self.events if not isinstance(e, WalletEvent)])  # type: ignore[arg-type]


def same(a: msgspec.Struct, b: msgspec.Struct) -> bool:
    return msgspec.to_builtins(a) == msgspec.to_builtins(b)
