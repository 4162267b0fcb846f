"""Static files served from a package directory, and nothing else.

Litestar's static router resolves whatever path it is given on the file system: a path with
a NUL byte made the operating system refuse it (a 500), and a miss answered 404 with the
absolute path it looked for. Here the router serves only the files its directory held at
start (listed once), and refuses anything else with one plain 404 before the file system
is asked.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from litestar import Request
from litestar.datastructures import CacheControlHeader
from litestar.exceptions import NotFoundException
from litestar.router import Router
from litestar.static_files import create_static_files_router
from litestar.types import AfterRequestHookHandler

from russian_poker.service.app.policy import access

__all__ = ["static_router"]


def static_router(
    path: str,
    directory: Path,
    *,
    name: str,
    cache_control: CacheControlHeader,
    after_request: AfterRequestHookHandler | None = None,
) -> Router:
    """``directory``'s files under ``path``, public (no token), as they were at start."""
    files = frozenset(
        p.relative_to(directory).as_posix() for p in directory.rglob("*") if p.is_file()
    )

    async def known_files_only(request: Request[Any, Any, Any]) -> None:
        if str(request.path_params.get("file_path", "")).lstrip("/") not in files:
            raise NotFoundException("no such file")

    return create_static_files_router(
        path=path,
        directories=[directory],
        include_in_schema=False,
        cache_control=cache_control,
        name=name,
        before_request=known_files_only,
        after_request=after_request,
        opt=access(),
    )
