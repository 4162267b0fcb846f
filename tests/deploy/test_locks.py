"""The lock files (deploy/requirements, written by its ``compile`` script) are not stale:
every requirement pyproject.toml lists is pinned in its lock within its range, nothing is
pinned that nothing in the lock requires, every pin has hashes, and a package shared by two
locks has the same pins in both. Offline: the files are read, nothing is resolved again.
``./dev`` installs from them, the Dockerfile from the runtime one."""

from __future__ import annotations

import re
import tomllib
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from russian_poker.service.cli import COMMANDS
from tests.deploy.facts import DOCKERFILE, ROOT

LOCKS = ROOT / "deploy" / "requirements"
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
SELF = canonicalize_name(PROJECT["name"])


@dataclass
class Pin:
    version: str
    marker: str
    hashes: int = 0
    via: list[str] = field(default_factory=list)


def pins(lock: Path) -> dict[str, list[Pin]]:
    """``name`` -> its pins (a universal lock may pin one name per Python version)."""
    found: dict[str, list[Pin]] = defaultdict(list)
    current: Pin | None = None
    in_via = False
    for line in lock.read_text().splitlines():
        pinned = re.match(r"^([A-Za-z0-9._-]+)==([^ ;\\]+)\s*(?:;\s*([^\\]+?))?\s*\\?$", line)
        if pinned:
            current = Pin(pinned[2], (pinned[3] or "").strip())
            found[canonicalize_name(pinned[1])].append(current)
            in_via = False
        elif current and "--hash=sha256:" in line:
            current.hashes += 1
        elif current and re.match(r"^\s+# via", line):
            in_via = True
            rest = line.split("# via", 1)[1].strip()
            if rest:
                current.via.append(rest)
        elif current and in_via and re.match(r"^\s+#\s+\S", line):
            current.via.append(line.split("#", 1)[1].strip())
    return found


def requirements(*extras: str) -> list[Requirement]:
    listed = [*PROJECT["dependencies"]]
    for extra in extras:
        listed += PROJECT["optional-dependencies"][extra]
    return [r for r in map(Requirement, listed) if canonicalize_name(r.name) != SELF]


LOCKED = {
    "runtime.txt": requirements(),
    "tools.txt": requirements("tools"),
    "dev.txt": requirements("tools", "dev"),
}


@pytest.mark.parametrize("name", sorted(LOCKED))
def test_every_requirement_is_pinned_within_its_range(name: str) -> None:
    locked = pins(LOCKS / name)
    for requirement in LOCKED[name]:
        found = locked.get(canonicalize_name(requirement.name))
        assert found, f"{requirement} is not in {name}: run deploy/requirements/compile"
        for pin in found:
            assert requirement.specifier.contains(pin.version, prereleases=True), (
                f"{name} pins {requirement.name}=={pin.version}, outside {requirement}:"
                " run deploy/requirements/compile"
            )


@pytest.mark.parametrize("name", sorted(LOCKED))
def test_nothing_is_pinned_that_nothing_requires(name: str) -> None:
    locked = pins(LOCKS / name)
    direct = {canonicalize_name(r.name) for r in LOCKED[name]}
    for package, found in locked.items():
        for pin in found:
            assert pin.hashes, f"{package} in {name} has no hash"
            # uv names who requires each pin: the project, or another pin of the same file
            # (``-c`` lines are the constraints shared versions come from, not a reason).
            reasons = {
                canonicalize_name(re.split(r"[ \[(]", why, maxsplit=1)[0])
                for why in pin.via
                if not why.startswith("-c ")
            }
            assert reasons, f"{package} in {name} is required by nothing"
            assert reasons <= {SELF, *locked}, (package, reasons - {SELF, *locked})
            if SELF in reasons:
                assert package in direct, f"{name}: pyproject no longer lists {package}"


def test_shared_packages_have_the_same_pins_everywhere() -> None:
    """``./dev serve``, ``./dev test`` and the image run the same versions of what they share."""
    every = {name: pins(LOCKS / name) for name in LOCKED}
    dev = every["dev.txt"]
    for name in ("runtime.txt", "tools.txt"):
        for package, found in every[name].items():
            # The versions agree; a marker may not (dev may need unconditionally what the
            # runtime needs on one platform only).
            assert {p.version for p in found} <= {p.version for p in dev[package]}, (
                name,
                package,
            )


def test_the_sets_nest_and_uv_is_pinned() -> None:
    runtime, tools, dev = (set(pins(LOCKS / n)) for n in ("runtime.txt", "tools.txt", "dev.txt"))
    assert runtime < tools < dev
    assert not {"numpy", "scipy", "matplotlib"} & runtime
    assert set(pins(LOCKS / "uv.txt")) == {"uv"}


def test_dev_installs_the_tools_extra_for_the_tools_commands() -> None:
    script = (ROOT / "dev").read_text()
    listed = re.search(r'^tools_commands="([^"]*)"', script, re.M)
    assert listed is not None
    assert sorted(listed[1].split()) == sorted(n for n, entry in COMMANDS.items() if entry.tools)
    for lock in ("uv.txt", "runtime.txt", "tools.txt", "dev.txt"):
        assert (LOCKS / lock).exists()


def test_the_image_installs_the_runtime_lock_only() -> None:
    dockerfile = DOCKERFILE.read_text()
    assert "--require-hashes -r deploy/requirements/runtime.txt" in dockerfile
    assert not re.search(r"(tools|dev)\.txt|\[tools\]|\[dev\]", dockerfile)
