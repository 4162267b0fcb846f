"""``russian-poker projections rebuild``, ``replay --verify`` and ``reconcile`` (the
game's own books, or with ``--operator`` a seamless operator's transactions against its
export).

Each uses ``DATABASE_URL`` (else the embedded server), applies pending migrations first,
prints its findings on stdout and progress on stderr, and exits 1 when it found a
difference, so a cron job or CI step fails loudly.
"""

from __future__ import annotations

import sys
import time
from datetime import datetime
from pathlib import Path

import asyncpg
import click

from russian_poker.events.postgres.books import BookStore, Reconciled, Window
from russian_poker.events.postgres.operators import OperatorStore
from russian_poker.events.postgres.rebuild import RebuildStore
from russian_poker.events.postgres.reconcile import ReconcileStore
from russian_poker.events.postgres.replay import ReplayStore
from russian_poker.projections.rebuild import NAMES, RebuildReport, rebuild
from russian_poker.service.audit.reconcile import ReconcileReport, reconcile
from russian_poker.service.audit.replay import (
    ReplayReport,
    rounds_in_play,
    select_rounds,
    verify_rounds,
)
from russian_poker.service.cli.audit_group import iso_time
from russian_poker.service.database import on_the_store
from russian_poker.service.tenancy import DEFAULT_OPERATOR
from russian_poker.service.wallet.reconcile import (
    ExportError,
    compare,
    in_scope,
    parse_export,
)

__all__ = ["projections_group", "reconcile_command", "replay_command"]


@click.group("projections")
def projections_group() -> None:
    """Read models built from the events."""


@projections_group.command("rebuild")
@click.argument("name", required=False, type=click.Choice(NAMES))
def rebuild_command(name: str | None) -> None:
    """Rebuild NAME (tables, wallets, history, audit, availability; default: all) from the
    events.

    Compares the rebuild with the live read model, lists every difference, then replaces
    the live rows. Exits 1 if the live model differed.
    """

    async def work(conn: asyncpg.Connection[asyncpg.Record]) -> list[RebuildReport]:
        return [await rebuild(RebuildStore(conn), n) for n in ([name] if name else NAMES)]

    reports = on_the_store(work)
    for report in reports:
        for detail in report.details:
            click.echo(f"{report.name}: {detail}")
        verdict = (
            "identical to the live model"
            if not report.differed
            else f"{report.differences} difference(s) with the live model, replaced"
        )
        click.echo(
            f"{report.name}: rebuilt {report.rows} rows from {report.events} events in "
            f"{report.seconds:.2f}s ({report.events_per_second:,.0f} events/s): {verdict}"
        )
    if any(r.differed for r in reports):
        sys.exit(1)


class _Progress:
    """Progress on stderr, at most once a second, for long runs."""

    def __init__(self) -> None:
        self.started = time.perf_counter()
        self.shown = self.started

    def __call__(self, done: int, total: int, events: int) -> None:
        now = time.perf_counter()
        if now - self.shown < 1.0 and done != total:
            return
        if now - self.started < 1.0:
            return  # short runs stay quiet
        self.shown = now
        rate = events / (now - self.started)
        click.echo(f"replayed {done}/{total} rounds ({rate:,.0f} events/s)", err=True)


@click.command("replay")
@click.option("--verify", is_flag=True, help="Re-run the rules and compare (required).")
@click.option("--all", "all_rounds", is_flag=True, help="Every settled round.")
@click.option("--round", "round_id", metavar="TABLE:N", help="One round of one table.")
@click.option("--from", "start", metavar="TIME", help="Rounds settled at or after TIME.")
@click.option("--to", "end", metavar="TIME", help="Rounds settled before TIME.")
def replay_command(
    verify: bool, all_rounds: bool, round_id: str | None, start: str | None, end: str | None
) -> None:
    """Replay settled rounds through the rules and report every difference.

    Checks each revealed seed against its commitment, re-runs every recorded command and
    compares every event, card and payout. Exits 1 on any difference.
    """
    if not verify:
        raise click.UsageError("replay only verifies: pass --verify")
    chosen = [all_rounds, round_id is not None, start is not None or end is not None]
    if sum(chosen) != 1:
        raise click.UsageError("choose one of --all, --round TABLE:N, or --from/--to")
    table_round: tuple[str, int] | None = None
    if round_id is not None:
        table_id, _, number = round_id.rpartition(":")
        if not table_id or not number.isdigit():
            raise click.BadParameter(f"{round_id!r} is not TABLE:N", param_hint="--round")
        table_round = (table_id, int(number))
    window = (iso_time(start), iso_time(end))

    async def work(conn: asyncpg.Connection[asyncpg.Record]) -> ReplayReport:
        store = ReplayStore(conn)
        try:
            selection, unsettled = await select_rounds(
                store, table_round=table_round, start=window[0], end=window[1]
            )
        except LookupError as error:
            raise click.ClickException(str(error)) from None
        report = await verify_rounds(store, selection, progress=_Progress())
        report.skipped.extend(unsettled)
        if table_round is None:
            report.in_play = await rounds_in_play(store, start=window[0], end=window[1])
        else:
            report.in_play = len(unsettled)
        return report

    report = on_the_store(work)
    for difference in report.differences:
        click.echo(str(difference))
    for skipped in report.skipped:
        click.echo(f"round {skipped} is not settled yet: its seed is still secret", err=True)
    for line in _replay_counts(report, table_round is None and window != (None, None)):
        click.echo(line)
    click.echo(
        f"verified {report.verified} of {report.rounds} round(s), {report.commands} commands, "
        f"{report.events} events in {report.seconds:.2f}s "
        f"({report.events_per_second:,.0f} events/s); "
        f"{len(report.differences)} difference(s) in {report.failed} round(s)"
    )
    if report.differences or (table_round is not None and report.skipped):
        sys.exit(1)


