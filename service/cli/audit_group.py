"""``russian-poker audit …``: the commands a regulator's auditor runs against the books.

Each subcommand lives in the module of its concept and registers itself on :data:`audit`;
``service.cli`` imports those modules so the group is complete.
"""

from __future__ import annotations

import click

__all__ = ["audit"]


@click.group("audit")
def audit() -> None:
    """Integrity and certification: the event chain, software digests, exports."""
