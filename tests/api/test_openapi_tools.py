"""The OpenAPI documents pass the ecosystem's own tools, at the versions
``.ci/openapi-tools`` pins: the linters Redocly CLI (its recommended rules) and Spectral
(``spectral:oas``), and openapi-typescript, whose types a frontend's code compiles against
with ``tsc --strict``.

The tools are installed from that lock file with ``npm ci`` the first time (npm is needed;
the registry must be reachable); a missing npm fails the test, it never skips it.
"""

from __future__ import annotations

import fcntl
import json
import shutil
import subprocess
from pathlib import Path
from typing import Final

import pytest

ROOT: Final = Path(__file__).resolve().parents[2]
TOOLS: Final = ROOT / ".ci" / "openapi-tools"
BIN: Final = TOOLS / "node_modules" / ".bin"
DOCUMENTS: Final = ("openapi/openapi.json", "openapi/wallet.json")
KEPT_WARNINGS: Final = {
    ("operation-4xx-response", "#/paths/~1health~1live/get/responses"),
    ("operation-4xx-response", "#/paths/~1health~1ready/get/responses"),
}
"""Warnings docs/api-guide.md justifies: the probes take no input, so no 4xx is possible."""


@pytest.fixture(scope="module")
def tools() -> Path:
    npm = shutil.which("npm")
    if npm is None:
        pytest.fail("npm is needed to install the OpenAPI linters (.ci/openapi-tools)")
    # xdist workers may get here together: one installs, the others wait for it.
    with (TOOLS / ".install.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not all(
            (BIN / tool).exists() for tool in ("redocly", "spectral", "openapi-typescript", "tsc")
        ):
            subprocess.run(
                [npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"],
                cwd=TOOLS,
                check=True,
                timeout=600,
            )
    return BIN


def test_redocly_recommended_finds_nothing_unjustified(tools: Path) -> None:
    found: set[tuple[str, str, str]] = set()
    for document in DOCUMENTS:
        run = subprocess.run(
            [str(tools / "redocly"), "lint", "--extends=recommended", "--format=json", document],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        report = json.loads(run.stdout[run.stdout.index("{") :])
        found |= {
            (problem["ruleId"], problem["location"][0]["pointer"], problem["severity"])
            for problem in report["problems"]
        }
    assert {(rule, where) for rule, where, _ in found} == KEPT_WARNINGS, found
    assert {severity for _, _, severity in found} == {"warn"}


def test_spectral_oas_finds_nothing(tools: Path) -> None:
    run = subprocess.run(
        [
            str(tools / "spectral"),
            "lint",
            "--ruleset",
            str(TOOLS / ".spectral.yaml"),
            "--fail-severity=hint",
            *DOCUMENTS,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "No results" in run.stdout


def test_a_frontend_compiles_against_the_generated_types(tools: Path, tmp_path: Path) -> None:
    generated = subprocess.run(
        [
            str(tools / "openapi-typescript"),
            str(ROOT / "openapi" / "openapi.json"),
            # A property with a default is optional to send (it is not in `required`).
            "--default-non-nullable=false",
            "--output",
            str(tmp_path / "api.d.ts"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert generated.returncode == 0, generated.stdout + generated.stderr
    assert "warn" not in (generated.stdout + generated.stderr).lower(), generated.stderr
    usage = tmp_path / "usage.ts"
    usage.write_text((ROOT / "tests" / "api" / "typescript" / "usage.ts").read_text())
    compiled = subprocess.run(
        [str(tools / "tsc"), "--strict", "--noEmit", "--target", "es2022", str(usage)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    # The usage also marks what must not compile (@ts-expect-error): types that lost their
    # precision would fail here with "Unused '@ts-expect-error' directive".
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