def _replay_counts(report: ReplayReport, windowed: bool) -> list[str]:
    """What replay counted, in words: settled rounds only (the ones ``reconcile`` calls
    settled), split by whether any bet was placed, and the rounds it could not replay."""
    scope = " in the window" if windowed else ""
    opened = " opened in the window" if windowed else ""
    return [
        f"settled rounds{scope} replayed: {report.rounds:,} "
        f"({report.with_bets:,} with bets, {report.without_bets:,} without a bet: "
        "called off before any ante)",
        f"rounds{opened} not replayed: {report.in_play:,} still in play "
        "(not settled yet: their seeds are still secret)",
    ]


@click.command("reconcile")
@click.option(
    "--from", "start", metavar="TIME", help="Rounds opened (ledger rows recorded) at or after TIME."
)
@click.option("--to", "end", metavar="TIME", help="... and before TIME.")
@click.option(
    "--operator",
    "operator_id",
    metavar="ID",
    help="Reconcile this seamless operator's transactions with its export (needs --theirs).",
)
@click.option(
    "--theirs",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    metavar="FILE",
    help="The operator's export: CSV with a header, or JSON lines; fields transaction_id,"
    " kind, amount, currency, status.",
)
def reconcile_command(
    start: str | None, end: str | None, operator_id: str | None, theirs: Path | None
) -> None:
    """Reconcile wallet events, round events and balances, to the unit.

    Lists each mismatch with the wallet or round it concerns; exits 1 if there is any.

    With --operator ID --theirs FILE: compares every money call the game made or owes to
    that operator (created in [--from, --to)) with the operator's own export, transaction
    by transaction, and lists each discrepancy; exits 1 if there is any.
    """
    window = (iso_time(start), iso_time(end))
    if (operator_id is None) != (theirs is None):
        raise click.UsageError("--operator and --theirs go together")
    if operator_id is not None and theirs is not None:
        _reconcile_operator(operator_id, theirs, window)
        return

    async def work(conn: asyncpg.Connection[asyncpg.Record]) -> ReconcileReport:
        return await reconcile(ReconcileStore(conn), start=window[0], end=window[1])

    report = on_the_store(work)
    for mismatch in report.mismatches:
        click.echo(str(mismatch))
    for line in _reconcile_counts(report, window != (None, None)):
        click.echo(line)
    click.echo(
        f"reconciled {report.wallets} wallets, {report.ledger_rows} ledger rows, "
        f"{report.rounds} rounds ({report.boxes} boxes) in {report.seconds:.2f}s: "
        f"{len(report.mismatches)} mismatch(es)"
    )
    if report.mismatches:
        sys.exit(1)


def _reconcile_operator(
    operator_id: str, theirs_file: Path, window: tuple[datetime | None, datetime | None]
) -> None:
    """``reconcile --operator``: the game's list against the operator's export."""
    try:
        theirs = parse_export(theirs_file.read_text(encoding="utf-8-sig"))
    except ExportError as error:
        raise click.ClickException(f"{theirs_file}: {error}") from None
    except UnicodeDecodeError:
        raise click.ClickException(f"{theirs_file}: not UTF-8 text") from None

    async def work(conn: asyncpg.Connection[asyncpg.Record]) -> Reconciled | None:
        if operator_id != DEFAULT_OPERATOR and await OperatorStore(conn).get(operator_id) is None:
            return None
        return await BookStore(conn).reconciled(operator_id, Window(*window))

    read = on_the_store(work)
    if read is None:
        raise click.ClickException(f"no operator {operator_id!r}")
    # Outside the window: not compared, but not "missing on ours" either when the
    # operator's export (which has no window) lists them.
    ours, elsewhere = read
    # Their side within the window too: a whole month's export compared over one day, or
    # one holding a wallet-check run, reports only what is really missing.
    theirs = in_scope(theirs, {t.transaction_id for t in ours} | set(elsewhere), window)
    discrepancies = compare(ours, theirs, ours_elsewhere=elsewhere)
    for discrepancy in discrepancies:
        click.echo(str(discrepancy))
    if discrepancies:
        click.echo(
            f"{len(discrepancies)} discrepancy(ies) between the game's {len(ours)} transaction(s)"
            f" and the operator's {len(theirs)}"
        )
        sys.exit(1)
    click.echo(f"reconciled {len(ours)} transactions")


def _reconcile_counts(report: ReconcileReport, windowed: bool) -> list[str]:
    """What reconcile counted, in words: every round *opened*, settled or still in play
    (``replay`` counts the settled ones only), and which ledger rows are rounds' money."""
    opened = "opened in the window" if windowed else "opened"
    recorded = " recorded in the window" if windowed else ""
    return [
        f"wallets: {report.wallets:,} (balances checked over all time)",
        f"ledger rows{recorded}: {report.ledger_rows:,} "
        f"({report.round_ledger_rows:,} of rounds, "
        f"{report.ledger_rows - report.round_ledger_rows:,} deposits and withdrawals)",
        f"rounds {opened}: {report.rounds:,} ({report.settled:,} settled, "
        f"{report.in_play:,} still in play; {report.with_bets:,} with bets on "
        f"{report.boxes:,} boxes, {report.without_bets:,} without a bet)",
    ]
