"""``russian-poker audit …``: the commands a regulator's auditor runs against the books, and
what they share (the store connection, their time options).

Each subcommand lives in the module of its concept and registers itself on :data:`audit`;
``service.cli`` imports those modules so the group is complete.
"""

from __future__ import annotations

from datetime import UTC, datetime

import click

__all__ = ["audit", "iso_time"]


@click.group("audit")
def audit() -> None:
    """Integrity and certification: the event chain, software digests, exports."""


def iso_time(value: str | None) -> datetime | None:
    """An option's time: ISO 8601, and a time without a zone is UTC."""
    if value is None:
        return None
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        raise click.BadParameter(f"{value!r} is not an ISO 8601 time") from None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)
