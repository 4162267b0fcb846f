"""Software authentication: the SHA-256 of every installed code file and one digest over all.

**The file set.** Every regular file under the installed packages ``service``, ``events``
and ``projections`` — Python modules, the migrations (``events/migrations/*.sql``) and any
asset a package ships (a future ``service/static/``) — except bytecode caches: a path with a
``__pycache__`` component, or a name ending in ``.pyc``. One rule, so a new kind of file is
covered the day it is added, and nothing has to be listed by hand.

**Paths** are relative to the directory holding the packages (``site-packages`` in a wheel
install, the repository in a checkout), with ``/``
separators: ``events/migrations/0001_event_store.sql``.
Files are listed sorted by path (byte order of the UTF-8 path, which is ``LC_ALL=C sort``).

**The overall digest** is the SHA-256 of the ``sha256sum`` listing of those files in that
order, each line ``<hex digest><two spaces><path>\\n`` — exactly what coreutils prints, so an
auditor recomputes it without this code::

    cd "$(python -c 'import service, pathlib; print(pathlib.Path(service.__file__).parents[1])')"
    find service events projections -type f ! -path '*/__pycache__/*' ! -name '*.pyc' \\
        | LC_ALL=C sort | xargs sha256sum | sha256sum

A pure function of the roots it is given (:func:`manifest`), so a test can point it at a
modified copy of the tree; :func:`installed` is the running service's own.
"""

from __future__ import annotations

import hashlib
import subprocess
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Annotated, Final

import msgspec

__all__ = [
    "PACKAGES",
    "FileDigest",
    "SoftwareManifest",
    "code_files",
    "git_commit",
    "installed",
    "installed_base",
    "listing",
    "manifest",
    "package_version",
]

PACKAGES: Final = ("service", "events", "projections")
"""The packages the service is made of (pyproject's ``packages.find``)."""
DISTRIBUTION: Final = "russian-poker"


class FileDigest(msgspec.Struct, frozen=True, kw_only=True):
    """One installed file and its SHA-256."""

    path: Annotated[
        str,
        msgspec.Meta(
            description=(
                "The file's path relative to the directory holding the packages, `/`"
                " separated (`service/app/auth.py`, `events/migrations/0001_event_store.sql`)."
            )
        ),
    ]
    sha256: Annotated[str, msgspec.Meta(description="SHA-256 of the file's bytes, hex.")]


class SoftwareManifest(msgspec.Struct, frozen=True, kw_only=True):
    """The version and digests of the running software."""

    version: Annotated[
        str,
        msgspec.Meta(description="The installed package's version (`russian-poker`, PEP 440)."),
    ]
    git_commit: Annotated[
        str | None,
        msgspec.Meta(
            description=(
                "The git commit of the source tree the service runs from, if it runs from a"
                " git checkout; null for an installed wheel (which carries no git data). The"
                " digests, not this, authenticate the code."
            )
        ),
    ]
    digest: Annotated[
        str,
        msgspec.Meta(
            description=(
                "SHA-256 over the `sha256sum` listing of `files` in order (each line"
                " `<sha256>  <path>\\n`): `… | xargs sha256sum | sha256sum` reproduces it"
                " (docs/audit.md, Software authentication)."
            )
        ),
    ]
    files: Annotated[
        list[FileDigest],
        msgspec.Meta(
            description=(
                "Every file of the packages service, events and projections (code,"
                " migrations, shipped assets) except `__pycache__` and `*.pyc`, sorted by path."
            )
        ),
    ]
    computed_at: Annotated[
        datetime,
        msgspec.Meta(
            description=(
                "When the digests were computed (UTC): the service computes them once, at"
                " start-up, so they describe the code that was loaded."
            )
        ),
    ]


def _excluded(relative: Path) -> bool:
    return "__pycache__" in relative.parts or relative.name.endswith(".pyc")


def code_files(base: Path, packages: Sequence[str] = PACKAGES) -> list[str]:
    """The file set's paths under ``base`` (the directory holding the packages), sorted."""
    found: list[str] = []
    for package in packages:
        root = base / package
        for path in root.rglob("*"):
            relative = path.relative_to(base)
            if path.is_file() and not _excluded(relative):
                found.append(relative.as_posix())
    # Byte order of the UTF-8 path, the order `LC_ALL=C sort` gives the auditor.
    return sorted(found, key=lambda p: p.encode())


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 16), b""):
            digest.update(block)
    return digest.hexdigest()


def listing(files: Iterable[FileDigest]) -> str:
    """The ``sha256sum`` output for ``files``: ``<sha256>  <path>\\n`` per file."""
    return "".join(f"{f.sha256}  {f.path}\n" for f in files)


def manifest(
    base: Path,
    *,
    version: str,
    commit: str | None,
    packages: Sequence[str] = PACKAGES,
    now: datetime | None = None,
) -> SoftwareManifest:
    """The digests of the packages under ``base``: a pure function of the files there."""
    files = [FileDigest(path=p, sha256=_sha256(base / p)) for p in code_files(base, packages)]
    return SoftwareManifest(
        version=version,
        git_commit=commit,
        digest=hashlib.sha256(listing(files).encode()).hexdigest(),
        files=files,
        computed_at=now or datetime.now(UTC),
    )


def package_version() -> str:
    """The installed distribution's version; ``unknown`` if it is not installed at all."""
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return "unknown"


def git_commit(base: Path) -> str | None:
    """``HEAD`` of the git checkout ``base`` is, or None (a wheel install, or no git)."""
    if not (base / ".git").exists():
        return None
    try:
        done = subprocess.run(
            ["git", "-C", str(base), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    commit = done.stdout.strip()
    return commit if done.returncode == 0 and commit else None


def installed_base() -> Path:
    """The directory holding the running service's packages."""
    return Path(__file__).resolve().parents[1]


def installed() -> SoftwareManifest:
    """The running service's own manifest."""
    base = installed_base()
    return manifest(base, version=package_version(), commit=git_commit(base))
