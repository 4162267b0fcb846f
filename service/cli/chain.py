"""``russian-poker audit checkpoint`` and ``audit verify-chain``: the tamper-evident log.

Both use ``DATABASE_URL`` (else the embedded server) and the configured checkpoint key
(``RUSSIAN_POKER_CHECKPOINT_KEY``). ``verify-chain`` trusts only the public key it is given
(``--public-key``) or the configured key's public half, never one found in the database,
prints every finding (the first one first) and exits 1 if there is any.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import asyncpg
import click
import msgspec
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from russian_poker.events.postgres.chain import ChainStore
from russian_poker.service.chain.checkpoints import Checkpoint, make_checkpoint
from russian_poker.service.chain.keys import CheckpointKeyError, load_public_key, signing_key
from russian_poker.service.chain.verify import ChainReport, verify_chain
from russian_poker.service.cli.audit_group import audit, iso_time
from russian_poker.service.database import on_the_store
from russian_poker.service.settings import ConfigurationError, load_settings

__all__ = [
    "checkpoint_command",
    "configured_key",
    "kept_checkpoint",
    "settings_key",
    "trusted_keys",
    "verify_chain_command",
]


def settings_key() -> Ed25519PrivateKey:
    try:
        return signing_key(load_settings(), create=True)
    except (ConfigurationError, CheckpointKeyError) as error:
        raise click.ClickException(str(error)) from None


@audit.command("checkpoint")
def checkpoint_command() -> None:
    """Sign and store a checkpoint of every stream head now (even if nothing changed)."""
    key = settings_key()

    async def work(conn: asyncpg.Connection[asyncpg.Record]) -> Checkpoint | None:
        return await make_checkpoint(ChainStore(conn), key, allow_empty=True)

    made = on_the_store(work, idle_in_transaction_s=3600, name="russian-poker-chain")
    assert made is not None
    click.echo(
        f"checkpoint {made.seq}: {made.leaf_count} stream head(s), horizon tx {made.upto_tx_id}, "
        f"merkle root {made.merkle_root.hex()}, key {made.key_id[:16]}…"
    )


def configured_key() -> Ed25519PrivateKey:
    """The configured key, for a verifier on the service's own machine; elsewhere there is
    none, and the auditor's copy of the public key is the one to trust anyway."""
    try:
        return signing_key(load_settings(), create=False)
    except (ConfigurationError, CheckpointKeyError) as error:
        raise click.ClickException(
            f"{error}. To verify with the public key alone, pass it: --public-key PEM"
            " (GET /v1/audit/checkpoints/public-key serves it)"
        ) from None


def trusted_keys(public_keys: tuple[Path, ...]) -> list[Ed25519PublicKey]:
    """The keys a verifier trusts: the PEM files given, else the configured key's public
    half; never a key read from the data it checks."""
    try:
        if public_keys:
            return [load_public_key(path) for path in public_keys]
        return [configured_key().public_key()]
    except CheckpointKeyError as error:
        raise click.ClickException(str(error)) from None


def kept_checkpoint(text: str) -> tuple[int, bytes]:
    seq, _, digest = text.partition(":")
    try:
        parsed = int(seq), bytes.fromhex(digest)
    except ValueError:
        parsed = (0, b"")
    if parsed[0] < 1 or len(parsed[1]) != 32:
        raise click.BadParameter(f"{text!r} is not SEQ:DIGEST (a number, a colon, 64 hex digits)")
    return parsed


@audit.command("verify-chain")
@click.option("--from", "start", metavar="TIME", help="Events recorded at or after TIME.")
@click.option("--to", "end", metavar="TIME", help="... and before TIME.")
@click.option(
    "--public-key",
    "public_keys",
    multiple=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="PEM file of a trusted checkpoint key (repeatable); default: the configured key's.",
)
@click.option(
    "--trusted-checkpoint",
    "kept",
    multiple=True,
    metavar="SEQ:DIGEST",
    callback=lambda _ctx, _param, values: dict(kept_checkpoint(v) for v in values),
    help=(
        "A checkpoint kept outside the database (its seq and hex digest, as GET"
        " /v1/audit/checkpoints gave it; repeatable): fails if it is missing or altered."
    ),
)
@click.option("--json", "as_json", is_flag=True, help="One JSON object instead of lines.")
def verify_chain_command(
    start: str | None,
    end: str | None,
    public_keys: tuple[Path, ...],
    kept: dict[int, bytes],
    as_json: bool,
) -> None:
    """Re-hash every event and check every link and signed checkpoint.

    Names the first event changed, deleted, inserted or reordered in each stream, streams
    rewritten after a checkpoint, and forged or invalid checkpoints. Exits 1 on any.
    """
    trusted = trusted_keys(public_keys)
    window = (iso_time(start), iso_time(end))

    started = time.perf_counter()
    shown = [started]

    def progress(events: int) -> None:
        # On stderr, at most once a second: stdout stays the findings.
        now = time.perf_counter()
        if now - shown[0] >= 1.0:
            shown[0] = now
            rate = events / (now - started)
            click.echo(f"re-hashed {events:,} events ({rate:,.0f} events/s)", err=True)

    async def work(conn: asyncpg.Connection[asyncpg.Record]) -> ChainReport:
        return await verify_chain(
            ChainStore(conn),
            trusted,
            start=window[0],
            end=window[1],
            progress=progress,
            kept=kept,
        )

    report = on_the_store(work, idle_in_transaction_s=3600, name="russian-poker-chain")
    if as_json:
        click.echo(
            msgspec.json.encode(
                {
                    "ok": not report.findings,
                    "events": report.events,
                    "streams": report.streams,
                    "checkpoints": report.checkpoints,
                    "leaves": report.leaves,
                    "uncovered": report.uncovered,
                    "seconds": round(report.seconds, 3),
                    "findings": report.findings,
                }
            ).decode()
        )
    else:
        for finding in report.findings:
            click.echo(str(finding))
        click.echo(
            f"verified {report.events} events in {report.streams} streams and "
            f"{report.checkpoints} checkpoints ({report.leaves} leaves) in "
            f"{report.seconds:.2f}s ({report.events_per_second:,.0f} events/s); "
            + (
                f"{report.uncovered} event(s) after the last checkpoint; "
                if report.checkpoints
                else f"no signed checkpoint: all {report.uncovered} event(s) unsigned; "
            )
            + f"{len(report.findings)} finding(s)"
        )
    if report.findings:
        sys.exit(1)
