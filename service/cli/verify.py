"""``russian-poker verify``: check a settled round's deck end to end, or the test vectors.

``--round TABLE:N`` reads the round from the event store (``DATABASE_URL``, else the embedded
server, like the other audit commands); ``--record FILE`` checks a proof record offline (what
``GET /v1/tables/{id}/rounds/{n}/proof`` returns, or what ``--round ... --save FILE``
wrote); ``--vectors FILE`` checks a test-vector file against this code. Exits 1 on any
mismatch, naming the first card that differs.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import asyncpg
import click
import msgspec

from russian_poker.events.postgres.store import EventStore
from russian_poker.service.database import on_the_store
from russian_poker.service.fairness.check import check_proof
from russian_poker.service.fairness.proof import RoundProof, load_proof
from russian_poker.service.fairness.vectors import check_vectors

__all__ = ["verify_command"]


@click.command("verify")
@click.option("--round", "round_id", metavar="TABLE:N", help="A settled round in the store.")
@click.option(
    "--record",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="A round proof record (JSON), checked offline.",
)
@click.option(
    "--save",
    type=click.Path(dir_okay=False, path_type=Path),
    help="With --round: also write the round's proof record to this file.",
)
@click.option(
    "--vectors",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="A test-vector file (docs/fairness/vectors.json) to check against this code.",
)
def verify_command(
    round_id: str | None, record: Path | None, save: Path | None, vectors: Path | None
) -> None:
    """Check a round's cards against its seeds: the commitment, the deck key from the server
    seed and the client seeds, every card dealt, each sixth card and exchange, the dealer's
    replacements (docs/fairness.md). Exits 1 on a mismatch."""
    if sum(x is not None for x in (round_id, record, vectors)) != 1:
        raise click.UsageError("choose one of --round TABLE:N, --record FILE, --vectors FILE")
    if save is not None and round_id is None:
        raise click.UsageError("--save goes with --round")
    if vectors is not None:
        _check_vectors(vectors)
        return
    if record is not None:
        try:
            proof = msgspec.json.decode(record.read_bytes(), type=RoundProof)
        except msgspec.DecodeError as error:
            raise click.ClickException(f"{record} is not a round proof record: {error}") from None
    else:
        assert round_id is not None
        proof = _load(round_id)
        if save is not None:
            save.write_bytes(msgspec.json.format(msgspec.json.encode(proof), indent=2) + b"\n")
            click.echo(f"wrote the proof record to {save}", err=True)
    verdict = check_proof(proof)
    for line in verdict.lines:
        click.echo(line)
    if not verdict.ok:
        sys.exit(1)


def _load(round_id: str) -> RoundProof:
    table_id, _, number = round_id.rpartition(":")
    if not table_id or not number.isdigit():
        raise click.BadParameter(f"{round_id!r} is not TABLE:N", param_hint="--round")

    async def work(conn: asyncpg.Connection[asyncpg.Record]) -> RoundProof:
        try:
            return await load_proof(EventStore(conn), table_id, int(number))
        except LookupError as error:
            raise click.ClickException(str(error)) from None

    return on_the_store(work)


def _check_vectors(path: Path) -> None:
    try:
        data = json.loads(path.read_text())
    except ValueError as error:
        raise click.ClickException(f"{path} is not JSON: {error}") from None
    problems = check_vectors(data)
    for problem in problems:
        click.echo(f"MISMATCH: {problem}")
    count = len(data.get("vectors", []))
    if problems:
        click.echo(f"{len(problems)} mismatch(es) in {count} vector(s)")
        sys.exit(1)
    click.echo(f"VERIFIED: {count} vector(s) reproduced by this code")
