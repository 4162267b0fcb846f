"""Reconciliation with a seamless operator (docs/wallet-protocol.md §5), transaction by transaction.

The game's list of money calls (``wallet_transactions``: what it made and what it owes) is
compared with the operator's own export of what it applied. Pure: two lists of records in,
the discrepancies out, so every rule below is unit-tested without a database.

What each side's status means:

* ours — a bet ``committed`` (the game kept it), ``rolled_back`` (the game undid it),
  ``refused`` (the operator refused it), ``pending``/``accepted`` (its command has not
  finished: recovery will commit or undo it); a win or a rollback ``delivered`` (the
  operator answered it ``ok``, or ``transaction_not_found`` for a rollback), ``queued``
  (still owed) or ``manual`` (given up on after the retry window, for a person to settle);
* theirs — ``ok`` (applied), ``rolled_back`` (a bet applied, then undone by a rollback),
  ``tombstone`` (a rollback recorded for a bet the operator never saw, §3.3). These are the
  reference wallet's export (``GET /_admin/transactions``); other statuses are listed as
  ``unknown_status``.

A discrepancy is anything a person must look at: money one side has and the other has not,
or has differently, and every call the game still owes.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Collection, Sequence
from datetime import UTC, datetime
from typing import Final, Literal, TypeAlias

import msgspec

__all__ = [
    "CONFORMANCE",
    "THEIR_FIELDS",
    "Discrepancy",
    "DiscrepancyCode",
    "ExportError",
    "OurTransaction",
    "TheirTransaction",
    "compare",
    "in_scope",
    "parse_export",
]

DiscrepancyCode = Literal[
    "missing_theirs",
    "missing_ours",
    "amount_differs",
    "currency_differs",
    "kind_differs",
    "rolled_back_still_applied",
    "status_differs",
    "bet_not_final",
    "rollback_not_final",
    "credit_not_delivered",
    "duplicate_theirs",
    "unknown_status",
]

THEIR_FIELDS: Final = ("transaction_id", "kind", "amount", "currency", "status")
CONFORMANCE: Final = "conformance"
"""``source`` of the conformance kit's calls in an export."""
"""What the operator's export must give for every transaction (extra fields are ignored)."""

_APPLIED: Final = "ok"
_KNOWN_THEIRS: Final = frozenset({"ok", "rolled_back", "tombstone"})
_OWED: Final = frozenset({"queued", "manual"})
_OPEN_BET: Final = frozenset({"pending", "accepted"})


class OurTransaction(msgspec.Struct, frozen=True, kw_only=True):
    """One row of the game's ``wallet_transactions``, as much as reconciliation needs."""

    transaction_id: str
    kind: str
    amount: int
    currency: str
    status: str


class TheirTransaction(msgspec.Struct, frozen=True, kw_only=True):
    """One line of the operator's export."""

    transaction_id: str
    kind: str
    amount: int
    currency: str
    status: str
    at: datetime | None = None
    """When the operator applied it (``created_at``, optional): lets a window apply to
    their side too."""
    source: str | None = None
    """``conformance`` for the calls of a ``wallet-check`` run, never the game's (optional)."""


class Discrepancy(msgspec.Struct, frozen=True, kw_only=True):
    """One thing that does not reconcile, with both sides' view of it where there is one."""

    transaction_id: str
    code: DiscrepancyCode
    detail: str
    ours: OurTransaction | None = None
    theirs: TheirTransaction | None = None

    def __str__(self) -> str:
        return f"{self.transaction_id}: {self.code}: {self.detail}"


_Found: TypeAlias = Callable[[DiscrepancyCode, str], Discrepancy]
"""Makes one transaction's discrepancy from a code and a detail."""


class ExportError(ValueError):
    """The operator's export cannot be read; the message names the line."""


def compare(
    ours: Sequence[OurTransaction],
    theirs: Sequence[TheirTransaction],
    *,
    ours_elsewhere: Collection[str] = (),
) -> list[Discrepancy]:
    """Every discrepancy between the two lists: ours in our order, then what only they have
    in their order.

    ``ours_elsewhere`` names transactions the game has outside the compared window: the
    operator's export may hold them without their being "missing on ours".
    """
    found: list[Discrepancy] = []
    by_id: dict[str, TheirTransaction] = {}
    for row in theirs:
        if row.transaction_id in by_id:
            found.append(
                Discrepancy(
                    transaction_id=row.transaction_id,
                    code="duplicate_theirs",
                    detail="the operator's export lists this transaction more than once",
                    theirs=row,
                )
            )
            continue
        by_id[row.transaction_id] = row
    for row in by_id.values():
        if row.status not in _KNOWN_THEIRS:
            found.append(
                Discrepancy(
                    transaction_id=row.transaction_id,
                    code="unknown_status",
                    detail=f"the operator's status {row.status!r} is not ok, rolled_back"
                    " or tombstone",
                    theirs=row,
                )
            )
    for mine in ours:
        found.extend(_one(mine, by_id.get(mine.transaction_id)))
    known = {t.transaction_id for t in ours} | set(ours_elsewhere)
    found.extend(
        Discrepancy(
            transaction_id=row.transaction_id,
            code="missing_ours",
            detail=f"the operator has a {row.kind} of {row.amount} {row.currency}"
            f" ({row.status}) that the game never made",
            theirs=row,
        )
        for row in by_id.values()
        if row.transaction_id not in known
    )
    return found


