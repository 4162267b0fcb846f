"""``russian-poker audit checkpoint`` and ``audit verify-chain`` as an auditor runs them."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

import asyncpg
from click.testing import CliRunner, Result
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from russian_poker.service.chain.keys import private_key_for, public_pem
from russian_poker.service.cli import main
from tests.chain.conftest import below_horizon, fill, verify

if TYPE_CHECKING:
    Pool: TypeAlias = asyncpg.Pool[asyncpg.Record]


async def _cli(database_url: str, key_file: Path, *args: str) -> Result:
    env = {"DATABASE_URL": database_url, "RUSSIAN_POKER_CHECKPOINT_KEY": str(key_file)}
    return await asyncio.to_thread(CliRunner(env=env).invoke, main, ["audit", *args])


async def test_checkpoint_then_verify_then_catch_a_change(
    pool: Pool, database_url: str, tmp_path: Path
) -> None:
    key_file = tmp_path / "checkpoint-key.pem"
    private_key_for(key_file, create=True)
    assert key_file.stat().st_mode & 0o777 == 0o600
    await fill(pool, ["a", "b"], 4)
    await below_horizon(pool)
    made = await _cli(database_url, key_file, "checkpoint")
    assert made.exit_code == 0, made.output
    assert made.output.startswith("checkpoint 1: 2 stream head(s)")
    assert "PRIVATE" not in made.output

    clean = await _cli(database_url, key_file, "verify-chain")
    assert clean.exit_code == 0, clean.output
    assert "verified 8 events in 2 streams and 1 checkpoints (2 leaves)" in clean.output
    assert clean.output.rstrip().endswith("0 finding(s)")

    await pool.execute(
        "UPDATE events SET data = '{\"n\": 7}' WHERE stream_id = 'a' AND stream_version = 2"
    )
    caught = await _cli(database_url, key_file, "verify-chain")
    assert caught.exit_code == 1
    assert caught.output.startswith("changed: stream a version 2 (event ")

    as_json = json.loads((await _cli(database_url, key_file, "verify-chain", "--json")).output)
    assert as_json["ok"] is False
    assert as_json["findings"][0]["kind"] == "changed"
    assert as_json["findings"][0]["stream_version"] == 2


async def test_only_the_given_public_key_is_trusted(
    pool: Pool, database_url: str, tmp_path: Path
) -> None:
    key_file = tmp_path / "checkpoint-key.pem"
    private_key_for(key_file, create=True)
    await fill(pool, ["a"], 2)
    await below_horizon(pool)
    assert (await _cli(database_url, key_file, "checkpoint")).exit_code == 0
    other = tmp_path / "other.pem"
    other.write_text(public_pem(Ed25519PrivateKey.generate().public_key()))
    refused = await _cli(database_url, key_file, "verify-chain", "--public-key", str(other))
    assert refused.exit_code == 1
    assert refused.output.startswith("forged: checkpoint 1: signed by key ")
    own = tmp_path / "own.pem"
    key = private_key_for(key_file, create=False)
    own.write_bytes(
        key.public_key().public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
        )
    )
    accepted = await _cli(database_url, key_file, "verify-chain", "--public-key", str(own))
    assert accepted.exit_code == 0, accepted.output


async def test_a_window_still_checks_its_first_link(
    pool: Pool, database_url: str, tmp_path: Path
) -> None:
    key = Ed25519PrivateKey.generate()
    await fill(pool, ["a"], 6)
    # Spread the events over six days (re-hashed by the insider's own hand: a clean store).
    for version in range(1, 7):
        await pool.execute(
            """
            UPDATE events AS e SET
                recorded_at = timestamptz '2030-01-01' + make_interval(days => $1),
                prev_hash = coalesce(p.hash, e.prev_hash)
            FROM (SELECT 1) AS one LEFT JOIN events AS p
                ON p.stream_id = 'a' AND p.stream_version = $1 - 1
            WHERE e.stream_id = 'a' AND e.stream_version = $1
            """,
            version,
        )
        await pool.execute(
            "UPDATE events SET hash = event_chain_hash(prev_hash, stream_id, stream_version, "
            "event_id, event_type, schema_version, data, metadata, recorded_at) "
            "WHERE stream_id = 'a' AND stream_version = $1",
            version,
        )
    start = await pool.fetchval("SELECT recorded_at FROM events WHERE stream_version = 4")
    window = {"start": start, "end": start + timedelta(days=2)}
    report = await verify(pool, key, **window)
    assert report.findings == [] and report.events == 2
    await pool.execute(
        "UPDATE events SET data = '{\"n\": 9}' WHERE stream_id = 'a' AND stream_version = 3"
    )
    # Version 3 is outside the window, but its hash (stored) still matches version 4's link.
    assert (await verify(pool, key, **window)).findings == []
    await pool.execute("DELETE FROM events WHERE stream_id = 'a' AND stream_version = 3")
    report = await verify(pool, key, **window)
    assert [(f.kind, f.stream_version) for f in report.findings] == [("deleted", 3)]


async def _rechain(pool: Pool, stream: str, first: int) -> None:
    """Link and hash ``stream`` again from version ``first`` on, as an insider can."""
    last = await pool.fetchval(
        "SELECT max(stream_version) FROM events WHERE stream_id = $1", stream
    )
    for version in range(first, last + 1):
        await pool.execute(
            """
            UPDATE events AS e SET prev_hash = p.hash FROM events AS p
            WHERE p.stream_id = $1 AND p.stream_version = $2 - 1
              AND e.stream_id = $1 AND e.stream_version = $2
            """,
            stream,
            version,
        )
        await pool.execute(
            "UPDATE events SET hash = event_chain_hash(prev_hash, stream_id, stream_version, "
            "event_id, event_type, schema_version, data, metadata, recorded_at) "
            "WHERE stream_id = $1 AND stream_version = $2",
            stream,
            version,
        )


async def test_verifying_never_creates_a_key(database_url: str, tmp_path: Path) -> None:
    # A key made just to check with would trust nothing ever signed: refuse, and say why.
    missing = tmp_path / "no-such-key.pem"
    refused = await _cli(database_url, missing, "verify-chain")
    assert refused.exit_code == 1
    assert "cannot read the checkpoint key" in refused.output
    assert "--public-key PEM" in refused.output  # the way to verify without it
    assert not missing.exists()


async def test_checkpoints_an_insider_deletes_or_replaces_are_missed_by_the_auditor(
    pool: Pool, database_url: str, tmp_path: Path
) -> None:
    key_file = tmp_path / "checkpoint-key.pem"
    private_key_for(key_file, create=True)
    await fill(pool, ["a", "b"], 4)
    await below_horizon(pool)
    assert (await _cli(database_url, key_file, "checkpoint")).exit_code == 0
    digest = (await pool.fetchval("SELECT digest FROM chain_checkpoints WHERE seq = 1")).hex()
    kept = ("--trusted-checkpoint", f"1:{digest}")
    assert (await _cli(database_url, key_file, "verify-chain", *kept)).exit_code == 0

    # An insider edits an event and re-chains its stream with the published hashing: the
    # links hold, and only the signed checkpoint shows it...
    await pool.execute(
        "UPDATE events SET data = '{\"n\": 99}' WHERE stream_id = 'a' AND stream_version = 2"
    )
    await _rechain(pool, "a", 2)
    caught = await _cli(database_url, key_file, "verify-chain")
    assert caught.exit_code == 1 and "checkpoint 1" in caught.output, caught.output
    # ... so the insider deletes every checkpoint too: the chain alone then verifies, and
    # says that nothing is signed any more; the auditor's kept checkpoint says it went.
    await pool.execute("DELETE FROM chain_checkpoint_leaves")
    await pool.execute("DELETE FROM chain_checkpoints")
    alone = await _cli(database_url, key_file, "verify-chain")
    assert alone.exit_code == 0, alone.output
    assert "no signed checkpoint: all 8 event(s) unsigned" in alone.output
    gone = await _cli(database_url, key_file, "verify-chain", *kept)
    assert gone.exit_code == 1
    assert gone.output.startswith("deleted: checkpoint 1: the auditor kept it"), gone.output

    # ... and, holding the key, signs a new first checkpoint: not the one the auditor kept.
    await fill(pool, ["c"], 2)
    await below_horizon(pool)
    assert (await _cli(database_url, key_file, "checkpoint")).exit_code == 0
    replaced = await _cli(database_url, key_file, "verify-chain", *kept)
    assert replaced.exit_code == 1
    assert replaced.output.startswith("rewritten: checkpoint 1: its digest is"), replaced.output

    bad = await _cli(database_url, key_file, "verify-chain", "--trusted-checkpoint", "1:xyz")
    assert bad.exit_code == 2 and "SEQ:DIGEST" in bad.output
