"""``russian-poker audit bundle`` and ``audit verify-bundle`` as a lab runs them: the bundle
written from the store with its checkpoints, then checked with only the auditor's copy of
the public key (never the one shipped inside); a checkpoint leaf tampered with is caught."""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path

import asyncpg
from click.testing import CliRunner, Result

from russian_poker.service.bootstrap import command_service, transfer_service
from russian_poker.service.chain.keys import private_key_for, public_pem
from russian_poker.service.cli import main
from tests.audit import independent_verifier
from tests.audit.bots import default_plans, fund_players, play_tables
from tests.audit.tampering import resign_bundle
from tests.chain.conftest import below_horizon


async def _cli(database_url: str, key_file: Path, *args: str) -> Result:
    env = {"DATABASE_URL": database_url, "RUSSIAN_POKER_CHECKPOINT_KEY": str(key_file)}
    return await asyncio.to_thread(CliRunner(env=env).invoke, main, ["audit", *args])


async def test_bundle_then_verify_with_the_auditors_key(
    db: asyncpg.Pool[asyncpg.Record], database_url: str, tmp_path: Path
) -> None:
    plans = default_plans(2)
    await fund_players(transfer_service(db), plans)
    rounds, _ = await play_tables(command_service(db), db, plans, 3)
    key_file = tmp_path / "checkpoint-key.pem"
    key = private_key_for(key_file, create=True)
    await below_horizon(db)
    assert (await _cli(database_url, key_file, "checkpoint")).exit_code == 0

    out = tmp_path / "bundle"
    made = await _cli(database_url, key_file, "bundle", "--out", str(out))
    assert made.exit_code == 0, made.output
    assert f"{rounds} round(s) at 2 table(s)" in made.output and "1 checkpoint(s)" in made.output
    later = tmp_path / "later"
    empty = await _cli(
        database_url, key_file, "bundle", "--from", "2999-01-01", "--out", str(later)
    )
    assert empty.exit_code == 0 and "0 round(s) at 0 table(s)" in empty.output, empty.output
    again = await _cli(database_url, key_file, "bundle", "--out", str(out))
    assert again.exit_code == 1 and "already holds a bundle" in again.output

    auditors = tmp_path / "auditors-copy.pem"
    auditors.write_text(public_pem(key.public_key()))
    # The lab: no database, no data directory, only the bundle and its own copy of the key.
    checked = await asyncio.to_thread(
        CliRunner(env={"DATABASE_URL": "postgresql://nowhere.invalid/none"}).invoke,
        main,
        ["audit", "verify-bundle", str(out), "--public-key", str(auditors)],
    )
    assert checked.exit_code == 0, checked.output
    assert f"1 checkpoint(s), 2 ruleset(s), {rounds} round(s)" in checked.output
    assert checked.output.rstrip().endswith("0 finding(s)")
    # A lab's own verifier, written from docs/audit-bundle.md alone, agrees.
    assert independent_verifier.verify(out, key.public_key()) == []

    # A leaf of the signed checkpoint changed (and the manifest re-signed by the key holder):
    # the checkpoint no longer gives its signed root.
    tampered = tmp_path / "tampered"
    shutil.copytree(out, tampered)
    line = json.loads((tampered / "checkpoints.jsonl").read_bytes())
    line["leaves"][0]["hash"] = "00" * 32
    (tampered / "checkpoints.jsonl").write_text(json.dumps(line) + "\n")
    resign_bundle(tampered, key)
    caught = await _cli(
        database_url, key_file, "verify-bundle", str(tampered), "--public-key", str(auditors)
    )
    assert caught.exit_code == 1
    last = caught.output.rstrip().splitlines()[-1]
    assert last == "checkpoints.jsonl line 1: checkpoint 1's leaves do not give its root", last
    found = independent_verifier.verify(tampered, key.public_key())
    assert found[:2] == ["checkpoints line 1: root or digest", "checkpoints line 1: signature"]

    # The key holder drops the checkpoints and signs the manifest again: the bundle alone
    # still verifies, and says every event is unsigned; the checkpoint the auditor kept
    # (from the API, or an operator's notification) says it went.
    digest = json.loads((out / "checkpoints.jsonl").read_bytes())["digest"]
    kept = ("--trusted-checkpoint", f"1:{digest}")
    held = await _cli(
        database_url, key_file, "verify-bundle", str(out), "--public-key", str(auditors), *kept
    )
    assert held.exit_code == 0, held.output
    assert " 0 event(s) after the last checkpoint (unsigned)" in held.output
    dropped = tmp_path / "dropped"
    shutil.copytree(out, dropped)
    (dropped / "checkpoints.jsonl").write_bytes(b"")
    resign_bundle(dropped, key)
    alone = await _cli(
        database_url, key_file, "verify-bundle", str(dropped), "--public-key", str(auditors)
    )
    assert alone.exit_code == 0, alone.output
    assert (
        "0 checkpoint(s)" in alone.output and "event(s) after the last checkpoint" in alone.output
    )
    assert " 0 event(s) after" not in alone.output
    gone = await _cli(
        database_url,
        key_file,
        "verify-bundle",
        str(dropped),
        "--public-key",
        str(auditors),
        *kept,
    )
    assert gone.exit_code == 1
    assert gone.output.rstrip().endswith(
        "checkpoints.jsonl: checkpoint 1, which the auditor kept, is not in the bundle"
    ), gone.output
