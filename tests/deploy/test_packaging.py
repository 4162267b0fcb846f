"""One import namespace: the distribution installs ``russian_poker`` and nothing else at the
top level, and every package of the three folders is in it."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

from tests.deploy.facts import ROOT

FOLDERS = ("service", "events", "projections")


def _configured() -> dict[str, object]:
    setuptools: dict[str, object] = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"][
        "setuptools"
    ]
    return setuptools


def test_every_package_of_the_folders_is_listed_under_the_namespace() -> None:
    setuptools = _configured()
    assert setuptools["package-dir"] == {f"russian_poker.{f}": f for f in FOLDERS}
    listed = set(setuptools["packages"])  # type: ignore[call-overload]
    on_disk = {
        "russian_poker." + ".".join(path.relative_to(ROOT).parts)
        for folder in FOLDERS
        for path in [ROOT / folder, *(ROOT / folder).rglob("*")]
        if path.is_dir()
        and "__pycache__" not in path.parts
        and (any(path.glob("*.py")) or any(p.is_file() for p in path.iterdir()))
    }
    assert on_disk == listed, (sorted(on_disk - listed), sorted(listed - on_disk))


def test_the_wheel_holds_one_top_level_package(tmp_path: Path) -> None:
    # Built from a copy: setuptools writes its build/ directory beside the sources.
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md", *FOLDERS):
        copy = shutil.copytree if (ROOT / name).is_dir() else shutil.copy
        copy(ROOT / name, source / name)  # type: ignore[operator]
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
         "-w", str(tmp_path), str(source)],
        check=True, capture_output=True, timeout=300,
    )  # fmt: skip
    (wheel,) = tmp_path.glob("*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    tops = {name.split("/")[0] for name in names if not name.split("/")[0].endswith(".dist-info")}
    assert tops == {"russian_poker"}, tops
    assert "russian_poker/events/migrations/0001_event_store.sql" in names
    assert "russian_poker/service/client/web/index.html" in names
