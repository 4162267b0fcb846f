"""Software authentication: every code file's SHA-256 and one digest over all, as the API
serves it, as the CLI prints it, and as coreutils' ``sha256sum`` recomputes it."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
from pathlib import Path

import httpx
import msgspec
from click.testing import CliRunner

from russian_poker.service.cli import main
from russian_poker.service.software import (
    PACKAGES,
    code_files,
    installed,
    installed_base,
    listing,
    manifest,
)
from tests.api.conftest import api, bearer

__all__ = ["api"]

AUDITOR = bearer("auditor", "aud")


def _copy(tmp_path: Path) -> Path:
    base = tmp_path / "site"
    for package in PACKAGES:
        shutil.copytree(installed_base() / package, base / package)
    return base


def test_the_file_set_is_every_package_file_but_bytecode(tmp_path: Path) -> None:
    base = _copy(tmp_path)
    (base / "service" / "__pycache__").mkdir(exist_ok=True)
    (base / "service" / "__pycache__" / "x.cpython-311.pyc").write_bytes(b"\0")
    (base / "events" / "stray.pyc").write_bytes(b"\0")
    (base / "service" / "static").mkdir()
    (base / "service" / "static" / "app.js").write_text("// an asset\n")
    files = code_files(base)
    assert "service/static/app.js" in files
    assert "events/migrations/0001_event_store.sql" in files
    assert "service/app/auth.py" in files
    assert not [f for f in files if "__pycache__" in f or f.endswith(".pyc")]
    assert files == sorted(files, key=lambda f: f.encode())


def test_changing_a_file_changes_its_digest_and_the_overall_one(tmp_path: Path) -> None:
    base = _copy(tmp_path)
    before = manifest(base, version="1", commit=None)
    target = base / "service" / "rules" / "payouts.py"
    target.write_bytes(target.read_bytes() + b"# one extra unit\n")
    after = manifest(base, version="1", commit=None)
    changed = [
        b.path
        for b, a in zip(before.files, after.files, strict=True)
        if (b.path, b.sha256) != (a.path, a.sha256)
    ]
    assert changed == ["service/rules/payouts.py"]
    assert after.digest != before.digest
    # A migration added (or removed) is seen too.
    (base / "events" / "migrations" / "9999_sneaky.sql").write_text("DROP TABLE rounds;\n")
    added = manifest(base, version="1", commit=None)
    assert {f.path for f in added.files} - {f.path for f in after.files} == {
        "events/migrations/9999_sneaky.sql"
    }
    assert added.digest != after.digest


def test_sha256sum_recomputes_every_digest_and_the_overall_one(tmp_path: Path) -> None:
    base = _copy(tmp_path)
    found = manifest(base, version="1", commit=None)
    paths = [f.path for f in found.files]
    listed = subprocess.run(
        ["sha256sum", "--", *paths], cwd=base, capture_output=True, text=True, check=True
    ).stdout
    assert listed == listing(found.files)
    assert hashlib.sha256(listed.encode()).hexdigest() == found.digest
    # The documented pipeline, verbatim (docs/audit.md).
    pipeline = (
        "find service events projections -type f ! -path '*/__pycache__/*' ! -name '*.pyc'"
        " | LC_ALL=C sort | xargs sha256sum | sha256sum"
    )
    shell = subprocess.run(
        ["sh", "-c", pipeline], cwd=base, capture_output=True, text=True, check=True
    ).stdout
    assert shell.split()[0] == found.digest


def test_the_cli_prints_the_manifest() -> None:
    result = CliRunner().invoke(main, ["audit", "software", "--json"])
    assert result.exit_code == 0, result.output
    printed = msgspec.json.decode(result.output)
    found = installed()
    assert printed["digest"] == found.digest
    assert printed["version"] == found.version
    text = CliRunner().invoke(main, ["audit", "software"])
    assert f"# digest {found.digest}" in text.output
    assert listing(found.files) in text.output


async def test_the_api_and_the_cli_agree_and_the_digest_is_computed_at_start_up(
    api: httpx.AsyncClient,
) -> None:
    first = await api.get("/v1/audit/software", headers=AUDITOR)
    assert first.status_code == 200, first.text
    served = first.json()
    result = CliRunner().invoke(main, ["audit", "software", "--json"])
    printed = msgspec.json.decode(result.output)
    for key in ("version", "git_commit", "digest", "files"):
        assert served[key] == printed[key], key
    # Computed once when the app started, not per request.
    started = api.app.state.services.software  # type: ignore[attr-defined]
    again = (await api.get("/v1/audit/software", headers=bearer("admin", "root"))).json()
    assert served["computed_at"] == again["computed_at"]
    assert msgspec.json.decode(msgspec.json.encode(started))["computed_at"] == served["computed_at"]
    for role in ("player", "operator"):
        refused = await api.get("/v1/audit/software", headers=bearer(role, "x"))
        assert refused.status_code == 403
