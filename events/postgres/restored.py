"""A database restored onto another server: its transaction ids brought below the server's.

Readers of the whole store order events by the id of the transaction that wrote them and
read only below the oldest running one (``events.postgres.store``), and checkpoints and
projection positions record those ids. They are the server's own counter, which
``pg_dump`` does not carry: restored onto a server whose counter is behind the dump's ids
(a new cluster, a lab's server), every restored event sits "in the future" — invisible to
the feed, the projections and the checkpoint signer until the counter passes it — and every
new event would sort before it, behind the readers' cursors, and be skipped for good.

Rewriting the ids would break the signed checkpoints (their digests cover them), so the
server's counter is moved on instead: each subtransaction that writes takes one id, and a
million take about four seconds. Beyond :data:`MOST_TO_ADVANCE` (a dump of a server that
has used billions) the way is ``pg_resetwal --epoch`` on the stopped new cluster, before
the restore: docs/deploy.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from russian_poker.events.postgres.store import AnyConnection

__all__ = ["MOST_TO_ADVANCE", "RestoredAhead", "catch_up_transaction_ids"]

MOST_TO_ADVANCE: Final = 20_000_000
"""More than this many ids to take is left to ``pg_resetwal``: taking them here would hold
the start-up for over a minute (a dump of a young database, a lab's test data, is well
under; a production server uses millions a day)."""

_BATCH: Final = 1_000_000

# How far the recorded ids are ahead of the next id this server will hand out (>= 0: some
# recorded id has not been handed out here yet). Events, projection positions and
# checkpoints all hold ids; the greatest counts.
_AHEAD: Final = """
SELECT greatest(
    (SELECT max(tx_id) FROM events),
    (SELECT max(tx_id) FROM projection_checkpoints),
    (SELECT max(upto_tx_id) FROM chain_checkpoints)
)::text::numeric - pg_snapshot_xmax(pg_current_snapshot())::text::numeric
"""

# One id per subtransaction that writes; the rollback of each keeps its id taken.
_TAKE: Final = """
DO $$
BEGIN
    CREATE TEMP TABLE IF NOT EXISTS taken_ids (n int) ON COMMIT DROP;
    FOR i IN 1..{count} LOOP
        BEGIN
            INSERT INTO taken_ids VALUES (i);
            RAISE EXCEPTION USING ERRCODE = 'P0001';
        EXCEPTION WHEN raise_exception THEN NULL;
        END;
    END LOOP;
END $$
"""


class RestoredAhead(RuntimeError):
    """The recorded ids are further ahead than this server's counter can be moved here."""


async def catch_up_transaction_ids(conn: AnyConnection) -> int:
    """Move this server's transaction counter past every id the database records; return
    how many ids were taken (0 on a database that was not restored from elsewhere)."""
    ahead = await conn.fetchval(_AHEAD)
    if ahead is None or ahead < 0:
        return 0
    if ahead >= MOST_TO_ADVANCE:
        raise RestoredAhead(
            f"this database records transaction ids {int(ahead):,} ahead of this server's:"
            " it was restored from another server. Restore it again onto a cluster whose"
            " counter was first moved on with `pg_resetwal --epoch` (docs/deploy.md,"
            " 'Restoring a dump onto another server')"
        )
    taken = 0
    while ahead is not None and ahead >= 0:
        count = int(min(ahead + 1, _BATCH))
        async with conn.transaction():
            await conn.execute(_TAKE.format(count=count))
        taken += count
        ahead = await conn.fetchval(_AHEAD)
    return taken