def _one(mine: OurTransaction, theirs: TheirTransaction | None) -> list[Discrepancy]:
    """What is wrong with one of our transactions, given the operator's line for it."""

    def found(code: DiscrepancyCode, detail: str) -> Discrepancy:
        return Discrepancy(
            transaction_id=mine.transaction_id, code=code, detail=detail, ours=mine, theirs=theirs
        )

    out: list[Discrepancy] = []
    if theirs is not None:
        if theirs.kind != mine.kind:
            out.append(found("kind_differs", f"ours is a {mine.kind}, theirs a {theirs.kind}"))
        if theirs.amount != mine.amount:
            out.append(found("amount_differs", f"ours is {mine.amount}, theirs {theirs.amount}"))
        if theirs.currency != mine.currency:
            out.append(
                found(
                    "currency_differs", f"ours is in {mine.currency}, theirs in {theirs.currency}"
                )
            )
    status = theirs.status if theirs is not None else None
    if mine.kind == "bet":
        out.extend(_bet(mine, status, found))
    elif mine.status in _OWED:
        code: DiscrepancyCode = (
            "credit_not_delivered" if mine.kind == "win" else "rollback_not_final"
        )
        seen = "the operator has it" if theirs is not None else "the operator does not have it"
        out.append(found(code, f"the {mine.kind} is still {mine.status} at the game ({seen})"))
    elif mine.status == "delivered":
        allowed = {"ok", "tombstone"} if mine.kind == "rollback" else {_APPLIED}
        if status is None:
            out.append(
                found("missing_theirs", f"a delivered {mine.kind} the operator does not have")
            )
        elif status in _KNOWN_THEIRS and status not in allowed:
            out.append(
                found("status_differs", f"a delivered {mine.kind}; the operator says {status}")
            )
    return out


def _bet(mine: OurTransaction, status: str | None, found: _Found) -> list[Discrepancy]:
    if mine.status in _OPEN_BET:
        return [
            found(
                "bet_not_final",
                f"the bet's command has not finished ({mine.status}): recovery will commit"
                " or roll it back",
            )
        ]
    if mine.status == "committed":
        if status is None:
            return [found("missing_theirs", "a committed bet the operator does not have")]
        if status != _APPLIED and status in _KNOWN_THEIRS:
            return [found("status_differs", f"a committed bet; the operator says {status}")]
    elif mine.status == "rolled_back":
        if status == _APPLIED:
            return [
                found(
                    "rolled_back_still_applied",
                    "the game rolled the bet back; the operator still shows it applied",
                )
            ]
    elif mine.status == "refused" and status == _APPLIED:
        return [found("status_differs", "the operator refused the bet, yet shows it applied")]
    return []


def in_scope(
    theirs: Sequence[TheirTransaction],
    ours: Collection[str],
    window: tuple[datetime | None, datetime | None],
) -> list[TheirTransaction]:
    """The operator's lines that belong in a comparison of the game's transactions
    ``ours`` (ids) made in ``window`` (from, to; either open): every line of one of ours,
    and of the others those applied within the window (or undated), the conformance kit's
    calls aside. An export of a whole month compared over one day, or one that holds a
    ``wallet-check`` run, then reports only what is really missing."""
    start, end = window

    def within(at: datetime | None) -> bool:
        return at is None or ((start is None or at >= start) and (end is None or at < end))

    return [
        row
        for row in theirs
        if row.transaction_id in ours or (row.source != CONFORMANCE and within(row.at))
    ]


def parse_export(text: str) -> list[TheirTransaction]:
    """The operator's export: JSON lines (one object per line) or CSV with a header row,
    told apart by the first non-blank character (``{`` is JSON lines)."""
    stripped = text.lstrip()
    if not stripped:
        return []
    if stripped.startswith("{"):
        return _json_lines(text)
    return _csv(text)


def _json_lines(text: str) -> list[TheirTransaction]:
    rows = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as error:
            raise ExportError(f"line {number}: not JSON ({error.msg})") from None
        if not isinstance(value, dict):
            raise ExportError(f"line {number}: not a JSON object")
        rows.append(_record(value, number))
    return rows


def _csv(text: str) -> list[TheirTransaction]:
    reader = csv.DictReader(io.StringIO(text))
    header = [name.strip() for name in reader.fieldnames or []]
    missing = [name for name in THEIR_FIELDS if name not in header]
    if missing:
        raise ExportError(f"line 1: the CSV header lacks {', '.join(missing)}")
    reader.fieldnames = header
    return [
        # Line numbers count the header: the first record is line 2.
        _record(row, reader.line_num)
        for row in reader
        if any((value or "").strip() for value in row.values() if isinstance(value, str))
    ]


def _record(value: dict[str, object], number: int) -> TheirTransaction:
    missing = [name for name in THEIR_FIELDS if value.get(name) in (None, "")]
    if missing:
        raise ExportError(f"line {number}: no {', '.join(missing)}")
    amount = value["amount"]
    if isinstance(amount, str) and amount.strip().lstrip("-").isdigit():
        amount = int(amount.strip())
    if not isinstance(amount, int) or isinstance(amount, bool):
        raise ExportError(f"line {number}: amount {value['amount']!r} is not an integer")
    at: datetime | None = None
    if value.get("created_at") not in (None, ""):
        try:
            at = datetime.fromisoformat(str(value["created_at"]).strip())
        except ValueError:
            raise ExportError(
                f"line {number}: created_at {value['created_at']!r} is not an ISO 8601 time"
            ) from None
        at = at if at.tzinfo else at.replace(tzinfo=UTC)
    source = str(value["source"]).strip() if value.get("source") not in (None, "") else None
    return TheirTransaction(
        transaction_id=str(value["transaction_id"]).strip(),
        kind=str(value["kind"]).strip(),
        amount=amount,
        currency=str(value["currency"]).strip(),
        status=str(value["status"]).strip(),
        at=at,
        source=source,
    )
