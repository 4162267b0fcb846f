"""The serving process is the server alone: it imports none of the tools extra (numpy,
scipy, matplotlib) and starts no worker process, even while its RTP report and gauges give
a custom ruleset's figures (the main one null until ``rtp-theory`` stores it)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.deploy.facts import ROOT


def test_serving_imports_no_tool_and_spawns_no_worker(database_url: str, tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "tests.service.serving_probe", database_url, str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-4000:]
    found = json.loads(result.stdout.strip().splitlines()[-1])
    assert found["imported"] == []
    assert found["children"] == []
    assert found["main"] is None
    assert found["bonus"] == f"{355_367 / 649_740:.6f}"
