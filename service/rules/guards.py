"""Checks shared by the command handlers; each raises a :class:`RuleViolation`."""

from __future__ import annotations

from russian_poker.events.commands import Actor
from russian_poker.events.wallet import CreditReason, DebitReason, WalletCredited, WalletDebited
from russian_poker.service.rules.errors import RuleViolation
from russian_poker.service.rules.state import Box, Phase, Round, Table

__all__ = ["credit", "debit", "need_open", "need_phase", "need_role", "need_seat", "own_box"]


def need_role(actor: Actor, *roles: str) -> None:
    if actor.role not in roles:
        raise RuleViolation("wrong_role", f"only {' or '.join(roles)} may send this command")


def need_open(table: Table) -> None:
    if table.status != "open":
        raise RuleViolation("table_not_open")


def need_phase(table: Table, *phases: Phase) -> Round:
    """The current round, if it is in one of ``phases``."""
    current = table.round
    if current is None or current.phase not in phases:
        code = "betting_closed" if phases == ("betting",) else "not_deciding"
        raise RuleViolation(code)
    return current


def need_seat(table: Table, player: str) -> int:
    seat = table.seat_of(player)
    if seat is None:
        raise RuleViolation("not_seated")
    return seat


def own_box(current: Round, actor: Actor, number: int) -> Box:
    """The actor's box ``number`` in this round."""
    box = current.box(number)
    if box is None:
        raise RuleViolation("no_such_box", f"box {number} has no bet this round")
    if box.player != actor.id:
        raise RuleViolation("not_your_box")
    return box


def debit(table: Table, box: Box, amount: int, reason: DebitReason) -> WalletDebited:
    assert table.round is not None
    return WalletDebited(
        wallet_id=box.player,
        amount=amount,
        reason=reason,
        table_id=table.table_id,
        round=table.round.number,
        box=box.number,
    )


def credit(table: Table, box: Box, amount: int, reason: CreditReason) -> WalletCredited:
    assert table.round is not None
    return WalletCredited(
        wallet_id=box.player,
        amount=amount,
        reason=reason,
        table_id=table.table_id,
        round=table.round.number,
        box=box.number,
    )
