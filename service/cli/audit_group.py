"""``russian-poker audit …``: the commands a regulator's auditor runs against the books, and
what they share (the store connection, their time options).

Each subcommand lives in the module of its concept and registers itself on :data:`audit`;
``service.cli`` imports those modules so the group is complete.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import TypeVar

import asyncpg
import click

from russian_poker.events.postgres.pool import connect
from russian_poker.service.database import database_url, migrated

__all__ = ["audit", "iso_time", "on_the_store"]

T = TypeVar("T")


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


def on_the_store(
    work: Callable[[asyncpg.Connection[asyncpg.Record]], Awaitable[T]],
    *,
    idle_in_transaction_s: int = 600,
    name: str = "russian-poker-audit",
) -> T:
    """Run ``work`` on one connection to ``DATABASE_URL`` (else the embedded server), after
    applying pending migrations.

    Audit work folds in Python between the statements of one long transaction, so it gets
    its own idle-in-transaction limit: the service's is too short for a large store."""

    async def main() -> T:
        url = database_url()
        await migrated(url)
        conn = await connect(
            url, idle_in_transaction_timeout=idle_in_transaction_s, application_name=name
        )
        try:
            return await work(conn)
        finally:
            await conn.close()

    return asyncio.run(main())
